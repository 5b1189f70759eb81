package io.deltafunnel.camel;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.UUID;

import io.deltafunnel.delta.DeltaSnapshot;
import io.deltafunnel.delta.DeltaTableSpec;
import io.deltafunnel.delta.DeltaViews;
import io.deltafunnel.handoff.DownstreamException;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.handoff.ReplayRequest;
import io.deltafunnel.incremental.IncrementalPlanner;
import io.deltafunnel.query.ArrowBatch;
import io.deltafunnel.query.ConnectionPreparer;
import io.deltafunnel.query.PinningPreparer;
import io.deltafunnel.query.QueryRun;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;
import org.apache.camel.support.ScheduledBatchPollingConsumer;
import org.apache.camel.support.SynchronizationAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The streaming batch consumer behind {@code deltafunnel:}.
 *
 * <p>Each run opens the query and hands the route one Arrow batch per exchange, synchronously: the next
 * batch is pulled from DuckDB only after the route has finished with the previous exchange (plus the
 * one-batch look-ahead that lets the last exchange be marked {@code CamelBatchComplete}). No exchanges are
 * built up front and nothing runs in the background.
 *
 * <p>The exchange body is owned by this consumer and closed when the exchange completes.
 *
 * <p><b>Replay.</b> When a failed exchange's exception chain holds a {@link ReplayRequest} (the writer rolled the
 * run back after a transient failure and wants it again), the consumer closes the run, waits the requested delay
 * (woken at once by a stop), re-opens the same query under the same run id with the same pinned versions
 * ({@link QueryRun#pinnedVersions()}) and sends it again from batch 0, with header
 * {@link DeltaFunnelConstants#ATTEMPT} set to the request's attempt and the input statistics restarted. How often
 * and how long to wait is the writer's decision.
 */
public class DeltaFunnelConsumer extends ScheduledBatchPollingConsumer {

    private static final Logger LOG = LoggerFactory.getLogger(DeltaFunnelConsumer.class);

    /** The run in progress; it outlives a poll only when maxMessagesPerPoll cut the poll short. */
    private volatile QueryRun run;
    /** The 1-based attempt of {@link #run}: 1, or the attempt of the {@link ReplayRequest} that re-opened it. */
    private volatile int runAttempt = 1;
    /** The wait before a replay; a stop or suspend ends it at once. */
    private final RetryPause replayPause = new RetryPause(() -> !isRunAllowed() || isSuspendingOrSuspended());

    /** Incremental loads: the planner (null for incremental=none), the plan of the current run, the last plan. */
    private IncrementalPlanner planner;
    private volatile IncrementalPlanner.Plan runPlan;
    private volatile IncrementalPlanner.Plan lastPlan;

    /** The Delta version of each registered view, as resolved when the current run opened. */
    private volatile Map<String, Long> runDeltaVersions = Map.of();

    public DeltaFunnelConsumer(DeltaFunnelEndpoint endpoint, Processor processor) {
        super(endpoint, processor);
    }

    @Override
    public DeltaFunnelEndpoint getEndpoint() {
        return (DeltaFunnelEndpoint) super.getEndpoint();
    }

    @Override
    protected int poll() throws Exception {
        if (run == null) {
            if (planner != null) {
                IncrementalPlanner.Plan plan = planner.plan();
                lastPlan = plan;
                if (!plan.changed()) {
                    LOG.info("{}: unchanged, nothing to load ({})", describe(), plan.load().describe());
                    return 0;
                }
                runPlan = plan;
            }
            openRun(UUID.randomUUID().toString(), 1, Map.of());
            if (runPlan != null) {
                LOG.info("{}: incremental run {} loads {}", describe(), run.runId(), runPlan.load().describe());
            }
        }
        pendingExchanges = 1;
        int sent = 0;
        try {
            while (isBatchAllowed() && (maxMessagesPerPoll <= 0 || sent < maxMessagesPerPoll)) {
                ArrowBatch batch = run.next();
                if (batch == null) {
                    closeRun();
                    runPlan = null;
                    break;
                }
                Exchange exchange = createExchange(run, batch);
                sent++;
                Outcome outcome = processExchange(exchange);
                Exception failure = outcome.failure();
                ReplayRequest replay = ReplayRequest.find(failure != null ? failure : outcome.handled());
                if (replay != null) {
                    replayRun(replay, batch.index(), failure);
                    continue;
                }
                if (failure != null) {
                    HandoffStats accepted = run.stats();
                    closeRun();
                    runPlan = null;
                    // The route's error handler has already seen the failed exchange; the poll fails with
                    // the run's statistics so that the poll strategy, health check and bridge see it too.
                    throw new DownstreamException(describe() + ": the route failed on batch " + batch.index()
                            + "; the run was stopped", accepted, failure);
                }
                if (batch.last()) {
                    LOG.debug("{}: run {} complete: {}", describe(), run.runId(), run.stats());
                    if (runPlan != null) {
                        LOG.info("{}: incremental run {} delivered {} ({})", describe(), run.runId(), run.stats(),
                                runPlan.load().describe());
                    }
                    closeRun();
                    runPlan = null;
                    break;
                }
            }
            if (run != null && !isBatchAllowed()) {
                LOG.info("{}: stopping; run {} abandoned after {}", describe(), run.runId(), run.stats());
                closeRun();
            }
        } catch (Exception e) {
            closeRun();
            runPlan = null;
            throw e;
        }
        if (run == null && !isBatchAllowed()) {
            runPlan = null;
        }
        return sent;
    }

    /**
     * Opens (or re-opens, for a replay) the run {@code runId} as attempt {@code attempt}. The only place a
     * {@link QueryRun} is opened: {@code pinned} carries the versions an earlier attempt resolved (empty for a first
     * attempt), so that a replay reads exactly what the first attempt read.
     */
    private void openRun(String runId, int attempt, Map<String, Long> pinned) {
        DeltaFunnelEndpoint endpoint = getEndpoint();
        run = QueryRun.open(describe(), endpoint.duckDbSettings(), preparers(), endpoint.queryText(),
                endpoint.getBatchSize(), endpoint.getAllocator(), runId, pinned);
        runAttempt = attempt;
        LOG.debug("{}: run {} attempt {} started", describe(), runId, attempt);
    }

    /**
     * Obeys a {@link ReplayRequest}: closes the run, waits its delay and re-opens the run from batch 0 under the same
     * id and pins.
     *
     * @throws DownstreamException when the consumer is stopped during the wait (the run is then abandoned)
     */
    private void replayRun(ReplayRequest replay, long failedBatch, Exception failure) {
        QueryRun failed = run;
        HandoffStats delivered = failed.stats();
        String runId = failed.runId();
        Map<String, Long> pinned = failed.pinnedVersions();
        closeRun();
        LOG.info("{}: run {} attempt {} failed on batch {} ({}); replaying as attempt {} in {} ms", describe(), runId,
                runAttempt, failedBatch, delivered, replay.attempt(), replay.delay().toMillis());
        if (!replayPause.await(replay.delay())) {
            throw new DownstreamException(describe() + ": stopped while waiting to replay run " + runId + " as attempt "
                    + replay.attempt(), delivered, failure);
        }
        openRun(runId, replay.attempt(), pinned);
        pendingExchanges = 1;
    }

    private Exchange createExchange(QueryRun queryRun, ArrowBatch batch) {
        Exchange exchange = createExchange(false);
        HandoffStats stats = queryRun.stats();
        Message in = exchange.getIn();
        in.setBody(batch.root());
        in.setHeader(DeltaFunnelConstants.RUN_ID, queryRun.runId());
        in.setHeader(DeltaFunnelConstants.ATTEMPT, runAttempt);
        in.setHeader(DeltaFunnelConstants.BATCH_ROWS, (long) batch.rowCount());
        in.setHeader(DeltaFunnelConstants.INPUT_BATCHES, stats.inputBatches());
        in.setHeader(DeltaFunnelConstants.INPUT_ROWS, stats.inputRows());
        if (!runDeltaVersions.isEmpty()) {
            in.setHeader(DeltaFunnelConstants.DELTA_VERSIONS, runDeltaVersions);
        }
        IncrementalPlanner.Plan plan = runPlan;
        if (plan != null) {
            in.setHeader(DeltaFunnelConstants.INCREMENTAL, plan.load());
            in.setHeader(DeltaFunnelConstants.STATE, plan.load().describe());
        }
        exchange.setProperty(Exchange.BATCH_INDEX, (int) batch.index());
        exchange.setProperty(Exchange.BATCH_COMPLETE, batch.last());
        if (batch.last()) {
            exchange.setProperty(Exchange.BATCH_SIZE, (int) stats.inputBatches());
        }
        // The consumer owns the batch: release it whatever happens to the exchange.
        exchange.getExchangeExtension().addOnCompletion(new SynchronizationAdapter() {
            @Override
            public void onDone(Exchange done) {
                batch.close();
            }
        });
        return exchange;
    }

    /** How an exchange ended: its unhandled failure, and a failure the route handled (read before release). */
    private record Outcome(Exception failure, Exception handled) {
    }

    /** Processes one exchange synchronously; the outcome is read before the exchange is released. */
    private Outcome processExchange(Exchange exchange) {
        try {
            getProcessor().process(exchange);
        } catch (Exception e) {
            exchange.setException(e);
        }
        try {
            return new Outcome(exchange.getException(), exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class));
        } finally {
            releaseExchange(exchange, false);
        }
    }

    /**
     * Processes already-built exchanges in order, one at a time, as {@link org.apache.camel.BatchConsumer}
     * requires. The streaming {@link #poll()} does not build queues; this serves callers that do.
     */
    @Override
    public int processBatch(Queue<Object> exchanges) throws Exception {
        int total = exchanges.size();
        for (int index = 0; index < total && isBatchAllowed(); index++) {
            Exchange exchange = (Exchange) exchanges.poll();
            exchange.setProperty(Exchange.BATCH_INDEX, index);
            exchange.setProperty(Exchange.BATCH_SIZE, total);
            exchange.setProperty(Exchange.BATCH_COMPLETE, index == total - 1);
            pendingExchanges = total - index - 1;
            getProcessor().process(exchange);
            if (exchange.getException() != null) {
                getExceptionHandler().handleException("Error processing exchange", exchange, exchange.getException());
            }
        }
        return total;
    }

    /**
     * Batches pulled from DuckDB by the run in progress, or 0 when no run is open. While the route works on
     * batch {@code n} this is at most {@code n + 2}: the batch in the route plus the one-batch look-ahead.
     */
    public long getRunBatchesLoaded() {
        QueryRun current = run;
        return current == null ? 0 : current.batchesLoaded();
    }

    /**
     * The run's preparers: the Delta tables of the endpoint, registered as views. It is a {@link PinningPreparer}:
     * a first attempt resolves each table (latest, or its deltaVersion/deltaTimestamp pin) and reports the versions;
     * a replay reads exactly those versions again.
     */
    private List<ConnectionPreparer> preparers() {
        IncrementalPlanner.Plan plan = runPlan;
        if (plan != null) {
            PinningPreparer planned = planner.preparer(plan);
            return List.of((PinningPreparer) (connection, pinned) -> {
                Map<String, Long> versions = planned.prepare(connection, pinned);
                runDeltaVersions = Collections.unmodifiableMap(new LinkedHashMap<>(versions));
                return versions;
            });
        }
        List<DeltaTableSpec> specs = getEndpoint().deltaSpecs();
        if (specs.isEmpty()) {
            return List.of();
        }
        PinningPreparer deltaViews = (connection, pinned) -> {
            List<DeltaTableSpec> effective = new ArrayList<>(specs.size());
            for (DeltaTableSpec spec : specs) {
                Long version = pinned.get(spec.view());
                effective.add(version == null ? spec : new DeltaTableSpec(spec.view(), spec.path(), version, null));
            }
            List<DeltaSnapshot> snapshots = DeltaViews.register(connection, effective);
            Map<String, Long> versions = new LinkedHashMap<>();
            for (int i = 0; i < effective.size(); i++) {
                versions.put(effective.get(i).view(), snapshots.get(i).version());
            }
            runDeltaVersions = Collections.unmodifiableMap(versions);
            return versions;
        };
        return List.of(deltaViews);
    }

    private void closeRun() {
        pendingExchanges = 0;
        if (run != null) {
            QueryRun closing = run;
            run = null;
            closing.close();
        }
    }

    /** An unchanged incremental poll with sendEmptyMessageWhenIdle=true: an empty exchange marked unchanged. */
    @Override
    protected void processEmptyMessage() throws Exception {
        IncrementalPlanner.Plan plan = lastPlan;
        if (planner == null || plan == null || plan.changed()) {
            super.processEmptyMessage();
            return;
        }
        Exchange exchange = createExchange(false);
        exchange.getIn().setHeader(DeltaFunnelConstants.UNCHANGED, true);
        exchange.getIn().setHeader(DeltaFunnelConstants.STATE, plan.load().describe());
        exchange.getIn().setHeader(DeltaFunnelConstants.INCREMENTAL, plan.load());
        try {
            getProcessor().process(exchange);
        } finally {
            if (exchange.getException() != null) {
                getExceptionHandler().handleException("Error processing exchange", exchange, exchange.getException());
            }
            releaseExchange(exchange, false);
        }
    }

    @Override
    protected void doStart() throws Exception {
        replayPause.reset();
        planner = getEndpoint().incrementalPlanner(getRouteId());
        if (planner != null && getEndpoint().isResetState()) {
            planner.reset();
        }
        super.doStart();
    }

    private String describe() {
        return "deltafunnel:" + getEndpoint().getName();
    }

    @Override
    protected void doStop() throws Exception {
        replayPause.cancel();
        closeRun();
        super.doStop();
    }
}
