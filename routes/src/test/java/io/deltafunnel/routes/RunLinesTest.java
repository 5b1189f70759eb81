package io.deltafunnel.routes;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The progress line names what the run does, and the attempt it names agrees with the replay's log line. */
class RunLinesTest {

    private static RouteRun run(RouteRun.Phase phase) {
        RouteRun run = new RouteRun("load-table", null);
        run.start = System.nanoTime() - 2_000_000_000L;
        run.phaseStart = run.start;
        run.phase = phase;
        return run;
    }

    @Test
    void beforeTheFirstBatchIsWrittenTheLineSaysSoInsteadOfZeroRows() {
        String line = RunLines.progressLine(run(RouteRun.Phase.OPENING), System.nanoTime());
        assertTrue(line.startsWith("load-table: opening target, first batch"), line);
        assertFalse(line.contains("0 rows/s"), line);
    }

    @Test
    void aShardsLineHasThePercentageOfItsShareWhenTheConsumerKnowsIt() {
        RouteRun run = run(RouteRun.Phase.WRITING);
        run.rowsOut = 1000;
        String unknown = RunLines.progressLine(run, System.nanoTime());
        assertTrue(unknown.startsWith("load-table: writing 1,000 rows, "), unknown);
        run.expectedRows = 3000L; // header CamelDeltaFunnelExpectedRows: the share's rows
        String line = RunLines.progressLine(run, System.nanoTime());
        assertTrue(line.startsWith("load-table: writing 1,000 of 3,000 rows (33%), "), line);
        assertTrue(line.contains(" rows/s, ETA "), line);
    }

    @Test
    void waitingToReplayNamesTheAttemptTheReplayWillBe() {
        RouteRun run = run(RouteRun.Phase.REPLAY_WAIT);
        run.attempt = 4; // ReplayRequest.attempt(): "replaying as attempt 4 in 4000 ms"
        String line = RunLines.progressLine(run, System.nanoTime());
        assertTrue(line.startsWith("load-table: waiting to replay as attempt 4"), line);
        assertFalse(line.contains("attempt 3"), line);
    }

    @Test
    void aCompleteRunThatSetRowsAsideSaysHowManyAndWhere() {
        org.junit.jupiter.api.Assertions.assertEquals("; 1,234 rows rejected into dbo.rejects",
                RunLines.rejected(1234, "dbo.rejects"));
        org.junit.jupiter.api.Assertions.assertEquals("; 1 row rejected", RunLines.rejected(1, null));
        org.junit.jupiter.api.Assertions.assertEquals("", RunLines.rejected(0, "dbo.rejects"));
    }
}
