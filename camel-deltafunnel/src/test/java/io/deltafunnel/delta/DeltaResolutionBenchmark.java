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
 */
@Tag("perf")
@EnabledIfSystemProperty(named = "deltafunnel.perf", matches = "true")
class DeltaResolutionBenchmark {

    private static final int FILES = 10_000;
    private static final String SCHEMA = schema(field("id", prim("long")), field("f", prim("integer")),
            field("p", prim("integer")));

    @TempDir
    Path tmp;

    @Test
    void measure() throws Exception {
        run(tmp, System.out);
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
            out.printf("baseline, plain read_parquet over the same %,d files: %s%n", FILES, baseline(conn, data));
        }
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
