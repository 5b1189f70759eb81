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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.deltafunnel.mssql.shard.LoadRowStatus;
import io.deltafunnel.mssql.shard.ShardRowStatus;
import io.deltafunnel.mssql.shard.ShardTables;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * Sharded loads (issue #17, {@code docs/sharding.md}): one load of a generated Delta table split into N shards, N
 * routes in one loader JVM, each {@code deltafunnel:<name>?delta.t=…&shardCount=N&shardIndex=i&loadId=…} →
 * {@code deltafunnel-mssql:…}, against the emulator's executable jar in sink mode as a separate process
 * ({@link EmulatorProcess}). See benchmark/README.md, "Sharded loads".
 *
 * <p>For every shape, encoder ({@code driver}, {@code direct}) and shard count, each run builds a fresh Camel context
 * with the N routes, starts it, waits until every route has seen its batch marked complete and stops it. Reported:
 * rows/s (the table's rows over the span from the context's start to the last route's completion) and the loader's
 * client CPU per row (this JVM's process CPU time, {@code getProcessCpuTime}, from before the context is created to
 * after it is stopped, ÷ rows), the emulator process's CPU per row over the same span, and the rows of each shard.
 *
 * <p>Each run is checked: the routes together saw exactly the table's rows, and, for N &gt; 1, the load's row in
 * {@code <state>_loads} is {@code done} and its N rows in {@code <state>_shards} are {@code done} with rows adding up
 * to the table's (so the plan/commit protocol ran, and its final step ran once). A shard count of 1 is the
 * baseline: the ordinary, unsharded load (no shard options, no plan, no staging table).
 *
 * <p>In sink mode the emulator decodes and checks every bulk row going into the load's staging heap and stores
 * none; every other statement of the protocol (plan rows, {@code SELECT TOP 0 … INTO} staging,
 * {@code sp_getapplock}, {@code UPDLOCK, HOLDLOCK}, the final {@code INSERT … SELECT}, {@code DROP}) runs normally
 * on H2, over an empty staging table: the final step moves 0 rows here, where a real server copies every row once
 * more.
 *
 * <pre>
 * benchmark/shards.sh [--rows 1000000] [--shapes LINEITEM,NARROW] [--shards 1,2,4] [--encoders driver,direct]
 *                     [--runs 3] [--warmups 1|auto] [--alternate false] [--batch-size 65536] [--files 16]
 *                     [--work-dir DIR] [--emulator-jar JAR] [--duckdb-threads N] [--protocol-check true] [--shared-duckdb true]
 *                     [--init-sql "SET …;SET …"]
 * </pre>
 */
public final class ShardBench {

    static final List<String> ENCODERS = List.of("driver", "direct");
    /**
     * Not a producer: the N shard consumers into a no-op processor, to see what sharding costs the reading side
     * ({@code --encoders none}; the load stays open, so its rows are not checked).
     */
    static final String NONE = "none";
    /** The state table of the load plans (its siblings {@code _loads}, {@code _shards} hold the protocol's rows). */
    static final String STATE_TABLE = "dbo.deltafunnel_state";

    // ---- options ----
    long rows = 1_000_000;
    List<Shape> shapes = List.of(Shape.LINEITEM, Shape.NARROW);
    List<Integer> shardCounts = List.of(1, 2, 4);
    List<String> encoders = ENCODERS;
    int runs = 3;
    /**
     * {@code --alternate true}: every shard count's warm-ups first, then the measured runs round by round (one run of
     * each shard count per round), so that a drift of the machine over the minutes the runs take falls on every shard
     * count alike; on 2026-12-06 the same two blocks, one after the other, gave N=4/N=1 of 1.39× and 1.01×.
     */
    boolean alternate;
    /**
     * Warm-up runs of each configuration before the measured ones; {@link #AUTO_WARMUPS} ({@code --warmups auto}):
     * warm-ups until one is at {@linkplain #warm steady state}, at most {@link #MAX_AUTO_WARMUPS}. On 2026-12-06 no
     * configuration got there within 8 (each run of a fresh Camel context still compiled 10-80 ns/row), which is why the
     * report carries each run's JIT time and the client CPU less it.
     */
    int warmups = 1;
    int batchSize = 65_536;
    /** Parquet files of the generated table: shards split by file, so more files than shards keep the shares even. */
    int files = 16;
    Path workDir;
    Path emulatorJar;
    int duckdbThreads;
    /** Further DuckDB init SQL of every route ({@code --init-sql}, after {@code SET threads}), for diagnostics. */
    String initSql = "";
    /**
     * Whether each sharded run must show the protocol's record (load {@code done}, N shard rows {@code done}).
     * {@code --protocol-check false} only measures N parallel streams of a producer that does not run the protocol
     * (issue #17's producer part not merged): the report then says so.
     */
    boolean protocolCheck = true;
    /**
     * The consumer's {@code sharedDuckDb} (issue #29): true (its default) takes every in-memory DuckDB connection of a
     * run's routes from one instance; {@code --shared-duckdb false} starts one per run, plan and check, as before.
     */
    boolean sharedDuckDb = true;

    /** {@code --warmups auto}: see {@link #warmups}. */
    static final int AUTO_WARMUPS = -1;
    /** The most warm-ups {@code --warmups auto} runs when none reaches steady state (the report then says so). */
    static final int MAX_AUTO_WARMUPS = 8;
    /**
     * The largest share of a warm-up's client CPU that the JIT compiler threads may take for the warm-up to count as
     * steady state under {@code --warmups auto}.
     */
    static final double STEADY_JIT_SHARE = 0.02;

    /** One configuration's measured runs, after {@code warmups} warm-ups ({@code steady}: the last one was warm). */
    record ShardResult(Shape shape, String encoder, int shards, long rows, double[] rowsPerSecond,
            double[] clientNsPerRow, double[] emulatorNsPerRow, long[] rowsPerShard, double[] systemNsPerRow,
            double[] minorFaultsPerKiloRow, double[] jitNsPerRow, int warmups, boolean steady) {
        double rate() {
            return BenchSupport.median(rowsPerSecond);
        }

        double clientNs() {
            return BenchSupport.median(clientNsPerRow);
        }

        double emulatorNs() {
            return BenchSupport.median(emulatorNsPerRow);
        }

        /** The loader's system (kernel) CPU time per row, median; NaN where the OS does not report it. */
        double systemNs() {
            return BenchSupport.median(systemNsPerRow);
        }

        /** The loader's minor page faults per 1,000 rows, median; NaN where the OS does not report them. */
        double faultsPerKiloRow() {
            return BenchSupport.median(minorFaultsPerKiloRow);
        }

        /** The JIT compiler threads' CPU per row within the client's, median; NaN where the OS does not report it. */
        double jitNs() {
            return BenchSupport.median(jitNsPerRow);
        }

        /**
         * The client's CPU per row less its JIT compiler threads' in each run, median: the loader's work without the
         * code still being compiled; NaN where the OS does not report the JIT's time.
         */
        double clientLessJitNs() {
            return BenchSupport.medianOfDifferences(clientNsPerRow, jitNsPerRow);
        }

        /** The largest shard's rows over the mean shard's (1.00 = perfectly balanced). */
        double largestShare() {
            long max = Arrays.stream(rowsPerShard).max().orElse(0);
            double mean = (double) Arrays.stream(rowsPerShard).sum() / rowsPerShard.length;
            return mean == 0 ? Double.NaN : max / mean;
        }
    }

    /** One run's figures. */
    private record RunFigures(double rowsPerSecond, double clientNsPerRow, double emulatorNsPerRow,
            long[] rowsPerShard, double systemNsPerRow, double faultsPerKiloRow, double jitNsPerRow) {
    }

    /**
     * Whether a run was at steady state: its JIT compiler threads took at most {@link #STEADY_JIT_SHARE} of the
     * client's CPU. Unknown JIT time (no {@code /proc}) counts as warm: {@code --warmups auto} then runs one warm-up.
     */
    static boolean warm(double clientNsPerRow, double jitNsPerRow) {
        return Double.isNaN(jitNsPerRow) || jitNsPerRow <= STEADY_JIT_SHARE * clientNsPerRow;
    }

    private final List<ShardResult> results = new ArrayList<>();
    private EmulatorProcess emulator;
    private String url;
    private int loadSeq;

    public static void main(String[] args) throws Exception {
        ShardBench b = new ShardBench();
        b.parse(args);
        b.run();
        System.exit(0);
    }

    void parse(String[] args) {
        BenchSupport.options(args, (a, v) -> {
            switch (a) {
                case "--rows" -> rows = Long.parseLong(v.replace("_", ""));
                case "--shapes", "--shape" -> shapes = Arrays.stream(v.split(","))
                        .map(s -> Shape.valueOf(s.trim().toUpperCase(Locale.ROOT))).toList();
                case "--shards" -> shardCounts = Arrays.stream(v.split(",")).map(s -> Integer.valueOf(s.trim()))
                        .toList();
                case "--encoders" -> encoders = List.of(v.split(","));
                case "--runs" -> runs = Integer.parseInt(v);
                case "--alternate" -> alternate = Boolean.parseBoolean(v);
                case "--warmups" -> warmups = v.equals("auto") ? AUTO_WARMUPS : Integer.parseInt(v);
                case "--batch-size" -> batchSize = Integer.parseInt(v);
                case "--files" -> files = Integer.parseInt(v);
                case "--work-dir" -> workDir = Path.of(v);
                case "--emulator-jar" -> emulatorJar = Path.of(v);
                case "--duckdb-threads" -> duckdbThreads = Integer.parseInt(v);
                case "--protocol-check" -> protocolCheck = Boolean.parseBoolean(v);
                case "--shared-duckdb" -> sharedDuckDb = Boolean.parseBoolean(v);
                case "--init-sql" -> initSql = v;
                default -> throw new IllegalArgumentException("unknown option " + a + " (see the class comment)");
            }
        });
        for (String e : encoders) {
            if (!ENCODERS.contains(e) && !e.equals(NONE)) {
                throw new IllegalArgumentException("unknown encoder " + e + "; known: " + ENCODERS);
            }
        }
        for (int n : shardCounts) {
            if (n < 1) {
                throw new IllegalArgumentException("shard count " + n + " < 1");
            }
        }
    }

    void run() throws Exception {
        System.out.printf("DeltaFunnel sharded loads: shapes %s, %,d rows in %d files, shards %s, encoders %s, batch"
                + " %,d, %s warm-up + %d measured runs, sharedDuckDb=%s%n", shapes, rows, files, shardCounts, encoders,
                batchSize, warmupsText(), runs, sharedDuckDb);
        System.out.println(BenchSupport.conditions());
        if (shardCounts.stream().anyMatch(n -> n > 1)) {
            requireShardOptions();
        }
        boolean ownWorkDir = workDir == null;
        if (ownWorkDir) {
            workDir = Files.createTempDirectory("deltafunnel-shards");
        }
        try {
            emulator = EmulatorProcess.start(emulatorJar, "sink");
            url = emulator.url();
            System.out.printf("emulator: pid %d, port %d, %s --sink%n", emulator.pid(), emulator.port(),
                    emulator.launchedAs());
            for (Shape shape : shapes) {
                runShape(shape);
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
    List<ShardResult> results() {
        return results;
    }

    /**
     * Fails at once, with what is missing, when the {@code deltafunnel:} consumer on the class path has no shard
     * options (issue #17's consumer part not merged): every route would otherwise fail on an unknown parameter.
     */
    static void requireShardOptions() throws Exception {
        Set<String> missing = missingShardOptions();
        if (!missing.isEmpty()) {
            throw new IllegalStateException("the deltafunnel: consumer on the class path has no option(s) " + missing
                    + " (issue #17's consumer part, branch shard-consumer, is not merged)");
        }
    }

    /** The shard options of docs/sharding.md that the {@code deltafunnel:} endpoint does not know. */
    static Set<String> missingShardOptions() throws Exception {
        try (CamelContext camel = new DefaultCamelContext()) {
            Set<String> known = camel.getCamelContextExtension().getEndpointUriFactory("deltafunnel").propertyNames();
            Set<String> missing = new java.util.TreeSet<>(Set.of("shardCount", "shardIndex", "shardView", "loadId"));
            missing.removeAll(known);
            return missing;
        }
    }

    // ---- one shape ----

    private void runShape(Shape shape) throws Exception {
        String name = shape.name().toLowerCase(Locale.ROOT);
        Path table = workDir.resolve("table-" + name + "-" + rows + "-" + files);
        long t0 = System.nanoTime();
        if (BenchSupport.generate(shape, table, rows, files) >= 0) {
            System.out.printf("generated Delta table %s: %,d rows, %d Parquet files, %.1f s%n", table, rows, files,
                    (System.nanoTime() - t0) / 1e9);
        }
        String target = "shard_" + name;
        try (Connection c = BenchSupport.sqlServer(url); Statement st = c.createStatement()) {
            st.execute(shape.createTableSql(target));
        }
        for (String encoder : encoders) {
            if (!alternate) {
                for (int n : shardCounts) {
                    Warmed warmed = warmUp(shape, table, target, encoder, n);
                    List<RunFigures> runFigures = new ArrayList<>();
                    for (int i = 0; i < runs; i++) {
                        runFigures.add(measureOnce(shape, table, target, encoder, n, "run " + (i + 1)));
                    }
                    results.add(result(shape, encoder, n, runFigures, warmed));
                }
                continue;
            }
            // --alternate: every shard count's warm-ups, then the measured runs round by round
            Map<Integer, Warmed> warmed = new LinkedHashMap<>();
            Map<Integer, List<RunFigures>> runFigures = new LinkedHashMap<>();
            for (int n : shardCounts) {
                warmed.put(n, warmUp(shape, table, target, encoder, n));
                runFigures.put(n, new ArrayList<>());
            }
            for (int i = 0; i < runs; i++) {
                System.out.printf("%n== %s, %s encoder, round %d of %d, shards %s (load average %s)%n", shape, encoder,
                        i + 1, runs, shardCounts, BenchSupport.loadAverage());
                for (int n : shardCounts) {
                    runFigures.get(n).add(measureOnce(shape, table, target, encoder, n, n + " shard(s) run " + (i + 1)));
                }
            }
            for (int n : shardCounts) {
                results.add(result(shape, encoder, n, runFigures.get(n), warmed.get(n)));
            }
        }
    }

    /** How a configuration was warmed up: the warm-ups run, and whether the last was at steady state. */
    private record Warmed(int warmups, boolean steady) {
    }

    /** The configuration's warm-ups ({@link #warmups}). */
    private Warmed warmUp(Shape shape, Path table, String target, String encoder, int n) throws Exception {
        System.out.printf("%n== %s, %s encoder, %d shard(s)%s (load average %s)%n", shape, encoder, n,
                alternate ? ", warm-up" : "", BenchSupport.loadAverage());
        int warmedUp = 0;
        boolean steady = false;
        while (warmups == AUTO_WARMUPS ? !steady && warmedUp < MAX_AUTO_WARMUPS : warmedUp < warmups) {
            RunFigures w = measureOnce(shape, table, target, encoder, n, "warm-up " + (++warmedUp));
            steady = warm(w.clientNsPerRow(), w.jitNsPerRow());
        }
        return new Warmed(warmedUp, steady);
    }

    private ShardResult result(Shape shape, String encoder, int n, List<RunFigures> runFigures, Warmed warmed) {
        double[] rate = runFigures.stream().mapToDouble(RunFigures::rowsPerSecond).toArray();
        double[] client = runFigures.stream().mapToDouble(RunFigures::clientNsPerRow).toArray();
        double[] emu = runFigures.stream().mapToDouble(RunFigures::emulatorNsPerRow).toArray();
        double[] sys = runFigures.stream().mapToDouble(RunFigures::systemNsPerRow).toArray();
        double[] faults = runFigures.stream().mapToDouble(RunFigures::faultsPerKiloRow).toArray();
        double[] jit = runFigures.stream().mapToDouble(RunFigures::jitNsPerRow).toArray();
        long[] perShard = runFigures.get(runFigures.size() - 1).rowsPerShard();
        return new ShardResult(shape, encoder, n, rows, rate, client, emu, perShard, sys, faults, jit,
                warmed.warmups(), warmed.steady());
    }

    /**
     * One load: a fresh Camel context with N routes (one per shard, same endpoint name, so one load key, and one new
     * load id), started, waited for and stopped; then the load's rows in the state tables are checked.
     */
    private RunFigures measureOnce(Shape shape, Path table, String target, String encoder, int n, String label)
            throws Exception {
        System.gc();
        String loadId = "bench-" + ProcessHandle.current().pid() + "-" + (loadSeq++);
        CountDownLatch done = new CountDownLatch(n);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong[] shardRows = new AtomicLong[n];
        String sink = "deltafunnel-mssql:dbo." + target + "?url=RAW(" + url + ")&username=sa&password=RAW("
                + BenchSupport.PASSWORD + ")&tableLock=true&transaction=run"
                + (encoder.equals("direct") ? "&bulkEncoder=direct&bulkEncoderFallback=false" : "");
        ProcessStat stat0 = ProcessStat.now();
        JitCpu jit0 = JitCpu.now();
        long cpu0 = ClientCpu.processCpuNanos();
        long emu0 = emulator.cpuNanos();
        long t0 = System.nanoTime();
        long doneAt;
        CamelContext camel = new DefaultCamelContext();
        try {
            camel.setAutowiredEnabled(false);
            camel.getRegistry().bind("shardStateDs", BenchSupport.dataSource(url));
            camel.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    onException(Exception.class).process(e -> {
                        failure.compareAndSet(null, e.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class));
                        while (done.getCount() > 0) {
                            done.countDown();
                        }
                    });
                    for (int i = 0; i < n; i++) {
                        int shard = i;
                        shardRows[i] = new AtomicLong();
                        var route = from(sourceUri(table, n, shard, loadId)).routeId("shard" + i);
                        if (!encoder.equals(NONE)) {
                            route.to(sink);
                        }
                        route.process(e -> {
                            shardRows[shard].addAndGet(e.getMessage().getBody(VectorSchemaRoot.class).getRowCount());
                            if (Boolean.TRUE.equals(e.getProperty(Exchange.BATCH_COMPLETE, Boolean.class))) {
                                done.countDown();
                            }
                        });
                    }
                }
            });
            camel.start();
            if (!done.await(30, TimeUnit.MINUTES)) {
                throw new IllegalStateException(shape + " " + encoder + " " + n + " shards: the routes did not finish");
            }
            doneAt = System.nanoTime();
        } finally {
            camel.stop();
        }
        long cpu = ClientCpu.processCpuNanos() - cpu0;
        long emuNanos = emulator.cpuNanos() - emu0;
        ProcessStat stat = ProcessStat.now().minus(stat0);
        long jitNanos = JitCpu.now().since(jit0);
        if (failure.get() != null) {
            throw new IllegalStateException(shape + " " + encoder + " " + n + " shards, load " + loadId + " failed: "
                    + failure.get(), failure.get());
        }
        long[] perShard = Arrays.stream(shardRows).mapToLong(AtomicLong::get).toArray();
        long total = Arrays.stream(perShard).sum();
        if (total != rows) {
            throw new IllegalStateException(shape + " " + encoder + " " + n + " shards: the routes saw " + total
                    + " rows " + Arrays.toString(perShard) + ", expected " + rows);
        }
        if (n > 1 && protocolCheck && !encoder.equals(NONE)) {
            checkLoadRows(loadId, n, perShard);
        }
        double rate = rows / ((doneAt - t0) / 1e9);
        double clientNs = (double) cpu / rows;
        double emuNs = emu0 < 0 ? Double.NaN : (double) emuNanos / rows;
        double sysNs = stat.known() ? (double) stat.systemNanos() / rows : Double.NaN;
        double faultsPerK = stat.known() ? stat.minorFaults() * 1000.0 / rows : Double.NaN;
        double jitNs = jitNanos < 0 ? Double.NaN : (double) jitNanos / rows;
        System.out.printf("  %-10s %,12.0f rows/s   client %7.0f ns/row (system %5.0f, JIT %5.0f)   minor faults %6.1f"
                + " per 1k rows   emulator %7.0f ns/row   shards %s%n", label, rate, clientNs, sysNs, jitNs, faultsPerK,
                emuNs, Arrays.toString(perShard));
        return new RunFigures(rate, clientNs, emuNs, perShard, sysNs, faultsPerK, jitNs);
    }

    private String sourceUri(Path table, int n, int shard, String loadId) {
        // One endpoint name for all shards: the load key (stateKey) defaults to it.
        // One shard: the ordinary unsharded load (no plan, no staging table), the baseline.
        return "deltafunnel:shardbench?delta.t=RAW(" + table.toAbsolutePath() + ")&query=RAW(SELECT * FROM t)"
                + "&batchSize=" + batchSize + "&repeatCount=1&initialDelay=0&delay=3600000"
                + (n == 1 ? "" : "&shardCount=" + n + "&shardIndex=" + shard + "&loadId=" + loadId
                        + "&stateDataSource=#shardStateDs&stateTable=" + STATE_TABLE)
                + initSqlOption()
                + (sharedDuckDb ? "" : "&sharedDuckDb=false");
    }

    /** {@code &initSql=RAW(…)} of {@code --duckdb-threads} and {@code --init-sql}, or nothing. */
    private String initSqlOption() {
        String sql = (duckdbThreads > 0 ? "SET threads=" + duckdbThreads + ";" : "") + initSql;
        return sql.isBlank() ? "" : "&initSql=RAW(" + sql + ")";
    }

    /**
     * The protocol's own record of the load: {@code done}, N shard rows {@code done} whose rows are what each route
     * saw, and the shard that ran the final step.
     */
    private void checkLoadRows(String loadId, int n, long[] perShard) throws SQLException {
        ShardTables t = ShardTables.of(STATE_TABLE);
        try (Connection c = BenchSupport.sqlServer(url)) {
            try (PreparedStatement ps = c.prepareStatement("SELECT [status], [shard_count], [finished_by] FROM "
                    + t.loads().quoted() + " WHERE [load_id] = ?")) {
                ps.setString(1, loadId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        throw new IllegalStateException("load " + loadId + ": no row in " + t.loads()
                                + " (the producer did not run the shard protocol)");
                    }
                    if (!LoadRowStatus.DONE.text().equals(rs.getString(1)) || rs.getInt(2) != n
                            || rs.getObject(3) == null) {
                        throw new IllegalStateException("load " + loadId + ": status " + rs.getString(1) + ", "
                                + rs.getInt(2) + " shards, finished_by " + rs.getObject(3) + "; expected done, " + n
                                + ", a shard");
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT [shard_index], [status], [rows] FROM "
                    + t.shards().quoted() + " WHERE [load_id] = ? ORDER BY [shard_index]")) {
                ps.setString(1, loadId);
                int seen = 0;
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        int i = rs.getInt(1);
                        if (i != seen || !ShardRowStatus.DONE.text().equals(rs.getString(2))
                                || rs.getLong(3) != perShard[i]) {
                            throw new IllegalStateException("load " + loadId + ": shard row " + i + " is "
                                    + rs.getString(2) + " with " + rs.getLong(3) + " rows; the route of shard " + seen
                                    + " saw " + perShard[seen] + " rows");
                        }
                        seen++;
                    }
                }
                if (seen != n) {
                    throw new IllegalStateException("load " + loadId + ": " + seen + " shard rows, expected " + n);
                }
            }
        }
    }

    // ---- report ----

    void report(PrintStream out) {
        out.printf("%n## Sharded loads (%,d rows per load, median of %d runs after %s warm-up%s; N routes in one loader"
                + " JVM, emulator in a separate process, --sink)%n%n", rows, runs, warmupsText(),
                alternate ? ", shard counts alternating round by round" : "");
        out.println("Conditions: " + Runtime.getRuntime().availableProcessors() + " CPUs, load average at the end "
                + BenchSupport.loadAverage() + ", sharedDuckDb=" + sharedDuckDb + ", emulator: "
                + (emulator == null ? "-" : emulator.launchedAs()));
        out.println();
        out.println("| shape | encoder | shards | rows/s (median) | vs 1 shard | largest share | client CPU ns/row"
                + " | vs 1 shard | of it system | of it JIT | less JIT | vs 1 shard | warm-ups | minor faults per 1k rows"
                + " | emulator CPU ns/row | rows per shard |");
        out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
        for (ShardResult r : results) {
            ShardResult one = find(r.shape(), r.encoder(), 1);
            out.printf("| %s | %s | %d | %,.0f | %s | %.2f× mean | %,.0f | %s | %s | %s | %s | %s | %d%s | %s | %s"
                    + " | %s |%n",
                    r.shape(),
                    r.encoder(), r.shards(), r.rate(),
                    one == null ? "-" : String.format("%.2f×", r.rate() / one.rate()), r.largestShare(), r.clientNs(),
                    one == null ? "-" : String.format("%.2f×", r.clientNs() / one.clientNs()),
                    Double.isNaN(r.systemNs()) ? "-" : String.format("%,.0f", r.systemNs()),
                    Double.isNaN(r.jitNs()) ? "-" : String.format("%,.0f", r.jitNs()),
                    Double.isNaN(r.jitNs()) ? "-" : String.format("%,.0f", r.clientLessJitNs()),
                    one == null || Double.isNaN(r.jitNs()) ? "-"
                            : String.format("%.2f×", r.clientLessJitNs() / one.clientLessJitNs()),
                    r.warmups(),
                    r.steady() ? "" : " (not steady)",
                    Double.isNaN(r.faultsPerKiloRow()) ? "-" : String.format("%.1f", r.faultsPerKiloRow()),
                    Double.isNaN(r.emulatorNs()) ? "-" : String.format("%,.0f", r.emulatorNs()),
                    Arrays.toString(r.rowsPerShard()));
        }
        if (alternate) {
            reportPaired(out);
        }
        if (!protocolCheck) {
            out.println("(--protocol-check false: the load and shard rows were NOT checked; without the producer's"
                    + " part of the protocol each shard writes straight into the target)");
        }
        out.println();
        out.println("rows/s: the table's rows over the span from the context's start to the last shard's completion"
                + " (the plan, the staging table and the final step included); client CPU: the loader JVM's process"
                + " CPU time over the run (context start and stop included) ÷ rows; of it system: the kernel's part"
                + " (/proc/self/stat stime, 10 ms resolution), mostly minor page faults, memory touched for the first"
                + " time (each shard's DuckDB instance faults its own working memory in); of it JIT: the JIT compiler"
                + " threads' CPU time (/proc/self/task/*/stat of the C1/C2 compiler threads), code still being compiled"
                + " while the run runs; less JIT: each run's client CPU less its JIT time, median; warm-ups: the runs before the measured ones (--warmups auto: until one whose JIT"
                + " time is at most " + Math.round(STEADY_JIT_SHARE * 100) + "% of its client CPU, at most "
                + MAX_AUTO_WARMUPS + "; \"not steady\": the last warm-up's JIT time was above that); largest share: the largest shard's rows ÷ the"
                + " mean.");
    }

    /**
     * {@code --alternate}: each round's N-shard run over the same round's 1-shard run (client CPU, and less each run's
     * JIT time), median and range over the rounds.
     */
    private void reportPaired(PrintStream out) {
        out.println();
        out.println("Paired by round (each round's N-shard run ÷ the same round's 1-shard run; median [min–max] over"
                + " the " + runs + " rounds):");
        out.println();
        out.println("| shape | encoder | shards | client CPU vs 1 shard | less JIT vs 1 shard |");
        out.println("|---|---|---:|---:|---:|");
        for (ShardResult r : results) {
            ShardResult one = find(r.shape(), r.encoder(), 1);
            if (one == null || r.shards() == 1) {
                continue;
            }
            out.printf("| %s | %s | %d | %s | %s |%n", r.shape(), r.encoder(), r.shards(),
                    pairedClient(r, one).text(), pairedLessJit(r, one).text());
        }
    }

    /** Round by round, {@code r}'s client CPU per row over {@code one}'s ({@code --alternate}). */
    static BenchSupport.PairedRatios pairedClient(ShardResult r, ShardResult one) {
        return BenchSupport.PairedRatios.of(r.clientNsPerRow(), one.clientNsPerRow());
    }

    /** Round by round, {@code r}'s client CPU per row less its JIT time over {@code one}'s ({@code --alternate}). */
    static BenchSupport.PairedRatios pairedLessJit(ShardResult r, ShardResult one) {
        return BenchSupport.PairedRatios.of(BenchSupport.differences(r.clientNsPerRow(), r.jitNsPerRow()),
                BenchSupport.differences(one.clientNsPerRow(), one.jitNsPerRow()));
    }

    private String warmupsText() {
        return warmups == AUTO_WARMUPS ? "auto (until steady, at most " + MAX_AUTO_WARMUPS + ")"
                : String.valueOf(warmups);
    }

    private ShardResult find(Shape shape, String encoder, int shards) {
        return results.stream().filter(r -> r.shape() == shape && r.encoder().equals(encoder) && r.shards() == shards)
                .findFirst().orElse(null);
    }
}
