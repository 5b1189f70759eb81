package io.deltafunnel.mssql.shard;

import java.sql.SQLException;
import java.util.List;
import java.util.Objects;

import io.deltafunnel.mssql.SqlIdentifiers;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.TargetCatalog;
import io.deltafunnel.mssql.channel.SqlChannel;
import io.deltafunnel.mssql.state.StateTable;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two tables of sharded loads, siblings of the {@linkplain StateTable state table} (by default
 * {@code [dbo].[deltafunnel_state_loads]} and {@code [dbo].[deltafunnel_state_shards]}):
 *
 * <pre>
 * CREATE TABLE [dbo].[deltafunnel_state_loads] (
 *   [load_id]     nvarchar(64)  NOT NULL PRIMARY KEY,
 *   [load_key]    nvarchar(128) NOT NULL,  -- what the shards of one load share (consumer stateKey)
 *   [shard_count] int           NOT NULL,  -- N
 *   [status]      nvarchar(16)  NOT NULL,  -- open | done | abandoned
 *   [pins]        nvarchar(max) NOT NULL,  -- JSON: pinned versions, incremental run, file assignment, binding
 *   [write_mode]  nvarchar(16)  NULL,      -- set by the first producer to claim a shard; others must match
 *   [target]      nvarchar(300) NULL,      -- idem, [schema].[table]
 *   [created_at]  datetime2(3)  NOT NULL,  -- UTC
 *   [finished_at] datetime2(3)  NULL,      -- when the final step committed (or the load was abandoned)
 *   [finished_by] int           NULL,      -- the shard whose commit completed the set and ran the final step
 *   [final_rows]  bigint        NULL)      -- rows the final step moved from staging into the target
 * CREATE INDEX [ix_load_key_status] ON [dbo].[deltafunnel_state_loads] ([load_key], [status])
 *
 * CREATE TABLE [dbo].[deltafunnel_state_shards] (
 *   [load_id]     nvarchar(64)  NOT NULL,
 *   [shard_index] int           NOT NULL,  -- 0 .. N-1, all N rows written with the plan
 *   [status]      nvarchar(16)  NOT NULL,  -- pending | done
 *   [run_id]      nvarchar(64)  NULL,      -- the run that committed the share
 *   [rows]        bigint        NULL,      -- rows the share put into the staging table
 *   [done_at]     datetime2(3)  NULL,
 *   PRIMARY KEY ([load_id], [shard_index]))
 * </pre>
 *
 * The {@code [status]} values are {@link LoadRowStatus} and {@link ShardRowStatus}, stored as their text. Created
 * when missing, outside any transaction (DDL). All other statements on them are parameterised.
 */
public final class ShardTables {

    /** The index of the loads table on {@code (load_key, status)}. */
    public static final String KEY_STATUS_INDEX = "ix_load_key_status";

    private static final Logger LOG = LoggerFactory.getLogger(ShardTables.class);

    private final TableName loads;
    private final TableName shards;

    private ShardTables(TableName loads, TableName shards) {
        this.loads = loads;
        this.shards = shards;
    }

    /** The load tables beside {@code stateTable} ({@code [schema.]table}; blank = the default state table). */
    public static ShardTables of(String stateTable) {
        TableName state = StateTable.parse(stateTable).name();
        return new ShardTables(state.sibling(state.table() + "_loads"), state.sibling(state.table() + "_shards"));
    }

    public TableName loads() {
        return loads;
    }

    public TableName shards() {
        return shards;
    }

    /**
     * The {@code [status]} of load {@code loadId}, or null when the loads table has no such row; with {@code locked}
     * read {@code WITH (UPDLOCK, HOLDLOCK)}, so that the row stays as read until the caller's transaction ends.
     */
    LoadRowStatus loadStatus(SqlChannel c, String loadId, boolean locked) throws SQLException {
        List<Object[]> rows = c.query("SELECT [status] FROM " + loads.quoted()
                + (locked ? " WITH (UPDLOCK, HOLDLOCK)" : "") + " WHERE [load_id] = ?", loadId);
        return rows.isEmpty() ? null : LoadRowStatus.of(rows.get(0)[0]);
    }

    /** Creates both tables when missing; DDL, so call it with auto-commit on, outside a run's transaction. */
    public void ensure(SqlChannel c) throws SQLException {
        create(c, loads, "([load_id] nvarchar(64) NOT NULL PRIMARY KEY, [load_key] nvarchar(128) NOT NULL,"
                + " [shard_count] int NOT NULL, [status] nvarchar(16) NOT NULL, [pins] nvarchar(max) NOT NULL,"
                + " [write_mode] nvarchar(16) NULL, [target] nvarchar(300) NULL, [created_at] datetime2(3) NOT NULL,"
                + " [finished_at] datetime2(3) NULL, [finished_by] int NULL, [final_rows] bigint NULL)");
        ensureIndex(c);
        create(c, shards, "([load_id] nvarchar(64) NOT NULL, [shard_index] int NOT NULL,"
                + " [status] nvarchar(16) NOT NULL, [run_id] nvarchar(64) NULL, [rows] bigint NULL,"
                + " [done_at] datetime2(3) NULL, PRIMARY KEY ([load_id], [shard_index]))");
    }

    /**
     * The index {@value #KEY_STATUS_INDEX} on {@code (load_key, status)} of the loads table, created when missing
     * (a table made by an older version gets it on its next use; a concurrent creation is tolerated): the plan
     * join's {@code WHERE load_key = ? AND status = ?} under {@code UPDLOCK, HOLDLOCK} then locks the key range of
     * one key, not every row of the table.
     */
    void ensureIndex(SqlChannel c) throws SQLException {
        if (hasKeyStatusIndex(c)) {
            return;
        }
        try {
            c.execute("CREATE INDEX " + SqlIdentifiers.quote(KEY_STATUS_INDEX) + " ON " + loads.quoted()
                    + " ([load_key], [status])");
            LOG.info("Created the index {} on {}", KEY_STATUS_INDEX, loads);
        } catch (SQLException e) {
            if (!hasKeyStatusIndex(c)) { // not a concurrent creation
                throw e;
            }
        }
    }

    /** Whether the loads table has the index {@value #KEY_STATUS_INDEX} (sys.indexes). */
    public boolean hasKeyStatusIndex(SqlChannel c) throws SQLException {
        return !c.query("SELECT [name] FROM sys.indexes WHERE [object_id] = OBJECT_ID(?) AND [name] = ?",
                loads.quoted(), KEY_STATUS_INDEX).isEmpty();
    }

    private static void create(SqlChannel c, TableName name, String columns) throws SQLException {
        Objects.requireNonNull(c, "channel");
        if (TargetCatalog.find(c, name) != null) {
            return;
        }
        try {
            c.execute("CREATE TABLE " + name.quoted() + " " + columns);
            LOG.info("Created the DeltaFunnel load table {}", name);
        } catch (SQLException e) {
            if (TargetCatalog.find(c, name) == null) { // not a concurrent creation
                throw e;
            }
        }
    }
}
