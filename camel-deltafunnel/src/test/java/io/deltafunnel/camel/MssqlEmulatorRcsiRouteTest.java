package io.deltafunnel.camel;

import io.deltafunnel.emulator.fidelity.NamedDatabase;
import io.deltafunnel.emulator.fidelity.ReadCommittedSnapshotMode;
import io.deltafunnel.emulator.fidelity.ServerUnderTest;
import io.deltafunnel.emulator.fidelity.SqlServerContainer;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link MssqlEmulatorRouteTest} (the end-to-end scenarios, among them concurrent runs of one incremental state, and
 * the emulator's faults) with the database switched to READ_COMMITTED_SNAPSHOT ON by ALTER DATABASE first.
 */
class MssqlEmulatorRcsiRouteTest extends MssqlEmulatorRouteTest {

    @BeforeAll
    static void readCommittedSnapshotOn() throws Exception {
        ReadCommittedSnapshotMode.switchOn(SERVER);
    }

    @Override
    protected ServerUnderTest server() {
        return new NamedDatabase(SERVER, SqlServerContainer.RCSI_DATABASE);
    }
}
