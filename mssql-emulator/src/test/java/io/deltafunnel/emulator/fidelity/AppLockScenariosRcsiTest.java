package io.deltafunnel.emulator.fidelity;

import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link AppLockScenarios} against an emulator started with READ_COMMITTED_SNAPSHOT ON. */
class AppLockScenariosRcsiTest extends AppLockScenariosTest {
    @RegisterExtension
    static final EmulatorServer RCSI = new EmulatorServer(b -> b.readCommittedSnapshot(true));

    @Override
    protected ServerUnderTest server() {
        return RCSI;
    }

    @Override
    protected boolean readCommittedSnapshot() {
        return true;
    }
}
