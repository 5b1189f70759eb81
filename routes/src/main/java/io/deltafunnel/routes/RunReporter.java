package io.deltafunnel.routes;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import io.deltafunnel.camel.DeltaFunnelConstants;
import io.deltafunnel.mssql.TableName;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Placed after the {@code deltafunnel-mssql:} step of a load route: logs progress at a steady rate (not per
 * batch), records Micrometer metrics, and prints a summary when a run completes (rows, batches, time,
 * rows/s and the target's row count read back). Failures are reported through {@link #failed(Exchange)}.
 *
 * <p>Metric names follow Camel's Micrometer conventions ({@code camel.} prefix, {@code camelContext} and
 * {@code routeId} tags): {@code camel.deltafunnel.rows.in}, {@code camel.deltafunnel.rows.out},
 * {@code camel.deltafunnel.batches.in}, {@code camel.deltafunnel.batches.out} (counters),
 * {@code camel.deltafunnel.run.duration} (timer, per completed run) and {@code camel.deltafunnel.runs.failed}.
 */
public final class RunReporter implements Processor {

    private static final Logger LOG = LoggerFactory.getLogger(RunReporter.class);

    /** What the summary of a finished run says. */
    public record Summary(String routeId, String runId, long rows, long batches, long millis, double rowsPerSecond,
            long targetRowCount, boolean failed, String failure) {
    }

    private final AppTarget target;
    private final java.util.function.Supplier<MeterRegistry> registrySupplier;
    private volatile MeterRegistry registry;
    private final long progressIntervalNanos;
    private final Consumer<Summary> onRunFinished;
    private final Map<String, RunProgress> runs = new ConcurrentHashMap<>();

    /**
     * @param target        where the summary reads the row count back from
     * @param registry      the Micrometer registry metrics go to, looked up on first use (camel-main creates
     *                      its registry after the routes are configured)
     * @param onRunFinished called after each run's summary (the one-shot mode stops the application there)
     */
    public RunReporter(AppTarget target, java.util.function.Supplier<MeterRegistry> registry,
            long progressIntervalMillis, Consumer<Summary> onRunFinished) {
        this.target = target;
        this.registrySupplier = registry;
        this.progressIntervalNanos = progressIntervalMillis * 1_000_000L;
        this.onRunFinished = onRunFinished;
    }

    @Override
    public void process(Exchange exchange) {
        String routeId = exchange.getFromRouteId();
        String runId = exchange.getIn().getHeader(DeltaFunnelConstants.RUN_ID, "single", String.class);
        long batchRows = exchange.getIn().getHeader(DeltaFunnelConstants.BATCH_ROWS, 0L, Long.class);
        long outRows = exchange.getIn().getHeader(DeltaFunnelConstants.OUTPUT_ROWS, 0L, Long.class);
        long outBatches = exchange.getIn().getHeader(DeltaFunnelConstants.OUTPUT_BATCHES, 0L, Long.class);
        // The run's clock starts when its first exchange was created (the first batch had just been read).
        RunProgress run = runs.computeIfAbsent(runId, id -> new RunProgress(System.nanoTime()
                - java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(exchange.getClock().elapsed())));

        counter("camel.deltafunnel.rows.in", exchange).increment(batchRows);
        counter("camel.deltafunnel.batches.in", exchange).increment();
        counter("camel.deltafunnel.rows.out", exchange).increment(batchRows);
        counter("camel.deltafunnel.batches.out", exchange).increment();

        long now = System.nanoTime();
        if (now - run.lastLog >= progressIntervalNanos) {
            run.lastLog = now;
            LOG.info("{}: {} rows written, {} rows/s, {} batches", routeId, fmt(outRows),
                    fmt((long) rate(outRows, now - run.start)), outBatches);
        }
        if (exchange.getProperty(Exchange.BATCH_COMPLETE, true, Boolean.class)) {
            runs.remove(runId);
            long nanos = now - run.start;
            Timer.builder("camel.deltafunnel.run.duration").tag("camelContext", exchange.getContext().getName())
                    .tag("routeId", String.valueOf(routeId)).register(registry())
                    .record(java.time.Duration.ofNanos(nanos));
            finish(new Summary(routeId, runId, outRows, outBatches, nanos / 1_000_000, rate(outRows, nanos),
                    target.countRows(), false, null));
        }
    }

    /** Reports a failed run (call from the route's error handler). */
    public void failed(Exchange exchange) {
        String routeId = exchange.getFromRouteId();
        String runId = exchange.getIn().getHeader(DeltaFunnelConstants.RUN_ID, "single", String.class);
        RunProgress run = runs.remove(runId);
        long nanos = run == null ? 0 : System.nanoTime() - run.start;
        counter("camel.deltafunnel.runs.failed", exchange).increment();
        Exception e = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class);
        long outRows = exchange.getIn().getHeader(DeltaFunnelConstants.OUTPUT_ROWS, 0L, Long.class);
        long outBatches = exchange.getIn().getHeader(DeltaFunnelConstants.OUTPUT_BATCHES, 0L, Long.class);
        finish(new Summary(routeId, runId, outRows, outBatches, nanos / 1_000_000, rate(outRows, nanos),
                target.countRows(), true, e == null ? "unknown failure" : e.getMessage()));
    }

    private void finish(Summary s) {
        String line = s.failed()
                ? String.format(Locale.ROOT, "DeltaFunnel run FAILED on route %s: %s%n  target %s now holds %s rows",
                        s.routeId(), s.failure(), target.table(), fmt(s.targetRowCount()))
                : String.format(Locale.ROOT, "DeltaFunnel run complete on route %s: %s rows in %d batches, %.3f s,"
                        + " %s rows/s; target %s holds %s rows (read back)", s.routeId(), fmt(s.rows()), s.batches(),
                        s.millis() / 1000.0, fmt((long) s.rowsPerSecond()), target.table(), fmt(s.targetRowCount()));
        LOG.info(line);
        System.out.println(line);
        onRunFinished.accept(s);
    }

    private Counter counter(String name, Exchange exchange) {
        return Counter.builder(name).tag("camelContext", exchange.getContext().getName())
                .tag("routeId", String.valueOf(exchange.getFromRouteId())).register(registry());
    }

    /** The registry the metrics go to. */
    public MeterRegistry registry() {
        MeterRegistry r = registry;
        if (r == null) {
            synchronized (this) {
                if (registry == null) {
                    registry = registrySupplier.get();
                }
                r = registry;
            }
        }
        return r;
    }

    private static double rate(long rows, long nanos) {
        return nanos <= 0 ? 0 : rows * 1e9 / nanos;
    }

    private static String fmt(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    private static final class RunProgress {
        final long start;
        volatile long lastLog;

        RunProgress(long start) {
            this.start = start;
            this.lastLog = start;
        }
    }

    /** The SQL Server table a route writes, for reading the row count back. */
    public record AppTarget(String url, String username, String password, String table) {
        /** SELECT COUNT_BIG(*) of the table, or -1 when it cannot be read (the reason is logged). */
        public long countRows() {
            TableName name = TableName.parse(table);
            try (Connection c = DriverManager.getConnection(url, username, password);
                 Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT COUNT_BIG(*) FROM " + name.quoted())) {
                rs.next();
                return rs.getLong(1);
            } catch (SQLException e) {
                LOG.warn("Could not read back the row count of {}: {}", table, e.getMessage());
                return -1;
            }
        }

        @Override
        public String toString() {
            return "AppTarget[url=" + url + ", username=" + username + ", table=" + table + "]";
        }
    }
}
