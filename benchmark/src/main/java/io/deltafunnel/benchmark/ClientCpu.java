package io.deltafunnel.benchmark;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.deltafunnel.mssql.bind.BatchCheck;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.channel.ArrowBulkData;
import io.deltafunnel.mssql.channel.BulkBatch;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * The loader's own CPU per row, with the server in another process. See benchmark/README.md, "Client CPU per row".
 *
 * <p>The {@code mssql-emulator}'s executable jar runs as a child process in sink mode (it decodes every bulk row and
 * stores nothing). For every shape and path, each run builds a fresh Camel context with one route, starts it, waits
 * for the batch marked complete and stops the context; the loading JVM's process CPU time
 * ({@code com.sun.management.OperatingSystemMXBean.getProcessCpuTime}: all its threads, DuckDB's native threads, JIT
 * and GC included) over that whole span, divided by the rows, is the client CPU per row. The emulator process's CPU
 * over the same span is read separately ({@link ProcessHandle.Info#totalCpuDuration()}).
 *
 * <p>Paths, each a {@code deltafunnel:} consumer (DuckDB → Arrow) with the same query and batch size:
 * <ul>
 *   <li>{@code src}: into a no-op processor (the source: what reading costs);</li>
 *   <li>{@code adapt}: into a processor that runs {@link BatchCheck#first} and {@link ArrowBulkData#getRowData}
 *       for every row, as the driver encoder does, and sends nothing: adapt − src is our part of the driver route
 *       (adapter, validation, value conversion);</li>
 *   <li>{@code direct}: {@code deltafunnel-mssql:} with {@code bulkEncoder=direct&bulkEncoderFallback=false};</li>
 *   <li>{@code driver}: {@code deltafunnel-mssql:} with the default (mssql-jdbc) encoder; driver − adapt is
 *       mssql-jdbc's part plus the producer's connection and per-batch work.</li>
 *   <li>{@code direct-rej}, {@code driver-rej} (not in the default list): the same two routes with
 *       {@code maxRejectedRows=1000} and a reject table, on the same data, which has no bad row: what the
 *       rejected-rows path costs when nothing is rejected (the batch check that finds every bad row, the row
 *       selection, one {@code SELECT @@TRANCOUNT} and one {@code SAVE TRAN} per batch, the reject table's set-up).</li>
 * </ul>
 *
 * <pre>
 * benchmark/cpu.sh [--rows 2000000] [--shapes LINEITEM,NARROW] [--runs 3] [--warmups 1] [--batch-size 65536]
 *                  [--paths src,adapt,direct,driver[,direct-rej,driver-rej]] [--work-dir DIR] [--emulator-jar JAR] [--sink-mode sink]
 *                  [--jfr DIR] [--duckdb-threads N] [--alternate true] [--encrypt true]
 * </pre>
 *
 * <p>{@code --encrypt true} runs the routes' producer over TLS ({@code encrypt=true;trustServerCertificate=true}, the
 * emulator's self-signed certificate), as the producer runs by default; without it the routes run in plain TDS.
 */
public final class ClientCpu {

    static final String PASSWORD = BenchSupport.PASSWORD;
    /** The paths run by default. */
    static final List<String> ALL_PATHS = List.of("src", "adapt", "direct", "driver");
    /** The direct and driver routes with {@code maxRejectedRows}, on data without a bad row (run when named). */
    static final List<String> REJECT_PATHS = List.of("direct-rej", "driver-rej");
    /** The producer options of the {@link #REJECT_PATHS}: a limit and a reject table, nothing to reject. */
    static final String REJECT_OPTIONS = "&maxRejectedRows=1000&rejectTable=dbo.cpu_rejects";

    // ---- options ----
    long rows = 2_000_000;
    List<Shape> shapes = List.of(Shape.LINEITEM, Shape.NARROW);
    int runs = 3;
    int warmups = 1;
    /** Measured runs round by round across the paths ({@link #runAlternating}) instead of path by path. */
    boolean alternate;
    int batchSize = 65_536;
    int files = 4;
    List<String> paths = ALL_PATHS;
    Path workDir;
    Path emulatorJar;
    /** The emulator's sink option: {@code sink} (full decoding, the default). */
    String sinkMode = "sink";
    /** When set, one JFR recording per shape and path covers its measured runs. */
    Path jfrDir;
    /** DuckDB's worker threads ({@code SET threads=N} through the consumer's initSql); 0 = DuckDB's default. */
    int duckdbThreads;

    /** One path's measured runs on one shape. */
    record PathResult(Shape shape, String path, long rows, double[] clientNsPerRow, double[] emulatorNsPerRow,
            double[] wallSeconds, double[] jitNsPerRow) {
        double clientNs() {
            return median(clientNsPerRow);
        }

        /** The JIT compiler threads' CPU per row within the client's, median; NaN where the OS does not report it. */
        double jitNs() {
            return median(jitNsPerRow);
        }

        /** Each run's client CPU per row less its JIT compiler threads', median (NaN without the JIT's time). */
        double clientLessJitNs() {
            return BenchSupport.medianOfDifferences(clientNsPerRow, jitNsPerRow);
        }

        double emulatorNs() {
            return median(emulatorNsPerRow);
        }

        double rowsPerSecond() {
            return rows / median(wallSeconds);
        }
    }

    private final List<PathResult> results = new ArrayList<>();
    private final Map<Shape, List<BoundColumn>> adapterColumns = new LinkedHashMap<>();
    private EmulatorProcess emulator;
    private int port;
    private String url;
    /** Whether the routes' producer connects with TLS (the product's default; the setup connections stay plain). */
    private boolean encrypt;
    private String launchedAs;
    private int routeSeq;

    public static void main(String[] args) throws Exception {
        ClientCpu c = new ClientCpu();
        c.parse(args);
        c.run();
        System.exit(0);
    }

    void parse(String[] args) {
        BenchSupport.options(args, (a, v) -> {
            switch (a) {
                case "--rows" -> rows = Long.parseLong(v.replace("_", ""));
                case "--shapes", "--shape" -> shapes = Arrays.stream(v.split(","))
                        .map(s -> Shape.valueOf(s.trim().toUpperCase(Locale.ROOT))).toList();
                case "--runs" -> runs = Integer.parseInt(v);
                case "--warmups" -> warmups = Integer.parseInt(v);
                case "--alternate" -> alternate = Boolean.parseBoolean(v);
                case "--batch-size" -> batchSize = Integer.parseInt(v);
                case "--paths" -> paths = List.of(v.split(","));
                case "--work-dir" -> workDir = Path.of(v);
                case "--emulator-jar" -> emulatorJar = Path.of(v);
                case "--sink-mode" -> sinkMode = v;
                case "--jfr" -> jfrDir = Path.of(v);
                case "--duckdb-threads" -> duckdbThreads = Integer.parseInt(v);
                case "--encrypt" -> encrypt = Boolean.parseBoolean(v);
                default -> throw new IllegalArgumentException("unknown option " + a + " (see the class comment)");
            }
        });
        for (String p : paths) {
            if (!ALL_PATHS.contains(p) && !REJECT_PATHS.contains(p)) {
                throw new IllegalArgumentException("unknown path " + p + "; known: " + ALL_PATHS + ", "
                        + REJECT_PATHS);
            }
        }
        if (alternate && jfrDir != null) {
            throw new IllegalArgumentException("--jfr records one path's runs and --alternate mixes them: use one");
        }
    }

    void run() throws Exception {
        System.out.printf("DeltaFunnel client CPU per row: shapes %s, %,d rows, batch %,d, %d warm-up + %d measured"
                + " runs%s%s%n", shapes, rows, batchSize, warmups, runs,
                alternate ? ", alternating round by round" : "", encrypt ? ", routes over TLS (encrypt=true)" : "");
        System.out.println(BenchSupport.conditions());
        boolean ownWorkDir = workDir == null;
        if (ownWorkDir) {
            workDir = Files.createTempDirectory("deltafunnel-cpu");
        }
        try {
            startEmulator();
            for (Shape shape : shapes) {
                runShape(shape);
            }
            report(System.out);
        } finally {
            stopEmulator();
            if (ownWorkDir) {
                BenchSupport.deleteTree(workDir);
            }
        }
    }

    /** The results of the last {@link #run()}, in run order. */
    List<PathResult> results() {
        return results;
    }

    // ---- the emulator, as a child process ----

    private void startEmulator() throws IOException, InterruptedException {
        emulator = EmulatorProcess.start(emulatorJar, sinkMode);
        port = emulator.port();
        launchedAs = emulator.launchedAs();
        url = emulator.url();
        System.out.printf("emulator: pid %d, port %d, %s --%s%n", emulator.pid(), port, launchedAs, sinkMode);
    }

    private void stopEmulator() throws InterruptedException {
        if (emulator != null) {
            emulator.close();
        }
    }

    /** The emulator process's CPU time so far, in ns, or -1 when the OS does not report it. */
    private long emulatorCpuNanos() {
        return emulator.cpuNanos();
    }

    static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    // ---- one shape ----

    private void runShape(Shape shape) throws Exception {
        String name = shape.name().toLowerCase(Locale.ROOT);
        Path table = workDir.resolve("table-" + name + "-" + rows);
        generate(shape, table);
        String target = "cpu_" + name;
        try (Connection c = BenchSupport.sqlServer(url); Statement st = c.createStatement()) {
            st.execute(shape.createTableSql(target));
        }
        String query = BenchSupport.parquetQuery(table);
        if (alternate) {
            runAlternating(shape, query, target);
            return;
        }
        for (String path : paths) {
            System.out.printf("%n== %s %s (load average %s)%n", shape, path, BenchSupport.loadAverage());
            for (int w = 0; w < warmups; w++) {
                measureOnce(shape, path, query, target, "warm-up " + (w + 1));
            }
            jdk.jfr.Recording jfr = null;
            if (jfrDir != null) {
                Files.createDirectories(jfrDir);
                jfr = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
                jfr.start();
            }
            double[][] m = new double[4][runs];
            for (int i = 0; i < runs; i++) {
                record(m, i, measureOnce(shape, path, query, target, "run " + (i + 1)));
            }
            if (jfr != null) {
                jfr.stop();
                Path file = jfrDir.resolve(name + "-" + path + ".jfr");
                jfr.dump(file);
                jfr.close();
                System.out.println("  JFR recording of the measured runs: " + file);
            }
            results.add(new PathResult(shape, path, rows, m[0], m[1], m[2], m[3]));
        }
    }

    /**
     * {@code --alternate true}: every path's warm-ups first, then the measured runs round by round, one run of each
     * path per round in the order given, so that a drift of the machine or of the JVMs over the minutes the runs take
     * falls on every path alike (run-order effects otherwise reach ±20% between two paths measured one after the other).
     */
    private void runAlternating(Shape shape, String query, String target) throws Exception {
        for (String path : paths) {
            System.out.printf("%n== %s %s warm-up (load average %s)%n", shape, path, BenchSupport.loadAverage());
            for (int w = 0; w < warmups; w++) {
                measureOnce(shape, path, query, target, "warm-up " + (w + 1));
            }
        }
        double[][][] m = new double[paths.size()][4][runs];
        for (int i = 0; i < runs; i++) {
            System.out.printf("%n== %s round %d of %d, paths %s (load average %s)%n", shape, i + 1, runs, paths,
                    BenchSupport.loadAverage());
            for (int p = 0; p < paths.size(); p++) {
                record(m[p], i, measureOnce(shape, paths.get(p), query, target, paths.get(p) + " run " + (i + 1)));
            }
        }
        for (int p = 0; p < paths.size(); p++) {
            results.add(new PathResult(shape, paths.get(p), rows, m[p][0], m[p][1], m[p][2], m[p][3]));
        }
    }

    /** Stores one run's client ns/row, emulator ns/row, wall seconds and JIT ns/row as run {@code i}. */
    private static void record(double[][] m, int i, double[] run) {
        for (int k = 0; k < m.length; k++) {
            m[k][i] = run[k];
        }
    }

    private void generate(Shape shape, Path table) throws Exception {
        long t0 = System.nanoTime();
        if (BenchSupport.generate(shape, table, rows, files) >= 0) {
            System.out.printf("generated Delta table %s: %,d rows, %d Parquet files, %.1f s%n", table, rows, files,
                    (System.nanoTime() - t0) / 1e9);
        }
    }

    /**
     * One run: a fresh Camel context with one route, started, waited for and stopped. Returns client ns/row,
     * emulator ns/row and wall seconds, all over the same span.
     */
    private double[] measureOnce(Shape shape, String path, String query, String target, String label)
            throws Exception {
        System.gc();
        String id = "cpu" + (routeSeq++);
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong rowsDone = new AtomicLong();
        String source = "deltafunnel:" + id + "?query=RAW(" + query + ")&batchSize=" + batchSize
                + "&repeatCount=1&initialDelay=0&delay=3600000"
                + (duckdbThreads > 0 ? "&initSql=RAW(SET threads=" + duckdbThreads + ")" : "");
        String sinkUrl = encrypt ? BenchSupport.tlsUrl(port) : url;
        String sink = "deltafunnel-mssql:dbo." + target + "?url=RAW(" + sinkUrl + ")&username=sa&password=RAW("
                + PASSWORD + ")&tableLock=true&transaction=run"
                + (path.startsWith("direct") ? "&bulkEncoder=direct&bulkEncoderFallback=false" : "")
                + (REJECT_PATHS.contains(path) ? REJECT_OPTIONS : "");
        if (path.equals("adapt") && !adapterColumns.containsKey(shape)) {
            // Bound once, outside the measured span: the adapt path measures the per-row work only.
            adapterColumns.put(shape, bindColumns(query, target));
        }
        List<BoundColumn> columns = adapterColumns.get(shape);
        ProcessStat stat0 = ProcessStat.now();
        JitCpu jit0 = JitCpu.now();
        long cpu0 = processCpuNanos();
        long emu0 = emulatorCpuNanos();
        long t0 = System.nanoTime();
        long startedCpu = 0;
        long startedAt = 0;
        long doneCpu = 0;
        long doneAt = 0;
        String phases;
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
                    var route = from(source).routeId(id);
                    switch (path) {
                        case "src" -> route.process(e -> {
                        });
                        case "adapt" -> route.process(e -> adapt(e.getMessage().getBody(VectorSchemaRoot.class),
                                columns));
                        default -> route.to(sink);
                    }
                    route.process(e -> {
                        rowsDone.addAndGet(e.getMessage().getBody(VectorSchemaRoot.class).getRowCount());
                        if (Boolean.TRUE.equals(e.getProperty(Exchange.BATCH_COMPLETE, Boolean.class))) {
                            done.countDown();
                        }
                    });
                }
            });
            camel.start();
            startedCpu = processCpuNanos();
            startedAt = System.nanoTime();
            if (!done.await(30, TimeUnit.MINUTES)) {
                throw new IllegalStateException(shape + " " + path + ": the route did not finish");
            }
            doneCpu = processCpuNanos();
            doneAt = System.nanoTime();
        } finally {
            camel.stop();
        }
        long wallNanos = System.nanoTime() - t0;
        long cpu = processCpuNanos() - cpu0;
        phases = String.format("start %.0f ms cpu / %.0f ms wall, load %.0f / %.0f, stop %.0f / %.0f",
                (startedCpu - cpu0) / 1e6, (startedAt - t0) / 1e6, (doneCpu - startedCpu) / 1e6,
                (doneAt - startedAt) / 1e6, (cpu0 + cpu - doneCpu) / 1e6, (t0 + wallNanos - doneAt) / 1e6);
        long emuNanos = emulatorCpuNanos() - emu0;
        ProcessStat stat = ProcessStat.now().minus(stat0);
        long jitNanos = JitCpu.now().since(jit0);
        double jitNs = jitNanos < 0 ? Double.NaN : (double) jitNanos / rows;
        if (jitNanos >= 0) {
            phases += String.format(", JIT %.0f ns/row", jitNs);
        }
        if (stat.known()) {
            phases += String.format(", system %.0f ns/row, minor faults %.1f per 1k rows",
                    (double) stat.systemNanos() / rows, stat.minorFaults() * 1000.0 / rows);
        }
        if (failure.get() != null) {
            throw new IllegalStateException(shape + " " + path + " failed: " + failure.get(), failure.get());
        }
        if (rowsDone.get() != rows) {
            throw new IllegalStateException(shape + " " + path + ": " + rowsDone.get() + " rows, expected " + rows);
        }
        double clientNs = (double) cpu / rows;
        double emuNs = emu0 < 0 ? Double.NaN : (double) emuNanos / rows;
        System.out.printf("  %-10s client %7.0f ns/row   emulator %7.0f ns/row   wall %6.2f s %,12.0f rows/s   (%s)%n",
                label, clientNs, emuNs, wallNanos / 1e9, rows / (wallNanos / 1e9), phases);
        return new double[] {clientNs, emuNs, wallNanos / 1e9, jitNs};
    }

    private List<BoundColumn> bindColumns(String query, String target) throws Exception {
        try (var allocator = new org.apache.arrow.memory.RootAllocator();
                Connection duck = DuckDbConnections.open(DuckDbSettings.inMemory());
                Statement st = duck.createStatement();
                var rs = st.executeQuery(query + " LIMIT 1");
                var reader = (org.apache.arrow.vector.ipc.ArrowReader) rs.unwrap(org.duckdb.DuckDBResultSet.class)
                        .arrowExportStream(allocator, 1);
                Connection meta = BenchSupport.sqlServer(url)) {
            return BulkColumns.bind(meta, target, reader.getVectorSchemaRoot().getSchema());
        }
    }

    /** What the driver encoder asks of our adapter for one batch: validate it, then convert every row. */
    private static void adapt(VectorSchemaRoot root, List<BoundColumn> columns) throws SQLException {
        BulkColumns.requireFits(root, columns);
        ArrowBulkData data = new ArrowBulkData(new BulkBatch(root, columns, 0));
        long sink = 0;
        while (data.next()) {
            sink += System.identityHashCode(data.getRowData()[0]) & 1;
        }
        if (sink < 0) {
            throw new IllegalStateException("unreachable");
        }
    }

    // ---- report ----

    void report(java.io.PrintStream out) {
        out.printf("%n## Client CPU per row (%,d rows per run, median of %d runs after %d warm-up; emulator in a"
                + " separate process, --%s)%n%n", rows, runs, warmups, sinkMode);
        out.println("Conditions: " + Runtime.getRuntime().availableProcessors() + " CPUs, load average at the end "
                + BenchSupport.loadAverage() + ", emulator: " + launchedAs);
        out.println();
        out.println("| shape | path | client CPU ns/row | ratio to source | client runs ns/row | of it JIT | less JIT"
                + " | ratio to source | emulator CPU ns/row | wall rows/s (median) |");
        out.println("|---|---|---:|---:|---|---:|---:|---:|---:|---:|");
        for (PathResult r : results) {
            Double src = clientNs(r.shape(), "src");
            PathResult srcResult = result(r.shape(), "src");
            boolean jitKnown = !Double.isNaN(r.jitNs());
            out.printf("| %s | %s | %,.0f | %s | %s | %s | %s | %s | %s | %,.0f |%n", r.shape(), describe(r.path()),
                    r.clientNs(), src == null ? "-" : String.format("%.2f×", r.clientNs() / src),
                    Arrays.toString(Arrays.stream(r.clientNsPerRow()).mapToLong(Math::round).toArray()),
                    jitKnown ? String.format("%,.0f", r.jitNs()) : "-",
                    jitKnown ? String.format("%,.0f", r.clientLessJitNs()) : "-",
                    !jitKnown || srcResult == null ? "-"
                            : String.format("%.2f×", r.clientLessJitNs() / srcResult.clientLessJitNs()),
                    r.path().equals("src") || r.path().equals("adapt") ? "-"
                            : String.format("%,.0f", r.emulatorNs()), r.rowsPerSecond());
        }
        for (Shape shape : shapes) {
            Double src = clientNs(shape, "src");
            Double adapt = clientNs(shape, "adapt");
            Double driver = clientNs(shape, "driver");
            Double direct = clientNs(shape, "direct");
            out.println();
            out.println("### " + shape);
            if (src != null && direct != null) {
                out.printf("- direct route / source: %.2f× (goal <= 1.5×); direct adds %,.0f ns/row to reading%n",
                        direct / src, direct - src);
                double lessJit = result(shape, "direct").clientLessJitNs() / result(shape, "src").clientLessJitNs();
                if (!Double.isNaN(lessJit)) {
                    out.printf("- the same less each run's JIT compiler time: %.2f×%n", lessJit);
                }
                if (alternate) {
                    PathResult d = result(shape, "direct");
                    PathResult s = result(shape, "src");
                    out.printf("- paired by round (each round's direct run ÷ the same round's source run, median"
                            + " [min–max] over %d rounds): %s; less each run's JIT time: %s%n", runs,
                            BenchSupport.PairedRatios.of(d.clientNsPerRow(), s.clientNsPerRow()).text(),
                            BenchSupport.PairedRatios.of(
                                    BenchSupport.differences(d.clientNsPerRow(), d.jitNsPerRow()),
                                    BenchSupport.differences(s.clientNsPerRow(), s.jitNsPerRow())).text());
                }
            }
            if (src != null && adapt != null && driver != null) {
                out.printf("- driver route, split: source %,.0f + ours (ArrowBulkData validate + getRowData) %,.0f +"
                        + " mssql-jdbc and producer %,.0f = %,.0f ns/row; ours is %.0f%% of what loading adds%n", src,
                        adapt - src, driver - adapt, driver, 100 * (adapt - src) / (driver - src));
            }
            if (src != null && driver != null) {
                out.printf("- driver route / source: %.2f×%n", driver / src);
            }
            for (String route : List.of("direct", "driver")) {
                Double off = clientNs(shape, route);
                Double on = clientNs(shape, route + "-rej");
                if (off != null && on != null) {
                    out.printf("- %s route with maxRejectedRows (nothing rejected) − without: %+,.0f ns/row (%+.1f%%)%n",
                            route, on - off, 100 * (on - off) / off);
                }
            }
        }
    }

    private Double clientNs(Shape shape, String path) {
        PathResult r = result(shape, path);
        return r == null ? null : r.clientNs();
    }

    private PathResult result(Shape shape, String path) {
        return results.stream().filter(r -> r.shape() == shape && r.path().equals(path)).findFirst().orElse(null);
    }

    static String describe(String path) {
        return switch (path) {
            case "src" -> "source only: deltafunnel: → no-op processor";
            case "adapt" -> "source + ArrowBulkData validate/getRowData, nothing sent";
            case "direct" -> "route, bulkEncoder=direct";
            case "driver" -> "route, driver encoder (mssql-jdbc)";
            case "direct-rej" -> "route, bulkEncoder=direct, maxRejectedRows=1000 (nothing rejected)";
            case "driver-rej" -> "route, driver encoder, maxRejectedRows=1000 (nothing rejected)";
            default -> path;
        };
    }

    static double median(double[] v) {
        return BenchSupport.median(v);
    }
}
