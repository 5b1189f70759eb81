package io.deltafunnel.routes;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The in-place progress line fits the terminal and never shares a line with a log line. */
class RunPrinterTest {

    private static final String SHARD_LINE = "load-table-shard-%d: writing 120,000 of 300,000 rows (40%%), 35,210 rows/s,"
            + " ETA 5 s, 12.4 s";

    @Test
    void fourShardsProgressFitsIntoEightyColumns() {
        List<String> lines = List.of(SHARD_LINE.formatted(0), SHARD_LINE.formatted(1), SHARD_LINE.formatted(2),
                SHARD_LINE.formatted(3));
        String fitted = RunPrinter.fit(lines, 79);
        assertTrue(fitted.length() <= 79, fitted.length() + ": " + fitted);
        // each shard's own part of the id, with its rows, percentage and rate
        for (int i = 0; i < 4; i++) {
            assertTrue(fitted.contains(i + ": 120k 40% 35k/s"), fitted);
        }
        assertEquals(3, fitted.split(" \\| ", -1).length - 1, fitted);
        // two shards: the common prefix once
        String two = RunPrinter.fit(List.of(SHARD_LINE.formatted(0), SHARD_LINE.formatted(1)), 79);
        assertTrue(two.length() <= 79, two);
        assertTrue(two.startsWith("load-table-shard- 0: 120k 40% 35k/s | 1: 120k 40% 35k/s"), two);
        // one line that is a little too long loses its ETA and total first
        String one = RunPrinter.fit(List.of(SHARD_LINE.formatted(0)), 79);
        assertTrue(one.startsWith("load-table-shard-0: writing 120,000 (40%), 35,210 r/s"), one);
        assertEquals("a: writing | b: writing", RunPrinter.fit(List.of("a: writing", "b: writing"), 79));
    }

    @Test
    void aLogLineIsWrittenOnItsOwnLineAndTheProgressLineIsDrawnAgain() throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream terminal = new PrintStream(captured, true, StandardCharsets.UTF_8);
        PrintStream original = System.out;
        System.setOut(terminal);
        String progress = "load-table: writing 1,000 rows, 500 rows/s, 2.0 s " + "x".repeat(100);
        RunPrinter printer = new RunPrinter(new RunPrinter.Output(terminal, true, 100, 80));
        try {
            printer.start(() -> List.of(progress));
            waitFor(captured, "\rload-table: ");
            System.out.println("12:00:00.000 INFO  DeltaViews - a log line");
            printer.print("DeltaFunnel run complete on route load-table");
        } finally {
            printer.close();
            System.setOut(original);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        TerminalScreen screen = TerminalScreen.render(out, 80);
        assertEquals(0, screen.wrapped(), out);
        assertTrue(screen.lines().contains("12:00:00.000 INFO  DeltaViews - a log line"), screen.lines().toString());
        assertTrue(screen.lines().contains("DeltaFunnel run complete on route load-table"), screen.lines().toString());
        for (String line : screen.lines()) {
            assertTrue(line.length() <= 80, line);
            assertTrue(!line.contains("load-table: writing") || !line.contains("INFO"), line);
        }
    }

    private static void waitFor(ByteArrayOutputStream captured, String text) throws InterruptedException {
        for (int i = 0; i < 200 && !captured.toString(StandardCharsets.UTF_8).contains(text); i++) {
            Thread.sleep(25);
        }
        assertTrue(captured.toString(StandardCharsets.UTF_8).contains(text), "no progress line was drawn");
    }
}
