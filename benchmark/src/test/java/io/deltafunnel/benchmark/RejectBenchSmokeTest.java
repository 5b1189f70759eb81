package io.deltafunnel.benchmark;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rejected-rows benchmark end to end on a tiny table: the emulator's jar as a separate storing-mode process,
 * k = 0, 1 and 10 bad rows of both kinds with both encoders, one measured run each. {@code RejectBench} itself fails
 * a run unless target rows + reject rows reconcile with exactly k reject rows; this test checks every configuration
 * was measured, the bulk statements (extra only for the server-side kind) and the report's rows. No timing is asserted.
 */
class RejectBenchSmokeTest {

    @Test
    void bisectionStatementsReplayRowBisection() {
        assertEquals(1, RejectBench.bisectionStatements(8, List.of()));
        // 8 rows, row 3 bad: 8 → 4 (bad) + 4 → 2 + 2 (bad) → 1 + 1 (bad, set aside): 7 statements
        assertEquals(7, RejectBench.bisectionStatements(8, List.of(3)));
        assertEquals(1, RejectBench.bisectionStatements(1, List.of(0)));
        assertEquals(3, RejectBench.bisectionStatements(2, List.of(0, 1)));
        // refused: the 8, the first 4, the second 2, row 3 itself
        assertEquals(4, RejectBench.bisectionRefused(8, List.of(3)));
        assertEquals(0, RejectBench.bisectionRefused(8, List.of()));
    }

    @Test
    void measuresKBadRowsOfBothKindsWithBothEncoders(@TempDir Path dir) throws Exception {
        RejectBench bench = new RejectBench();
        bench.parse(new String[] {"--rows", "4000", "--bad", "1,10", "--runs", "1", "--warmups", "0",
                "--batch-size", "1024", "--work-dir", dir.toString()});
        bench.run();
        List<RejectBench.RejectResult> results = bench.results();
        assertEquals(2 * 2 * 3, results.size(), "2 kinds × 2 encoders × k = 0, 1, 10");
        for (RejectBench.RejectResult r : results) {
            assertEquals(4000, r.rows());
            assertEquals(4, r.batches(), r.kind() + " " + r.encoder() + " k=" + r.k());
            if (r.k() == 0 || r.kind().equals("client")) {
                assertEquals(r.batches(), r.bulkStatements(), "one bulk statement per batch: " + r);
                assertEquals(0, r.refusedStatements(), "none refused: " + r);
            } else {
                // each bad row costs at least the halves down to it (log2(1024) = 10 levels)
                assertTrue(r.bulkStatements() >= r.batches() + 10L * r.k(), "bisection's statements: " + r);
                assertTrue(r.refusedStatements() >= 10L * r.k() / 2 && r.refusedStatements() < r.bulkStatements(),
                        "refused statements: " + r);
            }
        }
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        bench.report(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        String report = buffer.toString(StandardCharsets.UTF_8);
        for (String field : List.of("| bad rows found | encoder | k | wall s | vs k = 0 |",
                "| server-side (2627, bisection) | direct | 10 |", "| client-side (too-long) | driver | 1 |",
                "storing mode", "load average")) {
            assertTrue(report.contains(field), "report lacks '" + field + "':\n" + report);
        }
    }
}
