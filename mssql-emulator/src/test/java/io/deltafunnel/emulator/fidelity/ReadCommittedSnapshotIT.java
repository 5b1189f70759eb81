package io.deltafunnel.emulator.fidelity;

import org.testcontainers.junit.jupiter.Testcontainers;

/** {@link ReadCommittedSnapshotScenarios} against SQL Server, in a database switched on with ALTER DATABASE. */
@Testcontainers(disabledWithoutDocker = true)
class ReadCommittedSnapshotIT extends ReadCommittedSnapshotScenarios {
    @Override
    protected ServerUnderTest server() {
        return SqlServerContainer.readCommittedSnapshotDatabase();
    }
}
