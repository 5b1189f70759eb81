package io.deltafunnel.mssql.shard;

import io.deltafunnel.emulator.fidelity.ServerUnderTest;
import io.deltafunnel.emulator.fidelity.SqlServerContainer;
import org.testcontainers.junit.jupiter.Testcontainers;

/** The sharded-load scenarios against SQL Server in a database with READ_COMMITTED_SNAPSHOT ON; skipped without Docker. */
@Testcontainers(disabledWithoutDocker = true)
class ShardLoadRcsiIT extends ShardLoadIT {

    @Override
    protected ServerUnderTest server() {
        return SqlServerContainer.readCommittedSnapshotDatabase();
    }
}
