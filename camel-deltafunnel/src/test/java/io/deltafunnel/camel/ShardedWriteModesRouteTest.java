package io.deltafunnel.camel;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import io.deltafunnel.delta.DeltaTableSpec;
import io.deltafunnel.delta.DeltaViews;
import io.deltafunnel.handoff.ShardAssignment;
import org.apache.camel.Exchange;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sharded loads end to end for the write modes that rewrite the target: N routes
 * {@code deltafunnel:orders?shardCount=N&shardIndex=i} → {@code deltafunnel-mssql} run at the same time against the
 * emulator; for N = 1, 2 and 4 with {@code replace} and {@code merge} (into a target holding stale rows) the target
 * ends exactly as the source snapshot, the final step ran once and the staging heap is gone. Append and incremental
 * changes: {@link ShardedLoadRouteTest}.
 */
class ShardedWriteModesRouteTest extends DeltaRouteTestSupport {

    @TempDir
    Path tmp;

    private List<Exchange> lastExchanges = List.of();

    @BeforeEach
    void noState() throws Exception {
        dropStateTables();
    }

    /** Runs N shard routes of one load at the same time; returns when every shard's run ended. */
    private void loadSharded(Path delta, int shards, String consumerOptions, String mssqlOptions) throws Exception {
        List<String> uris = new ArrayList<>();
        for (int i = 0; i < shards; i++) {
            uris.add("deltafunnel:orders?delta.t=" + delta + "&query=RAW(SELECT * FROM t)&batchSize=2"
                    + "&stateDataSource=#stateDs&shardCount=" + shards + "&shardIndex=" + i
                    + "&repeatCount=1&initialDelay=0&bridgeErrorHandler=true" + consumerOptions);
        }
        OneRunRoutes.Ended run = runs.runAll(uris, mssql(mssqlOptions), 120);
        assertTrue(run.failures().isEmpty(), run.failures().toString());
        lastExchanges = run.lastExchanges();
    }

    private List<String> snapshot(Path delta) throws Exception {
        DeltaViews.register(duck, List.of(new DeltaTableSpec("snap", delta.toString(), null, null)));
        List<String> rows = new ArrayList<>();
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, name, amount FROM snap ORDER BY id, name, amount")) {
            while (rs.next()) {
                rows.add(rs.getInt(1) + "|" + rs.getString(2) + "|" + rs.getDouble(3));
            }
        }
        return rows;
    }

    private List<String> target() throws Exception {
        List<String> rows = new ArrayList<>();
        for (List<Object> r : query("SELECT [id], [name], [amount] FROM [dbo].[" + table
                + "] ORDER BY [id], [name], [amount]")) {
            rows.add(((Number) r.get(0)).intValue() + "|" + r.get(1) + "|" + ((Number) r.get(2)).doubleValue());
        }
        return rows;
    }

    /** A table of several files (one per commit), with an update and a delete rewriting some of them. */
    private CdfTableWriter table(String name, boolean cdf) throws Exception {
        CdfTableWriter w = new CdfTableWriter(duck, tmp.resolve(name), cdf);
        for (int c = 0; c < 9; c++) {
            StringBuilder values = new StringBuilder();
            for (int r = 0; r < 5; r++) {
                int id = c * 5 + r;
                values.append(r == 0 ? "" : ",").append('(').append(id).append(",'n").append(id).append("',")
                        .append(id * 1.5).append(')');
            }
            w.insert(values.toString());
        }
        w.update("amount * 10 AS amount", "id % 7 = 0", cdf);
        w.delete("id % 11 = 3", cdf);
        return w;
    }

    /** The load row of the only load: status done, finished by one shard, final_rows = target rows. */
    private void assertFinalStepRanOnce(int shards, long expectedRows) throws Exception {
        List<List<Object>> loads = query("SELECT [status], [shard_count], [finished_by], [final_rows]"
                + " FROM [dbo].[deltafunnel_state_loads]");
        assertEquals(1, loads.size(), loads.toString());
        assertEquals("done", loads.get(0).get(0));
        assertEquals(shards, ((Number) loads.get(0).get(1)).intValue());
        assertNotNull(loads.get(0).get(2), "finished_by");
        assertEquals(expectedRows, ((Number) loads.get(0).get(3)).longValue(), "final_rows");
        assertEquals(shards, ((Number) query("SELECT count(*) FROM [dbo].[deltafunnel_state_shards] WHERE"
                + " [status] = 'done'").get(0).get(0)).intValue());
        long staged = ((Number) query("SELECT sum([rows]) FROM [dbo].[deltafunnel_state_shards]").get(0).get(0))
                .longValue();
        assertEquals(expectedRows, staged, "rows the shards staged");
        assertEquals(List.of(), query("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE '"
                + table + "\\_\\_df\\_%' ESCAPE '\\'"), "staging table dropped");
        // every shard's exchange named its share of the one load
        assertEquals(shards, lastExchanges.size());
        assertEquals(shards, lastExchanges.stream().map(e -> e.getIn().getHeader(DeltaFunnelConstants.SHARD,
                ShardAssignment.class).shardIndex()).distinct().count());
    }

    private void shardedEqualsUnsharded(String writeMode) throws Exception {
        CdfTableWriter w = table("t_" + writeMode, false);
        List<String> expected = snapshot(w.path());
        String base = table;
        for (int shards : new int[] {1, 2, 4}) {
            table = base + "_" + shards;
            dropIfExists(table);
            dropStateTables();
            if (!writeMode.equals("append")) { // a target with stale rows that replace/merge must handle
                exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL PRIMARY KEY, [name] nvarchar(50),"
                        + " [amount] float)", "INSERT INTO [dbo].[" + table + "] VALUES (1, 'stale', -1)"
                        + (writeMode.equals("replace") ? ", (999, 'gone', -1)" : ""));
            }
            loadSharded(w.path(), shards, "", "writeMode=" + writeMode + "&createTable=true"
                    + (writeMode.equals("merge") ? "&keyColumns=id" : ""));
            assertEquals(expected, target(), writeMode + " with " + shards + " shards");
            if (shards > 1) {
                assertFinalStepRanOnce(shards, expected.size());
            } else { // shardCount=1 is the ordinary unsharded run: no load plan
                assertEquals(List.of(), query("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME ="
                        + " 'deltafunnel_state_loads'"));
            }
        }
    }

    @Test
    void replaceWithOneTwoAndFourShards() throws Exception {
        shardedEqualsUnsharded("replace");
    }

    /**
     * A sharded replace (2 shards) into a target with a clustered index, a nonclustered index and a CHECK: the shards
     * load the staging heap under TABLOCK, the final step builds the indexes and the CHECK on it and switches it in
     * (one log line), the target keeps its shape and holds exactly the snapshot.
     */
    @Test
    void shardedReplaceSwitchesTheLoadsStagingTableIn() throws Exception {
        CdfTableWriter w = table("t_switch", false);
        List<String> expected = snapshot(w.path());
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(50), [amount] float,"
                + " CONSTRAINT [ck_" + table + "] CHECK ([id] >= 0))",
                "CREATE CLUSTERED INDEX [cx] ON [dbo].[" + table + "] ([id])",
                "CREATE NONCLUSTERED INDEX [nx] ON [dbo].[" + table + "] ([name]) INCLUDE ([amount])",
                "INSERT INTO [dbo].[" + table + "] VALUES (1, 'stale', -1), (999, 'gone', -1)");
        String shapeSql = "SELECT [name], [type_desc] FROM sys.indexes WHERE [object_id] = OBJECT_ID('dbo." + table
                + "') AND [type] > 0 UNION ALL SELECT [name], [definition] FROM sys.check_constraints"
                + " WHERE [parent_object_id] = OBJECT_ID('dbo." + table + "') ORDER BY 1";
        List<List<Object>> shape = query(shapeSql);
        try (LogLines log = new LogLines(io.deltafunnel.mssql.session.TableSwitch.class)) {
            loadSharded(w.path(), 2, "", "writeMode=replace");
            assertEquals(1, log.containing("by ALTER TABLE ... SWITCH").size(), log.all()::toString);
            assertEquals(List.of(), log.containing("instead of switching"), log.all()::toString);
        }
        assertEquals(expected, target());
        assertEquals(shape, query(shapeSql), "the target keeps its indexes and CHECK");
        assertFinalStepRanOnce(2, expected.size());
    }

    @Test
    void mergeWithOneTwoAndFourShards() throws Exception {
        shardedEqualsUnsharded("merge");
    }

    /**
     * The SQL hooks of a sharded load (truncate, 2 shards) run once per load, in the final step's transaction:
     * preSql after the truncate (it sees an empty target), postSql after the rows went in; both see the load's id
     * and its rows (all shards').
     */
    @Test
    void shardedLoadRunsTheHooksOnceInTheFinalStep() throws Exception {
        CdfTableWriter w = table("t_hooks", false);
        List<String> expected = snapshot(w.path());
        String audit = table + "_audit";
        dropIfExists(audit);
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(50), [amount] float)",
                "INSERT INTO [dbo].[" + table + "] VALUES (1, 'stale', -1), (999, 'gone', -1)",
                "CREATE TABLE [dbo].[" + audit + "] ([hook] nvarchar(10), [n] bigint, [load_id] nvarchar(200),"
                        + " [seen] bigint)");
        String hook = "DECLARE @seen bigint; SELECT @seen = COUNT(*) FROM [dbo].[" + table + "]; INSERT INTO [dbo].["
                + audit + "] ([hook], [n], [load_id], [seen]) VALUES (@deltafunnel_hook, @deltafunnel_rows,"
                + " @deltafunnel_load_id, @seen)";
        loadSharded(w.path(), 2, "", "writeMode=truncate&preSql=RAW(" + hook + ")&postSql=RAW(" + hook + ")");
        assertEquals(expected, target());
        assertFinalStepRanOnce(2, expected.size());
        Object loadId = query("SELECT [load_id] FROM [dbo].[deltafunnel_state_loads]").get(0).get(0);
        long n = expected.size();
        assertEquals(List.of(List.of("preSql", n, loadId, 0L), List.of("postSql", n, loadId, n)),
                query("SELECT [hook], [n], [load_id], [seen] FROM [dbo].[" + audit + "] ORDER BY [hook] DESC"));
        dropIfExists(audit);
    }
}
