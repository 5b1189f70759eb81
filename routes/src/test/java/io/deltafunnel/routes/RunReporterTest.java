package io.deltafunnel.routes;

import java.sql.SQLException;

import io.deltafunnel.handoff.DownstreamException;
import io.deltafunnel.handoff.HandoffException;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.handoff.QuerySetupException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How a failed run is described in its one summary line, and which failures end a one-shot job at once. */
class RunReporterTest {

    @Test
    void aQuerySetupFailureIsOneLineWithoutEmptyStatistics() {
        QuerySetupException e = new QuerySetupException("deltafunnel:source: the query could not start",
                new SQLException("Catalog Error: Table with name nope does not exist!\nLINE 1"));
        String text = RunPrinter.describe(e);
        assertFalse(text.contains("inputBatches"), text);
        assertFalse(text.contains("\n"), text);
        assertTrue(text.contains("Table with name nope does not exist"), text);
        assertTrue(HandoffException.permanent(e));
    }

    @Test
    void aFailureOfAnotherStepIsNamedThroughTheConsumersWrapper() {
        DownstreamException e = new DownstreamException("deltafunnel:source: the route failed on batch 0",
                new HandoffStats(1, 10, 0, 0), new IllegalStateException("my processor broke"));
        assertEquals("my processor broke", RunPrinter.describe(e));
        assertTrue(HandoffException.permanent(e));
    }

    @Test
    void aRefusedShardIsNamedByItsReasonAndEndsTheJob() {
        io.deltafunnel.handoff.ShardPlanException refusal = new io.deltafunnel.handoff.ShardPlanException(
                io.deltafunnel.handoff.HandoffPhase.DOWNSTREAM, "load job-1 shard 0/3: another runner holds this"
                + " shard right now", "job-1", 0, new HandoffStats(0, 0, 0, 0), null);
        DownstreamException e = new DownstreamException("deltafunnel:source: the route failed on batch 0",
                new HandoffStats(1, 100, 0, 0), refusal);
        assertEquals("downstream failed: load job-1 shard 0/3: another runner holds this shard right now",
                RunPrinter.describe(e));
        assertTrue(HandoffException.permanent(e));
    }
}
