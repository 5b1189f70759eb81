package io.deltafunnel.camel;

import io.deltafunnel.emulator.fidelity.ServerUnderTest;
import io.deltafunnel.emulator.fidelity.SqlServerContainer;
import org.testcontainers.junit.jupiter.Testcontainers;

/** The end-to-end scenarios against SQL Server in a database with READ_COMMITTED_SNAPSHOT ON; skipped without Docker. */
@Testcontainers(disabledWithoutDocker = true)
class MssqlServerRcsiRouteIT extends MssqlServerRouteIT {

    @Override
    protected ServerUnderTest server() {
        return SqlServerContainer.readCommittedSnapshotDatabase();
    }
}
