package io.deltafunnel.emulator.fidelity;

import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ShardProtocolScenarios} (and {@link ShardProtocolTest}'s own) against an emulator started with READ_COMMITTED_SNAPSHOT ON. */
class ShardProtocolRcsiTest extends ShardProtocolTest {
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
