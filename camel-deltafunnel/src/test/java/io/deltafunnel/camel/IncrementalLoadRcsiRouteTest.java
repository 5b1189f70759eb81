package io.deltafunnel.camel;

import io.deltafunnel.emulator.fidelity.ReadCommittedSnapshotMode;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link IncrementalLoadRouteTest} (incremental runs, their state rows and the faults around the state write) with
 * the emulator's database switched to READ_COMMITTED_SNAPSHOT ON by ALTER DATABASE before the first test.
 */
class IncrementalLoadRcsiRouteTest extends IncrementalLoadRouteTest {

    @BeforeAll
    static void readCommittedSnapshotOn() throws Exception {
        ReadCommittedSnapshotMode.switchOn(SERVER);
    }
}
