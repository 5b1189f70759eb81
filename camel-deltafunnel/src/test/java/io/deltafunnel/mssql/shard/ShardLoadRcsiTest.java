package io.deltafunnel.mssql.shard;

import io.deltafunnel.emulator.fidelity.NamedDatabase;
import io.deltafunnel.emulator.fidelity.ReadCommittedSnapshotMode;
import io.deltafunnel.emulator.fidelity.ServerUnderTest;
import io.deltafunnel.emulator.fidelity.SqlServerContainer;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link ShardLoadTest} (the sharded-load scenarios and the fault-injected shard failures, both encoders) with the
 * emulator's database switched to READ_COMMITTED_SNAPSHOT ON (Azure SQL Database's default) by ALTER DATABASE before
 * the first test: the protocol's results must be the same in both modes.
 */
class ShardLoadRcsiTest extends ShardLoadTest {

    @BeforeAll
    static void readCommittedSnapshotOn() throws Exception {
        ReadCommittedSnapshotMode.switchOn(SERVER);
    }

    @Override
    protected ServerUnderTest server() {
        return new NamedDatabase(SERVER, SqlServerContainer.RCSI_DATABASE);
    }
}
