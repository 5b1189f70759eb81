package io.deltafunnel.benchmark;

import static io.deltafunnel.benchmark.BenchSupport.PASSWORD;
import static io.deltafunnel.benchmark.BenchSupport.sqlServer;
import static io.deltafunnel.benchmark.Benchmark.PREBUILT;
import static io.deltafunnel.benchmark.Benchmark.SQL_TABLE;
import static io.deltafunnel.benchmark.Benchmark.TABLE;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.deltafunnel.benchmark.Measurements.PathRun;
import io.deltafunnel.benchmark.Measurements.Prepare;
import io.deltafunnel.benchmark.Measurements.Result;
import io.deltafunnel.benchmark.Measurements.Run;
import io.deltafunnel.camel.DeltaFunnelEndpoint;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.mssql.channel.ArrowBulkData;
import io.deltafunnel.mssql.channel.BulkBatch;
import io.deltafunnel.mssql.direct.DirectBulkWriter;
import io.deltafunnel.mssql.direct.DirectTdsConnection;
import io.deltafunnel.query.ArrowBatch;
import io.deltafunnel.query.ArrowBatchStream;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;

import com.microsoft.sqlserver.jdbc.ISQLServerConnection;
import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import com.microsoft.sqlserver.jdbc.SQLServerBulkCopyOptions;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;

/**
 * The side-by-side benchmark's paths: each loads the same query's rows into {@code dbo.bench} (camel-sql:
 * {@code dbo.bench_sql}) one way. The Camel context (with the {@code benchDs} DataSource bound) belongs to
 * {@link Benchmark}; routes added here are removed after their run.
 */
final class BenchmarkPaths {

    private final BenchmarkOptions o;
    private final Harness harness;
    private final CamelContext camel;
    private final String url;
    private final String query;
    private int routeSeq;

    BenchmarkPaths(BenchmarkOptions options, Harness harness, CamelContext camel, String url, String query) {
        this.o = options;
        this.harness = harness;
        this.camel = camel;
        this.url = url;
        this.query = query;
    }

    // ---- path 1: the DeltaFunnel route ----

    Run runDeltaFunnel(String jdbcUrl) throws Exception {
        return runDeltaFunnel(jdbcUrl, query, "");
    }

    Run runDeltaFunnel(String jdbcUrl, String sql) throws Exception {
        return runDeltaFunnel(jdbcUrl, sql, "");
    }

    /** @param producerOptions appended to the producer URI, e.g. {@code &bulkEncoder=direct} */
    Run runDeltaFunnel(String jdbcUrl, String sql, String producerOptions) throws Exception {
        String id = "df" + (routeSeq++);
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong rowsDone = new AtomicLong();
        AtomicLong arrowPeak = new AtomicLong(-1);
        String source = "deltafunnel:" + id + "?query=RAW(" + sql + ")&batchSize=" + o.batchSize
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
    Run runDirect(String jdbcUrl, String sql) throws Exception {
        TableName table = new TableName("dbo", TABLE);
        try (BufferAllocator allocator = new RootAllocator();
                Connection duck = DuckDbConnections.open(DuckDbSettings.inMemory());
                ArrowBatchStream stream = ArrowBatchStream.open("bench", duck, sql, o.batchSize, allocator);
                DirectTdsConnection tds = DirectTdsConnection.open(DirectTdsConnection.options().host("localhost")
                        .port(BenchSupport.portOf(jdbcUrl)).database("master").user("sa").password(PASSWORD)
                        .encrypt(false))) {
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

    // ---- path 2: writeToServer(ResultSet) ----

    Run runResultSet(String jdbcUrl) throws Exception {
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
            return new Run(o.rows, -1);
        }
    }

    // ---- path 3: camel-sql batched INSERT ----

    Result measureSql(MemoryProbe probe, int emulatorPort) throws Exception {
        Shape shape = o.shape;
        String cols = String.join(", ", shape.columns().stream().map(c -> "[" + c.name() + "]").toList());
        StringBuilder params = new StringBuilder();
        for (Shape.Column c : shape.columns()) {
            params.append(params.length() == 0 ? "" : ", ").append(":#").append(c.name());
        }
        String sqlQuery = query + " LIMIT " + o.sqlRows;
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
        System.out.printf("%n== camel-sql batched INSERT (%,d rows, %d measured runs)%n", o.sqlRows, o.sqlRuns);
        // Warm-up through the counting proxy (wire bytes per row), then the measured runs.
        double wire;
        try (RecordingProxy proxy = new RecordingProxy(emulatorPort, null)) {
            Run r = harness.timed("warm-up (through proxy)", false,
                    () -> path.run(BenchSupport.viaPort(url, proxy.port())));
            camel.getRegistry().unbind("proxyDs");
            wire = (double) proxy.clientToServerBytes() / r.rows();
        }
        double[] rates = new double[o.sqlRuns];
        MemoryProbe.Peaks peaks = new MemoryProbe.Peaks(0, 0, 0);
        long rowsPerRun = 0;
        for (int i = 0; i < o.sqlRuns; i++) {
            System.gc();
            probe.reset();
            long t0 = System.nanoTime();
            Run r = harness.timed("run " + (i + 1), false, () -> path.run(url));
            rates[i] = r.rows() / ((System.nanoTime() - t0) / 1e9);
            peaks = peaks.max(probe.peaks());
            rowsPerRun = r.rows();
        }
        return new Result("camel-sql batched INSERT", "sql:INSERT ...?batch=true, 1000-row List<Map> bodies, rows"
                + " stored in the emulator's H2 (sink mode applies to BULK_LOAD only)", rowsPerRun, rates, wire, peaks,
                -1);
    }

    private String bindProxyDs(String jdbcUrl) {
        camel.getRegistry().bind("proxyDs", BenchSupport.dataSource(jdbcUrl));
        return "proxyDs";
    }

    // ---- path 4: source ceiling, and source + adapter without the driver ----

    Run runSource(boolean adapt) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
                Connection duck = DuckDbConnections.open(DuckDbSettings.inMemory());
                ArrowBatchStream stream = ArrowBatchStream.open("bench", duck, query, o.batchSize, allocator)) {
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
                            BulkColumns.requireFits(root, columns);
                            ArrowBulkData data = new ArrowBulkData(new BulkBatch(root, columns, 0));
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

    Result measurePrebuilt() throws Exception {
        AtomicReference<Object[][]> rowsRef = new AtomicReference<>();
        AtomicReference<List<BoundColumn>> columnsRef = new AtomicReference<>();
        // Every row of the table, as the objects ArrowBulkData hands over, rebuilt before EVERY run (untimed): the
        // driver must not profit from objects it has already seen (BigDecimal caches its toString, which the driver
        // computes for every decimal). Cycled only when the table is too big to hold.
        long rows = o.rows;
        Shape shape = o.shape;
        int batchSize = o.batchSize;
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
                        BulkColumns.requireFits(root, columnsRef.get());
                        ArrowBulkData data = new ArrowBulkData(new BulkBatch(root, columnsRef.get(), 0));
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
        return harness.measure(PREBUILT, "ISQLServerBulkData over prebuilt rows (rebuilt,"
                + " untimed, before each run), same metadata/options/batching as the producer", o.runs, true, path, build);
    }
}
