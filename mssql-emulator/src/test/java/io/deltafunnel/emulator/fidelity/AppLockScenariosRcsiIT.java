package io.deltafunnel.emulator.fidelity;

import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * {@link AppLockScenarios} against SQL Server in a database with READ_COMMITTED_SNAPSHOT ON
 * ({@link SqlServerContainer#readCommittedSnapshotDatabase()}).
 */
@Testcontainers(disabledWithoutDocker = true)
class AppLockScenariosRcsiIT extends AppLockScenariosIT {
    @Override
    protected ServerUnderTest server() {
        return SqlServerContainer.readCommittedSnapshotDatabase();
    }

    @Override
    protected boolean readCommittedSnapshot() {
        return true;
    }
}
