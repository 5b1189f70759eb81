package io.deltafunnel.mssql.shard;

import io.deltafunnel.emulator.fidelity.ServerUnderTest;
import io.deltafunnel.emulator.fidelity.SqlServerContainer;
import org.testcontainers.junit.jupiter.Testcontainers;

/** The sharded-load scenarios against a real SQL Server in Docker; skipped (not failed) where Docker is missing. */
@Testcontainers(disabledWithoutDocker = true)
class ShardLoadIT extends ShardLoadScenarios {

    @Override
    protected ServerUnderTest server() {
        return SqlServerContainer.shared();
    }
}
