package io.deltafunnel.emulator.fidelity;

import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ReadCommittedSnapshotScenarios} against an emulator started with READ_COMMITTED_SNAPSHOT ON. */
class ReadCommittedSnapshotTest extends ReadCommittedSnapshotScenarios {
    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(b -> b.readCommittedSnapshot(true));
    private static final ServerUnderTest DATABASE = new NamedDatabase(SERVER, SqlServerContainer.RCSI_DATABASE);

    @Override
    protected ServerUnderTest server() {
        return DATABASE;
    }
}
