package io.deltafunnel.mssql.shard;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

import io.deltafunnel.handoff.HandoffPhase;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.handoff.IncrementalLoad;
import io.deltafunnel.handoff.ShardAssignment;
import io.deltafunnel.handoff.ShardPlanException;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.SqlServerErrors;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.TransactionMode;
import io.deltafunnel.mssql.WriteMode;
import io.deltafunnel.mssql.WorkOutcome;
import io.deltafunnel.mssql.bind.TargetCatalog;
import io.deltafunnel.mssql.channel.SessionEnd;
import io.deltafunnel.mssql.channel.SqlChannel;
import io.deltafunnel.mssql.channel.SqlChannelProvider;
import io.deltafunnel.mssql.reject.RejectedRow;
import io.deltafunnel.mssql.reject.RunRejects;
import io.deltafunnel.mssql.reject.TooManyRejectedRowsException;
import io.deltafunnel.mssql.session.BulkLoadSession;
import io.deltafunnel.mssql.session.LoadStatus;
import io.deltafunnel.mssql.session.RunSession;
import io.deltafunnel.mssql.session.RunSetup;
import io.deltafunnel.mssql.session.StagingTable;
import io.deltafunnel.mssql.session.TableSwitch;
import io.deltafunnel.mssql.state.StateTable;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One shard's run of a sharded load (protocol: {@code docs/sharding.md}, steps 3 to 5), on one {@link SqlChannel}:
 *
 * <ol>
 *   <li><b>Claim</b> (first batch): {@code sp_getapplock} on {@code deltafunnel:<load id>:<shard index>}, owner
 *       {@code Session}, waiting at most the claim timeout ({@code shardClaimTimeout}) for an earlier session of the
 *       shard that is still ending (rolling back a killed share); not granted in that time, a
 *       {@link ShardLockException} (transient: the run is replayed); the lock ends with the session. The load must
 *       exist and be {@code open}; its
 *       {@code write_mode}/{@code target} are recorded when still null, else they must match this run's.</li>
 *   <li><b>Share</b>: the load's staging heap {@code <target>__df_load_<id>} is created once (concurrent creation
 *       tolerated); every batch is bulk-written into it with {@code TABLOCK} in one transaction (whatever the
 *       endpoint's {@code transaction}; {@code transaction=batch} is refused); the last batch checks the load is still
 *       open ({@code UPDLOCK, HOLDLOCK}), marks the shard row {@code done}, checks that the session still holds the
 *       application lock ({@code APPLOCK_MODE}: a silent reconnect would have lost it; else a transient
 *       {@link ShardLockException}) and commits. Any failure before that commit rolls the share back: nothing of this
 *       shard remains, the staging table stays for the others. A rollback that fails aborts the connection (the
 *       server rolls back when the session ends): auto-commit is never switched on over a transaction in doubt.</li>
 *   <li><b>Final step</b>, right after, in a new transaction: with the load row locked ({@code UPDLOCK, HOLDLOCK}),
 *       when the load is still open and all N shard rows are done, the staging table goes into the target (append:
 *       {@code INSERT … SELECT}; replace/truncate: {@code TRUNCATE} + {@code INSERT … SELECT}; merge: the
 *       {@code MERGE} with change rows ranked across all shards), an incremental run records its versions, and the
 *       load row becomes done ({@code finished_by}, {@code finished_at}, {@code final_rows}); commit; then the staging
 *       table is dropped (best effort, logged).</li>
 * </ol>
 *
 * The parts: {@link ShardClaim} takes, checks and releases the application lock, {@link RunSetup} sets the share up
 * (target, binding, the load's staging table; this class reads them from it), {@link ShardFinalStep} runs the final
 * step; this class keeps the run's state machine, the load-row checks, the share's transaction and failure handling.
 *
 * A shard whose row is already done writes nothing (its input is counted) and only tries the final step, which does
 * nothing unless it is owed. At the end the lock is released ({@code sp_releaseapplock}) and the channel closed; when
 * the release fails the connection is aborted instead, so that a pool never hands out a session that still holds
 * the shard. Not thread-safe: one caller at a time.
 *
 * <p>Longer than 600 lines: it is the one owner of a shard's session state (claim, final-step lock, share, rejected
 * rows, commit in doubt, session end), and each of those steps already delegates its SQL to ShardClaim,
 * ShardFinalStep and ShardTables; what stays here is the order of the steps and their failure handling.
 */
public final class ShardSession implements RunSession {

    private static final Logger LOG = LoggerFactory.getLogger(ShardSession.class);

    /** How long a claim waits for the shard's application lock unless told otherwise. */
    public static final Duration DEFAULT_CLAIM_TIMEOUT = Duration.ofSeconds(5);

    private final String runId;
    private final BulkLoadSettings settings;
    private final SqlChannelProvider provider;
    private final ShardAssignment shard;
    private final IncrementalLoad incremental;
    private final ShardTables tables;
    private final ShardClaim claim;

    /** The share's set-up (channel, target, binding, staging); null before it (or when nothing is owed). */
    private RunSetup setup;
    /** The channel opened for the claim, the open channel until {@link #setup} has one ({@link #channel()}). */
    private SqlChannel claimChannel;
    /** The load's final-step lock (a replace by switch); held from its claim until the session ends. */
    private final ShardClaim finalStepLock;
    private boolean finalStepLocked;
    /** A replace load's final step (switch or copy); planned at set-up. */
    private TableSwitch replace;
    private boolean started;
    /** The shard row was done when this run claimed it: nothing is written. */
    private boolean alreadyDone;
    /** The load was done (or no final step can be owed) when claimed: nothing at all to do. */
    private boolean loadFinished;
    private boolean shareCommitted;
    private boolean committing;
    private boolean commitInDoubt;
    private HandoffStats stats = HandoffStats.ZERO;
    private BulkLoadSession.State state = BulkLoadSession.State.OPEN;
    private LoadStatus loadStatus;
    /** With maxRejectedRows > 0: the rows this share set aside (their route key is the load id); else null. */
    private RunRejects rejects;

    private ShardSession(String runId, BulkLoadSettings settings, SqlChannelProvider provider, ShardAssignment shard,
            IncrementalLoad incremental, Duration claimTimeout) {
        this.runId = Objects.requireNonNull(runId, "runId");
        // The share is written with TABLOCK (bulk-update locks on the staging heap: the shards run in parallel).
        this.settings = settings.withTableLock(true);
        this.provider = Objects.requireNonNull(provider, "provider");
        this.shard = Objects.requireNonNull(shard, "shard");
        this.incremental = incremental;
        this.tables = ShardTables.of(shard.stateTable());
        this.claim = new ShardClaim(shard, claimTimeout, this.settings.timeoutSeconds(), this::prefix, this::context,
                message -> refusal(message, null));
        this.finalStepLock = ShardClaim.finalStep(shard, claimTimeout, this.settings.timeoutSeconds(), this::prefix,
                this::context, message -> refusal(message, null));
    }

    /**
     * A new session for run {@code runId} carrying {@code shard}; nothing is opened until the first batch.
     *
     * @param incremental the incremental run recorded by the final step, or null
     */
    public static ShardSession start(String runId, BulkLoadSettings settings, SqlChannelProvider provider,
            ShardAssignment shard, IncrementalLoad incremental) {
        return start(runId, settings, provider, shard, incremental, DEFAULT_CLAIM_TIMEOUT);
    }

    /**
     * As {@link #start(String, BulkLoadSettings, SqlChannelProvider, ShardAssignment, IncrementalLoad)}, the claim
     * waiting at most {@code claimTimeout} for the shard's application lock (0: not at all).
     */
    public static ShardSession start(String runId, BulkLoadSettings settings, SqlChannelProvider provider,
            ShardAssignment shard, IncrementalLoad incremental, Duration claimTimeout) {
        return new ShardSession(runId, settings, provider, shard, incremental, claimTimeout);
    }

    @Override
    public String runId() {
        return runId;
    }

    @Override
    public BulkLoadSession.State state() {
        return state;
    }

    @Override
    public HandoffStats stats() {
        return stats;
    }

    @Override
    public LoadStatus loadStatus() {
        return loadStatus;
    }

    /** The staging table of the load once known, else null. */
    public StagingTable stagingTable() {
        return setup == null ? null : setup.staging();
    }

    @Override
    public HandoffStats write(VectorSchemaRoot root, boolean last) {
        if (state != BulkLoadSession.State.OPEN) {
            throw new IllegalStateException(shard.describe() + " run " + runId + " is " + state);
        }
        int rows = root.getRowCount();
        stats = stats.withInputBatch(rows);
        try {
            if (!started) {
                started = true;
                begin(root.getSchema());
            }
            if (!alreadyDone) {
                if (rejects == null && settings.rejects().enabled()) {
                    rejects = new RunRejects(settings.rejects(), runId, shard.loadId(), 0);
                }
                int loaded = setup.writeBatch(root, stats.outputRows(), stats.inputBatches() - 1, prefix(),
                        context(), rejects);
                stats = stats.withOutputBatch(loaded).withRejectedRows(rows - loaded);
            }
            if (last) {
                if (!alreadyDone) {
                    commitShare();
                }
                if (!loadFinished) {
                    loadStatus = new ShardFinalStep(runId, settings, shard, tables, incremental, replace,
                            this::lockFinalStep).run(channel(), setup, alreadyDone, this::commit, this::context);
                } else {
                    loadStatus = LoadStatus.ALREADY_DONE;
                }
                state = BulkLoadSession.State.COMMITTED;
                release();
            }
            return stats;
        } catch (ShardPlanException e) {
            throw fail(e);
        } catch (BulkLoadException e) {
            throw fail(e);
        } catch (SQLException e) {
            throw fail(new BulkLoadException(prefix() + step() + " failed: " + e.getMessage() + "; " + outcomeText(),
                    context().withErrorNumber(SqlServerErrors.errorNumber(e)), e));
        } catch (RuntimeException e) {
            throw fail(new BulkLoadException(prefix() + step() + " failed: " + e + "; " + outcomeText(), context(),
                    e));
        }
    }

    // ---- steps ----

    private void begin(Schema schema) throws SQLException {
        if (settings.transactionMode() == TransactionMode.BATCH) {
            throw refusal("transaction=batch cannot write a shard: a shard's share commits as one transaction with"
                    + " its done row (use transaction=run)", null);
        }
        SqlChannel first;
        try {
            first = provider.open();
        } catch (SQLException e) {
            throw new SQLException("cannot connect to SQL Server: " + e.getMessage(), e.getSQLState(),
                    e.getErrorCode(), e);
        }
        claimChannel = first;
        first.setQueryTimeout(settings.timeoutSeconds());
        claim.claim(first);
        checkLoad(first);
        if (loadFinished) {
            // Nothing to write, no final step owed: no staging table is created, and one left behind (a final step
            // whose commit was in doubt and did commit, so that its drop never ran) is dropped.
            dropLeftStaging(first);
            return;
        }
        boolean[] handedOut = {false};
        SqlChannelProvider once = new SqlChannelProvider() {
            @Override
            public SqlChannel open() throws SQLException {
                if (!handedOut[0]) {
                    handedOut[0] = true;
                    return first;
                }
                return provider.open();
            }

            @Override
            public SqlChannelProvider fallback() {
                return provider.fallback();
            }
        };
        RunSetup.OnOpen claimOnFallback = new RunSetup.OnOpen() {
            @Override
            public void run(SqlChannel c) throws SQLException {
                if (c != first) { // a fallback channel: claim again (the first one released the lock)
                    c.setQueryTimeout(settings.timeoutSeconds());
                    claim.claim(c);
                }
            }

            @Override
            public void beforeFallback(SqlChannel c) throws SQLException {
                // Released before the channel is closed: SQL Server ends a closed session asynchronously, and the
                // fallback's claim must not meet this session's lock.
                claim.release(c);
            }
        };
        setup = new RunSetup(runId, settings, once, t -> StagingTable.forLoad(t, shard.loadId()), true,
                claimOnFallback, this::context);
        setup.prepare(schema, incremental == null ? null : StateTable.parse(incremental.stateTable()),
                incremental != null);
        if (settings.writeMode() == WriteMode.REPLACE) {
            // before this shard writes anything: a replaceStrategy=switch that cannot switch is refused here
            replace = TableSwitch.plan(channel(), shard.describe(), setup.target(), setup.staging().name(),
                    settings.replaceStrategy(), this::context);
        }
        checkStillOpen();
        checkBinding();
        if (!alreadyDone) {
            channel().setAutoCommit(false); // the share's transaction
        }
    }

    /**
     * After the staging table exists: the load must still be open (or, for a done shard, may have become done). An
     * operator who abandoned the load after this shard's start-up check may have dropped the staging table before
     * this shard created it again: this shard drops it and is refused.
     */
    private void checkStillOpen() throws SQLException {
        LoadRowStatus status = tables.loadStatus(channel(), shard.loadId(), false);
        if (status == LoadRowStatus.OPEN || alreadyDone && status == LoadRowStatus.DONE) {
            return; // a done load: the final step finds it done, ends, and drops the staging table
        }
        ShardFinalStep.dropQuietly(shard, setup.staging(), channel());
        throw refusal("the load became " + status + " while this shard was setting up; its staging table "
                + setup.staging() + " is dropped and nothing is written", null);
    }

    /**
     * Records this run's binding in the load row when it is the first (under {@code UPDLOCK, HOLDLOCK}, in the
     * {@code pins} JSON's {@code binding}), else compares it with the recorded one: a shard that would build the
     * final step from other columns, keys, mapping, identity handling or write mode is refused, naming what differs.
     */
    private void checkBinding() throws SQLException {
        LoadBinding mine = LoadBinding.of(settings, setup);
        LoadBinding recorded;
        SqlChannel channel = channel();
        channel.setAutoCommit(false);
        try {
            List<Object[]> rows = channel.query("SELECT [pins] FROM " + tables.loads().quoted()
                    + " WITH (UPDLOCK, HOLDLOCK) WHERE [load_id] = ?", shard.loadId());
            if (rows.isEmpty()) {
                throw refusal("the load does not exist in " + tables.loads() + " any more", null);
            }
            String pins = (String) rows.get(0)[0];
            recorded = MssqlLoadPlans.binding(pins);
            if (recorded == null) {
                channel.update("UPDATE " + tables.loads().quoted() + " SET [pins] = ? WHERE [load_id] = ?",
                        MssqlLoadPlans.withBinding(pins, mine), shard.loadId());
                LOG.info("{}: run {} recorded the load's binding {}", shard.describe(), runId, mine.toJson());
            }
            channel.commit();
        } catch (SQLException | RuntimeException e) {
            // auto-commit is switched back on only after a rollback that succeeded (SessionEnd aborts otherwise)
            if (SessionEnd.rollback(channel, e, shard.describe() + " (run " + runId + ")")) {
                channel.setAutoCommit(true);
            }
            throw e;
        }
        channel.setAutoCommit(true);
        String difference = recorded == null ? null : recorded.difference(mine);
        if (difference != null) {
            throw refusal("this run binds the load differently from the shard that bound it first, so its final"
                    + " step would be built from other columns; refused, nothing written (" + difference + ")",
                    null);
        }
    }

    /** Drops the load's staging table when it exists (nothing more is owed); a failure is logged, not thrown. */
    private void dropLeftStaging(SqlChannel c) {
        try {
            TableName target = TargetCatalog.find(c, settings.table());
            if (target != null) {
                StagingTable staging = new StagingTable(StagingTable.forLoad(target, shard.loadId()));
                if (TargetCatalog.find(c, staging.name()) != null) {
                    staging.drop(c);
                    LOG.info("{}: the load is finished; dropped its staging table {}, left by an earlier run",
                            shard.describe(), staging);
                }
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("{}: the load is finished, but dropping its staging table failed (drop it by hand): {}",
                    shard.describe(), e.toString());
        }
    }

    /** Reads the load and shard rows, records or compares the write mode and target. */
    private void checkLoad(SqlChannel c) throws SQLException {
        List<Object[]> load = c.query("SELECT [status], [shard_count], [write_mode], [target] FROM "
                + tables.loads().quoted() + " WHERE [load_id] = ?", shard.loadId());
        if (load.isEmpty()) {
            throw refusal("the load does not exist in " + tables.loads() + " (the consumer writes the plan first)",
                    null);
        }
        LoadRowStatus status = LoadRowStatus.of(load.get(0)[0]);
        int count = ((Number) load.get(0)[1]).intValue();
        if (count != shard.shardCount()) {
            throw refusal("the load was planned for " + count + " shards, this run carries " + shard.shardCount(),
                    null);
        }
        List<Object[]> shardRow = c.query("SELECT [status] FROM " + tables.shards().quoted()
                + " WHERE [load_id] = ? AND [shard_index] = ?", shard.loadId(), shard.shardIndex());
        if (shardRow.isEmpty()) {
            throw refusal("the load has no row for this shard in " + tables.shards(), null);
        }
        boolean shardDone = ShardRowStatus.of(shardRow.get(0)[0]) == ShardRowStatus.DONE;
        if (status == LoadRowStatus.ABANDONED) {
            throw refusal("the load was abandoned; start a new load", null);
        }
        String mode = mode();
        String target = settings.table().quoted();
        if (status == LoadRowStatus.OPEN) {
            c.update("UPDATE " + tables.loads().quoted() + " SET [write_mode] = ?, [target] = ? WHERE [load_id] = ?"
                    + " AND [write_mode] IS NULL", mode, target, shard.loadId());
            load = c.query("SELECT [write_mode], [target] FROM " + tables.loads().quoted() + " WHERE [load_id] = ?",
                    shard.loadId());
            String recordedMode = (String) load.get(0)[0];
            String recordedTarget = (String) load.get(0)[1];
            if (!mode.equalsIgnoreCase(recordedMode) || !target.equalsIgnoreCase(recordedTarget)) {
                throw refusal("the load writes " + recordedTarget + " with writeMode=" + recordedMode
                        + ", this run " + target + " with writeMode=" + mode, null);
            }
        } else if (!shardDone) {
            throw refusal("the load is " + status + " but this shard is not done", null);
        }
        alreadyDone = shardDone;
        loadFinished = shardDone && status != LoadRowStatus.OPEN;
        if (shard.alreadyDone() && !shardDone) {
            throw refusal("the run was sent as already done, but the shard row is pending", null);
        }
        if (shardDone) {
            LOG.info("{}: the shard is already done; run {} writes nothing{}", shard.describe(), runId,
                    loadFinished ? " (the load is " + status + ")" : " and tries the final step");
        }
    }

    private String mode() {
        return settings.writeMode().name().toLowerCase(Locale.ROOT);
    }

    /** In the share's transaction: the load still open, the shard row pending → done; commit. */
    private void commitShare() throws SQLException {
        SqlChannel channel = channel();
        LoadRowStatus status = tables.loadStatus(channel, shard.loadId(), true);
        if (status != LoadRowStatus.OPEN) {
            throw refusal("the load became " + status + " while this shard was writing; the share is rolled back",
                    null);
        }
        long n = channel.update("UPDATE " + tables.shards().quoted() + " SET [status] = ?, [run_id] = ?, [rows] = ?,"
                + " [done_at] = SYSUTCDATETIME() WHERE [load_id] = ? AND [shard_index] = ? AND [status] = ?",
                ShardRowStatus.DONE.text(), runId, stats.outputRows(), shard.loadId(), shard.shardIndex(),
                ShardRowStatus.PENDING.text());
        if (n != 1) {
            throw refusal("the shard row was not pending any more (" + n + " rows updated): another runner committed"
                    + " this shard; the share is rolled back", null);
        }
        claim.checkHeld(channel);
        if (rejects != null) {
            checkLoadRejects(channel);
            rejects.flush(channel); // in the transaction of the share
        }
        commit();
        if (rejects != null) {
            rejects.committed();
        }
        shareCommitted = true;
        LOG.info("{}: run {} committed its share of {} rows into {}", shard.describe(), runId, stats.outputRows(),
                setup.staging());
    }

    /**
     * maxRejectedRows holds per load: the rows the other shares of the load committed into the reject table (their
     * route key is the load id) and this share's together. Read after the load row was locked by
     * {@code loadStatus(.., true)}, so that shares committing at the same time count one after the other.
     */
    private void checkLoadRejects(SqlChannel channel) throws SQLException {
        List<Object[]> rows = channel.query("SELECT COUNT(*) FROM " + rejects.table().name().quoted()
                + " WHERE [route_key] = ? AND [run_id] <> ?", shard.loadId(), runId);
        long others = ((Number) rows.get(0)[0]).longValue();
        long limit = settings.rejects().maxRejectedRows();
        if (others + rejects.count() > limit) {
            throw new TooManyRejectedRowsException(prefix() + "the load's shares set aside " + others
                    + " rows before this one, and this share " + rejects.count() + ": more than maxRejectedRows="
                    + limit + " for the load; the share is rolled back", (int) limit, context());
        }
    }

    @Override
    public List<RejectedRow> rejectedRows() {
        return rejects == null ? List.of() : rejects.committedRows();
    }

    private void commit() throws SQLException {
        committing = true;
        try {
            channel().commit();
        } catch (SQLException | RuntimeException e) {
            commitInDoubt = true;
            throw e;
        } finally {
            committing = false;
        }
    }

    // ---- failure handling ----

    private String prefix() {
        return shard.describe() + " (run " + runId + ", target " + settings.table()
                + (setup != null && setup.staging() != null ? ", staging " + setup.staging() : "") + "): ";
    }

    private String step() {
        if (!started || setup == null && !loadFinished) {
            return "setting up the share";
        }
        return shareCommitted || alreadyDone ? "the final step" : "writing batch " + (stats.inputBatches() - 1)
                + " of the share";
    }

    private String outcomeText() {
        return switch (outcome()) {
            case IN_DOUBT -> "the outcome of the commit is unknown";
            case COMMITTED -> "the share is committed (" + (alreadyDone ? "before this run" : stats.outputRows()
                    + " rows") + "), the final step was rolled back; a re-run of any shard of the load retries it";
            default -> "the share is rolled back (nothing of this shard remains; the staging table stays for the other"
                    + " shards); re-running the shard completes the load";
        };
    }

    private WorkOutcome outcome() {
        if (commitInDoubt || committing) {
            return WorkOutcome.IN_DOUBT;
        }
        return shareCommitted || alreadyDone ? WorkOutcome.COMMITTED : WorkOutcome.ROLLED_BACK;
    }

    private BulkLoadException.Context context() {
        return BulkLoadException.Context.of(settings.table().toString(), outcome(), stats);
    }

    private ShardPlanException refusal(String message, Throwable cause) {
        return new ShardPlanException(HandoffPhase.DOWNSTREAM, prefix() + message, shard.loadId(),
                shard.shardIndex(), stats, cause);
    }

    private <E extends RuntimeException> E fail(E e) {
        LOG.warn("{}: run {} failed: {}", shard.describe(), runId, e.getMessage());
        cleanUp(e);
        state = BulkLoadSession.State.FAILED;
        return e;
    }

    @Override
    public WorkOutcome abort(String reason) {
        if (state != BulkLoadSession.State.OPEN) {
            return null;
        }
        WorkOutcome outcome = outcome();
        LOG.warn("{}: run {} discarded ({}): {}; accepted work {}", shard.describe(), runId, reason, stats, outcome);
        cleanUp(null);
        state = BulkLoadSession.State.ABORTED;
        return outcome;
    }

    /** The open channel: the set-up's (it may have switched to the fallback's), else the one opened for the claim. */
    private SqlChannel channel() {
        if (setup != null && setup.channel() != null) {
            return setup.channel();
        }
        return claimChannel;
    }

    /**
     * Rolls back what is not committed and ends the session (the application lock goes with it). A rollback that
     * fails aborts the connection and is added to {@code into} (suppressed), or logged when there is none.
     */
    private void cleanUp(Throwable into) {
        SqlChannel c = channel();
        if (c != null && !SessionEnd.rollback(c, into, shard.describe() + " (run " + runId + ")")) {
            claimChannel = null; // aborted: nothing more is sent on it
            return;
        }
        release(into);
    }

    private void release() {
        release(null);
    }

    /**
     * Releases the application lock and closes the channel. Auto-commit is switched on only after a rollback that
     * succeeded (everything of this run is committed or rolled back by then; the rollback makes sure). When the
     * rollback or the release fails, the session's state is in doubt (a transaction, or the lock, may still be
     * held): the connection is aborted, never returned to a pool, and the failure added to {@code into}
     * (suppressed) or logged.
     */
    /** Takes the load's final-step lock on the run's channel ({@link ShardClaim#finalStep}), once per session. */
    private void lockFinalStep() throws SQLException {
        if (!finalStepLocked) {
            finalStepLock.claim(channel());
            finalStepLocked = true;
        }
    }

    private void release(Throwable into) {
        SqlChannel c = channel();
        claimChannel = null;
        if (c == null) {
            return;
        }
        if (c.isClosed()) {
            c.abort();
            return;
        }
        try {
            if (!c.getAutoCommit()) {
                c.rollback();
                c.setAutoCommit(true);
            }
            claim.release(c);
            if (finalStepLocked) {
                finalStepLocked = false;
                finalStepLock.release(c);
            }
        } catch (SQLException | RuntimeException e) {
            SessionEnd.report(into, e, shard.describe() + " (run " + runId + "): ending the session failed; the"
                    + " connection is aborted (its end releases " + claim.resource() + ")");
            c.abort();
            return;
        }
        try {
            c.close(); // the same channel as setup.channel(); closing twice is harmless
        } catch (SQLException | RuntimeException e) {
            LOG.debug("{}: closing the connection failed: {}", shard.describe(), e.toString());
        }
    }
}
