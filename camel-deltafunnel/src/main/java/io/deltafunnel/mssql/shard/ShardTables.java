package io.deltafunnel.mssql.shard;

import java.sql.SQLException;
import java.util.Objects;

import io.deltafunnel.mssql.SqlChannel;
import io.deltafunnel.mssql.state.StateTable;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.TargetCatalog;
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
 *   [pins]        nvarchar(max) NOT NULL,  -- JSON: pinned Delta versions and the incremental run, see LoadPlan
 *   [write_mode]  nvarchar(16)  NULL,      -- set by the first producer to claim a shard; others must match
 *   [target]      nvarchar(300) NULL,      -- idem, [schema].[table]
 *   [created_at]  datetime2(3)  NOT NULL,  -- UTC
 *   [finished_at] datetime2(3)  NULL,      -- when the final step committed (or the load was abandoned)
 *   [finished_by] int           NULL,      -- the shard whose commit completed the set and ran the final step
 *   [final_rows]  bigint        NULL)      -- rows the final step moved from staging into the target
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
 * Created when missing, outside any transaction (DDL). All other statements on them are parameterised.
 */
public final class ShardTables {

    public static final String OPEN = "open";
    public static final String DONE = "done";
    public static final String ABANDONED = "abandoned";
    public static final String PENDING = "pending";

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

    /** Creates both tables when missing; DDL, so call it with auto-commit on, outside a run's transaction. */
    public void ensure(SqlChannel c) throws SQLException {
        create(c, loads, "([load_id] nvarchar(64) NOT NULL PRIMARY KEY, [load_key] nvarchar(128) NOT NULL,"
                + " [shard_count] int NOT NULL, [status] nvarchar(16) NOT NULL, [pins] nvarchar(max) NOT NULL,"
                + " [write_mode] nvarchar(16) NULL, [target] nvarchar(300) NULL, [created_at] datetime2(3) NOT NULL,"
                + " [finished_at] datetime2(3) NULL, [finished_by] int NULL, [final_rows] bigint NULL)");
        create(c, shards, "([load_id] nvarchar(64) NOT NULL, [shard_index] int NOT NULL,"
                + " [status] nvarchar(16) NOT NULL, [run_id] nvarchar(64) NULL, [rows] bigint NULL,"
                + " [done_at] datetime2(3) NULL, PRIMARY KEY ([load_id], [shard_index]))");
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
