package io.deltafunnel.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import com.microsoft.sqlserver.jdbc.ISQLServerConnection;
import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import com.microsoft.sqlserver.jdbc.SQLServerBulkCopyOptions;
import com.microsoft.sqlserver.jdbc.SQLServerDataSource;
import io.deltafunnel.camel.DeltaFunnelEndpoint;
import io.deltafunnel.sample.SampleDeltaWriter;
import io.deltafunnel.emulator.MssqlEmulator;
import io.deltafunnel.mssql.ArrowBulkData;
import io.deltafunnel.mssql.BoundColumn;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.TargetColumn;
import io.deltafunnel.mssql.direct.DirectBulkWriter;
import io.deltafunnel.mssql.direct.DirectTdsConnection;
import io.deltafunnel.query.ArrowBatch;
import io.deltafunnel.query.ArrowBatchStream;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * DeltaFunnel against what users would pick instead, side by side in one JVM run. See benchmark/README.md.
 *
 * <pre>
 * benchmark/run.sh [--rows N] [--shape LINEITEM|NARROW] [--runs 5] [--warmups 1] [--sql-rows 100000]
 *                  [--sql-runs 3] [--scale 5] [--paths df,direct,rs,sql,src,wire,prebuilt,adapt]
 * </pre>
 *
 * <p>Paths not run by default: {@code dfdirect} (the route with the producer option {@code bulkEncoder=direct}; it
 * is skipped with a note while the producer does not know that option yet).
 * <pre>
 * </pre>
 */
public final class Benchmark {

    static final String TABLE = "bench";
    static final String SQL_TABLE = "bench_sql";
    static final String PASSWORD = "Bench!Passw0rd";

    // Result names the summary looks up.
    static final String DF = "DeltaFunnel route (driver encoder)";
    static final String DF_DIRECT = "DeltaFunnel route, bulkEncoder=direct";
    static final String DIRECT = "direct TDS writer: DirectBulkWriter over DirectTdsConnection";
    static final String PREBUILT = "driver ceiling: prebuilt Object[] rows";
    static final String RESULT_SET = "writeToServer(ResultSet) + metadata fix";
    static final String WIRE = "wire ceiling: emulator decoding recorded bytes";
    static final String WIRE_DIRECT = "wire ceiling, direct path's bytes: emulator decoding them";

    // ---- options ----
    long rows = 2_000_000;
    Shape shape = Shape.LINEITEM;
    int runs = 5;
    int warmups = 1;
    long sqlRows = 100_000;
    int sqlRuns = 3;
    int scale = 5;
    int batchSize = 65_536;
    int files = 4;
    List<String> paths = List.of("df", "direct", "dfnative", "rs", "sql", "src", "wire", "prebuilt", "adapt");
    Path workDir;
    /** When set, a JFR recording ("profile" settings) covers the measured runs of the bulk paths. */
    Path jfrFile;

    // ---- state ----
    private MssqlEmulator emulator;
    private String url;
    private String query;
    private CamelContext camel;
    private MemoryProbe probe;
    private final List<Result> results = new ArrayList<>();
    private final List<ScaleResult> scaleResults = new ArrayList<>();
    /** Paths that were selected but could not run, with the reason (printed in the summary). */
    private final Map<String, String> skipped = new LinkedHashMap<>();
    private int routeSeq;
    private Path recording;
    /** The direct path's client-to-server bytes, recorded during its first warm-up (for its own wire ceiling). */
    private Path directRecording;

    /** One path's measurements. */
    record Result(String path, String note, long rowsPerRun, double[] rowsPerSecond, double wireBytesPerRow,
            MemoryProbe.Peaks peaks, long arrowPeak) {
        double median() {
            double[] s = rowsPerSecond.clone();
            Arrays.sort(s);
            int n = s.length;
            return n == 0 ? Double.NaN : n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
        }
    }

    /** One timed run of a path: rows done and, where the path has one, its Arrow allocator peak. */
    record Run(long rows, long arrowPeak, long nanos) {
        Run(long rows, long arrowPeak) {
            this(rows, arrowPeak, -1);
        }

        /** Rows per second: over the path's own load time when it measured one, else over {@code outerNanos}. */
        double rate(long outerNanos) {
            return rows / ((nanos > 0 ? nanos : outerNanos) / 1e9);
        }
    }

    /** The memory check of one path at 1× and {@code scale}× the rows. */
    record ScaleResult(String path, int scale, Run one, MemoryProbe.Peaks onePeaks, Run big,
            MemoryProbe.Peaks bigPeaks, boolean flat) {
    }

    @FunctionalInterface
    interface PathRun {
        Run run(String jdbcUrl) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        Benchmark b = new Benchmark();
        b.parse(args);
        b.run();
        System.exit(0);
    }

    void parse(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (a) {
                case "--rows" -> rows = Long.parseLong(v.replace("_", ""));
                case "--shape" -> shape = Shape.valueOf(v.toUpperCase(Locale.ROOT));
                case "--runs" -> runs = Integer.parseInt(v);
                case "--warmups" -> warmups = Integer.parseInt(v);
                case "--sql-rows" -> sqlRows = Long.parseLong(v.replace("_", ""));
                case "--sql-runs" -> sqlRuns = Integer.parseInt(v);
                case "--scale" -> scale = Integer.parseInt(v);
                case "--batch-size" -> batchSize = Integer.parseInt(v);
                case "--paths" -> paths = List.of(v.split(","));
                case "--work-dir" -> workDir = Path.of(v);
                case "--jfr" -> jfrFile = Path.of(v);
                default -> throw new IllegalArgumentException("unknown option " + a + " (see the class comment)");
            }
            i++;
        }
    }

    void run() throws Exception {
        Runtime rt = Runtime.getRuntime();
        System.out.printf("DeltaFunnel benchmark: shape %s, %,d rows, batch %,d, %d warm-up + %d measured runs%n",
                shape, rows, batchSize, warmups, runs);
        System.out.printf("date %s, java %s (%s), %d CPUs, max heap %,d MB, args %s%n",
                ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME), System.getProperty("java.version"),
                System.getProperty("java.vm.name"), rt.availableProcessors(), rt.maxMemory() >> 20,
                java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
        boolean ownWorkDir = workDir == null;
        if (ownWorkDir) {
            workDir = Files.createTempDirectory("deltafunnel-bench");
        }
        probe = new MemoryProbe();
        emulator = MssqlEmulator.builder().port(0).password(PASSWORD).sinkMode(true).start();
        // TLS off for every path: the wire ceiling replays recorded plain bytes, and the comparison stays fair.
        url = plainUrl(emulator);
        camel = new DefaultCamelContext();
        // No autowiring: the DataSource bound for camel-sql must not replace the DeltaFunnel producer's url.
        camel.setAutowiredEnabled(false);
        camel.getRegistry().bind("benchDs", dataSource(url));
        camel.start();
        try {
            Path table = workDir.resolve("table-" + shape.name().toLowerCase(Locale.ROOT) + "-" + rows);
            generate(table, rows);
            query = "SELECT * FROM read_parquet('" + table.toAbsolutePath() + "/*.parquet')";
            System.out.println("query: " + query);
            createTargets(emulator);

            if (paths.contains("df")) {
                results.add(measure(DF,
                        "deltafunnel: -> deltafunnel-mssql: transaction=run tableLock=true batch " + batchSize, runs,
                        true, this::runDeltaFunnel));
                if (scale > 1) {
                    // Right after the DeltaFunnel runs, before other paths leave buffers behind.
                    scaleCheck(DF, (u, sql) -> runDeltaFunnel(u, sql, ""));
                }
            }
            if (paths.contains("dfdirect")) {
                // Not in the default list: it needs the producer option bulkEncoder=direct.
                try {
                    results.add(measure(DF_DIRECT, "as the driver-encoder route, producer URI + &bulkEncoder=direct",
                            runs, true, u -> runDeltaFunnel(u, query, "&bulkEncoder=direct")));
                } catch (Exception e) {
                    String why = rootMessage(e);
                    int unknown = why.indexOf("Unknown parameters=");
                    why = unknown >= 0 ? "the producer does not know this option yet (" + why.substring(unknown) + ")"
                            : why.length() > 200 ? why.substring(0, 200) + "…" : why;
                    skipped.put(DF_DIRECT, why);
                    System.out.println("  skipped: " + why);
                }
            }
            if (paths.contains("direct")) {
                results.add(measure(DIRECT, "ArrowBatchStream (same query, batch " + batchSize + ") -> one"
                        + " DirectBulkWriter.write per batch, one DirectTdsConnection, TABLOCK, BEGIN TRAN..COMMIT,"
                        + " targets from INFORMATION_SCHEMA (timed)", runs, true, u -> runDirect(u, query)));
                if (scale > 1) {
                    scaleCheck(DIRECT, this::runDirect);
                }
            }
            if (paths.contains("dfnative")) {
                results.add(measure("DeltaFunnel route, native temporal wire mode",
                        "as above, URL sendTemporalDataTypesAsStringForBulkCopy=false (date/datetime2 sent natively)",
                        Math.min(runs, 3), true, u -> runDeltaFunnel(u + ";sendTemporalDataTypesAsStringForBulkCopy=false",
                                query)));
            }
            if (paths.contains("rs")) {
                results.add(measure(RESULT_SET,
                        "DuckDB JDBC ResultSet, DuckDbResultSets.forBulkCopy, tableLock=true", runs, true,
                        this::runResultSet));
            }
            if (paths.contains("sql")) {
                results.add(measureSql());
            }
            if (paths.contains("src")) {
                results.add(measure("source ceiling: DuckDB Arrow export", "ArrowBatchStream, batches discarded",
                        runs, false, u -> runSource(false)));
            }
            if (paths.contains("adapt")) {
                results.add(measure("source + ArrowBulkData, no driver",
                        "validate + getRowData for every row, nothing sent", runs, false, u -> runSource(true)));
            }
            if (paths.contains("prebuilt")) {
                results.add(measurePrebuilt());
            }
            if (paths.contains("wire") && recording != null) {
                results.add(measureWire(recording, WIRE, "raw socket replay of the DeltaFunnel load, fresh sink-mode"
                        + " emulator, no driver"));
            }
            if (paths.contains("wire") && directRecording != null) {
                results.add(measureWire(directRecording, WIRE_DIRECT, "raw socket replay of the direct path's load"
                        + " (its TDS connection, then its catalog query), fresh sink-mode emulator, no client encoding"));
            }
            report();
        } finally {
            camel.stop();
            emulator.close();
            probe.close();
            if (ownWorkDir) {
                deleteTree(workDir);
            }
        }
    }

    static String plainUrl(MssqlEmulator emu) {
        return "jdbc:sqlserver://localhost:" + emu.port() + ";databaseName=master;encrypt=false";
    }

    static String viaPort(String jdbcUrl, int port) {
        return jdbcUrl.replaceFirst("localhost:\\d+", "localhost:" + port);
    }

    private static SQLServerDataSource dataSource(String jdbcUrl) {
        SQLServerDataSource ds = new SQLServerDataSource();
        ds.setURL(jdbcUrl);
        ds.setUser("sa");
        ds.setPassword(PASSWORD);
        return ds;
    }

    static Connection sqlServer(String jdbcUrl) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "sa");
        p.setProperty("password", PASSWORD);
        return DriverManager.getConnection(jdbcUrl, p);
    }

    // ---- data ----

    private void generate(Path table, long n) throws Exception {
        if (Files.exists(table.resolve("_delta_log"))) {
            System.out.println("reusing Delta table " + table);
            return;
        }
        long t0 = System.nanoTime();
        try (Connection duck = DuckDbConnections.open(DuckDbSettings.inMemory())) {
            new SampleDeltaWriter(duck, table).append(shape.generatorSql(n), files);
        }
        long bytes;
        try (Stream<Path> s = Files.list(table)) {
            bytes = s.filter(p -> p.toString().endsWith(".parquet")).mapToLong(p -> p.toFile().length()).sum();
        }
        System.out.printf("generated Delta table %s: %,d rows, %d Parquet files, %,d MB, %.1f s%n", table, n, files,
                bytes >> 20, (System.nanoTime() - t0) / 1e9);
    }

    private void createTargets(MssqlEmulator emu) throws SQLException {
        try (Connection c = sqlServer(plainUrl(emu)); Statement st = c.createStatement()) {
            st.execute(shape.createTableSql(TABLE));
            st.execute(shape.createTableSql(SQL_TABLE));
        }
    }

    // ---- measuring ----

    /**
     * Warm-up runs (the first goes through a counting proxy, for the wire bytes per row), then measured runs
     * against the emulator directly. Bulk paths are checked against the emulator's decoded-row counter.
     */
    private Result measure(String name, String note, int measured, boolean bulk, PathRun path) throws Exception {
        return measure(name, note, measured, bulk, path, null);
    }

    /** Untimed preparation before each run (warm-ups included). */
    @FunctionalInterface
    interface Prepare {
        void run() throws Exception;
    }

    private Result measure(String name, String note, int measured, boolean bulk, PathRun path, Prepare beforeEachRun)
            throws Exception {
        System.out.printf("%n== %s (load average %s)%n", name, loadAverage());
        double wireBytesPerRow = Double.NaN;
        // The wire ceiling replays the first DeltaFunnel load (default settings), recorded during its warm-up.
        String recordAs = name.equals(DF) && recording == null ? "recording"
                : name.equals(DIRECT) && directRecording == null ? "recording-direct" : null;
        boolean record = recordAs != null;
        for (int w = 0; w < warmups; w++) {
            if (beforeEachRun != null) {
                beforeEachRun.run();
            }
            if (w == 0 && bulk) {
                try (RecordingProxy proxy = new RecordingProxy(emulator.port(),
                        record ? recordDir(recordAs) : null)) {
                    Run r = timed("warm-up (through proxy)", bulk, () -> path.run(viaPort(url, proxy.port())));
                    proxy.awaitIdle();
                    wireBytesPerRow = (double) proxy.clientToServerBytes() / r.rows();
                    System.out.printf("  through the proxy: %,d bytes client->server, %,d bytes server->client, %d"
                            + " connection(s)%n", proxy.clientToServerBytes(), proxy.serverToClientBytes(),
                            proxy.connections());
                    if (record) {
                        if (name.equals(DF)) {
                            recording = recordDir(recordAs);
                        } else {
                            directRecording = recordDir(recordAs);
                        }
                    }
                }
            } else {
                timed("warm-up", bulk, () -> path.run(url));
            }
        }
        double[] rates = new double[measured];
        MemoryProbe.Peaks peaks = new MemoryProbe.Peaks(0, 0, 0);
        long arrowPeak = -1;
        long rowsPerRun = 0;
        jdk.jfr.Recording jfr = null;
        if (jfrFile != null && bulk) {
            jfr = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
            jfr.start();
        }
        for (int i = 0; i < measured; i++) {
            if (beforeEachRun != null) {
                beforeEachRun.run();
            }
            System.gc();
            probe.reset();
            long t0 = System.nanoTime();
            Run r = timed("run " + (i + 1), bulk, () -> path.run(url));
            rates[i] = r.rate(System.nanoTime() - t0);
            peaks = peaks.max(probe.peaks());
            arrowPeak = Math.max(arrowPeak, r.arrowPeak());
            rowsPerRun = r.rows();
        }
        if (jfr != null) {
            jfr.stop();
            jfr.dump(jfrFile);
            jfr.close();
            System.out.println("  JFR recording of the measured runs: " + jfrFile);
        }
        return new Result(name, note, rowsPerRun, rates, wireBytesPerRow, peaks, arrowPeak);
    }

    private Path recordDir(String dir) throws IOException {
        return Files.createDirectories(workDir.resolve(dir));
    }

    @FunctionalInterface
    interface Body {
        Run run() throws Exception;
    }

    private Run timed(String label, boolean bulk, Body body) throws Exception {
        long decodedBefore = emulator.bulkRowsDecoded();
        long t0 = System.nanoTime();
        Run r = body.run();
        double s = (r.nanos() > 0 ? r.nanos() : System.nanoTime() - t0) / 1e9;
        long decoded = emulator.bulkRowsDecoded() - decodedBefore;
        System.out.printf("  %-24s %,12d rows %8.2f s %,12.0f rows/s%s%n", label, r.rows(), s, r.rows() / s,
                bulk ? "  (emulator decoded " + String.format("%,d", decoded) + ")" : "");
        if (bulk && decoded != r.rows()) {
            throw new IllegalStateException(label + ": the emulator decoded " + decoded + " rows, expected " + r.rows());
        }
        return r;
    }

    // ---- path 1: the DeltaFunnel route ----

    private Run runDeltaFunnel(String jdbcUrl) throws Exception {
        return runDeltaFunnel(jdbcUrl, query, "");
    }

    private Run runDeltaFunnel(String jdbcUrl, String sql) throws Exception {
        return runDeltaFunnel(jdbcUrl, sql, "");
    }

    /** @param producerOptions appended to the producer URI, e.g. {@code &bulkEncoder=direct} */
    private Run runDeltaFunnel(String jdbcUrl, String sql, String producerOptions) throws Exception {
        String id = "df" + (routeSeq++);
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong rowsDone = new AtomicLong();
        AtomicLong arrowPeak = new AtomicLong(-1);
        String source = "deltafunnel:" + id + "?query=RAW(" + sql + ")&batchSize=" + batchSize
                + "&repeatCount=1&initialDelay=0&delay=3600000";
        String target = "deltafunnel-mssql:dbo." + TABLE + "?url=RAW(" + jdbcUrl + ")&username=sa&password=RAW("
                + PASSWORD + ")&tableLock=true&transaction=run" + producerOptions;
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                onException(Exception.class).process(e -> {
                    failure.set(e.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class));
                    done.countDown();
                });
                from(source).routeId(id).autoStartup(false).to(target).process(e -> {
                    rowsDone.addAndGet(((org.apache.arrow.vector.VectorSchemaRoot) e.getMessage().getBody())
                            .getRowCount());
                    if (Boolean.TRUE.equals(e.getProperty(Exchange.BATCH_COMPLETE, Boolean.class))) {
                        BufferAllocator a = ((DeltaFunnelEndpoint) e.getFromEndpoint()).getAllocator();
                        arrowPeak.set(a.getPeakMemoryAllocation());
                        done.countDown();
                    }
                });
            }
        });
        try {
            // Timed from the route's start to the commit of the complete batch: adding, stopping and removing the
            // route (Camel's graceful route shutdown) is harness work, not load time.
            long t0 = System.nanoTime();
            camel.getRouteController().startRoute(id);
            if (!done.await(30, TimeUnit.MINUTES)) {
                throw new IllegalStateException("DeltaFunnel route did not finish");
            }
            long nanos = System.nanoTime() - t0;
            if (failure.get() != null) {
                throw new IllegalStateException("DeltaFunnel route failed: " + failure.get(), failure.get());
            }
            return new Run(rowsDone.get(), arrowPeak.get(), nanos);
        } finally {
            camel.getRouteController().stopRoute(id);
            camel.removeRoute(id);
        }
    }

    // ---- path 1c: the direct TDS writer, no driver ----

    /**
     * The same query and Arrow batches as the route (ArrowBatchStream, same batch size), each batch written with
     * {@link DirectBulkWriter#write} over one {@link DirectTdsConnection} (encrypt=false), inside one transaction
     * committed at the end (as the route's transaction=run). The target columns are read from INFORMATION_SCHEMA
     * with {@link BulkColumns} over a JDBC connection, inside the timed run (the route does the same).
     */
    private Run runDirect(String jdbcUrl, String sql) throws Exception {
        TableName table = new TableName("dbo", TABLE);
        try (BufferAllocator allocator = new RootAllocator();
                Connection duck = DuckDbConnections.open(DuckDbSettings.inMemory());
                ArrowBatchStream stream = ArrowBatchStream.open("bench", duck, sql, batchSize, allocator);
                DirectTdsConnection tds = DirectTdsConnection.open(DirectTdsConnection.options().host("localhost")
                        .port(portOf(jdbcUrl)).database("master").user("sa").password(PASSWORD).encrypt(false))) {
            DirectBulkWriter writer = new DirectBulkWriter(tds).tableLock(true);
            List<TargetColumn> targets = null;
            long n = 0;
            tds.executeBatch("BEGIN TRANSACTION");
            ArrowBatch batch;
            while ((batch = stream.next()) != null) {
                try (var root = batch.root()) {
                    if (targets == null) {
                        try (Connection meta = sqlServer(jdbcUrl)) {
                            targets = BulkColumns.bind(meta, TABLE, root.getSchema()).stream()
                                    .map(BoundColumn::target).toList();
                        }
                    }
                    long written = writer.write(table, root, targets);
                    if (written != root.getRowCount()) {
                        throw new IllegalStateException("direct: the server reported " + written + " rows for a batch"
                                + " of " + root.getRowCount());
                    }
                    n += written;
                }
            }
            tds.executeBatch("COMMIT TRANSACTION");
            return new Run(n, allocator.getPeakMemoryAllocation());
        }
    }

    static int portOf(String jdbcUrl) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("localhost:(\\d+)").matcher(jdbcUrl);
        if (!m.find()) {
            throw new IllegalArgumentException("no localhost port in " + jdbcUrl);
        }
        return Integer.parseInt(m.group(1));
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    // ---- path 2: writeToServer(ResultSet) ----

    private Run runResultSet(String jdbcUrl) throws Exception {
        try (Connection duck = DuckDbConnections.open(DuckDbSettings.inMemory());
                Statement st = duck.createStatement();
                ResultSet rs = st.executeQuery(query);
                Connection sql = sqlServer(jdbcUrl);
                SQLServerBulkCopy copy = new SQLServerBulkCopy(sql)) {
            SQLServerBulkCopyOptions options = new SQLServerBulkCopyOptions();
            options.setTableLock(true);
            copy.setBulkCopyOptions(options);
            copy.setDestinationTableName("[dbo].[" + TABLE + "]");
            ResultSetMetaData md = rs.getMetaData();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                copy.addColumnMapping(md.getColumnName(i), md.getColumnName(i));
            }
            copy.writeToServer(DuckDbResultSets.forBulkCopy(rs));
            // The driver does not report a count: timed() checks the emulator decoded exactly the table's rows.
            return new Run(rows, -1);
        }
    }

    // ---- path 3: camel-sql batched INSERT ----

    private Result measureSql() throws Exception {
        String cols = String.join(", ", shape.columns().stream().map(c -> "[" + c.name() + "]").toList());
        StringBuilder params = new StringBuilder();
        for (Shape.Column c : shape.columns()) {
            params.append(params.length() == 0 ? "" : ", ").append(":#").append(c.name());
        }
        String sqlQuery = query + " LIMIT " + sqlRows;
        PathRun path = jdbcUrl -> {
            String endpoint = "sql:INSERT INTO [dbo].[" + SQL_TABLE + "] (" + cols + ") VALUES (" + params
                    + ")?batch=true&parametersCount=" + shape.columns().size() + "&dataSource=#" + (jdbcUrl.equals(url) ? "benchDs" : bindProxyDs(jdbcUrl));
            try (Connection c = sqlServer(url); Statement st = c.createStatement()) {
                st.execute("TRUNCATE TABLE [dbo].[" + SQL_TABLE + "]");
            }
            long done = 0;
            ProducerTemplate template = camel.createProducerTemplate();
            try (Connection duck = DuckDbConnections.open(DuckDbSettings.inMemory());
                    Statement st = duck.createStatement();
                    ResultSet rs = st.executeQuery(sqlQuery)) {
                int n = shape.columns().size();
                List<Map<String, Object>> chunk = new ArrayList<>(1000);
                while (rs.next()) {
                    Map<String, Object> row = new HashMap<>(n * 2);
                    for (int i = 0; i < n; i++) {
                        row.put(shape.columns().get(i).name(), rs.getObject(i + 1));
                    }
                    chunk.add(row);
                    if (chunk.size() == 1000) {
                        template.sendBody(endpoint, chunk);
                        done += chunk.size();
                        chunk = new ArrayList<>(1000);
                    }
                }
                if (!chunk.isEmpty()) {
                    template.sendBody(endpoint, chunk);
                    done += chunk.size();
                }
            } finally {
                template.stop();
            }
            try (Connection c = sqlServer(url); Statement st = c.createStatement();
                    ResultSet count = st.executeQuery("SELECT COUNT(*) FROM [dbo].[" + SQL_TABLE + "]")) {
                count.next();
                if (count.getLong(1) != done) {
                    throw new IllegalStateException("camel-sql: " + count.getLong(1) + " rows stored, sent " + done);
                }
            }
            return new Run(done, -1);
        };
        System.out.printf("%n== camel-sql batched INSERT (%,d rows, %d measured runs)%n", sqlRows, sqlRuns);
        // Warm-up through the counting proxy (wire bytes per row), then the measured runs.
        double wire;
        try (RecordingProxy proxy = new RecordingProxy(emulator.port(), null)) {
            Run r = timed("warm-up (through proxy)", false, () -> path.run(viaPort(url, proxy.port())));
            camel.getRegistry().unbind("proxyDs");
            wire = (double) proxy.clientToServerBytes() / r.rows();
        }
        double[] rates = new double[sqlRuns];
        MemoryProbe.Peaks peaks = new MemoryProbe.Peaks(0, 0, 0);
        long rowsPerRun = 0;
        for (int i = 0; i < sqlRuns; i++) {
            System.gc();
            probe.reset();
            long t0 = System.nanoTime();
            Run r = timed("run " + (i + 1), false, () -> path.run(url));
            rates[i] = r.rows() / ((System.nanoTime() - t0) / 1e9);
            peaks = peaks.max(probe.peaks());
            rowsPerRun = r.rows();
        }
        return new Result("camel-sql batched INSERT", "sql:INSERT ...?batch=true, 1000-row List<Map> bodies, rows"
                + " stored in the emulator's H2 (sink mode applies to BULK_LOAD only)", rowsPerRun, rates, wire, peaks,
                -1);
    }

    private String bindProxyDs(String jdbcUrl) {
        camel.getRegistry().bind("proxyDs", dataSource(jdbcUrl));
        return "proxyDs";
    }

    // ---- path 4: source ceiling, and source + adapter without the driver ----

    private Run runSource(boolean adapt) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
                Connection duck = DuckDbConnections.open(DuckDbSettings.inMemory());
                ArrowBatchStream stream = ArrowBatchStream.open("bench", duck, query, batchSize, allocator)) {
            List<BoundColumn> columns = null;
            Connection meta = adapt ? sqlServer(url) : null;
            long n = 0;
            long sink = 0;
            try {
                ArrowBatch batch;
                while ((batch = stream.next()) != null) {
                    try (var root = batch.root()) {
                        n += root.getRowCount();
                        if (adapt) {
                            if (columns == null) {
                                columns = BulkColumns.bind(meta, TABLE, root.getSchema());
                            }
                            ArrowBulkData data = new ArrowBulkData(root, columns);
                            data.validate(0);
                            while (data.next()) {
                                sink += System.identityHashCode(data.getRowData()[0]) & 1;
                            }
                        }
                    }
                }
            } finally {
                if (meta != null) {
                    meta.close();
                }
            }
            if (sink < 0) {
                System.out.print("");
            }
            return new Run(n, allocator.getPeakMemoryAllocation());
        }
    }

    // ---- extra: the driver's own ceiling with prebuilt rows ----

    private Result measurePrebuilt() throws Exception {
        AtomicReference<Object[][]> rowsRef = new AtomicReference<>();
        AtomicReference<List<BoundColumn>> columnsRef = new AtomicReference<>();
        // Every row of the table, as the objects ArrowBulkData hands over, rebuilt before EVERY run (untimed): the
        // driver must not profit from objects it has already seen (BigDecimal caches its toString, which the driver
        // computes for every decimal). Cycled only when the table is too big to hold.
        long cells = rows * shape.columns().size();
        int keep = (int) Math.min(rows, cells <= 48_000_000L ? rows : 48_000_000L / shape.columns().size());
        Prepare build = () -> {
            rowsRef.set(null);
            Object[][] prebuilt = new Object[keep][];
            try (BufferAllocator allocator = new RootAllocator();
                    Connection duck = DuckDbConnections.open(DuckDbSettings.inMemory());
                    ArrowBatchStream stream = ArrowBatchStream.open("bench", duck, query, batchSize, allocator);
                    Connection meta = sqlServer(url)) {
                int i = 0;
                ArrowBatch batch;
                while (i < keep && (batch = stream.next()) != null) {
                    try (var root = batch.root()) {
                        if (columnsRef.get() == null) {
                            columnsRef.set(BulkColumns.bind(meta, TABLE, root.getSchema()));
                        }
                        ArrowBulkData data = new ArrowBulkData(root, columnsRef.get());
                        data.validate(0);
                        while (i < keep && data.next()) {
                            prebuilt[i++] = data.getRowData().clone();
                        }
                    }
                }
            }
            rowsRef.set(prebuilt);
        };
        System.out.printf("%nprebuilt rows: %,d in memory, rebuilt before each run (the objects ArrowBulkData hands"
                + " over)%s%n", keep, keep < rows ? ", cycled to " + rows : "");
        PathRun path = jdbcUrl -> {
            Object[][] prebuilt = rowsRef.get();
            try (Connection c = sqlServer(jdbcUrl)) {
                c.unwrap(ISQLServerConnection.class).setcacheBulkCopyMetadata(true);
                c.setAutoCommit(false);
                long left = rows;
                int offset = 0;
                while (left > 0) {
                    int n = (int) Math.min(batchSize, left);
                    try (SQLServerBulkCopy copy = new SQLServerBulkCopy(c)) {
                        SQLServerBulkCopyOptions options = new SQLServerBulkCopyOptions();
                        options.setTableLock(true);
                        copy.setBulkCopyOptions(options);
                        copy.setDestinationTableName("[dbo].[" + TABLE + "]");
                        List<BoundColumn> bound = columnsRef.get();
                        for (int i = 0; i < bound.size(); i++) {
                            copy.addColumnMapping(i + 1, bound.get(i).target().name());
                        }
                        copy.writeToServer(new PrebuiltBulkData(bound, prebuilt, offset, n));
                    }
                    offset = (int) ((offset + (long) n) % prebuilt.length);
                    left -= n;
                }
                c.commit();
            }
            return new Run(rows, -1);
        };
        return measure(PREBUILT, "ISQLServerBulkData over prebuilt rows (rebuilt,"
                + " untimed, before each run), same metadata/options/batching as the producer", runs, true, path, build);
    }

    // ---- path 5: wire ceiling ----

    private Result measureWire(Path recording, String name, String note) throws Exception {
        List<byte[]> streams = new ArrayList<>();
        long total = 0;
        try (Stream<Path> s = Files.list(recording)) {
            for (Path p : s.sorted(Comparator.naturalOrder()).toList()) {
                // FileInputStream, not Files.readAllBytes: the latter reads through a temporary direct buffer as
                // large as the file, which the JDK then keeps cached (and the direct-memory column would show it).
                byte[] b;
                try (java.io.FileInputStream in = new java.io.FileInputStream(p.toFile())) {
                    b = in.readAllBytes();
                }
                streams.add(b);
                total += b.length;
            }
        }
        System.out.printf("%n== %s: replaying %d recorded connection(s), %,d client bytes%n", name, streams.size(),
                total);
        try (MssqlEmulator fresh = MssqlEmulator.builder().port(0).password(PASSWORD).sinkMode(true).start()) {
            createTargets(fresh);
            PathRun path = u -> {
                long before = fresh.bulkRowsDecoded();
                WireReplay.replay(streams, fresh.port());
                return new Run(fresh.bulkRowsDecoded() - before, -1);
            };
            for (int w = 0; w < warmups; w++) {
                timed("warm-up", false, () -> path.run(null));
            }
            double[] rates = new double[runs];
            MemoryProbe.Peaks peaks = new MemoryProbe.Peaks(0, 0, 0);
            long rowsPerRun = 0;
            for (int i = 0; i < runs; i++) {
                System.gc();
                probe.reset();
                long t0 = System.nanoTime();
                Run r = timed("run " + (i + 1), false, () -> path.run(null));
                rates[i] = r.rows() / ((System.nanoTime() - t0) / 1e9);
                peaks = peaks.max(probe.peaks());
                rowsPerRun = r.rows();
                if (r.rows() != rows) {
                    throw new IllegalStateException("replay decoded " + r.rows() + " rows, expected " + rows);
                }
            }
            return new Result(name, note, rowsPerRun, rates, (double) total / rows, peaks, -1);
        }
    }

    // ---- report ----

    private void report() {
        Map<String, Double> m = new LinkedHashMap<>();
        results.forEach(r -> m.put(r.path(), r.median()));
        double df = m.getOrDefault(DF, Double.NaN);
        System.out.printf("%n## Results: %s, %,d rows (median of measured runs), load average at the end %s%n%n",
                shape, rows, loadAverage());
        System.out.println("| path | rows/run | rows/s (median) | min-max | vs DeltaFunnel | wire B/row "
                + "| heap peak MB | heap after GC MB | direct MB | Arrow peak MB |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Result r : results) {
            double[] s = r.rowsPerSecond().clone();
            Arrays.sort(s);
            System.out.printf("| %s | %,d | %,.0f | %,.0f-%,.0f | %s | %s | %,d | %,d | %,.1f | %s |%n", r.path(),
                    r.rowsPerRun(), r.median(), s[0], s[s.length - 1],
                    Double.isNaN(df) ? "-" : String.format("%.2f×", r.median() / df),
                    Double.isNaN(r.wireBytesPerRow()) ? "-" : String.format("%.1f", r.wireBytesPerRow()),
                    r.peaks().heap() >> 20, r.peaks().heapAfterGc() >> 20, r.peaks().direct() / 1048576.0,
                    r.arrowPeak() < 0 ? "-" : String.format("%.1f", r.arrowPeak() / 1048576.0));
        }
        skipped.forEach((path, why) -> System.out.printf("| %s | skipped: %s | | | | | | | | |%n", path,
                why.replace('|', '/')));
        System.out.println();
        for (Result r : results) {
            System.out.printf("- %s: %s; runs %s%n", r.path(), r.note(), Arrays.toString(Arrays.stream(
                    r.rowsPerSecond()).mapToLong(Math::round).toArray()));
        }
        Double prebuilt = m.get(PREBUILT);
        Double rs = m.get(RESULT_SET);
        if (prebuilt != null && !Double.isNaN(df)) {
            System.out.printf("DeltaFunnel / driver prebuilt ceiling: %.0f%% (target >= 85%%)%n", 100 * df / prebuilt);
        }
        if (rs != null && !Double.isNaN(df)) {
            System.out.printf("DeltaFunnel / ResultSet path: %.2f× (target >= 1.7×)%n", df / rs);
        }
        reportDirect(m, df, prebuilt);
        if (!scaleResults.isEmpty()) {
            System.out.printf("%nMemory at %d× the rows (peak memory must stay flat):%n", scale);
            for (ScaleResult r : scaleResults) {
                printScale(r);
            }
        }
    }

    /** The issue's target for the direct writer against the driver path: 4× for LINEITEM, 3× for NARROW. */
    double directTarget() {
        return shape == Shape.LINEITEM ? 4.0 : 3.0;
    }

    /** The direct paths beside the driver paths, with the ratios the issue asks for. */
    private void reportDirect(Map<String, Double> m, double df, Double prebuilt) {
        Double direct = m.get(DIRECT);
        Double dfDirect = m.get(DF_DIRECT);
        if (direct == null && dfDirect == null && !skipped.containsKey(DF_DIRECT)) {
            return;
        }
        System.out.printf("%n### Direct TDS writer vs the driver encoder (%s, %,d rows, medians)%n%n", shape, rows);
        System.out.println("| path | rows/s (median) | vs df | vs prebuilt (driver ceiling) | memory at " + scale
                + "× |");
        System.out.println("|---|---:|---:|---:|---|");
        for (String path : List.of(DF, DF_DIRECT, DIRECT, PREBUILT, WIRE, WIRE_DIRECT)) {
            Double v = m.get(path);
            if (v == null) {
                if (skipped.containsKey(path)) {
                    System.out.printf("| %s | skipped | | | |%n", path);
                }
                continue;
            }
            String mem = scaleResults.stream().filter(r -> r.path().equals(path)).findFirst()
                    .map(r -> r.flat() ? "flat" : "NOT flat").orElse("-");
            System.out.printf("| %s | %,.0f | %s | %s | %s |%n", path, v,
                    Double.isNaN(df) ? "-" : String.format("%.2f×", v / df),
                    prebuilt == null ? "-" : String.format("%.2f×", v / prebuilt), mem);
        }
        System.out.println();
        if (direct != null && !Double.isNaN(df)) {
            double ratio = direct / df;
            System.out.printf("direct / df: %.2f× (issue target >= %.0f× for %s: %s)%n", ratio, directTarget(), shape,
                    ratio >= directTarget() ? "met" : "NOT met");
        }
        if (direct != null && prebuilt != null) {
            System.out.printf("direct / prebuilt (driver ceiling): %.2f×%n", direct / prebuilt);
        }
        Double wire = m.get(WIRE);
        if (wire != null && !Double.isNaN(df)) {
            System.out.printf("wire ceiling (emulator decoding the route's recorded bytes, no client) / df: %.2f×%n",
                    wire / df);
        }
        Double wireDirect = m.get(WIRE_DIRECT);
        if (direct != null && wireDirect != null) {
            // The emulator shares the JVM and the cores: decoding the direct path's recorded bytes with no client at
            // all bounds what the direct client can reach against it.
            System.out.printf("direct / its wire ceiling (emulator decoding the direct path's bytes, no client): %.0f%%;"
                    + " that ceiling / df: %s%n", 100 * direct / wireDirect,
                    Double.isNaN(df) ? "-" : String.format("%.2f×", wireDirect / df));
        }
        if (dfDirect != null && !Double.isNaN(df)) {
            double ratio = dfDirect / df;
            System.out.printf("dfdirect / df: %.2f× (issue target >= %.0f× for %s: %s)%n", ratio, directTarget(),
                    shape, ratio >= directTarget() ? "met" : "NOT met");
        } else if (skipped.containsKey(DF_DIRECT)) {
            System.out.printf("dfdirect / df: not measured (%s)%n", skipped.get(DF_DIRECT));
        }
    }

    /** The results of the last {@link #run()}, in run order. */
    List<Result> results() {
        return results;
    }

    /** A path run over a given query (the scale check passes the {@code scale}× UNION ALL query). */
    @FunctionalInterface
    interface QueryRun {
        Run run(String jdbcUrl, String sql) throws Exception;
    }

    /**
     * A path at 1× and then at {@code scale}× the rows, back to back (so that both start from the same heap and
     * direct-buffer state), and whether the peaks stay within 10%. The scaled query reads the same Parquet files
     * {@code scale} times (UNION ALL): same data, no second table to generate.
     */
    private void scaleCheck(String name, QueryRun path) throws Exception {
        String scaled = String.join(" UNION ALL ", java.util.Collections.nCopies(scale, query));
        System.out.printf("%n== scale check: %s at 1× and %d× (%,d rows) (load average %s)%n", name, scale,
                rows * scale, loadAverage());
        System.gc();
        probe.reset();
        long t0 = System.nanoTime();
        Run one = timed("1×", true, () -> path.run(url, query));
        one = new Run(one.rows(), one.arrowPeak(), one.nanos() > 0 ? one.nanos() : System.nanoTime() - t0);
        MemoryProbe.Peaks onePeaks = peaksAfterFinalGc();
        System.gc();
        probe.reset();
        t0 = System.nanoTime();
        Run big = timed(scale + "×", true, () -> path.run(url, scaled));
        big = new Run(big.rows(), big.arrowPeak(), big.nanos() > 0 ? big.nanos() : System.nanoTime() - t0);
        MemoryProbe.Peaks bigPeaks = peaksAfterFinalGc();
        boolean arrowFlat = big.arrowPeak() <= one.arrowPeak() * 1.1;
        // Heap after GC: within 10%, or within 8 MB when it is tiny (a handful of MB is noise from the JVM itself).
        boolean heapFlat = bigPeaks.heapAfterGc() <= Math.max(onePeaks.heapAfterGc() * 1.1,
                onePeaks.heapAfterGc() + (8 << 20));
        boolean directFlat = bigPeaks.direct() <= Math.max(onePeaks.direct() * 1.1, onePeaks.direct() + (1 << 20));
        ScaleResult r = new ScaleResult(name, scale, one, onePeaks, big, bigPeaks, arrowFlat && heapFlat && directFlat);
        scaleResults.add(r);
        printScale(r);
    }

    /**
     * The probe's peaks after one more (untimed) GC at the end of the run, so that "heap after GC" has a value even
     * when the run itself never collected (a fast 1× run may not fill the young generation): it is then the retained
     * set right after the run. GC notifications arrive asynchronously, hence the short wait.
     */
    private MemoryProbe.Peaks peaksAfterFinalGc() throws InterruptedException {
        System.gc();
        Thread.sleep(200);
        return probe.peaks();
    }

    private static void printScale(ScaleResult r) {
        System.out.printf("%n| %s | rows | rows/s | heap peak MB | heap after GC MB | direct MB | Arrow peak MB |%n",
                r.path());
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        for (Object[] row : new Object[][] {{"1×", r.one(), r.onePeaks()}, {r.scale() + "×", r.big(), r.bigPeaks()}}) {
            Run run = (Run) row[1];
            MemoryProbe.Peaks p = (MemoryProbe.Peaks) row[2];
            System.out.printf("| %s | %,d | %,.0f | %,d | %,d | %.1f | %.1f |%n", row[0], run.rows(), run.rate(0),
                    p.heap() >> 20, p.heapAfterGc() >> 20, p.direct() / 1048576.0, run.arrowPeak() / 1048576.0);
        }
        System.out.printf("%d× / 1×: Arrow peak %.2f, heap after GC %.2f, direct %s -> %s%n", r.scale(),
                (double) r.big().arrowPeak() / r.one().arrowPeak(),
                (double) r.bigPeaks().heapAfterGc() / Math.max(1, r.onePeaks().heapAfterGc()),
                r.bigPeaks().direct() <= Math.max(r.onePeaks().direct() * 1.1, r.onePeaks().direct() + (1 << 20))
                        ? "flat" : "grew",
                r.flat() ? "FLAT (within 10%)" : "NOT flat within 10%");
    }

    /** /proc/loadavg's first three fields: other work on the machine shows up here. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
