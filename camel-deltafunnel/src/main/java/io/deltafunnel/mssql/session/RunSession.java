package io.deltafunnel.mssql.session;

import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.WorkOutcome;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One run's writer into SQL Server, batch by batch: {@link BulkLoadSession} (an ordinary run) or
 * {@link io.deltafunnel.mssql.shard.ShardSession} (one shard's share of a sharded load). Not thread-safe: one caller
 * at a time ({@code OpenRuns} serialises them).
 */
public interface RunSession extends AutoCloseable {

    String runId();

    BulkLoadSession.State state();

    /** Input counters: batches/rows handed to {@link #write}; output counters: what SQL Server accepted. */
    HandoffStats stats();

    /**
     * Writes one batch; with {@code last} also finalises the run.
     *
     * @return the run's statistics after this batch
     * @throws BulkLoadException on any failure; the session is then FAILED and cleaned up
     */
    HandoffStats write(VectorSchemaRoot root, boolean last);

    /**
     * Discards an open run (rolls back what is not committed). No effect on a run that is no longer open.
     *
     * @return what became of the accepted work, or null when the session was not open
     */
    WorkOutcome abort(String reason);

    /** True when a failed batch of this run can be written again in a {@linkplain #resumeAfterFailure() resumed} session. */
    default boolean resumable() {
        return false;
    }

    /**
     * A new session continuing this failed run on a new connection from its last committed batch.
     *
     * @throws IllegalStateException when this run cannot be resumed
     */
    default RunSession resumeAfterFailure() {
        throw new IllegalStateException("run " + runId() + " cannot be resumed");
    }

    /**
     * The rows the run set aside ({@code maxRejectedRows}) and committed into the reject table, in the order found;
     * empty when none (or before the commit).
     */
    default java.util.List<io.deltafunnel.mssql.reject.RejectedRow> rejectedRows() {
        return java.util.List.of();
    }

    /**
     * What the run did to a sharded load ({@code shard-done}, {@code load-done}, {@code already-done}) once its
     * last batch is written; null for an ordinary run or before.
     */
    default LoadStatus loadStatus() {
        return null;
    }

    @Override
    default void close() {
        abort("session closed");
    }
}
