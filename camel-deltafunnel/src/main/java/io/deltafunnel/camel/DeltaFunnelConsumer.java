package io.deltafunnel.camel;

import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.Queue;

import io.deltafunnel.handoff.DownstreamException;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.handoff.IncrementalLoad;
import io.deltafunnel.handoff.ReplayRequest;
import io.deltafunnel.incremental.RunSource;
import io.deltafunnel.query.ArrowBatch;
import io.deltafunnel.query.ConnectionPreparer;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.QueryRun;
import io.deltafunnel.query.ReplayableRun;
import io.deltafunnel.query.ShardSafety;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.Processor;
import org.apache.camel.support.ScheduledBatchPollingConsumer;
import org.apache.camel.support.SynchronizationAdapter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The streaming batch consumer behind {@code deltafunnel:}: it maps runs to exchanges, nothing more.
 *
 * <p>Each run opens the query and hands the route one Arrow batch per exchange, synchronously: the next
 * batch is pulled from DuckDB only after the route has finished with the previous exchange (plus the
 * one-batch look-ahead that lets the last exchange be marked {@code CamelBatchComplete}). No exchanges are
 * built up front and nothing runs in the background. What a poll reads is decided by the endpoint's
 * {@link RunSource} (latest snapshots, an incremental plan, or one shard of a sharded load's plan, carried in header
 * {@link DeltaFunnelConstants#SHARD}); the run and its replays are a {@link ReplayableRun}. A sharded consumer checks
 * its query with {@link ShardSafety} when it starts. When the Delta log says up front how many rows the run will
 * deliver ({@link RunSource.Poll#expectedRows}: a shard's share, or a whole table), every exchange carries it in
 * header {@link DeltaFunnelConstants#EXPECTED_ROWS}, for a progress percentage.
 *
 * <p>The exchange body is owned by this consumer and closed when the exchange completes.
 *
 * <p><b>Replay.</b> When a failed exchange's exception chain holds a {@link ReplayRequest} (the writer rolled the
 * run back after a transient failure and wants it again), the consumer lets the {@link ReplayableRun} close the
 * run, wait the requested delay (woken at once by a stop) and re-open the same query under the same run id with the
 * same pinned versions, and sends it again from batch 0, with header {@link DeltaFunnelConstants#ATTEMPT} set to the
 * request's attempt and the input statistics restarted. How often and how long to wait is the writer's decision.
 */
public class DeltaFunnelConsumer extends ScheduledBatchPollingConsumer {

    private static final Logger LOG = LoggerFactory.getLogger(DeltaFunnelConsumer.class);

    /** The run in progress; it outlives a poll only when maxMessagesPerPoll cut the poll short. */
    private volatile ReplayableRun run;
    /** The wait before a replay; a stop or suspend ends it at once. */
    private final RetryPause replayPause = new RetryPause(() -> !isRunAllowed() || isSuspendingOrSuspended());

    /** What each poll reads; the poll of the current run, and the last poll (for an unchanged empty message). */
    private RunSource source;
    private volatile RunSource.Poll runPoll;
    private volatile RunSource.Poll lastPoll;
    /** The rows the run in progress will deliver, when known up front (header EXPECTED_ROWS); else null. */
    private volatile Long runExpectedRows;

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
            RunSource.Poll poll = source.poll();
            lastPoll = poll;
            if (!poll.changed()) {
                return 0;
            }
            runPoll = poll;
            openRun(poll);
            if (poll.incremental() != null) {
                LOG.info("{}: incremental run {} loads {}", describe(), run.runId(), poll.incremental().describe());
            }
        }
        pendingExchanges = 1;
        int sent = 0;
        try {
            while (isBatchAllowed() && (maxMessagesPerPoll <= 0 || sent < maxMessagesPerPoll)) {
                ArrowBatch batch = run.next();
                if (batch == null) {
                    closeRun();
                    runPoll = null;
                    break;
                }
                Exchange exchange = createExchange(run, batch);
                sent++;
                Outcome outcome = processExchange(exchange);
                Exception failure = outcome.failure();
                ReplayRequest replay = ReplayRequest.find(failure != null ? failure : outcome.handled());
                if (replay != null) {
                    try {
                        run.replay(replay, batch.index(), failure, replayPause::await);
                    } finally {
                        if (run.current() == null) {
                            run = null; // stopped while waiting: the run is abandoned
                        }
                    }
                    pendingExchanges = 1;
                    continue;
                }
                if (failure != null) {
                    HandoffStats accepted = run.stats();
                    closeRun();
                    runPoll = null;
                    // The route's error handler has already seen the failed exchange; the poll fails with
                    // the run's statistics so that the poll strategy, health check and bridge see it too.
                    throw new DownstreamException(describe() + ": the route failed on batch " + batch.index()
                            + "; the run was stopped", accepted, failure);
                }
                if (batch.last()) {
                    LOG.debug("{}: run {} complete: {}", describe(), run.runId(), run.stats());
                    if (runPoll != null && runPoll.incremental() != null) {
                        LOG.info("{}: incremental run {} delivered {} ({})", describe(), run.runId(), run.stats(),
                                runPoll.incremental().describe());
                    }
                    closeRun();
                    runPoll = null;
                    break;
                }
            }
            if (run != null && !isBatchAllowed()) {
                LOG.info("{}: stopping; run {} abandoned after {}", describe(), run.runId(), run.stats());
                closeRun();
            }
        } catch (Exception e) {
            closeRun();
            runPoll = null;
            throw e;
        }
        if (run == null && !isBatchAllowed()) {
            runPoll = null;
        }
        return sent;
    }

    /** Opens the first attempt of the run {@code poll} planned. */
    private void openRun(RunSource.Poll poll) {
        DeltaFunnelEndpoint endpoint = getEndpoint();
        List<ConnectionPreparer> preparers = poll.preparer() == null ? List.of() : List.of(poll.preparer());
        run = ReplayableRun.start(describe(), (runId, pinned) -> QueryRun.open(describe(), endpoint.duckDbSettings(),
                preparers, endpoint.queryText(), endpoint.getConfiguration().getBatchSize(), endpoint.getAllocator(),
                runId, pinned));
        // known now that the run's views are registered; a replay reads the same versions, so it stays right
        runExpectedRows = poll.expectedRows(endpoint.queryText());
    }

    private Exchange createExchange(ReplayableRun queryRun, ArrowBatch batch) {
        Exchange exchange = createExchange(false);
        HandoffStats stats = queryRun.stats();
        Message in = exchange.getIn();
        in.setBody(batch.root());
        in.setHeader(DeltaFunnelConstants.RUN_ID, queryRun.runId());
        in.setHeader(DeltaFunnelConstants.ATTEMPT, queryRun.attempt());
        in.setHeader(DeltaFunnelConstants.BATCH_ROWS, (long) batch.rowCount());
        in.setHeader(DeltaFunnelConstants.INPUT_BATCHES, stats.inputBatches());
        in.setHeader(DeltaFunnelConstants.INPUT_ROWS, stats.inputRows());
        Long expected = runExpectedRows;
        if (expected != null) {
            in.setHeader(DeltaFunnelConstants.EXPECTED_ROWS, expected);
        }
        Map<String, Long> versions = queryRun.pinnedVersions();
        if (!versions.isEmpty()) {
            in.setHeader(DeltaFunnelConstants.DELTA_VERSIONS, versions);
        }
        RunSource.Poll poll = runPoll;
        IncrementalLoad load = poll == null ? null : poll.incremental();
        if (load != null) {
            in.setHeader(DeltaFunnelConstants.INCREMENTAL, load);
            in.setHeader(DeltaFunnelConstants.STATE, load.describe());
        }
        if (poll != null && poll.shard() != null) {
            in.setHeader(DeltaFunnelConstants.SHARD, poll.shard());
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
        ReplayableRun current = run;
        QueryRun attempt = current == null ? null : current.current();
        return attempt == null ? 0 : attempt.batchesLoaded();
    }

    private void closeRun() {
        pendingExchanges = 0;
        runExpectedRows = null;
        if (run != null) {
            ReplayableRun closing = run;
            run = null;
            closing.close();
        }
    }

    /** An unchanged incremental poll with sendEmptyMessageWhenIdle=true: an empty exchange marked unchanged. */
    @Override
    protected void processEmptyMessage() throws Exception {
        RunSource.Poll poll = lastPoll;
        if (poll == null || poll.changed() || poll.incremental() == null) {
            super.processEmptyMessage();
            return;
        }
        Exchange exchange = createExchange(false);
        exchange.getIn().setHeader(DeltaFunnelConstants.UNCHANGED, true);
        exchange.getIn().setHeader(DeltaFunnelConstants.STATE, poll.incremental().describe());
        exchange.getIn().setHeader(DeltaFunnelConstants.INCREMENTAL, poll.incremental());
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
        source = getEndpoint().runSource(getRouteId());
        if (source.sharding() != null) {
            try (Connection duck = DuckDbConnections.open(getEndpoint().duckDbSettings())) {
                ShardSafety.check(duck, getEndpoint().duckDbSettings(), getEndpoint().queryText(),
                        source.sharding().view());
            }
        }
        if (getEndpoint().getConfiguration().isResetState()) {
            source.resetState();
        }
        super.doStart();
    }

    private String describe() {
        return getEndpoint().describe();
    }

    @Override
    protected void doStop() throws Exception {
        replayPause.cancel();
        closeRun();
        super.doStop();
    }
}
