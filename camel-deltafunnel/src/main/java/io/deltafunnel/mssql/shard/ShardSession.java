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
import io.deltafunnel.mssql.TransactionMode;
import io.deltafunnel.mssql.WorkOutcome;
import io.deltafunnel.mssql.channel.SessionEnd;
import io.deltafunnel.mssql.channel.SqlChannel;
import io.deltafunnel.mssql.channel.SqlChannelProvider;
import io.deltafunnel.mssql.session.BulkLoadSession;
import io.deltafunnel.mssql.session.RunSession;
import io.deltafunnel.mssql.session.RunSetup;
import io.deltafunnel.mssql.session.StagingTable;
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
 * A shard whose row is already done writes nothing (its input is counted) and only tries the final step, which does
 * nothing unless it is owed. At the end the lock is released ({@code sp_releaseapplock}) and the channel closed; when
 * the release fails the connection is aborted instead, so that a pool never hands out a session that still holds
 * the shard. Not thread-safe: one caller at a time.
 */
public final class ShardSession implements RunSession {

    private static final Logger LOG = LoggerFactory.getLogger(ShardSession.class);

    /** The share is committed; other shards are still missing. */
    public static final String SHARD_DONE = "shard-done";
    /** This run completed the set (or found the final step owed) and ran the final step. */
    public static final String LOAD_DONE = "load-done";
    /** The shard was done before this run: nothing written, and no final step was owed. */
    public static final String ALREADY_DONE = "already-done";

    /** How long a claim waits for the shard's application lock unless told otherwise. */
    public static final Duration DEFAULT_CLAIM_TIMEOUT = Duration.ofSeconds(5);

    private final String runId;
    private final BulkLoadSettings settings;
    private final SqlChannelProvider provider;
    private final ShardAssignment shard;
    private final IncrementalLoad incremental;
    private final ShardTables tables;
    private final String resource;
    private final Duration claimTimeout;

    private RunSetup setup;
    /** A replace load's final step (switch or copy); planned at set-up. */
    private io.deltafunnel.mssql.session.TableSwitch replace;
    private SqlChannel channel;
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
    private String loadStatus;

    private ShardSession(String runId, BulkLoadSettings settings, SqlChannelProvider provider, ShardAssignment shard,
            IncrementalLoad incremental, Duration claimTimeout) {
        this.runId = Objects.requireNonNull(runId, "runId");
        // The share is written with TABLOCK (bulk-update locks on the staging heap: the shards run in parallel).
        this.settings = settings.withTableLock(true);
        this.provider = Objects.requireNonNull(provider, "provider");
        this.shard = Objects.requireNonNull(shard, "shard");
        this.incremental = incremental;
        this.tables = ShardTables.of(shard.stateTable());
        this.resource = "deltafunnel:" + shard.loadId() + ":" + shard.shardIndex();
        this.claimTimeout = Objects.requireNonNull(claimTimeout, "claimTimeout");
        if (claimTimeout.isNegative() || claimTimeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the shard claim timeout must be 0 to " + Integer.MAX_VALUE
                    + " ms, got " + claimTimeout.toMillis() + " ms");
        }
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
    public String loadStatus() {
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
                setup.writeBatch(root, stats.outputRows(), prefix(), context());
                stats = stats.withOutputBatch(rows);
            }
            if (last) {
                if (!alreadyDone) {
                    commitShare();
                }
                if (!loadFinished) {
                    finalStep();
                } else {
                    loadStatus = ALREADY_DONE;
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
        channel = first;
        first.setQueryTimeout(settings.timeoutSeconds());
        claim(first);
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
                    claim(c);
                }
            }

            @Override
            public void beforeFallback(SqlChannel c) throws SQLException {
                // Released before the channel is closed: SQL Server ends a closed session asynchronously, and the
                // fallback's claim must not meet this session's lock.
                releaseLock(c);
            }
        };
        setup = new RunSetup(runId, settings, once, t -> StagingTable.forLoad(t, shard.loadId()), true,
                claimOnFallback, this::context);
        setup.prepare(schema, incremental == null ? null : StateTable.parse(incremental.stateTable()),
                incremental != null);
        channel = setup.channel();
        if (settings.writeMode() == io.deltafunnel.mssql.WriteMode.REPLACE) {
            // before this shard writes anything: a replaceStrategy=switch that cannot switch is refused here
            replace = io.deltafunnel.mssql.session.TableSwitch.plan(channel, shard.describe(), setup.target(),
                    setup.staging().name(), settings.replaceStrategy(), this::context);
        }
        checkStillOpen();
        checkBinding();
        if (!alreadyDone) {
            channel.setAutoCommit(false); // the share's transaction
        }
    }

    /**
     * After the staging table exists: the load must still be open (or, for a done shard, may have become done). An
     * operator who abandoned the load after this shard's start-up check may have dropped the staging table before
     * this shard created it again: this shard drops it and is refused.
     */
    private void checkStillOpen() throws SQLException {
        List<Object[]> rows = channel.query("SELECT [status] FROM " + tables.loads().quoted() + " WHERE [load_id] = ?",
                shard.loadId());
        String status = rows.isEmpty() ? null : (String) rows.get(0)[0];
        if (ShardTables.OPEN.equals(status) || alreadyDone && ShardTables.DONE.equals(status)) {
            return; // a done load: the final step finds it done, ends, and drops the staging table
        }
        dropStaging(channel);
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
            io.deltafunnel.mssql.TableName target = io.deltafunnel.mssql.bind.TargetCatalog.find(c, settings.table());
            if (target != null) {
                StagingTable staging = new StagingTable(StagingTable.forLoad(target, shard.loadId()));
                if (io.deltafunnel.mssql.bind.TargetCatalog.find(c, staging.name()) != null) {
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

    private void dropStaging(SqlChannel c) {
        try {
            setup.staging().drop(c);
            if (replace != null) {
                replace.dropHolding(c);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("{}: dropping the staging table {} failed (drop it by hand): {}", shard.describe(),
                    setup.staging(), e.toString());
        }
    }

    /**
     * {@code sp_getapplock}, Exclusive, owner Session, waiting at most the claim timeout (an earlier session of this
     * shard may still be rolling back). By return code: 0/1 granted; -1 not granted in time and -3 deadlock victim
     * are a transient {@link ShardLockException}; anything else a refusal.
     */
    private void claim(SqlChannel c) throws SQLException {
        int waitMillis = (int) claimTimeout.toMillis();
        int statementTimeout = settings.timeoutSeconds();
        if (statementTimeout > 0) {
            // the statement may wait for the lock: its own timeout must not end it first
            c.setQueryTimeout(statementTimeout + (int) Math.ceil(waitMillis / 1000.0));
        }
        List<Object[]> r;
        try {
            r = c.query("DECLARE @r int; EXEC @r = sp_getapplock @Resource = ?, @LockMode = N'Exclusive',"
                    + " @LockOwner = N'Session', @LockTimeout = ?; SELECT @r;", resource, waitMillis);
        } finally {
            if (statementTimeout > 0 && !c.isClosed()) {
                c.setQueryTimeout(statementTimeout);
            }
        }
        int result = r.isEmpty() || r.get(0)[0] == null ? Integer.MIN_VALUE : ((Number) r.get(0)[0]).intValue();
        if (result == -1) {
            throw lockException(ShardLockException.Reason.NOT_GRANTED, "application lock " + resource + " was not"
                    + " granted within the claim timeout of " + waitMillis + " ms (shardClaimTimeout): another"
                    + " runner holds this shard, or an earlier session of it is still ending; nothing was written");
        }
        if (result == -3) {
            throw lockException(ShardLockException.Reason.DEADLOCK, "sp_getapplock on " + resource + " chose this"
                    + " session as a deadlock victim (-3); nothing was written");
        }
        if (result < 0) {
            throw refusal("sp_getapplock on " + resource + " returned " + result + " (not granted)", null);
        }
    }

    private ShardLockException lockException(ShardLockException.Reason reason, String message) {
        return new ShardLockException(reason, resource, prefix() + message, context());
    }

    /**
     * In the share's transaction, right before its commit: the session must still hold the application lock. A
     * silent reconnect (mssql-jdbc's idle-connection resiliency) gives a new session without it, and a second
     * runner could then be writing the same shard.
     */
    private void checkLockHeld() throws SQLException {
        List<Object[]> r = channel.query("SELECT APPLOCK_MODE(N'public', ?, N'Session')", resource);
        Object mode = r.isEmpty() ? null : r.get(0)[0];
        if (!"Exclusive".equals(mode)) {
            throw lockException(ShardLockException.Reason.LOST, "this session no longer holds application lock "
                    + resource + " (APPLOCK_MODE is " + mode + "; the connection was probably re-established); the"
                    + " share is rolled back");
        }
    }

    /** {@code sp_releaseapplock}; a failure or a return code other than 0 throws (the caller aborts the session). */
    private void releaseLock(SqlChannel c) throws SQLException {
        List<Object[]> r = c.query("DECLARE @r int; EXEC @r = sp_releaseapplock @Resource = ?,"
                + " @LockOwner = N'Session'; SELECT @r;", resource);
        int result = r.isEmpty() || r.get(0)[0] == null ? Integer.MIN_VALUE : ((Number) r.get(0)[0]).intValue();
        if (result != 0) {
            throw new SQLException("sp_releaseapplock on " + resource + " returned " + result);
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
        String status = (String) load.get(0)[0];
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
        boolean shardDone = ShardTables.DONE.equals(shardRow.get(0)[0]);
        if (ShardTables.ABANDONED.equals(status)) {
            throw refusal("the load was abandoned; start a new load", null);
        }
        String mode = mode();
        String target = settings.table().quoted();
        if (ShardTables.OPEN.equals(status)) {
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
        loadFinished = shardDone && !ShardTables.OPEN.equals(status);
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
        String status = loadStatusLocked();
        if (!ShardTables.OPEN.equals(status)) {
            throw refusal("the load became " + status + " while this shard was writing; the share is rolled back",
                    null);
        }
        long n = channel.update("UPDATE " + tables.shards().quoted() + " SET [status] = ?, [run_id] = ?, [rows] = ?,"
                + " [done_at] = SYSUTCDATETIME() WHERE [load_id] = ? AND [shard_index] = ? AND [status] = ?",
                ShardTables.DONE, runId, stats.outputRows(), shard.loadId(), shard.shardIndex(), ShardTables.PENDING);
        if (n != 1) {
            throw refusal("the shard row was not pending any more (" + n + " rows updated): another runner committed"
                    + " this shard; the share is rolled back", null);
        }
        checkLockHeld();
        commit();
        shareCommitted = true;
        LOG.info("{}: run {} committed its share of {} rows into {}", shard.describe(), runId, stats.outputRows(),
                setup.staging());
    }

    /** Which shard ran the load's final step ({@code finished_by}), as a log line names it. */
    private String finishedBy() {
        try {
            List<Object[]> rows = channel.query("SELECT [finished_by] FROM " + tables.loads().quoted()
                    + " WHERE [load_id] = ?", shard.loadId());
            Object by = rows.isEmpty() ? null : rows.get(0)[0];
            return by == null ? "another shard" : "shard " + by;
        } catch (SQLException | RuntimeException e) {
            LOG.debug("{}: could not read which shard finished the load", shard.describe(), e);
            return "another shard";
        }
    }

    /** Without locks: every shard row of the load is done (the final step is probably owed). */
    private boolean allShardsDone() throws SQLException {
        long done = ((Number) channel.query("SELECT COUNT(*) FROM " + tables.shards().quoted()
                + " WHERE [load_id] = ? AND [status] = ?", shard.loadId(), ShardTables.DONE).get(0)[0]).longValue();
        return done >= shard.shardCount();
    }

    /** The rows the shards committed into the staging table (the rows a switch moves). */
    private long sharedRows() throws SQLException {
        Object n = channel.query("SELECT SUM(CAST([rows] AS bigint)) FROM " + tables.shards().quoted()
                + " WHERE [load_id] = ?", shard.loadId()).get(0)[0];
        return n == null ? 0 : ((Number) n).longValue();
    }

    private String loadStatusLocked() throws SQLException {
        List<Object[]> rows = channel.query("SELECT [status] FROM " + tables.loads().quoted()
                + " WITH (UPDLOCK, HOLDLOCK) WHERE [load_id] = ?", shard.loadId());
        return rows.isEmpty() ? null : (String) rows.get(0)[0];
    }

    /** The final step when it is owed: staging into the target, the state, the load row done; commit; drop staging. */
    private void finalStep() throws SQLException {
        if (replace != null && replace.switching() && allShardsDone()) {
            // The staging heap gets the target's indexes once all shares are in: DDL, outside the transaction.
            channel.setAutoCommit(true);
            replace.prepare(channel, true);
        }
        channel.setAutoCommit(false);
        String status = loadStatusLocked();
        long done = ((Number) channel.query("SELECT COUNT(*) FROM " + tables.shards().quoted()
                + " WHERE [load_id] = ? AND [status] = ?", shard.loadId(), ShardTables.DONE).get(0)[0]).longValue();
        if (!ShardTables.OPEN.equals(status) || done < shard.shardCount()) {
            channel.rollback(); // nothing written: only the locks are released
            if (!ShardTables.OPEN.equals(status)) {
                channel.setAutoCommit(true);
                dropStaging(channel); // done (or abandoned) since this run's check: nothing needs it any more
            }
            loadStatus = alreadyDone ? ALREADY_DONE : SHARD_DONE;
            if (ShardTables.OPEN.equals(status)) {
                LOG.info("{}: run {} ends with its share committed; {} of {} shards done, the final step runs with"
                        + " the last shard", shard.describe(), runId, done, shard.shardCount());
            } else {
                LOG.info("{}: run {} ends with its share committed; the load is {} already: {} ran the final step",
                        shard.describe(), runId, status, finishedBy());
            }
            return;
        }
        StagingTable staging = setup.staging();
        long[] moved = {0};
        switch (settings.writeMode()) {
            case APPEND -> setup.withIdentityInsert(
                    () -> moved[0] = channel.update(staging.insertInto(setup.target(), setup.dataColumns())));
            case REPLACE -> moved[0] = replace.apply(channel, () -> {
                channel.execute("TRUNCATE TABLE " + setup.target().quoted());
                long[] copied = {0};
                setup.withIdentityInsert(() -> copied[0] = channel.update(
                        staging.insertInto(setup.target(), setup.dataColumns())));
                return copied[0];
            }, this::sharedRows);
            case TRUNCATE -> {
                channel.execute("TRUNCATE TABLE " + setup.target().quoted());
                setup.withIdentityInsert(() -> moved[0] = channel.update(
                        staging.insertInto(setup.target(), setup.dataColumns())));
            }
            case MERGE -> setup.withIdentityInsert(() -> moved[0] = channel.update(setup.mergeSql()));
            default -> throw new IllegalStateException("write mode " + settings.writeMode());
        }
        if (incremental != null) {
            // In the transaction that moves the data: both or neither.
            StateTable.parse(incremental.stateTable()).record(channel, incremental, runId, context());
        }
        long n = channel.update("UPDATE " + tables.loads().quoted() + " SET [status] = ?, [finished_at] ="
                + " SYSUTCDATETIME(), [finished_by] = ?, [final_rows] = ? WHERE [load_id] = ? AND [status] = ?",
                ShardTables.DONE, shard.shardIndex(), moved[0], shard.loadId(), ShardTables.OPEN);
        if (n != 1) {
            throw new IllegalStateException("the load row was not open any more (" + n + " rows updated)");
        }
        commit();
        loadStatus = LOAD_DONE;
        LOG.info("load {} complete: {} rows of {} shards in {} ({} from {}); shard {} ran the final step (run {})",
                shard.loadId(), moved[0], shard.shardCount(), setup.target(), settings.writeMode(), staging,
                shard.shardIndex(), runId);
        try {
            channel.setAutoCommit(true);
            staging.drop(channel);
            if (replace != null) {
                replace.dropHolding(channel);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("{}: the load is done, but dropping its staging table {} failed (drop it by hand): {}",
                    shard.describe(), staging, e.toString());
        }
    }

    private void commit() throws SQLException {
        committing = true;
        try {
            channel.commit();
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
    private SqlChannel current() {
        if (setup != null && setup.channel() != null) {
            return setup.channel();
        }
        return channel;
    }

    /**
     * Rolls back what is not committed and ends the session (the application lock goes with it). A rollback that
     * fails aborts the connection and is added to {@code into} (suppressed), or logged when there is none.
     */
    private void cleanUp(Throwable into) {
        SqlChannel c = current();
        if (c != null && !SessionEnd.rollback(c, into, shard.describe() + " (run " + runId + ")")) {
            channel = null; // aborted: nothing more is sent on it
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
    private void release(Throwable into) {
        SqlChannel c = current();
        channel = null;
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
            releaseLock(c);
        } catch (SQLException | RuntimeException e) {
            SessionEnd.report(into, e, shard.describe() + " (run " + runId + "): ending the session failed; the"
                    + " connection is aborted (its end releases " + resource + ")");
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
