package io.deltafunnel.mssql.session;

import java.sql.SQLException;
import java.util.List;

import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.handoff.IncrementalLoad;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.SqlServerErrors;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.TransactionMode;
import io.deltafunnel.mssql.WorkOutcome;
import io.deltafunnel.mssql.WriteMode;
import io.deltafunnel.mssql.channel.BulkBatch;
import io.deltafunnel.mssql.channel.ConnectionProvider;
import io.deltafunnel.mssql.channel.SessionEnd;
import io.deltafunnel.mssql.channel.SqlChannel;
import io.deltafunnel.mssql.channel.SqlChannelProvider;
import io.deltafunnel.mssql.reject.MergeDuplicates;
import io.deltafunnel.mssql.reject.RejectedRow;
import io.deltafunnel.mssql.reject.RunRejects;
import io.deltafunnel.mssql.state.StateTable;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run's bulk load into SQL Server: one {@link SqlChannel} (mssql-jdbc's bulk copy or the direct TDS writer),
 * target metadata read once, batches written as {@link BulkBatch}es, and the run's finalisation (commit, replace,
 * merge) or clean-up (rollback, staging table dropped), all on that channel.
 *
 * <p>Lifecycle: {@link #start} (nothing opened yet), {@link #write} per batch in order (the first one opens the
 * channel, resolves or creates the target, binds the columns, creates the staging table, truncates), the batch
 * written with {@code last=true} finalises the run. Any failure rolls back what is not committed, drops the staging
 * table, closes the connection and throws a {@link BulkLoadException} saying what the accepted work became.
 * {@link #abort} discards an open run. DDL (create table, staging create/drop) always runs outside the run's
 * transaction.
 *
 * <p>Retries are not decided here. After a failed batch with {@code transaction=batch} and append/truncate,
 * {@link #resumeAfterFailure()} gives a session that continues the run on a new connection from the last committed
 * batch (without truncating again); everything else is retried by replaying the run in a new session.
 *
 * <p>The parts: {@link RunSetup} sets the run up on its first batch (channel and fallback, target, binding,
 * staging; the one source of the run's channel, target, staging table and bound columns, which this class reads from
 * it), {@link StagingTable} names, creates and drops the staging table, {@link MergeStatement} builds the MERGE
 * (change rows ranked), {@link HistoryStatement} the type 2 history statements of writeMode=history, {@link StateTable} records an incremental run; this class keeps the run's state machine,
 * statistics, transaction and failure handling.
 *
 * <p>Not thread-safe: one caller at a time.
 */
public final class BulkLoadSession implements RunSession {

    private static final Logger LOG = LoggerFactory.getLogger(BulkLoadSession.class);
    /**
     * DEBUG, a replace's final transaction begins (after the load, and after a switch's staging shape was built): with
     * {@link #COMMITTED} it times the final step from outside (benchmark/replace.sh). Arguments: run id, target.
     */
    public static final String FINAL_STEP_BEGINS = "Run {} on {}: final step begins";
    /** DEBUG, the run committed. Arguments: run id, target, stats. */
    public static final String COMMITTED = "Run {} on {} committed: {}";

    /** Where the session stands. */
    public enum State { OPEN, COMMITTED, FAILED, ABORTED }

    private final String runId;
    private final BulkLoadSettings settings;
    /** The provider the session was started with ({@link #provider()}: the set-up's once it exists). */
    private final SqlChannelProvider startProvider;

    /** The first batch's set-up (channel, target, binding, staging); null before it. */
    private RunSetup setup;
    private HandoffStats stats = HandoffStats.ZERO;
    /** The stats before the batch being written, so that a resumed session does not count a failed batch. */
    private HandoffStats statsBeforeBatch = HandoffStats.ZERO;
    /** With transaction=batch and truncate: the truncate is committed (a resumed session must not repeat it). */
    private boolean truncateCommitted;
    /** A commit was under way when the failure happened: its outcome is unknown. */
    private boolean committing;
    private boolean commitInDoubt;
    private State state = State.OPEN;
    /** The incremental run's versions to record in the state table at the final commit, or null. */
    private IncrementalLoad incremental;
    private StateTable stateTable;
    /** A replace run's final step (switch or copy), planned at set-up; null for other write modes. */
    private TableSwitch replace;
    /** The run's SQL hooks (preSql, postSql). */
    private final SqlHooks hooks;
    /** With transaction=batch and append/truncate: preSql is committed (a resumed session must not repeat it). */
    private boolean preSqlCommitted;
    /**
     * With transaction=batch and append/truncate: every batch is committed and only postSql is left (a resumed
     * session runs postSql without writing the batch again).
     */
    private boolean batchesCommitted;
    /** The route (or state) key the run's rejected rows name, or null. */
    private String routeKey;
    /** With maxRejectedRows > 0: the rows this session set aside; else null. */
    private RunRejects rejects;
    /** The rejected rows committed by the sessions this one resumes (a resumed transaction=batch run), in order. */
    private List<RejectedRow> rejectedBefore = List.of();

    private BulkLoadSession(String runId, BulkLoadSettings settings, SqlChannelProvider provider) {
        this.runId = runId;
        this.settings = settings;
        this.startProvider = provider;
        this.hooks = SqlHooks.of(settings);
    }

    /** A new session for run {@code runId}; nothing is opened until the first batch. */
    public static BulkLoadSession start(String runId, BulkLoadSettings settings, SqlChannelProvider provider) {
        return new BulkLoadSession(runId, settings, provider);
    }

    /** A new session writing through mssql-jdbc connections from {@code connections} ({@code bulkEncoder=driver}). */
    public static BulkLoadSession start(String runId, BulkLoadSettings settings, ConnectionProvider connections) {
        return new BulkLoadSession(runId, settings, SqlChannelProvider.driver(connections));
    }

    /** The encoder of the open channel ({@code driver} or {@code direct}), or null before the first batch. */
    public String encoder() {
        SqlChannel channel = channel();
        return channel == null ? null : channel.encoder();
    }

    public String runId() {
        return runId;
    }

    /**
     * Makes this run record {@code load} in its state table inside the transaction that commits the data (the final
     * swap/merge transaction, or the run transaction of an append/truncate run). Call before the first batch.
     */
    public BulkLoadSession recording(IncrementalLoad load) {
        this.incremental = load;
        this.stateTable = load == null ? null : StateTable.parse(load.stateTable());
        return this;
    }

    public State state() {
        return state;
    }

    /** The route key the run's rejected rows name (the incremental run's state key wins); call before the first batch. */
    public BulkLoadSession routeKey(String key) {
        this.routeKey = key;
        return this;
    }

    /** The route key given with {@link #routeKey(String)}, or null. */
    public String routeKey() {
        return routeKey;
    }

    @Override
    public List<RejectedRow> rejectedRows() {
        if (rejects == null || rejects.committedRows().isEmpty()) {
            return rejectedBefore;
        }
        List<RejectedRow> all = new java.util.ArrayList<>(rejectedBefore);
        all.addAll(rejects.committedRows());
        return List.copyOf(all);
    }

    /** Input counters: batches/rows handed to {@link #write}; output counters: what SQL Server accepted. */
    public HandoffStats stats() {
        return stats;
    }

    /**
     * A new session continuing this FAILED {@code transaction=batch} append/truncate run on a new connection: same
     * run id, the statistics and the rejected rows of the batches committed so far (the failed batch not counted), no
     * second truncate. Write the failed batch again into it.
     *
     * @throws IllegalStateException when this session is not such a failed run, or its last commit is in doubt
     */
    @Override
    public BulkLoadSession resumeAfterFailure() {
        if (state != State.FAILED || !resumable()) {
            throw new IllegalStateException("run " + runId + " on " + settings.table() + " (" + state + ", "
                    + settings.transactionMode() + ", " + settings.writeMode() + ") cannot be resumed");
        }
        BulkLoadSession next = new BulkLoadSession(runId, settings, provider());
        next.stats = statsBeforeBatch;
        next.statsBeforeBatch = statsBeforeBatch;
        next.truncateCommitted = truncateCommitted;
        next.preSqlCommitted = preSqlCommitted;
        next.batchesCommitted = batchesCommitted;
        next.routeKey = routeKey;
        // committed with the batches before: counted against the limit (the stats) and sent to rejectEndpoint once
        next.rejectedBefore = rejectedRows();
        return next.recording(incremental);
    }

    /** True when a failed batch of this run can be written again in a {@linkplain #resumeAfterFailure() resumed} session. */
    @Override
    public boolean resumable() {
        return settings.transactionMode() == TransactionMode.BATCH && !commitInDoubt
                && (settings.writeMode() == WriteMode.APPEND || settings.writeMode() == WriteMode.TRUNCATE);
    }

    /** The staging table of a replace/merge run once created, else null. */
    public TableName stagingTable() {
        return setup == null || setup.staging() == null ? null : setup.staging().name();
    }

    /**
     * Writes one batch; with {@code last} also finalises the run (commit / replace / merge).
     *
     * @return the run's statistics after this batch
     * @throws BulkLoadException on any failure; the session is then FAILED and cleaned up
     */
    public HandoffStats write(VectorSchemaRoot root, boolean last) {
        if (state != State.OPEN) {
            throw new IllegalStateException("run " + runId + " on " + settings.table() + " is " + state);
        }
        int rows = root.getRowCount();
        statsBeforeBatch = stats;
        // A resumed run whose batches are all committed (postSql failed after them): only postSql is left.
        boolean onlyPostSql = batchesCommitted;
        if (!onlyPostSql) {
            stats = stats.withInputBatch(rows);
        }
        try {
            if (setup == null) {
                prepare(root.getSchema());
            }
            if (!onlyPostSql) {
                if (rejects == null && settings.rejects().enabled()) {
                    // counted against the limit: the rows a resumed run's committed batches set aside
                    rejects = new RunRejects(settings.rejects(), runId,
                            incremental != null ? incremental.stateKey() : routeKey, statsBeforeBatch.rejectedRows());
                }
                int loaded = setup.writeBatch(root, stats.outputRows(), stats.inputBatches() - 1, "", context(),
                        rejects);
                HandoffStats accepted = stats.withOutputBatch(loaded).withRejectedRows(rows - loaded);
                if (settings.transactionMode() == TransactionMode.BATCH) {
                    // Counted only once committed: the output counters never claim more than the target holds.
                    commit();
                }
                stats = accepted;
            }
            if (last) {
                finish();
            }
            return stats;
        } catch (BulkLoadException e) {
            throw fail(e);
        } catch (SQLException e) {
            throw fail(new BulkLoadException("writing batch " + (stats.inputBatches() - 1) + " failed: "
                    + e.getMessage(), context().withErrorNumber(SqlServerErrors.errorNumber(e)), e));
        } catch (RuntimeException e) {
            throw fail(new BulkLoadException("writing batch " + (stats.inputBatches() - 1) + " failed: " + e,
                    context(), e));
        }
    }

    /**
     * Discards an open run: rolls back what is not committed and drops the staging table. No effect on a run that
     * is already committed, failed or aborted.
     *
     * @return what became of the accepted work, or null when the session was not open
     */
    public WorkOutcome abort(String reason) {
        if (state != State.OPEN) {
            return null;
        }
        WorkOutcome outcome = failureOutcome();
        LOG.warn("Run {} on {} discarded ({}): {}; accepted work {}", runId, settings.table(), reason, stats,
                outcome);
        cleanUp(null);
        state = State.ABORTED;
        return outcome;
    }

    @Override
    public void close() {
        abort("session closed");
    }

    // ---- steps ----

    private void prepare(Schema arrowSchema) throws SQLException {
        boolean replaceOrMerge = settings.writeMode() == WriteMode.REPLACE || settings.writeMode() == WriteMode.MERGE
                || settings.writeMode() == WriteMode.HISTORY;
        setup = new RunSetup(runId, settings, startProvider,
                replaceOrMerge ? t -> StagingTable.forRun(t, runId) : null, false, null, this::context);
        setup.prepare(arrowSchema, stateTable, incremental != null);
        if (settings.writeMode() == WriteMode.REPLACE) {
            replace = TableSwitch.plan(channel(), "Run " + runId, setup.target(), setup.staging().name(),
                    settings.replaceStrategy(), this::context); // before any row is written
        }
        channel().setAutoCommit(false);
        if (settings.writeMode() == WriteMode.TRUNCATE && !truncateCommitted) {
            execute("TRUNCATE TABLE " + setup.target().quoted());
            if (settings.transactionMode() == TransactionMode.BATCH) {
                commit();
                truncateCommitted = true;
            }
        }
        if (!staged() && !preSqlCommitted && hooks.has(SqlHooks.Hook.PRE_SQL)) {
            // append/truncate: before the first batch, after the truncate, in the run's transaction (with
            // transaction=batch in a transaction of its own). replace/merge/history run it in the final step.
            runHook(SqlHooks.Hook.PRE_SQL);
            if (settings.transactionMode() == TransactionMode.BATCH) {
                commit();
                preSqlCommitted = true;
            }
        }
    }

    /** replace and merge: the batches go to a staging table, the target changes only in the final step. */
    private boolean staged() {
        return settings.writeMode().staged();
    }

    /** Runs {@code hook} on the run's channel, in its open transaction, with the run's values. */
    private void runHook(SqlHooks.Hook hook) {
        hooks.run(hook, channel(), new SqlHooks.RunValues(runId, setup.target(), settings.writeMode(),
                stats.outputRows(), stats.outputBatches(), null), "Run " + runId, this::context);
    }

    /** The run's open channel (the set-up's), or null before the first batch and once closed. */
    private SqlChannel channel() {
        return setup == null ? null : setup.channel();
    }

    /** The provider of the run's channels: the set-up's (the fallback after a switch), else the one started with. */
    private SqlChannelProvider provider() {
        return setup == null ? startProvider : setup.provider();
    }

    private void finish() throws SQLException {
        SqlChannel channel = channel();
        TableName target = setup.target();
        switch (settings.writeMode()) {
            case REPLACE -> {
                if (replace.switching()) {
                    // The staging rows are committed (nothing of the target yet): its indexes are DDL, outside.
                    channel.commit();
                    channel.setAutoCommit(true);
                    replace.prepare(channel, false);
                    channel.setAutoCommit(false);
                }
                LOG.debug(FINAL_STEP_BEGINS, runId, target);
                runHook(SqlHooks.Hook.PRE_SQL); // in the final transaction, before the target changes
                replace.apply(channel, () -> {
                    execute("TRUNCATE TABLE " + target.quoted());
                    setup.withIdentityInsert(() -> execute(setup.staging().insertInto(target,
                            setup.dataColumns())));
                    return 0;
                }, () -> 0);
            }
            case MERGE -> {
                runHook(SqlHooks.Hook.PRE_SQL); // in the final transaction, before the target changes
                if (rejects != null && !setup.changeRows()) {
                    // 8672 (duplicate source keys): every row of such a key is set aside and the MERGE runs again
                    long before = rejects.count();
                    MergeDuplicates.run(channel, setup.staging().name(), settings.keyColumns(), stagedColumns(),
                            rejects, -1, setup::merge, context());
                    countSetAside(before);
                } else {
                    setup.merge();
                }
            }
            case HISTORY -> {
                if (!setup.changeRows()) {
                    historyDuplicateKeys(channel); // before preSql and the target
                }
                runHook(SqlHooks.Hook.PRE_SQL); // in the final transaction, before the target changes
                setup.withIdentityInsert(
                        () -> HistoryStatement.apply(channel, setup.historySteps(HistoryStatement.runTime())));
            }
            default -> {
                if (settings.transactionMode() == TransactionMode.BATCH && hooks.has(SqlHooks.Hook.POST_SQL)) {
                    // Every batch is committed: postSql gets a transaction of its own; a resumed session after its
                    // failure runs only postSql.
                    batchesCommitted = true;
                    statsBeforeBatch = stats;
                }
            }
        }
        runHook(SqlHooks.Hook.POST_SQL); // after the last batch or the final step, before the commit
        if (incremental != null) {
            // In the transaction that commits the data: both or neither.
            stateTable.record(channel, incremental, runId, context());
        }
        commit();
        state = State.COMMITTED;
        LOG.debug(COMMITTED, runId, target, stats);
        // Post-commit clean-up: failures here do not undo the committed run.
        try {
            channel.setAutoCommit(true);
            dropStaging(channel);
        } catch (SQLException | RuntimeException e) {
            LOG.warn("Run {}: committed, but dropping staging table {} failed: {}", runId, stagingTable(),
                    e.toString());
        } finally {
            closeConnection();
        }
    }

    /** The staging table's columns (the target names of the bound data columns). */
    private List<String> stagedColumns() {
        return setup.dataColumns().stream().map(c -> c.target().name()).toList();
    }

    /** The rows set aside since the rejects counted {@code before} were loaded into staging: counted as rejected. */
    private void countSetAside(long before) {
        long moved = rejects.count() - before;
        stats = new HandoffStats(stats.inputBatches(), stats.inputRows(), stats.outputBatches(),
                stats.outputRows() - moved, stats.rejectedRows() + moved);
    }

    /**
     * A history snapshot's key on several staged rows: with maxRejectedRows every row of such a key is set aside (as
     * a merge's duplicates are, check {@link RunRejects#DUPLICATE_KEY}); otherwise, or for a key type that cannot be
     * matched exactly, the run fails ({@link HistoryStatement#refuseDuplicateKeys}).
     */
    private void historyDuplicateKeys(SqlChannel channel) throws SQLException {
        if (rejects != null) {
            long before = rejects.count();
            int keys = MergeDuplicates.setAside(channel, setup.staging().name(), settings.keyColumns(),
                    stagedColumns(), rejects, -1, null, RunRejects.DUPLICATE_KEY, "is on several rows of the"
                    + " snapshot: which is the current version is not known", context());
            countSetAside(before);
            if (keys >= 0) {
                return;
            }
        }
        HistoryStatement.refuseDuplicateKeys(channel, setup.target(), setup.staging().name(), settings.keyColumns(),
                context());
    }

    /** Commits; a failure of the commit itself leaves its outcome in doubt ({@link WorkOutcome#IN_DOUBT}). */
    private void commit() throws SQLException {
        if (rejects != null) {
            rejects.flush(channel()); // the rows set aside, in the transaction of the loaded rows
        }
        committing = true;
        try {
            channel().commit();
            if (rejects != null) {
                rejects.committed();
            }
        } catch (SQLException | RuntimeException e) {
            commitInDoubt = true;
            throw e;
        } finally {
            committing = false;
        }
    }

    private void execute(String sql) throws SQLException {
        channel().execute(sql);
    }

    // ---- failure handling ----

    /** What the accepted work becomes when the run fails now. */
    private WorkOutcome failureOutcome() {
        if (commitInDoubt || committing) {
            return WorkOutcome.IN_DOUBT;
        }
        if (settings.transactionMode() == TransactionMode.RUN || settings.writeMode() == WriteMode.REPLACE
                || settings.writeMode() == WriteMode.MERGE || settings.writeMode() == WriteMode.HISTORY) {
            return WorkOutcome.ROLLED_BACK;
        }
        return WorkOutcome.COMMITTED;
    }

    private BulkLoadException.Context context() {
        return BulkLoadException.Context.of(settings.table().toString(), failureOutcome(), stats);
    }

    private BulkLoadException fail(BulkLoadException e) {
        if (state == State.COMMITTED) {
            return e;
        }
        LOG.warn("Run {} on {} failed; accepted work {}: {}", runId, settings.table(), e.outcome(), e.getMessage());
        cleanUp(e);
        state = State.FAILED;
        return e;
    }

    /**
     * Rolls back, drops this run's staging table and closes the channel. A rollback that fails aborts the connection
     * ({@link SessionEnd}): auto-commit is never switched on over a transaction in doubt, the staging table is then
     * dropped on a new connection, and the rollback failure is added to {@code into} (suppressed) or logged.
     */
    private void cleanUp(Throwable into) {
        SqlChannel c = channel();
        boolean alive = SessionEnd.rollback(c, into, "Run " + runId + " on " + settings.table());
        if (setup != null && setup.stagingCreated()) {
            try {
                if (alive) {
                    c.setAutoCommit(true);
                    dropStaging(c);
                } else {
                    try (SqlChannel fresh = setup.provider().open()) {
                        dropStaging(fresh);
                    }
                }
            } catch (SQLException | RuntimeException e) {
                LOG.warn("Run {}: dropping staging table {} failed: {}", runId, setup.staging(), e.toString());
                if (into != null) {
                    into.addSuppressed(e);
                }
                if (alive) {
                    c.abort(); // auto-commit or the drop failed half-way: the session's state is in doubt
                    alive = false;
                }
            }
        }
        closeConnection(); // after an abort: only drops the reference (closing again is harmless)
    }

    private void dropStaging(SqlChannel c) throws SQLException {
        if (setup != null) {
            setup.dropStaging(c);
        }
        if (replace != null) {
            replace.dropHolding(c);
        }
    }

    private void closeConnection() {
        if (setup != null) {
            setup.closeChannel();
        }
    }
}
