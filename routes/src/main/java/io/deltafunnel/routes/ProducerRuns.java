package io.deltafunnel.routes;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.deltafunnel.camel.DeltaFunnelConstants;
import io.deltafunnel.camel.DeltaFunnelEndpoint;
import io.deltafunnel.camel.DeltaFunnelMssqlEndpoint;
import io.deltafunnel.handoff.HandoffException;
import io.deltafunnel.handoff.HandoffStats;
import org.apache.camel.Exchange;
import org.apache.camel.spi.CamelEvent;
import org.apache.camel.support.EventNotifierSupport;

/**
 * Watches the runs of {@code deltafunnel-mssql:} producers fed by routes that do not start at a {@code deltafunnel:}
 * consumer ({@code file:}, {@code kafka:}, {@code seda:} ... to {@code deltafunnel-mssql:}: producer-only and mixed
 * routes), which {@link RunReporter} does not see as runs, and when the routes last did anything.
 *
 * <ul>
 *   <li>A run is an exchange without a run id (it commits after its last record batch), or the exchanges of one
 *       {@code CamelDeltaFunnelRunId} until the one marked {@code CamelBatchComplete}. It is <em>open</em> from its
 *       first batch until it is committed or fails.</li>
 *   <li>{@link #idle(long, int)}: nothing in flight, no run open, and no exchange event for the given time.</li>
 *   <li>{@link #summaryLines()}: one line per target (runs, rows, failed runs) with the target's row count read
 *       back; {@link #progressLines(long, long)}: one line per open run (rows written, rows/s, phase).</li>
 * </ul>
 * Exchanges that fail outside a {@code deltafunnel-mssql:} write are counted too ({@link #failedExchanges()}).
 */
final class ProducerRuns extends EventNotifierSupport {

    /** One open run. */
    private static final class Run {
        final String target;
        final long start = System.nanoTime();
        volatile Exchange exchange;
        volatile long rows;
        volatile long lastLog = start;

        Run(String target) {
            this.target = target;
        }
    }

    /** The totals of one target table. */
    private static final class Totals {
        final DeltaFunnelMssqlEndpoint endpoint;
        long runs;
        long rows;
        long failedRuns;
        String lastFailure;

        Totals(DeltaFunnelMssqlEndpoint endpoint) {
            this.endpoint = endpoint;
        }
    }

    private final Map<String, Run> open = new ConcurrentHashMap<>();
    private final Map<String, Totals> targets = new TreeMap<>();
    private volatile long lastActivity = System.nanoTime();
    private volatile Runnable onPermanentFailure = () -> { };
    private final AtomicLong failedExchanges = new AtomicLong();
    private final AtomicLong completedExchanges = new AtomicLong();

    @Override
    public boolean isEnabled(CamelEvent event) {
        return event instanceof CamelEvent.ExchangeEvent;
    }

    @Override
    public void notify(CamelEvent event) {
        if (!(event instanceof CamelEvent.ExchangeEvent ee)) {
            return;
        }
        lastActivity = System.nanoTime();
        Exchange exchange = ee.getExchange();
        if (exchange.getFromEndpoint() instanceof DeltaFunnelEndpoint) {
            return; // a deltafunnel: run: RunReporter's
        }
        if (event instanceof CamelEvent.ExchangeSendingEvent sending
            && sending.getEndpoint() instanceof DeltaFunnelMssqlEndpoint target) {
            Run run = open.computeIfAbsent(runKey(target, exchange), k -> new Run(table(target)));
            run.exchange = exchange;
            synchronized (targets) {
                targets.computeIfAbsent(table(target), t -> new Totals(target));
            }
        } else if (event instanceof CamelEvent.ExchangeSentEvent sent
                   && sent.getEndpoint() instanceof DeltaFunnelMssqlEndpoint target) {
            String key = runKey(target, exchange);
            Run run = open.get(key);
            if (run == null) {
                return;
            }
            run.exchange = null;
            if (exchange.getException() != null) {
                open.remove(key);
                failed(run.target, describe(exchange.getException()));
                if (HandoffException.permanent(exchange.getException())) {
                    onPermanentFailure.run();
                }
                return;
            }
            run.rows = exchange.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_ROWS, 0L, Long.class);
            if (exchange.getIn().getHeader(DeltaFunnelConstants.RUN_ID) == null
                || exchange.getProperty(Exchange.BATCH_COMPLETE, false, Boolean.class)) {
                open.remove(key);
                synchronized (targets) {
                    Totals t = targets.get(run.target);
                    t.runs++;
                    t.rows += run.rows;
                }
            }
        } else if (event instanceof CamelEvent.ExchangeCompletedEvent) {
            completedExchanges.incrementAndGet();
        } else if (event instanceof CamelEvent.ExchangeFailedEvent) {
            failedExchanges.incrementAndGet();
            // a run this exchange wrote to is discarded by the producer (the route failed after its batch)
            for (Map.Entry<String, Run> e : open.entrySet()) {
                if (e.getKey().endsWith("|" + exchangeRunId(exchange))) {
                    open.remove(e.getKey());
                    failed(e.getValue().target, "the route failed after a batch of the run was written: "
                            + describe(exchange.getException()));
                }
            }
        }
    }

    /** The failure in one line: its message (which names the input and batch), and its cause's when that adds to it. */
    static String describe(Throwable failure) {
        if (failure == null) {
            return "unknown failure";
        }
        String message = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getMessage();
        Throwable cause = failure.getCause();
        if (cause != null && cause.getMessage() != null && !message.contains(cause.getMessage())) {
            message += ": " + cause.getMessage();
        }
        return message.replace('\n', ' ');
    }

    private void failed(String target, String why) {
        synchronized (targets) {
            Totals t = targets.get(target);
            if (t != null) {
                t.failedRuns++;
                t.lastFailure = why;
            }
        }
    }

    private static String runKey(DeltaFunnelMssqlEndpoint target, Exchange exchange) {
        return target.getEndpointUri() + "|" + exchangeRunId(exchange);
    }

    private static String exchangeRunId(Exchange exchange) {
        String runId = exchange.getIn().getHeader(DeltaFunnelConstants.RUN_ID, String.class);
        return runId != null ? runId : exchange.getExchangeId();
    }

    private static String table(DeltaFunnelMssqlEndpoint target) {
        return target.settings().table().toString();
    }

    /**
     * Called when a run fails in a way that sending the same input again cannot cure (bad data, configuration, a
     * permanent SQL Server error; {@link HandoffException#permanent(Throwable)}): one-shot mode ends the job then, as it does for a
     * {@code deltafunnel:} run.
     */
    void onPermanentFailure(Runnable action) {
        this.onPermanentFailure = action;
    }

    /** Starts the idle time anew (when the routes have started). */
    void touch() {
        lastActivity = System.nanoTime();
    }

    /** True when nothing is in flight, no run is open and no exchange event came for {@code idleMillis}. */
    boolean idle(long idleMillis, int inflight) {
        return inflight == 0 && open.isEmpty() && System.nanoTime() - lastActivity >= idleMillis * 1_000_000L;
    }

    /** The exchanges (not from {@code deltafunnel:}) that failed. */
    long failedExchanges() {
        return failedExchanges.get();
    }

    /** The exchanges (not from {@code deltafunnel:}) that completed. */
    long completedExchanges() {
        return completedExchanges.get();
    }

    /** Whether any run or exchange failed. */
    boolean anyFailed() {
        synchronized (targets) {
            return failedExchanges.get() > 0 || targets.values().stream().anyMatch(t -> t.failedRuns > 0);
        }
    }

    /**
     * One line per open run whose last line is older than {@code intervalNanos}, e.g.
     * {@code dbo.orders: writing 120,000 rows, 35,210 rows/s, 3.4 s}.
     */
    List<String> progressLines(long now, long intervalNanos) {
        List<String> lines = new ArrayList<>();
        for (Run run : open.values()) {
            if (now - run.lastLog < intervalNanos) {
                continue;
            }
            run.lastLog = now;
            long rows = run.rows;
            Exchange exchange = run.exchange;
            if (exchange != null) {
                // exchange properties are a concurrent map: the producer publishes its progress there
                HandoffStats stats = exchange.getProperty(DeltaFunnelConstants.HANDOFF_STATS, HandoffStats.class);
                if (stats != null) {
                    rows = stats.outputRows();
                }
            }
            double seconds = (now - run.start) / 1e9;
            String phase = rows == 0 ? "opening target, first batch" : "writing " + RunPrinter.fmt(rows) + " rows, "
                    + RunPrinter.fmt(seconds > 0 ? (long) (rows / seconds) : 0) + " rows/s";
            lines.add(String.format(Locale.ROOT, "%s: %s, %.1f s", run.target, phase, seconds));
        }
        return lines;
    }

    /**
     * One line per target, e.g. {@code DeltaFunnel target dbo.orders: 3 runs, 15,000 rows; target holds 15,000 rows
     * (read back)}, or with {@code , 1 run FAILED (last: ...)}; plus one line for failed exchanges, if any.
     */
    List<String> summaryLines() {
        List<String> lines = new ArrayList<>();
        synchronized (targets) {
            for (Map.Entry<String, Totals> e : targets.entrySet()) {
                Totals t = e.getValue();
                StringBuilder sb = new StringBuilder("DeltaFunnel target ").append(e.getKey()).append(": ")
                        .append(RunPrinter.fmt(t.runs)).append(t.runs == 1 ? " run, " : " runs, ")
                        .append(RunPrinter.fmt(t.rows)).append(" rows");
                if (t.failedRuns > 0) {
                    sb.append(", ").append(t.failedRuns).append(t.failedRuns == 1 ? " run" : " runs")
                            .append(" FAILED (last: ").append(t.lastFailure).append(')');
                }
                try {
                    long count = RunLines.countRows(t.endpoint);
                    sb.append("; target holds ").append(RunPrinter.fmt(count)).append(" rows (read back)");
                } catch (Exception x) {
                    sb.append("; row count not read back: ").append(x.getMessage());
                }
                lines.add(sb.toString());
            }
        }
        if (failedExchanges.get() > 0) {
            lines.add("DeltaFunnel: " + failedExchanges + " exchange(s) FAILED (see the log above)");
        }
        return lines;
    }
}
