package io.deltafunnel.routes;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import io.deltafunnel.emulator.MssqlEmulator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The application end to end, in-process: with no URL it starts the embedded emulator, loads the sample and
 * prints the summary with the read-back count; with a URL it loads into that server instead.
 */
class DeltaFunnelApplicationTest {

    private final PrintStream originalOut = System.out;

    @AfterEach
    void restore() {
        System.setOut(originalOut);
        System.clearProperty("deltafunnel.mssql.url");
        System.clearProperty("deltafunnel.mssql.password");
        System.clearProperty("deltafunnel.sample.dir");
        System.clearProperty("deltafunnel.sample.rows");
        System.clearProperty("deltafunnel.target.table");
        System.clearProperty("deltafunnel.progress.in-place");
        System.clearProperty("deltafunnel.progress.interval");
        System.clearProperty("deltafunnel.batch-size");
        System.clearProperty("deltafunnel.runs");
        System.clearProperty("deltafunnel.schedule.delay");
        RunPrinter.minIntervalMillis = 100;
    }

    private String runApp() throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int status;
        try {
            System.setProperty("deltafunnel.sample.dir", TestTargets.smallSample().toString());
            System.setProperty("deltafunnel.sample.rows", "5000");
            status = new DeltaFunnelApplication().run(new String[0]);
        } finally {
            System.setOut(originalOut);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        originalOut.println(out);
        assertEquals(0, status, out);
        return out;
    }

    @Test
    void embeddedDefaultLoadsTheSampleAndPrintsTheSummary() throws Exception {
        String out = runApp();
        assertTrue(out.contains("DeltaFunnel run complete"), out);
        assertTrue(out.contains("5,000 rows in 1 batches"), out);
        assertTrue(out.contains("holds 5,000 rows (read back)"), out);
        // the console log follows System.out: the run's view is announced once (not again by the progress count)
        assertEquals(1, out.lines().filter(l -> l.contains("registered view source")).count(), out);
    }

    @Test
    void onATerminalProgressIsOneLineUpdatedInPlace() throws Exception {
        System.setProperty("deltafunnel.progress.in-place", "true");
        // an update every millisecond, so that the run (10 batches, some tens of milliseconds) shows some: at the
        // usual minimum of 100 ms a fast run finished before the first
        RunPrinter.minIntervalMillis = 1;
        System.setProperty("deltafunnel.progress.interval", "1");
        System.setProperty("deltafunnel.batch-size", "500");
        String out = runApp();
        assertTrue(out.contains("\rload-table: "), "in-place progress line:\n" + out);
        // the summary starts on a cleared line and is printed once
        assertEquals(1, out.split("DeltaFunnel run complete", -1).length - 1, out);
        assertTrue(out.contains("\r\u001b[2K\rDeltaFunnel run complete"), out);
    }

    @Test
    void deltafunnelRunsMakesThatManyRunsInOneJvmThenExits() throws Exception {
        System.setProperty("deltafunnel.runs", "3");
        System.setProperty("deltafunnel.schedule.delay", "10");
        String out = runApp();
        // one summary per run, each a full replace of the same 5,000 rows
        assertEquals(3, out.lines().filter(l -> l.startsWith("DeltaFunnel run complete")
                && l.contains("5,000 rows in 1 batches") && l.contains("holds 5,000 rows (read back)")).count(), out);
    }

    @Test
    void withAUrlItLoadsIntoThatServer() throws Exception {
        try (MssqlEmulator external = TestTargets.startEmulator()) {
            System.setProperty("deltafunnel.mssql.url", external.jdbcUrl());
            System.setProperty("deltafunnel.mssql.password", external.password());
            System.setProperty("deltafunnel.target.table", "dbo.app_orders");
            String out = runApp();
            assertTrue(out.contains("holds 5,000 rows (read back)"), out);
            assertEquals(5000, TestTargets.count(external, "[dbo].[app_orders]"));
        }
    }
}
