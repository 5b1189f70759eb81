package io.deltafunnel.mssql.run;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

import io.deltafunnel.arrow.ArrowIpcException;
import io.deltafunnel.arrow.RecordBatches;
import io.deltafunnel.handoff.HandoffException;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.handoff.IncrementalLoad;
import io.deltafunnel.handoff.ShardAssignment;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.TransactionMode;
import io.deltafunnel.mssql.WriteMode;
import io.deltafunnel.mssql.channel.SqlChannelProvider;
import io.deltafunnel.mssql.reject.RejectedRow;
import io.deltafunnel.mssql.session.BulkLoadSession;
import io.deltafunnel.mssql.session.LoadStatus;
import io.deltafunnel.mssql.session.RunSession;
import io.deltafunnel.mssql.shard.ShardSession;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the batches of runs into one SQL Server target, without Camel: the runs open at a time ({@link OpenRuns},
 * at most {@code maxOpenRuns}), each run's attempts, the in-place retry of a batch and the translation of a failure
 * into a replay request or a final failure. The {@code deltafunnel-mssql:} producer maps each exchange to one
 * {@link #write} call and the result back to headers; tests drive this class directly.
 *
 * <p><b>Retries</b> (decided by {@link io.deltafunnel.mssql.SqlServerErrors}, by error number only, and limited by
 * the {@link RetryPolicy}):
 * <ul>
 *   <li>{@code transaction=batch} with append/truncate, and standalone batches (no run id): the failed batch is
 *       written again here, after the backoff, on a new connection; the batches committed before stay counted
 *       once.</li>
 *   <li>otherwise ({@code transaction=run}, replace, merge, a shard's share): the run is already rolled back; the
 *       failure becomes a {@link io.deltafunnel.mssql.run.RunReplayException} asking the source to replay the run from
 *       its first batch as the next attempt.</li>
 * </ul>
 * After a run failed here, its further batches of the same attempt are refused
 * ({@link io.deltafunnel.mssql.run.RunRefusedException}); the failed batch sent again gets the same failure at once.
 *
 * <p>Thread-safe: batches of different runs may be written concurrently; the batches of one run must arrive in order.
 * {@link #close()} discards every open run. The writer owns the sessions, not the connections' provider.
 */
public final class RunWriter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RunWriter.class);

    /** Waits before a retry; false when the wait was cancelled (the writer is stopping). */
    @FunctionalInterface
    public interface Pause {
        boolean await(Duration delay);
    }

    /**
     * Where a body's batches belong.
     *
     * @param runId       the run, or for a standalone body (no run id) the body's own id
     * @param standalone  the body is a run of its own (completes it; retried in place)
     * @param attempt     1-based attempt of the run
     * @param batchIndex  index of the body in the run, -1 when unknown
     * @param complete    the body ends the run
     * @param incremental the incremental run to record with the data, or null
     * @param shard       the share of a sharded load the run carries, or null
     * @param routeKey    the route the run came from, named by its rejected rows (an incremental run's state key
     *                    and a shard's load id take its place), or null
     */
    public record Batch(String runId, boolean standalone, int attempt, int batchIndex, boolean complete,
            IncrementalLoad incremental, ShardAssignment shard, String routeKey) {

        public Batch {
            Objects.requireNonNull(runId, "runId");
        }

        /** A body of a run without a route key. */
        public Batch(String runId, boolean standalone, int attempt, int batchIndex, boolean complete,
                IncrementalLoad incremental, ShardAssignment shard) {
            this(runId, standalone, attempt, batchIndex, complete, incremental, shard, null);
        }

        /** This body, naming {@code key} as its route. */
        public Batch withRouteKey(String key) {
            return new Batch(runId, standalone, attempt, batchIndex, complete, incremental, shard, key);
        }

        /** A body that is a run of its own. */
        public static Batch standalone(String id, IncrementalLoad incremental, ShardAssignment shard) {
            return new Batch(id, true, 1, -1, true, incremental, shard);
        }
    }

    /**
     * What a body's write gave.
     *
     * @param stats      the run's statistics after the body
     * @param loadStatus for a sharded run's last body, what it did to the load ({@code shard-done},
     *                   {@code load-done}, {@code already-done}); else null
     * @param rejected   when the body completed the run: the rows the run set aside and committed into the reject
     *                   table ({@code maxRejectedRows}); else empty
     */
    public record Written(HandoffStats stats, LoadStatus loadStatus, List<RejectedRow> rejected) {

        public Written {
            rejected = List.copyOf(rejected == null ? List.of() : rejected);
        }

        /** Without rejected rows. */
        public Written(HandoffStats stats, LoadStatus loadStatus) {
            this(stats, loadStatus, List.of());
        }
    }

    private final BulkLoadSettings settings;
    private final SqlChannelProvider connections;
    private final RetryPolicy retryPolicy;
    private final Pause pause;
    private final OpenRuns runs;
    private Duration shardClaimTimeout = ShardSession.DEFAULT_CLAIM_TIMEOUT;

    public RunWriter(BulkLoadSettings settings, SqlChannelProvider connections, RetryPolicy retryPolicy,
            int maxOpenRuns, Pause pause) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.connections = Objects.requireNonNull(connections, "connections");
        this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
        this.pause = Objects.requireNonNull(pause, "pause");
        this.runs = new OpenRuns(String.valueOf(settings.table()), maxOpenRuns);
    }

    public BulkLoadSettings settings() {
        return settings;
    }

    /**
     * How long a sharded run's claim waits for its shard's application lock (an earlier session of the shard may
     * still be rolling back); default {@link ShardSession#DEFAULT_CLAIM_TIMEOUT}. Set before the first write.
     */
    public RunWriter shardClaimTimeout(Duration timeout) {
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException("the shard claim timeout must be 0 or more, got " + timeout);
        }
        this.shardClaimTimeout = timeout;
        return this;
    }

    /**
     * Writes a body's batches (one, or each record batch of an Arrow IPC body; only the last can complete the run)
     * as batches of {@code batch}'s run.
     *
     * @param progress told the run's statistics after each written batch, and those of a failure before it is thrown
     * @throws HandoffException a {@link BulkLoadException} (possibly a replay request), a
     *                          {@link io.deltafunnel.handoff.ShardPlanException}, or a refusal
     * @throws ArrowIpcException when the IPC body broke off; the run is discarded
     */
    public Written write(Batch batch, RecordBatches batches, Consumer<HandoffStats> progress) {
        String id = batch.runId();
        int attempt = batch.attempt();
        OpenRuns.Run run;
        try {
            run = runs.runFor(id, attempt, batch.batchIndex(), () -> {
                LOG.debug("deltafunnel-mssql:{}: run {} attempt {} started", settings.table(), id, attempt);
                return open(id, batch);
            });
        } catch (HandoffException refused) {
            progress.accept(refused.stats());
            throw refused;
        }
        synchronized (run) {
            try {
                // After the first batch, a retry must not restart a standalone run (earlier batches are in its session).
                HandoffStats stats = run.session().stats();
                VectorSchemaRoot root;
                while ((root = batches.next()) != null) {
                    stats = writeRetryingInPlace(run, root, batch.complete() && batches.isLast(),
                            batch.standalone() && batches.index() == 0, batch.shard() != null);
                    progress.accept(stats);
                }
                return new Written(stats, run.session().loadStatus(),
                        batch.complete() ? run.session().rejectedRows() : List.of());
            } catch (BulkLoadException e) {
                BulkLoadException failure = inPlace(batch.standalone(), batch.shard() != null) ? e
                        : RunFailures.replayOrFinal(e, attempt, retryPolicy);
                progress.accept(failure.stats());
                if (!batch.standalone()) {
                    runs.failed(id, attempt, batch.batchIndex(), failure);
                }
                throw failure;
            } catch (HandoffException e) {
                progress.accept(e.stats());
                if (!batch.standalone()) {
                    runs.failed(id, attempt, batch.batchIndex(), e);
                }
                throw e;
            } catch (ArrowIpcException e) {
                // The IPC body broke off after some of its batches were written: discard the run, nothing half-written.
                runs.abort(id, attempt, "the Arrow IPC body could not be read: " + e.getMessage());
                throw e;
            } finally {
                runs.release(run);
            }
        }
    }

    private RunSession open(String id, Batch batch) {
        if (batch.shard() != null) {
            return ShardSession.start(id, settings, connections, batch.shard(), batch.incremental(),
                    shardClaimTimeout);
        }
        return BulkLoadSession.start(id, settings, connections).recording(batch.incremental())
                .routeKey(batch.routeKey());
    }

    /**
     * Discards {@code runId}/{@code attempt} if it is still open (the caller failed after this writer accepted a
     * batch of it, so the source stops the run).
     *
     * @return the statistics of the discarded run, or null when it was not open
     */
    public HandoffStats abort(String runId, int attempt, String reason) {
        return runs.abort(runId, attempt, reason);
    }

    /** The ids of the runs open now, oldest first. */
    public List<String> openRunIds() {
        return runs.openRunIds();
    }

    /** Discards every open run (each after the write in progress on it, if any). */
    @Override
    public void close() {
        runs.abortAll("producer stopped");
    }

    /** Whether a failed batch is retried here (the batch is in memory and nothing else of the run is lost). */
    private boolean inPlace(boolean standalone, boolean sharded) {
        if (sharded) {
            return false; // a share is one transaction: a failure rolls all of it back
        }
        return standalone || (settings.transactionMode() == TransactionMode.BATCH
                && (settings.writeMode() == WriteMode.APPEND || settings.writeMode() == WriteMode.TRUNCATE));
    }

    /**
     * Writes the batch into the open session; when the batch can be retried in place, retries transient failures
     * with backoff on a new session (resumed for batch mode, fresh for a single-exchange run).
     */
    private HandoffStats writeRetryingInPlace(OpenRuns.Run run, VectorSchemaRoot root, boolean complete,
            boolean standalone, boolean sharded) {
        int attempt = 1;
        while (true) {
            RunSession session = run.session();
            try {
                return session.write(root, complete);
            } catch (BulkLoadException e) {
                if (!inPlace(standalone, sharded) || !RunFailures.retryable(e)) {
                    throw e;
                }
                if (!retryPolicy.allowsRetryAfter(attempt)) {
                    throw RunFailures.exhausted(e, attempt);
                }
                Duration delay = retryPolicy.delayBeforeRetry(attempt);
                LOG.warn("deltafunnel-mssql:{}: run {}: transient failure (attempt {}), retrying the batch in {} ms: {}",
                        settings.table(), session.runId(), attempt, delay.toMillis(), e.getMessage());
                if (!pause.await(delay)) {
                    throw e;
                }
                attempt++;
                run.session(standalone ? BulkLoadSession.start(session.runId(), settings, connections)
                        .routeKey(session instanceof BulkLoadSession b ? b.routeKey() : null)
                        : session.resumeAfterFailure());
            }
        }
    }
}
