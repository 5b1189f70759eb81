package io.deltafunnel.routes;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.deltafunnel.emulator.MssqlEmulator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code deltafunnel.shards=N} in one JVM, against the emulator: N routes from the route template, N parallel bulk
 * streams, one load; the target holds exactly what the unsharded application loads, and the load's final step ran
 * once (its {@code <state>_loads} row, its shard rows).
 */
class ShardedApplicationTest {

    private static final int ROWS = 6000;
    private static final String LOADS = "[dbo].[deltafunnel_state_loads]";
    private static final String SHARDS = "[dbo].[deltafunnel_state_shards]";

    private static MssqlEmulator emu;
    private static Path table;
    private final PrintStream originalOut = System.out;

    @BeforeAll
    static void start() throws Exception {
        emu = TestTargets.startEmulator();
        table = TestTargets.multiFileSample(ROWS, 12);
    }

    @AfterAll
    static void stop() {
        emu.close();
    }

    private static final List<String> KEYS = List.of("deltafunnel.mssql.url", "deltafunnel.mssql.password",
            "deltafunnel.source.path", "deltafunnel.target.table", "deltafunnel.write-mode", "deltafunnel.batch-size",
            "deltafunnel.shards", "deltafunnel.progress.in-place");

    @AfterEach
    void restore() {
        System.setOut(originalOut);
        KEYS.forEach(System::clearProperty);
    }

    /** Runs the application in this JVM with {@code properties}; returns its output, asserting exit status 0. */
    private String runApp(Map<String, String> properties) throws Exception {
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int status;
        try {
            KEYS.forEach(System::clearProperty); // nothing of the previous run
            System.setProperty("deltafunnel.mssql.url", emu.jdbcUrl());
            System.setProperty("deltafunnel.mssql.password", emu.password());
            System.setProperty("deltafunnel.source.path", table.toString());
            System.setProperty("deltafunnel.batch-size", "500");
            System.setProperty("deltafunnel.progress.in-place", "false");
            properties.forEach(System::setProperty);
            status = new DeltaFunnelApplication().run(new String[0]);
        } finally {
            System.setOut(originalOut);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        originalOut.println(out);
        assertEquals(0, status, out);
        return out;
    }

    /** The lines the application printed (not its log lines, which the console appender writes there too). */
    private static long lines(String out, String needle) {
        return out.lines().filter(l -> !LOG_LINE.matcher(l).find()).filter(l -> l.contains(needle)).count();
    }

    /** The log lines of {@code out} that contain {@code needle}. */
    private static long logLines(String out, String needle) {
        return out.lines().filter(l -> LOG_LINE.matcher(l).find()).filter(l -> l.contains(needle)).count();
    }

    @Test
    void moreShardsThanFilesIsWarnedOnceNamingTheCounts() throws Exception {
        Path twoFiles = TestTargets.multiFileSample(1000, 2);
        String out = runApp(Map.of("deltafunnel.source.path", twoFiles.toString(), "deltafunnel.shards", "4",
                "deltafunnel.target.table", "dbo.sharded_4_of_2_files", "deltafunnel.write-mode", "replace"));
        assertEquals(1, logLines(out, "shardCount 4 exceeds what the 2 files of view source"), out);
        assertEquals(1, logLines(out, "2 of the 4 shards get no files and load nothing"), out);
        assertEquals(1000L, TestTargets.count(emu, "dbo.sharded_4_of_2_files"));
    }

    private static final java.util.regex.Pattern LOG_LINE = java.util.regex.Pattern.compile(
            "^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} ");

    @Test
    void twoAndFourShardsInOneJvmLoadExactlyTheUnshardedRows() throws Exception {
        for (String mode : List.of("append", "replace")) {
            String reference = "dbo.unsharded_" + mode;
            String plain = runApp(Map.of("deltafunnel.target.table", reference, "deltafunnel.write-mode", mode));
            assertEquals(1, lines(plain, "DeltaFunnel run complete on route load-table: 6,000 rows"), plain);
            assertEquals(0, lines(plain, "load-table-shard-"), "the reference load is not sharded:\n" + plain);
            List<List<Object>> expected = TestTargets.rows(emu, "SELECT * FROM " + reference + " ORDER BY order_id");
            assertEquals(ROWS, expected.size());

            for (int n : new int[] {2, 4}) {
                String target = "dbo.sharded_" + n + "_" + mode;
                String out = runApp(Map.of("deltafunnel.shards", Integer.toString(n), "deltafunnel.target.table",
                        target, "deltafunnel.write-mode", mode));
                // one summary per shard, naming the load and the shard; exactly one shard ran the final step
                assertEquals(n, lines(out, "DeltaFunnel run complete on route load-table-shard-"), out);
                for (int i = 0; i < n; i++) {
                    assertEquals(1, lines(out, "DeltaFunnel run complete on route load-table-shard-" + i + " [load "),
                            out);
                    assertEquals(1, lines(out, " shard " + i + "/" + n), out);
                }
                assertEquals(1, lines(out, ": load-done]"), out);
                assertEquals(n - 1, lines(out, ": shard-done]"), out);
                assertEquals(0, lines(out, "FAILED"), out);

                assertEquals(expected, TestTargets.rows(emu, "SELECT * FROM " + target + " ORDER BY order_id"),
                        n + " shards, " + mode);

                // the load: done, its final step ran once (by one of its shards) and moved every row
                List<List<Object>> loads = TestTargets.rows(emu, "SELECT load_id, status, shard_count, finished_by,"
                        + " final_rows, write_mode FROM " + LOADS + " WHERE [target] LIKE '%" + target.substring(4) + "%'");
                assertEquals(1, loads.size(), loads.toString());
                List<Object> load = loads.get(0);
                assertEquals("done", load.get(1));
                assertEquals(n, ((Number) load.get(2)).intValue());
                int finishedBy = ((Number) load.get(3)).intValue();
                assertTrue(finishedBy >= 0 && finishedBy < n, load.toString());
                assertEquals((long) ROWS, ((Number) load.get(4)).longValue());
                assertEquals(mode, String.valueOf(load.get(5)).toLowerCase(java.util.Locale.ROOT));
                assertEquals(1, lines(out, "shard " + finishedBy + "/" + n + ": load-done]"), out);
                // the log (the console appender writes to the captured output): one summary line of the whole load,
                // from the shard that ran the final step; the others say that they only committed their share
                assertEquals(1, logLines(out, "load " + load.get(0) + " complete: " + ROWS + " rows of " + n
                        + " shards in "), out);
                assertEquals(1, logLines(out, "; shard " + finishedBy + " ran the final step (run "), out);
                assertEquals(n - 1, logLines(out, "ends with its share committed; "), out);
                assertEquals(0, logLines(out, "load done ("), out);
                List<List<Object>> shards = TestTargets.rows(emu, "SELECT shard_index, status, [rows] FROM " + SHARDS
                        + " WHERE load_id = '" + load.get(0) + "' ORDER BY shard_index");
                assertEquals(n, shards.size(), shards.toString());
                long sum = 0;
                for (int i = 0; i < n; i++) {
                    assertEquals(i, ((Number) shards.get(i).get(0)).intValue());
                    assertEquals("done", shards.get(i).get(1));
                    sum += ((Number) shards.get(i).get(2)).longValue();
                }
                assertEquals(ROWS, sum, "the shares add up to the table");
                // and the staging table is gone
                assertEquals(0L, TestTargets.count(emu, "INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE '%df_load%'"));
            }
        }
    }
}
