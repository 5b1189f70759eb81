package io.deltafunnel.delta;

import static io.deltafunnel.delta.DeltaTableWriter.add;
import static io.deltafunnel.delta.DeltaTableWriter.commitInfo;
import static io.deltafunnel.delta.DeltaTableWriter.field;
import static io.deltafunnel.delta.DeltaTableWriter.metadata;
import static io.deltafunnel.delta.DeltaTableWriter.prim;
import static io.deltafunnel.delta.DeltaTableWriter.protocol;
import static io.deltafunnel.delta.DeltaTableWriter.pv;
import static io.deltafunnel.delta.DeltaTableWriter.schema;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * Measures snapshot resolution and view registration on generated tables with 10,000 data files (not a timed
 * assertion). Run: {@code mvn -pl camel-deltafunnel test -Dtest=DeltaResolutionBenchmark -Ddeltafunnel.perf=true}
 * (output in the surefire report's -output.txt) or call {@link #main(String[])} with a scratch directory.
 *
 * <p>It stays in this package's test folder, unlike the other programs (in the {@code benchmark} module): it times
 * the package-private steps of the reader separately ({@code ViewBuilder.register} after the snapshot) and writes its
 * logs, classic checkpoints included, with the package-private test helper {@code DeltaTableWriter}. Moving it would
 * mean making those public only for a measurement.
 */
@Tag("perf")
@EnabledIfSystemProperty(named = "deltafunnel.perf", matches = "true")
class DeltaResolutionBenchmark {

    private static final int FILES = 10_000;
    private static final int LONG_LOG_COMMITS = 2_000;
    private static final String SCHEMA = schema(field("id", prim("long")), field("f", prim("integer")),
            field("p", prim("integer")));

    @TempDir
    Path tmp;

    @Test
    void measure() throws Exception {
        run(tmp, System.out);
    }

    /** Only the long-log case: {@code -Dtest='DeltaResolutionBenchmark#largeLog' -Ddeltafunnel.perf=true}. */
    @Test
    void largeLog() throws Exception {
        try (Connection conn = DriverManager.getConnection("jdbc:duckdb:")) {
            System.out.println(largeLog(conn, tmp));
        }
    }

    public static void main(String[] args) throws Exception {
        Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("deltafunnel-bench");
        run(dir, System.out);
    }

    static void run(Path dir, PrintStream out) throws Exception {
        try (Connection conn = DriverManager.getConnection("jdbc:duckdb:")) {
            Path data = dir.resolve("data");
            long t0 = System.nanoTime();
            try (Statement st = conn.createStatement()) {
                st.execute("COPY (SELECT i AS id, (i % " + FILES + ")::INTEGER AS f FROM range(" + (FILES * 20)
                        + ") t(i)) TO " + SqlText.literal(data.toString())
                        + " (FORMAT parquet, PARTITION_BY (f), WRITE_PARTITION_COLUMNS false)");
            }
            out.printf("generated %d data files in %d ms%n", FILES, (System.nanoTime() - t0) / 1_000_000);
            for (int files : new int[] {1_000, FILES}) {
                for (int commits : new int[] {1, 10, 100, 1000, 10_000}) {
                    if (commits > files) {
                        continue;
                    }
                    Path table = table(conn, dir, data, "c" + commits + "f" + files, files, commits, false);
                    out.printf("%,6d files in %,6d JSON commits, no checkpoint: %s%n", files, commits, measure(conn, table));
                }
            }
            Path cp = table(conn, dir, data, "cp", FILES, 100, true);
            out.printf("%,6d files: checkpoint at v89 + 10 JSON commits    : %s%n", FILES, measure(conn, cp));
            out.println(largeLog(conn, dir));
            out.printf("baseline, plain read_parquet over the same %,d files: %s%n", FILES, baseline(conn, data));
        }
    }

    /**
     * Snapshot resolution of a long log: {@value #LONG_LOG_COMMITS} JSON commits, no checkpoint, each adding 10 files
     * with realistic add actions (stats, tags), every commit from the 1,000th on also removing one file of an earlier
     * commit. Only the log is measured (the data files do not exist), so this is log replay and validation time.
     */
    static String largeLog(Connection conn, Path dir) throws Exception {
        DeltaTableWriter t = new DeltaTableWriter(conn, dir.resolve("long-log"));
        int file = 0;
        for (int c = 0; c < LONG_LOG_COMMITS; c++) {
            List<String> actions = new ArrayList<>();
            actions.add("{\"commitInfo\":{\"timestamp\":" + (1_700_000_000_000L + c) + ",\"operation\":\"WRITE\","
                    + "\"operationParameters\":{\"mode\":\"Append\",\"partitionBy\":\"[\\\"p\\\"]\"},\"readVersion\":"
                    + (c - 1) + ",\"isBlindAppend\":true,\"operationMetrics\":{\"numFiles\":\"10\"}}}");
            if (c == 0) {
                actions.add(protocol(1, 2));
                actions.add(metadata(SCHEMA, List.of("p"), Map.of()));
            }
            for (int i = 0; i < 10; i++, file++) {
                actions.add("{\"add\":{\"path\":\"p=" + (file % 100) + "/part-" + String.format("%05d", file)
                        + "-3c1e4a2b-6f0d-4c8e-9a57-1b2d3e4f5a6b.c000.snappy.parquet\",\"partitionValues\":{\"p\":\""
                        + (file % 100) + "\"},\"size\":" + (4000 + file % 977) + ",\"modificationTime\":"
                        + (1_700_000_000_000L + c) + ",\"dataChange\":true,\"stats\":\"{\\\"numRecords\\\":20,"
                        + "\\\"minValues\\\":{\\\"id\\\":" + file * 20 + ",\\\"f\\\":" + file + "},\\\"maxValues\\\":{\\\"id\\\":"
                        + (file * 20 + 19) + ",\\\"f\\\":" + file + "},\\\"nullCount\\\":{\\\"id\\\":0,\\\"f\\\":0}}\","
                        + "\"tags\":{\"INSERTION_TIME\":\"" + (1_700_000_000_000_000L + c) + "\"}}}");
            }
            if (c >= 1000) {
                int victim = (c - 1000) * 10 + 3;
                actions.add("{\"remove\":{\"path\":\"p=" + (victim % 100) + "/part-" + String.format("%05d", victim)
                        + "-3c1e4a2b-6f0d-4c8e-9a57-1b2d3e4f5a6b.c000.snappy.parquet\",\"deletionTimestamp\":"
                        + (1_700_000_000_000L + c) + ",\"dataChange\":true,\"extendedFileMetadata\":true,"
                        + "\"partitionValues\":{\"p\":\"" + (victim % 100) + "\"},\"size\":4000}}");
            }
            t.commit(c, actions.toArray(String[]::new));
        }
        long best = Long.MAX_VALUE;
        long files = 0;
        for (int run = 0; run < 5; run++) {
            long t0 = System.nanoTime();
            DeltaSnapshot s = DeltaLog.snapshot(conn, t.root.toString(), null, null);
            best = Math.min(best, System.nanoTime() - t0);
            files = s.fileCount();
        }
        return String.format("%,d JSON commits, %,d adds, %,d live files, no checkpoint: snapshot %5d ms (best of 5)",
                LONG_LOG_COMMITS, file, files, best / 1_000_000);
    }

    /** Builds a table whose log points at the shared data files (absolute paths), partitioned by p = f % 100. */
    private static Path table(Connection conn, Path dir, Path data, String name, int files, int commits,
            boolean checkpoint) throws Exception {
        DeltaTableWriter t = new DeltaTableWriter(conn, dir.resolve(name));
        int perCommit = files / commits;
        List<String> checkpointRows = new ArrayList<>();
        checkpointRows.add(protocol(1, 2));
        checkpointRows.add(metadata(SCHEMA, List.of("p"), Map.of()));
        for (int c = 0; c < commits; c++) {
            List<String> actions = new ArrayList<>();
            actions.add(commitInfo(null));
            if (c == 0) {
                actions.add(protocol(1, 2));
                actions.add(metadata(SCHEMA, List.of("p"), Map.of()));
            }
            for (int i = c * perCommit; i < (c + 1) * perCommit; i++) {
                String a = add(data.resolve("f=" + i + "/data_0.parquet").toUri().toString(), pv("p", Integer.toString(i % 100)), null);
                actions.add(a);
                if (c < commits - 10) {
                    checkpointRows.add(a);
                }
            }
            t.commit(c, actions.toArray(String[]::new));
        }
        if (checkpoint) {
            t.classicCheckpoint(commits - 11, checkpointRows.toArray(String[]::new));
            t.write(t.log.resolve("_last_checkpoint"), "{\"version\":" + (commits - 11) + ",\"size\":" + checkpointRows.size() + "}");
        }
        return t.root;
    }

    private static String baseline(Connection conn, Path data) throws Exception {
        List<String> files = new ArrayList<>();
        for (int i = 0; i < FILES; i++) {
            files.add(data.resolve("f=" + i + "/data_0.parquet").toString());
        }
        long best = Long.MAX_VALUE;
        for (int run = 0; run < 3; run++) {
            long t0 = System.nanoTime();
            try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*), sum(id) FROM read_parquet("
                    + SqlText.list(files) + ")")) {
                rs.next();
            }
            best = Math.min(best, System.nanoTime() - t0);
        }
        return String.format("full scan %5d ms", best / 1_000_000);
    }

    private static String measure(Connection conn, Path table) throws Exception {
        long best = Long.MAX_VALUE;
        long bestView = Long.MAX_VALUE;
        long bestQuery = Long.MAX_VALUE;
        long bestFiltered = Long.MAX_VALUE;
        long rows = 0;
        for (int run = 0; run < 3; run++) {
            long t0 = System.nanoTime();
            DeltaSnapshot s = DeltaLog.snapshot(conn, table.toString(), null, null);
            long t1 = System.nanoTime();
            ViewBuilder.register(conn, "bench", s);
            long t2 = System.nanoTime();
            try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*), sum(id) FROM bench")) {
                rs.next();
                rows = rs.getLong(1);
            }
            long t3 = System.nanoTime();
            try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM bench WHERE p = 7")) {
                rs.next();
            }
            long t4 = System.nanoTime();
            best = Math.min(best, t1 - t0);
            bestView = Math.min(bestView, t2 - t1);
            bestQuery = Math.min(bestQuery, t3 - t2);
            bestFiltered = Math.min(bestFiltered, t4 - t3);
        }
        return String.format("snapshot %5d ms, view %5d ms, full scan (%d rows) %5d ms, WHERE p = 7 %5d ms",
                best / 1_000_000, bestView / 1_000_000, rows, bestQuery / 1_000_000, bestFiltered / 1_000_000);
    }
}
