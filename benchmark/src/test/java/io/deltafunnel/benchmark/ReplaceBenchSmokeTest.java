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
 * The replace benchmark end to end on a tiny table: the emulator's jar as a separate storing process, both
 * strategies, one run. {@code ReplaceBench} itself fails a run unless the target ends with exactly the table's rows
 * and the producer logged its final step; this test checks both strategies were measured and the report carries its
 * fields. No timing is asserted.
 */
class ReplaceBenchSmokeTest {

    @Test
    void measuresTheFinalStepOfSwitchAndCopy(@TempDir Path dir) throws Exception {
        ReplaceBench bench = new ReplaceBench();
        bench.parse(new String[] {"--rows", "3000", "--batch-size", "1024", "--files", "2", "--emulator-xmx", "512m",
                "--warmups", "0", "--work-dir", dir.toString()});
        bench.run();
        List<ReplaceBench.ReplaceResult> results = bench.results();
        assertEquals(List.of("switch", "copy"), results.stream().map(ReplaceBench.ReplaceResult::strategy).toList());
        for (ReplaceBench.ReplaceResult r : results) {
            assertEquals(3000, r.rows());
            assertTrue(r.finalStepMs() > 0 && r.finalStepMs() <= r.runMs(), "final step within the run: " + r);
            assertTrue(r.readerQueries() > 0, "the reader ran: " + r);
            assertTrue(r.emulatorPeakMiB() > 0, "the emulator's peak memory: " + r);
        }
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        bench.report(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        String report = buffer.toString(StandardCharsets.UTF_8);
        for (String field : List.of("| rows | replaceStrategy | run | final step ms | longest reader wait ms |",
                "Conditions:", "load average", "storing mode")) {
            assertTrue(report.contains(field), "report lacks '" + field + "':\n" + report);
        }
    }
}
