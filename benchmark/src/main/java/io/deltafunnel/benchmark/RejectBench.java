package io.deltafunnel.benchmark;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;
import io.deltafunnel.sample.SampleDeltaWriter;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * The cost of setting bad rows aside (issue #25, {@code docs/rejected-rows.md}): k = 1, 10, 100 bad rows in N rows
 * (1,000,000 by default), against k = 0 in the same run, both encoders, into the emulator's executable jar in
 * <b>storing</b> mode as a separate process ({@link EmulatorProcess}, no {@code --sink}: a duplicate key needs the
 * stored rows and the primary key). See benchmark/README.md, "Rejected rows".
 *
 * <p>Two kinds of bad row, each with {@code maxRejectedRows} = the largest k and a reject table, in every run (k = 0
 * too, so the baseline pays the same set-up):
 * <ul>
 *   <li>{@code server}: the source is clean, the target ({@code id bigint PRIMARY KEY, name nvarchar(40)}) already
 *       holds k of its keys: SQL Server (the emulator) refuses each bulk statement holding one with 2627, and
 *       {@code RowBisection} finds the rows by writing halves under savepoints;</li>
 *   <li>{@code client}: k source names are 50 characters long for the {@code nvarchar(40)} column: the client-side
 *       check finds them and leaves them out of the batch; nothing extra is sent.</li>
 * </ul>
 * The k bad rows are spread evenly ({@code id % (N/k) == N/(2k)}). Each run builds a fresh Camel context with one
 * route, starts it, waits for the batch marked complete and stops it (after one unreported load that warms the
 * emulator up): wall time, the loader's client CPU per row
 * (its process CPU time over that span ÷ N) and the emulator's CPU per row. Each run is checked: target rows + reject
 * rows = N plus the k keys the target held before, exactly k reject rows. The extra bulk statements are counted by
 * replaying {@code RowBisection}'s splitting on where the bad rows really were in each batch (the route records
 * their positions after the producer; the read order of the Parquet files decides the batches).
 *
 * <pre>
 * benchmark/rejects.sh [--rows 1000000] [--bad 1,10,100] [--kinds server,client] [--encoders driver,direct]
 *                      [--runs 1] [--warmups 1] [--batch-size 65536] [--work-dir DIR] [--emulator-jar JAR]
 *                      [--emulator-xmx 4g]
 * </pre>
 */
public final class RejectBench {

    static final List<String> ENCODERS = List.of("driver", "direct");
    static final List<String> KINDS = List.of("server", "client");
    static final String TARGET = "bench_rejects";
    static final String REJECTS = "bench_rejects_rejected";
    /** The target's name column: the client kind's bad names are longer. */
    static final int NAME_LENGTH = 40;

    // ---- options ----
    long rows = 1_000_000;
    List<Integer> bad = List.of(1, 10, 100);
    List<String> kinds = KINDS;
    List<String> encoders = ENCODERS;
    int runs = 1;
    int warmups = 1;
    int batchSize = 65_536;
    int files = 4;
    Path workDir;
    Path emulatorJar;
    /** The storing emulator's heap: it keeps every loaded row in H2. */
    String emulatorXmx = "4g";

    /** One configuration's measured runs; k = 0 is the baseline of its kind and encoder. */
    record RejectResult(String kind, String encoder, int k, long rows, double[] wallSeconds, double[] clientNsPerRow,
            double[] emulatorNsPerRow, long bulkStatements, long refusedStatements, long batches) {
        double wall() {
            return BenchSupport.median(wallSeconds);
        }

        double clientNs() {
            return BenchSupport.median(clientNsPerRow);
        }

        double emulatorNs() {
            return BenchSupport.median(emulatorNsPerRow);
        }
    }

    private record RunFigures(double wallSeconds, double clientNsPerRow, double emulatorNsPerRow, long bulkStatements,
            long refusedStatements, long batches) {
    }

    private final List<RejectResult> results = new ArrayList<>();
    private EmulatorProcess emulator;
    private String url;
    private int routeSeq;

    public static void main(String[] args) throws Exception {
        RejectBench b = new RejectBench();
        b.parse(args);
        b.run();
        System.exit(0);
    }

    void parse(String[] args) {
        BenchSupport.options(args, (a, v) -> {
            switch (a) {
                case "--rows" -> rows = Long.parseLong(v.replace("_", ""));
                case "--bad" -> bad = Arrays.stream(v.split(",")).map(s -> Integer.valueOf(s.trim())).toList();
                case "--kinds" -> kinds = List.of(v.split(","));
                case "--encoders" -> encoders = List.of(v.split(","));
                case "--runs" -> runs = Integer.parseInt(v);
                case "--warmups" -> warmups = Integer.parseInt(v);
                case "--batch-size" -> batchSize = Integer.parseInt(v);
                case "--work-dir" -> workDir = Path.of(v);
                case "--emulator-jar" -> emulatorJar = Path.of(v);
                case "--emulator-xmx" -> emulatorXmx = v;
                default -> throw new IllegalArgumentException("unknown option " + a + " (see the class comment)");
            }
        });
        for (String e : encoders) {
            if (!ENCODERS.contains(e)) {
                throw new IllegalArgumentException("unknown encoder " + e + "; known: " + ENCODERS);
            }
        }
        for (String k : kinds) {
            if (!KINDS.contains(k)) {
                throw new IllegalArgumentException("unknown kind " + k + "; known: " + KINDS);
            }
        }
        for (int k : bad) {
            if (k < 1 || k > rows / 2) {
                throw new IllegalArgumentException("--bad " + k + ": between 1 and rows / 2");
            }
        }
    }

    void run() throws Exception {
        System.out.printf("DeltaFunnel rejected rows: %,d rows, k = 0 and %s bad rows, kinds %s, encoders %s, batch"
                + " %,d, %d warm-up + %d measured runs%n", rows, bad, kinds, encoders, batchSize, warmups, runs);
        System.out.println(BenchSupport.conditions());
        boolean ownWorkDir = workDir == null;
        if (ownWorkDir) {
            workDir = Files.createTempDirectory("deltafunnel-rejects");
        }
        try {
            emulator = EmulatorProcess.start(emulatorJar, emulatorXmx, List.of());
            url = emulator.url();
            System.out.printf("emulator: pid %d, port %d, %s (storing mode, -Xmx%s)%n", emulator.pid(),
                    emulator.port(), emulator.launchedAs(), emulatorXmx);
            List<Integer> ks = new ArrayList<>(List.of(0));
            ks.addAll(bad);
            // one load not reported, so that the first configuration's k = 0 does not pay the emulator's JIT warm-up
            measureOnce(kinds.get(0), encoders.get(0), 0, table(kinds.get(0), 0), "emulator warm-up");
            for (String kind : kinds) {
                for (String encoder : encoders) {
                    for (int k : ks) {
                        measure(kind, encoder, k);
                    }
                }
            }
            report(System.out);
        } finally {
            if (emulator != null) {
                emulator.close();
            }
            if (ownWorkDir) {
                BenchSupport.deleteTree(workDir);
            }
        }
    }

    /** The results of the last {@link #run()}, in run order. */
    List<RejectResult> results() {
        return results;
    }

    /** The spacing of k bad rows in the table's ids; bad: {@code id % step == step / 2}. k = 0: none. */
    long step(int k) {
        return k == 0 ? rows + 1 : rows / k;
    }

    private boolean isBad(long id, long step) {
        return id % step == step / 2 && id / step < rows / step;
    }

    /** The Delta table of {@code kind} with k bad rows (the server kind's source is always clean). */
    private Path table(String kind, int k) throws Exception {
        boolean clean = kind.equals("server") || k == 0;
        Path table = workDir.resolve("rejects-" + rows + (clean ? "-clean" : "-long-" + k));
        if (Files.exists(table.resolve("_delta_log"))) {
            return table;
        }
        long step = step(k);
        String select = "SELECT i::BIGINT AS id, CASE WHEN " + (clean ? "false" : "i % " + step + " = " + step / 2
                + " AND i // " + step + " < " + rows / step) + " THEN repeat('x', " + (NAME_LENGTH + 10)
                + ") ELSE 'name ' || i END AS name FROM range(0, " + rows + ") r(i)";
        long t0 = System.nanoTime();
        try (Connection duck = DuckDbConnections.open(DuckDbSettings.inMemory())) {
            new SampleDeltaWriter(duck, table).append(select, files);
        }
        System.out.printf("generated Delta table %s: %,d rows, %.1f s%n", table, rows, (System.nanoTime() - t0) / 1e9);
        return table;
    }

    private void measure(String kind, String encoder, int k) throws Exception {
        Path table = table(kind, k);
        System.out.printf("%n== %s-side, %s encoder, k = %d (load average %s)%n", kind, encoder, k,
                BenchSupport.loadAverage());
        for (int w = 0; w < warmups; w++) {
            measureOnce(kind, encoder, k, table, "warm-up " + (w + 1));
        }
        double[] wall = new double[runs];
        double[] client = new double[runs];
        double[] emu = new double[runs];
        long statements = 0;
        long refused = 0;
        long batches = 0;
        for (int i = 0; i < runs; i++) {
            RunFigures f = measureOnce(kind, encoder, k, table, "run " + (i + 1));
            wall[i] = f.wallSeconds();
            client[i] = f.clientNsPerRow();
            emu[i] = f.emulatorNsPerRow();
            statements = f.bulkStatements();
            refused = f.refusedStatements();
            batches = f.batches();
        }
        results.add(new RejectResult(kind, encoder, k, rows, wall, client, emu, statements, refused, batches));
    }

    /** The target (empty, or holding the k keys the server kind duplicates) and no reject table; not measured. */
    private void resetTarget(String kind, int k) throws SQLException {
        try (Connection c = BenchSupport.sqlServer(url); Statement st = c.createStatement()) {
            for (String t : List.of(TARGET, REJECTS)) {
                st.execute("IF OBJECT_ID('dbo." + t + "') IS NOT NULL DROP TABLE [dbo].[" + t + "]");
            }
            st.execute("CREATE TABLE [dbo].[" + TARGET + "] ([id] bigint NOT NULL PRIMARY KEY, [name] nvarchar("
                    + NAME_LENGTH + ") NOT NULL)");
            if (kind.equals("server") && k > 0) {
                long step = step(k);
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO [dbo].[" + TARGET
                        + "] ([id], [name]) VALUES (?, N'held before the run')")) {
                    for (long id = step / 2; id < rows && isBad(id, step); id += step) {
                        ps.setLong(1, id);
                        ps.executeUpdate();
                    }
                }
            }
        }
    }

    /**
     * One load: a fresh Camel context with one route, started, waited for and stopped; then the target and the
     * reject table are checked.
     */
    private RunFigures measureOnce(String kind, String encoder, int k, Path table, String label) throws Exception {
        resetTarget(kind, k);
        System.gc();
        String id = "rejects" + (routeSeq++);
        long step = step(k);
        int limit = bad.stream().mapToInt(Integer::intValue).max().orElse(1);
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong rowsSeen = new AtomicLong();
        AtomicLong batches = new AtomicLong();
        AtomicLong statements = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        String source = "deltafunnel:" + id + "?query=RAW(" + BenchSupport.parquetQuery(table) + ")&batchSize="
                + batchSize + "&repeatCount=1&initialDelay=0&delay=3600000";
        String sink = "deltafunnel-mssql:dbo." + TARGET + "?url=RAW(" + url + ")&username=sa&password=RAW("
                + BenchSupport.PASSWORD + ")&tableLock=true&transaction=run&maxRejectedRows=" + limit
                + "&rejectTable=dbo." + REJECTS
                + (encoder.equals("direct") ? "&bulkEncoder=direct&bulkEncoderFallback=false" : "");
        boolean serverSide = kind.equals("server");
        long cpu0 = ClientCpu.processCpuNanos();
        long emu0 = emulator.cpuNanos();
        long t0 = System.nanoTime();
        long doneAt;
        CamelContext camel = new DefaultCamelContext();
        try {
            camel.setAutowiredEnabled(false);
            camel.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    onException(Exception.class).process(e -> {
                        failure.set(e.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class));
                        done.countDown();
                    });
                    from(source).routeId(id).to(sink).process(e -> {
                        VectorSchemaRoot root = e.getMessage().getBody(VectorSchemaRoot.class);
                        rowsSeen.addAndGet(root.getRowCount());
                        batches.incrementAndGet();
                        // where this batch's bad rows were: the bulk statements RowBisection wrote for it
                        BigIntVector ids = (BigIntVector) root.getVector("id");
                        List<Integer> at = new ArrayList<>();
                        for (int r = 0; r < root.getRowCount(); r++) {
                            if (isBad(ids.get(r), step)) {
                                at.add(r);
                            }
                        }
                        statements.addAndGet(serverSide ? bisectionStatements(root.getRowCount(), at)
                                : root.getRowCount() > at.size() ? 1 : 0);
                        refused.addAndGet(serverSide ? bisectionRefused(root.getRowCount(), at) : 0);
                        if (Boolean.TRUE.equals(e.getProperty(Exchange.BATCH_COMPLETE, Boolean.class))) {
                            done.countDown();
                        }
                    });
                }
            });
            camel.start();
            if (!done.await(60, TimeUnit.MINUTES)) {
                throw new IllegalStateException(kind + " " + encoder + " k=" + k + ": the route did not finish");
            }
            doneAt = System.nanoTime();
        } finally {
            camel.stop();
        }
        long cpu = ClientCpu.processCpuNanos() - cpu0;
        long emuNanos = emulator.cpuNanos() - emu0;
        if (failure.get() != null) {
            throw new IllegalStateException(kind + " " + encoder + " k=" + k + " failed: " + failure.get(),
                    failure.get());
        }
        check(kind, encoder, k, rowsSeen.get());
        double wall = (doneAt - t0) / 1e9;
        double clientNs = (double) cpu / rows;
        double emuNs = emu0 < 0 ? Double.NaN : (double) emuNanos / rows;
        System.out.printf("  %-10s wall %7.2f s   client %7.0f ns/row   emulator %7.0f ns/row   bulk statements %,d"
                + " (%,d refused) for %,d batches%n", label, wall, clientNs, emuNs, statements.get(), refused.get(),
                batches.get());
        return new RunFigures(wall, clientNs, emuNs, statements.get(), refused.get(), batches.get());
    }

    /**
     * The bulk statements {@code RowBisection} writes for a batch of {@code n} rows sent whose rows {@code bad}
     * (ascending positions) SQL Server refuses: the batch, and while a part holds a bad row, each of its halves,
     * down to single rows.
     */
    static long bisectionStatements(int n, List<Integer> bad) {
        return part(0, n, bad, false);
    }

    /** Of {@link #bisectionStatements}, those SQL Server refuses (each one {@code ROLLBACK TRAN} more). */
    static long bisectionRefused(int n, List<Integer> bad) {
        return part(0, n, bad, true);
    }

    private static long part(int from, int to, List<Integer> bad, boolean onlyRefused) {
        if (to <= from) {
            return 0;
        }
        boolean refused = bad.stream().anyMatch(r -> r >= from && r < to);
        long self = !onlyRefused || refused ? 1 : 0;
        if (!refused || to - from == 1) {
            return self;
        }
        int mid = from + (to - from) / 2;
        return self + part(from, mid, bad, onlyRefused) + part(mid, to, bad, onlyRefused);
    }

    /** Target rows + reject rows = the source plus what the target held; exactly k reject rows. */
    private void check(String kind, String encoder, int k, long seen) throws SQLException {
        String what = kind + " " + encoder + " k=" + k;
        if (seen != rows) {
            throw new IllegalStateException(what + ": the route saw " + seen + " rows, expected " + rows);
        }
        try (Connection c = BenchSupport.sqlServer(url); Statement st = c.createStatement()) {
            long target = count(st, TARGET);
            long rejected = count(st, REJECTS);
            long expectedTarget = kind.equals("server") ? rows : rows - k;
            if (target != expectedTarget || rejected != k) {
                throw new IllegalStateException(what + ": target " + target + " rows (expected " + expectedTarget
                        + "), reject table " + rejected + " rows (expected " + k + ")");
            }
        }
    }

    private static long count(Statement st, String table) throws SQLException {
        try (ResultSet rs = st.executeQuery("SELECT COUNT_BIG(*) FROM [dbo].[" + table + "]")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    // ---- report ----

    void report(PrintStream out) {
        out.printf("%n## Rejected rows: the cost of finding k bad rows in %,d (median of %d runs after %d warm-up;"
                + " emulator in a separate process, storing mode)%n%n", rows, runs, warmups);
        out.println("Conditions: " + Runtime.getRuntime().availableProcessors() + " CPUs, load average at the end "
                + BenchSupport.loadAverage() + ", emulator: " + (emulator == null ? "-" : emulator.launchedAs()));
        out.println();
        out.println("| bad rows found | encoder | k | wall s | vs k = 0 | client CPU ns/row | vs k = 0 | emulator CPU"
                + " ns/row | bulk statements | extra vs k = 0 | of them refused |");
        out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (RejectResult r : results) {
            RejectResult zero = find(r.kind(), r.encoder(), 0);
            out.printf("| %s | %s | %d | %.2f | %s | %,.0f | %s | %s | %,d | %s | %,d |%n",
                    r.kind().equals("server") ? "server-side (2627, bisection)" : "client-side (too-long)",
                    r.encoder(), r.k(), r.wall(),
                    zero == null ? "-" : String.format("%+.1f%%", 100 * (r.wall() - zero.wall()) / zero.wall()),
                    r.clientNs(),
                    zero == null ? "-" : String.format("%+,.0f", r.clientNs() - zero.clientNs()),
                    Double.isNaN(r.emulatorNs()) ? "-" : String.format("%,.0f", r.emulatorNs()), r.bulkStatements(),
                    zero == null ? "-" : String.format("%+,d", r.bulkStatements() - zero.bulkStatements()),
                    r.refusedStatements());
        }
        out.println();
        out.println("wall: context start to the batch marked complete; client CPU: the loader JVM's process CPU time"
                + " over the run (context start and stop included) ÷ rows; bulk statements: replayed from"
                + " RowBisection's splitting on where the bad rows were in each batch. Each bulk statement is one"
                + " INSERT BULK and one BULK_LOAD message (mssql-jdbc reads the destination's metadata once per table"
                + " and connection); every statement inside the run's transaction adds one SAVE TRAN, every refused"
                + " one one ROLLBACK TRAN, every batch one SELECT @@TRANCOUNT.");
    }

    private RejectResult find(String kind, String encoder, int k) {
        return results.stream().filter(r -> r.kind().equals(kind) && r.encoder().equals(encoder) && r.k() == k)
                .findFirst().orElse(null);
    }
}
