package io.deltafunnel.mssql.shard;

import java.sql.SQLException;
import java.util.List;
import java.util.function.Supplier;

import io.deltafunnel.handoff.IncrementalLoad;
import io.deltafunnel.handoff.ShardAssignment;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.WriteMode;
import io.deltafunnel.mssql.channel.SqlChannel;
import io.deltafunnel.mssql.session.HistoryStatement;
import io.deltafunnel.mssql.session.LoadStatus;
import io.deltafunnel.mssql.session.RunSetup;
import io.deltafunnel.mssql.session.SqlHooks;
import io.deltafunnel.mssql.session.StagingTable;
import io.deltafunnel.mssql.session.TableSwitch;
import io.deltafunnel.mssql.state.StateTable;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sharded load's final step (docs/sharding.md, step 5), tried by every shard's run once its share is committed
 * (or found done), in a new transaction on the run's channel: with the load row locked ({@code UPDLOCK, HOLDLOCK}),
 * when the load is still open and all N shard rows are done, the load's {@code preSql} runs (once per load, after
 * the truncate of a truncate load), the staging table goes into the target (append:
 * {@code INSERT … SELECT}; replace/truncate: {@code TRUNCATE} + {@code INSERT … SELECT}; merge: the {@code MERGE}
 * with change rows ranked across all shards; history: the {@code HistoryStatement} steps over all shards' rows),
 * {@code postSql} runs, an incremental run records its versions, and the load row becomes
 * done ({@code finished_by}, {@code finished_at}, {@code final_rows}); commit; then the staging table is dropped
 * (best effort, logged). Reads the target, staging table and bound columns from the run's {@link RunSetup}. Owns no
 * channel; not thread-safe.
 */
final class ShardFinalStep {

    /** The shard session's logger: these are its log lines (docs/application.md shows them under ShardSession). */
    private static final Logger LOG = LoggerFactory.getLogger(ShardSession.class);

    private final String runId;
    private final BulkLoadSettings settings;
    private final ShardAssignment shard;
    private final ShardTables tables;
    private final IncrementalLoad incremental;
    /** A replace load's final step (switch or copy), planned at the shard's set-up; null for other write modes. */
    private final TableSwitch replace;
    /** Takes the load's final-step lock on the run's channel (held until the caller ends the session). */
    private final RunSetup.SqlStep lockFinalStep;

    /**
     * @param incremental   the incremental run recorded with the data, or null
     * @param lockFinalStep takes the load's final-step lock ({@link ShardClaim#finalStep}) on the run's channel; the
     *                      caller releases it when it ends the session
     */
    ShardFinalStep(String runId, BulkLoadSettings settings, ShardAssignment shard, ShardTables tables,
            IncrementalLoad incremental, TableSwitch replace, RunSetup.SqlStep lockFinalStep) {
        this.runId = runId;
        this.settings = settings;
        this.shard = shard;
        this.tables = tables;
        this.incremental = incremental;
        this.replace = replace;
        this.lockFinalStep = lockFinalStep;
    }

    /**
     * Runs the final step when it is owed, else rolls back (nothing written: only the locks are released) and, when
     * the load is no longer open, drops the staging table nothing needs any more.
     *
     * @param alreadyDone the shard was done before this run (its share was not written by it)
     * @param commit      commits the channel's transaction (the caller tracks a commit in doubt)
     * @return {@link LoadStatus#LOAD_DONE} when this run ran the final step, else {@link LoadStatus#ALREADY_DONE}
     *         or {@link LoadStatus#SHARD_DONE}
     */
    LoadStatus run(SqlChannel channel, RunSetup setup, boolean alreadyDone, RunSetup.SqlStep commit,
            Supplier<BulkLoadException.Context> context) throws SQLException {
        boolean switching = replace != null && replace.switching();
        boolean shaped = false;
        if (switching && allShardsDone(channel)) {
            shapeStaging(channel);
            shaped = true;
        }
        channel.setAutoCommit(false);
        LoadRowStatus status = tables.loadStatus(channel, shard.loadId(), true);
        long done = doneShards(channel);
        if (switching && !shaped && status == LoadRowStatus.OPEN && done >= shard.shardCount()) {
            // The last other share committed between the check above and this transaction: this run is the one
            // that runs the final step, so the staging table needs the target's shape first (else the switch would
            // fall back to a copy). Out of the transaction, under the final-step lock, and read the load again.
            channel.rollback();
            shapeStaging(channel);
            channel.setAutoCommit(false);
            status = tables.loadStatus(channel, shard.loadId(), true);
            done = doneShards(channel);
        }
        if (status != LoadRowStatus.OPEN || done < shard.shardCount()) {
            channel.rollback(); // nothing written: only the locks are released
            if (status != LoadRowStatus.OPEN) {
                channel.setAutoCommit(true);
                // done (or abandoned) since this run's check: nothing needs it any more
                dropQuietly(shard, setup.staging(), channel);
                dropHoldingQuietly(channel);
                LOG.info("{}: run {} ends with its share committed; the load is {} already: {} ran the final step",
                        shard.describe(), runId, status, finishedBy(channel));
            } else {
                LOG.info("{}: run {} ends with its share committed; {} of {} shards done, the final step runs with"
                        + " the last shard", shard.describe(), runId, done, shard.shardCount());
            }
            return alreadyDone ? LoadStatus.ALREADY_DONE : LoadStatus.SHARD_DONE;
        }
        StagingTable staging = setup.staging();
        long[] moved = {0};
        // The hooks run once per load, in this transaction: preSql before the target changes (after the truncate),
        // postSql after the step, before the state row, the load row and the commit.
        SqlHooks hooks = SqlHooks.of(settings);
        SqlHooks.RunValues values = new SqlHooks.RunValues(runId, setup.target(), settings.writeMode(),
                hooks.has(SqlHooks.Hook.PRE_SQL) || hooks.has(SqlHooks.Hook.POST_SQL) ? sharedRows(channel) : 0L,
                null, shard.loadId());
        String who = shard.describe() + " (run " + runId + ")";
        if (settings.writeMode() == WriteMode.TRUNCATE) {
            channel.execute("TRUNCATE TABLE " + setup.target().quoted());
        }
        if (settings.writeMode() == WriteMode.HISTORY && !setup.changeRows()) {
            HistoryStatement.refuseDuplicateKeys(channel, setup.target(), staging.name(), settings.keyColumns(),
                    context.get());
        }
        hooks.run(SqlHooks.Hook.PRE_SQL, channel, values, who, context);
        switch (settings.writeMode()) {
            case APPEND -> setup.withIdentityInsert(
                    () -> moved[0] = channel.update(staging.insertInto(setup.target(), setup.dataColumns())));
            case REPLACE -> moved[0] = replace.apply(channel, () -> {
                channel.execute("TRUNCATE TABLE " + setup.target().quoted());
                long[] copied = {0};
                setup.withIdentityInsert(() -> copied[0] = channel.update(
                        staging.insertInto(setup.target(), setup.dataColumns())));
                return copied[0];
            }, () -> sharedRows(channel));
            case TRUNCATE -> {
                setup.withIdentityInsert(() -> moved[0] = channel.update(
                        staging.insertInto(setup.target(), setup.dataColumns())));
            }
            case MERGE -> moved[0] = setup.merge();
            case HISTORY -> setup.withIdentityInsert(() -> moved[0] = HistoryStatement.apply(channel,
                    setup.historySteps(HistoryStatement.runTime())));
            default -> throw new IllegalStateException("write mode " + settings.writeMode());
        }
        hooks.run(SqlHooks.Hook.POST_SQL, channel, values, who, context);
        if (incremental != null) {
            // In the transaction that moves the data: both or neither.
            StateTable.parse(incremental.stateTable()).record(channel, incremental, runId, context.get());
        }
        long n = channel.update("UPDATE " + tables.loads().quoted() + " SET [status] = ?, [finished_at] ="
                + " SYSUTCDATETIME(), [finished_by] = ?, [final_rows] = ? WHERE [load_id] = ? AND [status] = ?",
                LoadRowStatus.DONE.text(), shard.shardIndex(), moved[0], shard.loadId(), LoadRowStatus.OPEN.text());
        if (n != 1) {
            throw new IllegalStateException("the load row was not open any more (" + n + " rows updated)");
        }
        commit.run();
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
        return LoadStatus.LOAD_DONE;
    }

    /** Without locks: every shard row of the load is done (the final step is probably owed). */
    private boolean allShardsDone(SqlChannel channel) throws SQLException {
        return doneShards(channel) >= shard.shardCount();
    }

    /** The load's shards whose share is committed. */
    private long doneShards(SqlChannel channel) throws SQLException {
        return ((Number) channel.query("SELECT COUNT(*) FROM " + tables.shards().quoted()
                + " WHERE [load_id] = ? AND [status] = ?", shard.loadId(), ShardRowStatus.DONE.text()).get(0)[0])
                .longValue();
    }

    /**
     * The staging heap gets the target's indexes once all shares are in: DDL, outside the transaction (the channel
     * is left in autocommit). Two shards can both see every share done: the final-step lock (held to the session's
     * end) lets one build the shape (and run the final step) at a time, and the one that waited finds the load done
     * and builds nothing.
     */
    private void shapeStaging(SqlChannel channel) throws SQLException {
        channel.setAutoCommit(true);
        lockFinalStep.run();
        if (tables.loadStatus(channel, shard.loadId(), false) == LoadRowStatus.OPEN) {
            replace.prepare(channel, true);
        }
    }

    /** The rows the shards committed into the staging table (the rows a switch moves). */
    private long sharedRows(SqlChannel channel) throws SQLException {
        Object n = channel.query("SELECT SUM(CAST([rows] AS bigint)) FROM " + tables.shards().quoted()
                + " WHERE [load_id] = ?", shard.loadId()).get(0)[0];
        return n == null ? 0 : ((Number) n).longValue();
    }

    /** Which shard ran the load's final step ({@code finished_by}), as a log line names it. */
    private String finishedBy(SqlChannel channel) {
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

    /** Drops a replace's holding table, if any; a failure is logged (drop it by hand), not thrown. */
    private void dropHoldingQuietly(SqlChannel c) {
        if (replace == null) {
            return;
        }
        try {
            replace.dropHolding(c);
        } catch (SQLException | RuntimeException e) {
            LOG.warn("{}: dropping the replace's holding table failed (drop it by hand): {}", shard.describe(),
                    e.toString());
        }
    }

    /** Drops the load's staging table {@code staging}; a failure is logged (drop it by hand), not thrown. */
    static void dropQuietly(ShardAssignment shard, StagingTable staging, SqlChannel c) {
        try {
            staging.drop(c);
        } catch (SQLException | RuntimeException e) {
            LOG.warn("{}: dropping the staging table {} failed (drop it by hand): {}", shard.describe(), staging,
                    e.toString());
        }
    }
}
