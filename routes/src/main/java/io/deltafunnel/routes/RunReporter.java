package io.deltafunnel.routes;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.deltafunnel.camel.DeltaFunnelConstants;
import io.deltafunnel.camel.DeltaFunnelConsumer;
import io.deltafunnel.camel.DeltaFunnelEndpoint;
import io.deltafunnel.camel.DeltaFunnelMssqlEndpoint;
import io.deltafunnel.handoff.HandoffException;
import io.deltafunnel.handoff.QuerySetupException;
import io.deltafunnel.handoff.ReplayRequest;
import io.deltafunnel.handoff.ShardAssignment;
import io.deltafunnel.handoff.ShardPlanException;
import io.deltafunnel.handoff.UpstreamException;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.JdbcUrls;
import io.deltafunnel.mssql.RetriesExhaustedException;
import io.deltafunnel.mssql.RunFailures;
import io.deltafunnel.mssql.WriteMode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.spi.CamelEvent;
import org.apache.camel.spi.ExceptionHandler;
import org.apache.camel.spi.PollingConsumerPollStrategy;
import org.apache.camel.support.DefaultPollingConsumerPollStrategy;
import org.apache.camel.support.EventNotifierSupport;
import org.apache.camel.support.LifecycleStrategySupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches every {@code deltafunnel:} route of a CamelContext — the application's own and the user's — without being a
 * step of it: each poll of a {@code deltafunnel:} consumer is one run, observed through the consumer's poll strategy
 * (begin, commit, rollback: a run's replays happen inside its poll), and its batches through Camel's exchange events.
 *
 * <ul>
 *   <li><b>Summaries.</b> One line per finished run on standard output: rows, batches, time, rows/s and the target's
 *       row count read back; or the failure, once, without statistics that mean nothing.</li>
 *   <li><b>Progress.</b> Named phases — {@code reading} (Delta log and query start), {@code writing}, then, from the
 *       moment the last batch is handed to the producer, {@code committing} (append/truncate), {@code swap} (replace)
 *       or {@code merge} — with percentage and ETA when the total is known ({@link RunTotals}). On a terminal one
 *       line updated in place; otherwise a log line every {@code progressIntervalMillis}.</li>
 *   <li><b>Metrics</b> (Camel's Micrometer naming, tags {@code camelContext} and {@code routeId}):
 *       {@code camel.deltafunnel.rows.in}, {@code .rows.out}, {@code .batches.in}, {@code .batches.out} (counters),
 *       {@code camel.deltafunnel.run.duration} (timer, per completed run) and {@code camel.deltafunnel.runs.failed}.</li>
 *   <li><b>Sharded loads.</b> A run that carries a shard of a load ({@code CamelDeltaFunnelShard}) names it in its
 *       summary, {@code [load <id> shard <i>/<N>: <outcome>]}, with the producer's outcome
 *       ({@value #LOAD_STATUS}: {@code shard-done}, {@code load-done} or {@code already-done}) when it reported one.</li>
 *   <li><b>One-shot.</b> With {@code oneShot}, a route runs {@code repeatCount} times (once when it is 0), and no
 *       further poll begins after its last run or after a failed run.</li>
 * </ul>
 *
 * Install it with {@link #install(CamelContext)} before the routes are added. It owns its progress thread, which
 * {@link #close()} stops.
 */
public final class RunReporter extends EventNotifierSupport implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RunReporter.class);

    /**
     * The header in which the producer reports what became of a sharded run's share: {@code shard-done} (committed,
     * other shards pending), {@code load-done} (this shard completed the set and ran the final step) or
     * {@code already-done} (the shard was done before; nothing was owed or the owed final step ran).
     */
    public static final String LOAD_STATUS = DeltaFunnelConstants.LOAD_STATUS;

    /**
     * What the summary of a finished run says. {@code targetRowCount} is null when it could not be read back;
     * {@code shard} is the shard the run carried (null when not sharded), {@code loadStatus} the producer's outcome
     * for it ({@link #LOAD_STATUS}; null when none was reported).
     */
    public record Summary(String routeId, String runId, long rows, long batches, long millis, double rowsPerSecond,
            String target, Long targetRowCount, boolean failed, String failure, boolean permanent, boolean routeDone,
            String line, ShardAssignment shard, String loadStatus) {
    }

    /** Where progress and summaries go. */
    public record Output(PrintStream out, boolean terminal, long progressIntervalMillis) {
        /** Standard output; in-place progress when a terminal is attached. */
        public static Output standard(long progressIntervalMillis) {
            return new Output(System.out, System.console() != null, progressIntervalMillis);
        }
    }

    enum Phase {
        READING("reading"), WRITING("writing"), COMMITTING("committing"), SWAP("swap"), MERGE("merge"),
        REPLAY_WAIT("waiting to replay");

        final String label;

        Phase(String label) {
            this.label = label;
        }
    }

    /** The state of one deltafunnel: route. */
    private final class RouteRuns {
        final String routeId;
        final DeltaFunnelEndpoint source;
        volatile int runsFinished;
        volatile boolean failedOnce;
        volatile boolean done;
        // the run in progress
        volatile boolean active;
        volatile long start;
        volatile long phaseStart;
        volatile Phase phase = Phase.READING;
        volatile String runId;
        volatile int attempt = 1;
        volatile long rowsOut;
        volatile long batchesOut;
        volatile long lastLog;
        volatile DeltaFunnelMssqlEndpoint target;
        volatile RunTotals.Total total;
        volatile ShardAssignment shard;
        volatile String loadStatus;

        RouteRuns(String routeId, DeltaFunnelEndpoint source) {
            this.routeId = routeId;
            this.source = source;
        }

        long expectedRuns() {
            long repeat = source.getRepeatCount();
            return repeat > 0 ? repeat : 1;
        }

        void begin() {
            long now = System.nanoTime();
            start = now;
            phaseStart = now;
            lastLog = now;
            phase = Phase.READING;
            runId = null;
            attempt = 1;
            rowsOut = 0;
            batchesOut = 0;
            shard = null;
            loadStatus = null;
            total = RunTotals.start(source);
            active = true;
        }

        void phase(Phase next) {
            if (phase != next) {
                phase = next;
                phaseStart = System.nanoTime();
            }
        }
    }

    private final Output output;
    private final boolean oneShot;
    private final Consumer<Summary> onRunFinished;
    private final Supplier<MeterRegistry> registrySupplier;
    private volatile MeterRegistry registry;
    private final Map<String, RouteRuns> routes = new ConcurrentHashMap<>();
    private volatile Thread ticker;
    private volatile boolean inPlaceLineShown;
    private volatile ProducerRuns producerRuns;

    /**
     * @param output        where summaries and progress go
     * @param oneShot       true: each route runs repeatCount times (once for 0), then no further poll begins
     * @param registry      the Micrometer registry, looked up on first use (camel-main creates it after the routes)
     * @param onRunFinished called after each run's summary line
     */
    public RunReporter(Output output, boolean oneShot, Supplier<MeterRegistry> registry,
            Consumer<Summary> onRunFinished) {
        this.output = output;
        this.oneShot = oneShot;
        this.registrySupplier = registry;
        this.onRunFinished = onRunFinished;
    }

    /**
     * Hooks this reporter into {@code context}: the exchange events, and the poll strategy and exception handler of
     * every {@code deltafunnel:} endpoint created from now on (a poll strategy or exception handler the route
     * configured itself is kept and still called).
     */
    public RunReporter install(CamelContext context) {
        context.getManagementStrategy().addEventNotifier(this);
        context.addLifecycleStrategy(new LifecycleStrategySupport() {
            @Override
            public void onEndpointAdd(Endpoint endpoint) {
                if (endpoint instanceof DeltaFunnelEndpoint source) {
                    source.setPollStrategy(new Tracking(source.getPollStrategy()));
                    if (source.getExceptionHandler() == null) {
                        // The summary line reports a failed run; the stack trace is for debugging.
                        source.setExceptionHandler(QUIET);
                    }
                }
            }
        });
        return this;
    }

    /** Progress lines of producer-only runs ({@link ProducerRuns}) join this reporter's progress. */
    void progressOf(ProducerRuns runs) {
        this.producerRuns = runs;
    }

    /** The ids of the deltafunnel: routes seen so far and whether each is done (one-shot). */
    public Map<String, Boolean> routesDone() {
        Map<String, Boolean> out = new java.util.TreeMap<>();
        routes.forEach((id, r) -> out.put(id, r.done));
        return out;
    }

    // ---- poll strategy: one poll = one run ----

    private final class Tracking implements PollingConsumerPollStrategy {
        private final PollingConsumerPollStrategy delegate;

        Tracking(PollingConsumerPollStrategy delegate) {
            this.delegate = delegate == null ? new DefaultPollingConsumerPollStrategy() : delegate;
        }

        @Override
        public boolean begin(org.apache.camel.Consumer consumer, Endpoint endpoint) {
            RouteRuns route = route(consumer, endpoint);
            if (route == null) {
                return delegate.begin(consumer, endpoint);
            }
            if (oneShot && route.done) {
                return false;
            }
            if (!route.active) {
                route.begin();
            }
            return delegate.begin(consumer, endpoint);
        }

        @Override
        public void commit(org.apache.camel.Consumer consumer, Endpoint endpoint, int polledMessages) {
            delegate.commit(consumer, endpoint, polledMessages);
            RouteRuns route = route(consumer, endpoint);
            if (route == null || !route.active) {
                return;
            }
            boolean stopping = endpoint.getCamelContext().isStopping()
                    || consumer instanceof org.apache.camel.support.service.ServiceSupport s
                       && (s.isStoppingOrStopped() || s.isSuspendingOrSuspended());
            if (stopping) {
                // the consumer abandoned the run: the application or the route is stopping
                finished(route, new RunStoppedException(), polledMessages);
                return;
            }
            if (consumer instanceof DeltaFunnelConsumer c && c.getRunBatchesLoaded() > 0) {
                return; // maxMessagesPerPoll cut the poll short: the run goes on at the next poll
            }
            finished(route, null, polledMessages);
        }

        @Override
        public boolean rollback(org.apache.camel.Consumer consumer, Endpoint endpoint, int retryCounter, Exception e)
                throws Exception {
            if (!(delegate instanceof DefaultPollingConsumerPollStrategy)) {
                delegate.rollback(consumer, endpoint, retryCounter, e);
            }
            RouteRuns route = route(consumer, endpoint);
            if (route != null) {
                if (!route.active) {
                    route.begin();
                }
                finished(route, e, 0);
            }
            return false;
        }
    }

    private RouteRuns route(org.apache.camel.Consumer consumer, Endpoint endpoint) {
        if (!(endpoint instanceof DeltaFunnelEndpoint source)) {
            return null;
        }
        String routeId = consumer instanceof org.apache.camel.spi.RouteIdAware aware && aware.getRouteId() != null
                ? aware.getRouteId() : source.getEndpointKey();
        return routes.computeIfAbsent(routeId, id -> new RouteRuns(id, source));
    }

    /** Registers a route before its first poll (so that one-shot mode knows to wait for it). */
    public void expect(String routeId, DeltaFunnelEndpoint source) {
        routes.computeIfAbsent(routeId, id -> new RouteRuns(id, source));
    }

    // ---- exchange events: batches, targets, phases ----

    @Override
    public boolean isEnabled(CamelEvent event) {
        return event instanceof CamelEvent.ExchangeSendingEvent || event instanceof CamelEvent.ExchangeSentEvent
               || event instanceof CamelEvent.ExchangeCompletedEvent || event instanceof CamelEvent.ExchangeFailedEvent;
    }

    @Override
    public void notify(CamelEvent event) {
        if (!(event instanceof CamelEvent.ExchangeEvent ee)) {
            return;
        }
        Exchange exchange = ee.getExchange();
        if (!(exchange.getFromEndpoint() instanceof DeltaFunnelEndpoint)) {
            return;
        }
        RouteRuns route = routes.get(String.valueOf(exchange.getFromRouteId()));
        if (route == null) {
            return;
        }
        ShardAssignment shard = exchange.getIn().getHeader(DeltaFunnelConstants.SHARD, ShardAssignment.class);
        if (shard != null) {
            route.shard = shard;
        }
        if (event instanceof CamelEvent.ExchangeSendingEvent sending
            && sending.getEndpoint() instanceof DeltaFunnelMssqlEndpoint target) {
            route.target = target;
            route.runId = exchange.getIn().getHeader(DeltaFunnelConstants.RUN_ID, String.class);
            route.attempt = exchange.getIn().getHeader(DeltaFunnelConstants.ATTEMPT, 1, Integer.class);
            boolean last = exchange.getProperty(Exchange.BATCH_COMPLETE, false, Boolean.class);
            route.phase(last ? finalPhase(target) : Phase.WRITING);
        } else if (event instanceof CamelEvent.ExchangeSentEvent sent
                   && sent.getEndpoint() instanceof DeltaFunnelMssqlEndpoint && exchange.getException() == null) {
            long rows = exchange.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_ROWS, 0L, Long.class);
            long batches = exchange.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_BATCHES, 0L, Long.class);
            long batchRows = exchange.getIn().getHeader(DeltaFunnelConstants.BATCH_ROWS, 0L, Long.class);
            route.rowsOut = rows;
            route.batchesOut = batches;
            String status = exchange.getMessage().getHeader(LOAD_STATUS, String.class);
            if (status != null) {
                route.loadStatus = status;
            }
            counter("camel.deltafunnel.rows.out", route.routeId, exchange).increment(batchRows);
            counter("camel.deltafunnel.batches.out", route.routeId, exchange).increment();
        } else if (event instanceof CamelEvent.ExchangeCompletedEvent || event instanceof CamelEvent.ExchangeFailedEvent) {
            long batchRows = exchange.getIn().getHeader(DeltaFunnelConstants.BATCH_ROWS, 0L, Long.class);
            counter("camel.deltafunnel.rows.in", route.routeId, exchange).increment(batchRows);
            counter("camel.deltafunnel.batches.in", route.routeId, exchange).increment();
            if (route.target == null) {
                // a route without deltafunnel-mssql: count what it was handed
                route.rowsOut = exchange.getIn().getHeader(DeltaFunnelConstants.INPUT_ROWS, 0L, Long.class);
                route.batchesOut = exchange.getIn().getHeader(DeltaFunnelConstants.INPUT_BATCHES, 0L, Long.class);
                route.phase(Phase.WRITING);
            }
            Exception failure = exchange.getException() != null ? exchange.getException()
                    : exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class);
            if (ReplayRequest.find(failure) != null) {
                route.phase(Phase.REPLAY_WAIT);
                route.rowsOut = 0;
                route.batchesOut = 0;
            }
        }
    }

    private static Phase finalPhase(DeltaFunnelMssqlEndpoint target) {
        WriteMode mode = target.getWriteMode();
        if (mode == WriteMode.REPLACE) {
            return Phase.SWAP;
        }
        return mode == WriteMode.MERGE ? Phase.MERGE : Phase.COMMITTING;
    }

    // ---- end of a run ----

    private void finished(RouteRuns route, Exception failure, int polledMessages) {
        long nanos = System.nanoTime() - route.start;
        route.active = false;
        RunTotals.Total total = route.total;
        if (total != null) {
            total.cancel();
        }
        route.runsFinished++;
        boolean failed = failure != null;
        if (failed) {
            route.failedOnce = true;
        }
        route.done = failed || route.runsFinished >= route.expectedRuns();
        String target = route.target == null ? null : route.target.settings().table().toString();
        Long count = null;
        String countProblem = null;
        if (route.target != null) {
            try {
                count = countRows(route.target);
            } catch (Exception e) {
                countProblem = JdbcUrls.redactText(e.getMessage());
            }
        }
        String tags = route.routeId;
        ShardAssignment shard = route.shard;
        String loadStatus = route.loadStatus;
        String name = route.routeId + (shard == null ? ""
                : " [" + shard.describe() + (loadStatus == null ? "" : ": " + loadStatus) + "]");
        String line;
        boolean permanent = false;
        if (failed) {
            permanent = !(failure instanceof RunStoppedException) && permanent(failure);
            registryCounter("camel.deltafunnel.runs.failed", tags).increment();
            line = String.format(Locale.ROOT, "DeltaFunnel run %s on route %s after %.3f s: %s",
                    failure instanceof RunStoppedException ? "STOPPED" : "FAILED", name, nanos / 1e9,
                    describe(failure));
            if (count != null) {
                line += String.format(Locale.ROOT, "; target %s holds %s rows", target, fmt(count));
            }
        } else if (polledMessages == 0 && route.batchesOut == 0) {
            line = "DeltaFunnel route " + name + ": nothing to load";
        } else {
            Timer.builder("camel.deltafunnel.run.duration").tag("camelContext", String.valueOf(getCamelContextName()))
                    .tag("routeId", route.routeId).register(registry()).record(java.time.Duration.ofNanos(nanos));
            line = String.format(Locale.ROOT, "DeltaFunnel run complete on route %s: %s rows in %d batches, %.3f s,"
                    + " %s rows/s", name, fmt(route.rowsOut), route.batchesOut, nanos / 1e9,
                    fmt((long) rate(route.rowsOut, nanos)));
            if (count != null) {
                line += String.format(Locale.ROOT, "; target %s holds %s rows (read back)", target, fmt(count));
            } else if (target != null) {
                line += "; target " + target + " (row count not read back: " + countProblem + ")";
            }
        }
        LOG.debug("run {} of route {} finished", route.runId, route.routeId, failure);
        print(line);
        onRunFinished.accept(new Summary(route.routeId, route.runId, route.rowsOut, route.batchesOut, nanos / 1_000_000,
                rate(route.rowsOut, nanos), target, count, failed, failed ? describe(failure) : null, permanent,
                route.done, line, shard, loadStatus));
    }

    private String getCamelContextName() {
        return getCamelContext() == null ? "" : getCamelContext().getName();
    }

    /**
     * True when a later poll cannot do better: anything but a transient SQL Server failure whose retries ran out
     * (query setup — missing table, bad SQL —, data errors, configuration, permanent SQL Server errors).
     */
    static boolean permanent(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof RetriesExhaustedException) {
                return false;
            }
            if (t instanceof BulkLoadException b) {
                return !RunFailures.retryable(b);
            }
        }
        return true;
    }

    /**
     * The failure in one line: the most specific DeltaFunnel exception's message (the producer's, a shard's refusal,
     * else the query's),
     * without the statistics when nothing was accepted, and no stack trace.
     */
    static String describe(Throwable failure) {
        Throwable best = failure;
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof BulkLoadException || t instanceof QuerySetupException || t instanceof UpstreamException
                || t instanceof ShardPlanException) {
                best = t;
                break;
            }
            if (!(t instanceof HandoffException) && t != failure && best == failure) {
                best = t; // a failure of another step, wrapped by the consumer's DownstreamException
            }
        }
        String message = best.getMessage() == null ? best.getClass().getSimpleName() : best.getMessage();
        message = message.replace(" [inputBatches=0, inputRows=0, outputBatches=0, outputRows=0]", "");
        if (best instanceof QuerySetupException && best.getCause() != null && best.getCause().getMessage() != null
            && !message.contains(best.getCause().getMessage())) {
            message += ": " + best.getCause().getMessage();
        }
        return JdbcUrls.redactText(message).replace('\n', ' ');
    }

    static long countRows(DeltaFunnelMssqlEndpoint target) throws Exception {
        try (Connection c = target.connectionProvider().open();
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT_BIG(*) FROM " + target.settings().table().quoted())) {
            rs.next();
            return rs.getLong(1);
        }
    }

    // ---- progress ----

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        long interval = Math.max(100, output.terminal() ? Math.min(500, output.progressIntervalMillis())
                : output.progressIntervalMillis());
        Thread t = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(interval);
                } catch (InterruptedException e) {
                    return;
                }
                tick();
            }
        }, "deltafunnel-progress");
        t.setDaemon(true);
        ticker = t;
        t.start();
    }

    @Override
    protected void doStop() throws Exception {
        close();
        super.doStop();
    }

    @Override
    public void close() {
        Thread t = ticker;
        ticker = null;
        if (t != null) {
            t.interrupt();
        }
    }

    private void tick() {
        List<String> lines = new ArrayList<>();
        long now = System.nanoTime();
        for (RouteRuns route : routes.values()) {
            if (!route.active) {
                continue;
            }
            if (!output.terminal() && now - route.lastLog < output.progressIntervalMillis() * 1_000_000L) {
                continue;
            }
            route.lastLog = now;
            lines.add(progressLine(route, now));
        }
        ProducerRuns producers = producerRuns;
        if (producers != null) {
            lines.addAll(producers.progressLines(now, output.terminal() ? 0 : output.progressIntervalMillis() * 1_000_000L));
        }
        if (lines.isEmpty()) {
            return;
        }
        if (output.terminal()) {
            String line = String.join(" | ", lines);
            synchronized (output.out()) {
                output.out().print("\r" + line + " ".repeat(Math.max(0, 100 - line.length())));
                output.out().flush();
                inPlaceLineShown = true;
            }
        } else {
            lines.forEach(LOG::info);
        }
    }

    /** e.g. {@code load-table: writing 120,000 of 300,000 rows (40%), 35,210 rows/s, ETA 5 s, 12.4 s}. */
    String progressLine(RouteRuns route, long now) {
        double seconds = (now - route.start) / 1e9;
        long rows = route.rowsOut;
        RunTotals.Total total = route.total;
        Long known = total == null ? null : total.rows();
        StringBuilder sb = new StringBuilder(route.routeId).append(": ").append(route.phase.label);
        if (route.attempt > 1) {
            sb.append(" (attempt ").append(route.attempt).append(')');
        }
        switch (route.phase) {
            case READING -> sb.append(" (Delta log, query start)");
            case WRITING -> {
                sb.append(' ').append(fmt(rows));
                if (known != null && known > 0) {
                    sb.append(" of ").append(fmt(known));
                }
                sb.append(" rows");
                if (known != null && known > 0) {
                    sb.append(String.format(Locale.ROOT, " (%d%%)", Math.min(99, rows * 100 / known)));
                }
                double rate = rate(rows, now - route.start);
                sb.append(", ").append(fmt((long) rate)).append(" rows/s");
                if (known != null && known > rows && rate > 0) {
                    sb.append(", ETA ").append(Math.round((known - rows) / rate)).append(" s");
                }
            }
            case COMMITTING, SWAP, MERGE -> sb.append(" (last batch handed over after ").append(fmt(rows))
                    .append(" rows; ").append(String.format(Locale.ROOT, "%.1f s", (now - route.phaseStart) / 1e9))
                    .append(" in this phase)");
            case REPLAY_WAIT -> sb.append(" after a transient failure");
            default -> {
            }
        }
        sb.append(String.format(Locale.ROOT, ", %.1f s", seconds));
        return sb.toString();
    }

    /** Prints a line on the output (after clearing an in-place progress line). */
    void print(String line) {
        PrintStream out = output.out();
        synchronized (out) {
            if (inPlaceLineShown) {
                out.print("\r" + " ".repeat(120) + "\r");
                inPlaceLineShown = false;
            }
            out.println(line);
            out.flush();
        }
    }

    // ---- metrics ----

    private Counter counter(String name, String routeId, Exchange exchange) {
        return Counter.builder(name).tag("camelContext", exchange.getContext().getName()).tag("routeId", routeId)
                .register(registry());
    }

    private Counter registryCounter(String name, String routeId) {
        return Counter.builder(name).tag("camelContext", getCamelContextName()).tag("routeId", routeId)
                .register(registry());
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

    static String fmt(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** A run the consumer abandoned because the application or its route stopped before the run ended. */
    static final class RunStoppedException extends RuntimeException {
        RunStoppedException() {
            super("the run did not finish: the application (or the route) stopped first; what the producer had not"
                  + " committed was rolled back");
        }
    }

    /** Logs a failed poll at debug level only: the run's summary line has already said what failed. */
    private static final ExceptionHandler QUIET = new ExceptionHandler() {
        @Override
        public void handleException(Throwable exception) {
            LOG.debug("poll failed", exception);
        }

        @Override
        public void handleException(String message, Throwable exception) {
            LOG.debug(message, exception);
        }

        @Override
        public void handleException(String message, Exchange exchange, Throwable exception) {
            LOG.debug(message, exception);
        }
    };
}
