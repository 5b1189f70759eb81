package io.deltafunnel.routes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.deltafunnel.camel.DeltaFunnelConstants;
import io.deltafunnel.camel.DeltaFunnelEndpoint;
import io.deltafunnel.camel.DeltaFunnelMssqlEndpoint;
import io.deltafunnel.handoff.HandoffException;
import io.deltafunnel.handoff.ReplayRequest;
import io.deltafunnel.handoff.ShardAssignment;
import io.deltafunnel.mssql.channel.JdbcUrls;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.Exchange;
import org.apache.camel.spi.CamelEvent;
import org.apache.camel.support.EventNotifierSupport;
import org.apache.camel.support.LifecycleStrategySupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run tracker: turns Camel's events of every {@code deltafunnel:} route (the application's and the user's) into
 * per-route state ({@link RouteRun}) without being a step of the route. One poll of a {@code deltafunnel:} consumer
 * is one run ({@link PollTracking}; its replays happen inside the poll), its batches are seen through the exchange
 * events. The other jobs are delegated: {@link RunPrinter}/{@link RunLines} (progress and one summary line per run),
 * {@link RunMetrics} (Micrometer) and {@link OneShotPolicy} (a Camel {@code RoutePolicy}: one-shot termination).
 * Whether a failed run is permanent is the library's typed answer ({@link HandoffException#permanent(Throwable)}).
 * The progress phases and the shard outcome ({@value #LOAD_STATUS}) are described in docs/application.md.
 *
 * <p>Install it with {@link #install(CamelContext)} before the routes are added. It owns its printer's progress
 * thread, which {@link #close()} stops.
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

    private final RunPrinter printer;
    private final RunMetrics metrics;
    private final OneShotPolicy policy;
    private final Consumer<Summary> onRunFinished;
    private final Map<String, RouteRun> routes = new ConcurrentHashMap<>();
    private volatile ProducerRuns producerRuns;

    /**
     * @param output        where summaries and progress go
     * @param oneShot       true: each route runs repeatCount times (once for 0), then no further poll begins
     * @param registry      the Micrometer registry, looked up on first use (camel-main creates it after the routes)
     * @param onRunFinished called after each run's summary line
     */
    public RunReporter(RunPrinter.Output output, boolean oneShot, Supplier<MeterRegistry> registry,
            Consumer<Summary> onRunFinished) {
        this.printer = new RunPrinter(output);
        this.metrics = new RunMetrics(registry);
        this.policy = new OneShotPolicy(oneShot);
        this.onRunFinished = onRunFinished;
    }

    /**
     * Hooks this reporter into {@code context}: the exchange events, the one-shot route policy of every route, and
     * the poll strategy and exception handler of every {@code deltafunnel:} endpoint created from now on (a poll
     * strategy or exception handler the route configured itself is kept and still called).
     */
    public RunReporter install(CamelContext context) {
        context.getManagementStrategy().addEventNotifier(this);
        context.addRoutePolicyFactory((camelContext, routeId, route) -> policy);
        context.addLifecycleStrategy(new LifecycleStrategySupport() {
            @Override
            public void onEndpointAdd(Endpoint endpoint) {
                if (endpoint instanceof DeltaFunnelEndpoint source) {
                    source.setPollStrategy(new PollTracking(RunReporter.this, policy, source.getPollStrategy()));
                    if (source.getExceptionHandler() == null) {
                        // The summary line reports a failed run; the stack trace is for debugging.
                        source.setExceptionHandler(PollTracking.QUIET);
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
        return policy.routesDone();
    }

    // ---- poll strategy: one poll = one run ----

    RouteRun route(org.apache.camel.Consumer consumer, Endpoint endpoint) {
        if (!(endpoint instanceof DeltaFunnelEndpoint source)) {
            return null;
        }
        String routeId = consumer instanceof org.apache.camel.spi.RouteIdAware aware && aware.getRouteId() != null
                ? aware.getRouteId() : source.getEndpointKey();
        return routes.computeIfAbsent(routeId, id -> new RouteRun(id, source));
    }

    /** Registers a route before its first poll (so that one-shot mode knows to wait for it). */
    public void expect(String routeId, DeltaFunnelEndpoint source) {
        routes.computeIfAbsent(routeId, id -> new RouteRun(id, source));
        policy.expect(routeId);
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
        RouteRun route = routes.get(String.valueOf(exchange.getFromRouteId()));
        if (route == null) {
            return;
        }
        ShardAssignment shard = exchange.getIn().getHeader(DeltaFunnelConstants.SHARD, ShardAssignment.class);
        if (shard != null) {
            route.shard = shard;
        }
        Long expected = exchange.getIn().getHeader(DeltaFunnelConstants.EXPECTED_ROWS, Long.class);
        if (expected != null) {
            route.expectedRows = expected; // e.g. a shard's share: the consumer knows it from the Delta log
        }
        if (event instanceof CamelEvent.ExchangeSendingEvent sending
            && sending.getEndpoint() instanceof DeltaFunnelMssqlEndpoint target) {
            route.target = target;
            route.runId = exchange.getIn().getHeader(DeltaFunnelConstants.RUN_ID, String.class);
            route.attempt = exchange.getIn().getHeader(DeltaFunnelConstants.ATTEMPT, 1, Integer.class);
            boolean last = exchange.getProperty(Exchange.BATCH_COMPLETE, false, Boolean.class);
            route.phase(last ? RouteRun.Phase.finalOf(target.getConfiguration().getWriteMode()) : route.batchesOut == 0 ? RouteRun.Phase.OPENING
                    : RouteRun.Phase.WRITING);
        } else if (event instanceof CamelEvent.ExchangeSentEvent sent
                   && sent.getEndpoint() instanceof DeltaFunnelMssqlEndpoint && exchange.getException() == null) {
            route.rowsOut = exchange.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_ROWS, 0L, Long.class);
            route.batchesOut = exchange.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_BATCHES, 0L, Long.class);
            // CamelDeltaFunnelRejectedRows is the run's count so far: what it grew by was set aside with this batch
            long rejectedSoFar = exchange.getMessage().getHeader(DeltaFunnelConstants.REJECTED_ROWS, 0L, Long.class);
            long rejectedNow = Math.max(0, rejectedSoFar - route.rejectedRows);
            route.rejectedRows = rejectedSoFar;
            if (route.phase == RouteRun.Phase.OPENING) {
                route.phase(RouteRun.Phase.WRITING);
            }
            String status = exchange.getMessage().getHeader(LOAD_STATUS, String.class);
            if (status != null) {
                route.loadStatus = status;
            }
            long batchRows = exchange.getIn().getHeader(DeltaFunnelConstants.BATCH_ROWS, 0L, Long.class);
            metrics.batchOut(exchange.getContext().getName(), route.routeId, Math.max(0, batchRows - rejectedNow),
                    rejectedNow);
        } else if (event instanceof CamelEvent.ExchangeCompletedEvent || event instanceof CamelEvent.ExchangeFailedEvent) {
            metrics.batchIn(exchange.getContext().getName(), route.routeId,
                    exchange.getIn().getHeader(DeltaFunnelConstants.BATCH_ROWS, 0L, Long.class));
            if (route.target == null) {
                // a route without deltafunnel-mssql: count what it was handed
                route.rowsOut = exchange.getIn().getHeader(DeltaFunnelConstants.INPUT_ROWS, 0L, Long.class);
                route.batchesOut = exchange.getIn().getHeader(DeltaFunnelConstants.INPUT_BATCHES, 0L, Long.class);
                route.phase(RouteRun.Phase.WRITING);
            }
            Exception failure = exchange.getException() != null ? exchange.getException()
                    : exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class);
            ReplayRequest replay = ReplayRequest.find(failure);
            if (replay != null) {
                route.attempt = replay.attempt(); // the attempt the replay will be, as the log line says
                route.phase(RouteRun.Phase.REPLAY_WAIT);
                route.rowsOut = 0;
                route.batchesOut = 0;
            }
        }
    }

    // ---- end of a run ----

    void finished(RouteRun route, Exception failure, int polledMessages) {
        long nanos = System.nanoTime() - route.start;
        route.active = false;
        RunTotals.Total total = route.total;
        if (total != null) {
            total.cancel();
        }
        route.runsFinished++;
        boolean failed = failure != null;
        route.done = policy.finished(route, failed);
        String target = route.target == null ? null : route.target.settings().table().toString();
        Long count = null;
        String countProblem = null;
        if (route.target != null) {
            try {
                count = RunLines.countRows(route.target);
            } catch (Exception e) {
                countProblem = JdbcUrls.redactText(e.getMessage());
            }
        }
        String context = getCamelContext() == null ? "" : getCamelContext().getName();
        String name = RunLines.name(route.routeId, route.shard, route.loadStatus);
        String line;
        boolean permanent = false;
        boolean stopped = failure instanceof PollTracking.RunStoppedException;
        if (failed) {
            permanent = !stopped && HandoffException.permanent(failure);
            metrics.runFailed(context, route.routeId);
            line = RunLines.failed(name, stopped, nanos, RunPrinter.describe(failure), target, count);
        } else if (polledMessages == 0 && route.batchesOut == 0) {
            line = RunLines.nothingToLoad(name);
        } else {
            metrics.runCompleted(context, route.routeId, nanos);
            line = RunLines.complete(name, route.rowsOut, route.batchesOut, nanos, target, count, countProblem)
                    + RunLines.rejected(route.rejectedRows, route.target == null ? null
                            : route.target.getConfiguration().getRejectTable());
        }
        LOG.debug("run {} of route {} finished", route.runId, route.routeId, failure);
        printer.print(line);
        onRunFinished.accept(new Summary(route.routeId, route.runId, route.rowsOut, route.batchesOut, nanos / 1_000_000,
                RunPrinter.rate(route.rowsOut, nanos), target, count, failed, failed ? RunPrinter.describe(failure) : null,
                permanent, route.done, line, route.shard, route.loadStatus));
    }

    // ---- progress ----

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        printer.start(this::progressLines);
    }

    @Override
    protected void doStop() throws Exception {
        close();
        super.doStop();
    }

    @Override
    public void close() {
        printer.close();
    }

    /** The progress lines due now: every active run's (on a terminal), else those whose interval passed. */
    private List<String> progressLines() {
        List<String> lines = new ArrayList<>();
        long now = System.nanoTime();
        long interval = printer.terminal() ? 0 : printer.intervalNanos();
        for (RouteRun route : new java.util.TreeMap<>(routes).values()) { // in route id order
            if (!route.active || now - route.lastLog < interval && route.phaseStart <= route.lastLog) {
                continue; // a phase that changed since the last line is shown at once
            }
            route.lastLog = now;
            lines.add(RunLines.progressLine(route, now));
        }
        ProducerRuns producers = producerRuns;
        if (producers != null) {
            lines.addAll(producers.progressLines(now, interval));
        }
        return lines;
    }

    /** Prints a line on the output (after erasing an in-place progress line). */
    void print(String line) {
        printer.print(line);
    }

    /** The registry the metrics go to. */
    public MeterRegistry registry() {
        return metrics.registry();
    }

    static String fmt(long n) {
        return RunPrinter.fmt(n);
    }
}
