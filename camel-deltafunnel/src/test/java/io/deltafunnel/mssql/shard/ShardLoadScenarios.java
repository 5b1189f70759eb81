package io.deltafunnel.mssql.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.deltafunnel.arrow.RecordBatches;
import io.deltafunnel.emulator.fidelity.ServerUnderTest;
import io.deltafunnel.handoff.IncrementalLoad;
import io.deltafunnel.handoff.ShardAssignment;
import io.deltafunnel.handoff.ShardPlanException;
import io.deltafunnel.mssql.BulkEncoder;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.WriteMode;
import io.deltafunnel.mssql.channel.ConnectionSettings;
import io.deltafunnel.mssql.run.ChannelFactory;
import io.deltafunnel.mssql.run.RetryPolicy;
import io.deltafunnel.mssql.run.RunWriter;
import io.deltafunnel.mssql.session.LoadStatus;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Sharded loads on the producer side (docs/sharding.md steps 3 to 5), written once and run against the emulator
 * ({@link ShardLoadTest}) and SQL Server ({@link ShardLoadIT}): N shards, each a {@link RunWriter} of its own in its
 * own thread, give exactly the rows of an unsharded load; the final step runs once; refusals.
 */
abstract class ShardLoadScenarios {

    static final String STATE = "dbo.df_shard_state";

    protected abstract ServerUnderTest server();

    protected String table;

    @BeforeEach
    void name(TestInfo info) throws Exception {
        table = ("sh_" + info.getTestMethod().orElseThrow().getName() + "_" + info.getDisplayName())
                .replaceAll("[^A-Za-z0-9]", "_").toLowerCase(Locale.ROOT);
        table = table.substring(0, Math.min(table.length(), 60));
        for (String t : List.of(table, table + "_ref")) {
            exec("IF OBJECT_ID('dbo." + t + "') IS NOT NULL DROP TABLE [dbo].[" + t + "]");
        }
    }

    // ---------------------------------------------------------------- helpers

    protected Connection connect() throws SQLException {
        return server().connect();
    }

    protected void exec(String sql) throws SQLException {
        try (Connection c = connect(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    protected List<List<Object>> query(String sql) throws SQLException {
        List<List<Object>> out = new ArrayList<>();
        try (Connection c = connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    Object v = rs.getObject(i);
                    row.add(v instanceof Number num && !(v instanceof java.math.BigDecimal) ? num.longValue() : v);
                }
                out.add(row);
            }
        }
        return out;
    }

    protected long scalar(String sql) throws SQLException {
        Object v = query(sql).get(0).get(0);
        return v == null ? -1 : ((Number) v).longValue();
    }

    protected List<List<Object>> contents(String t) throws SQLException {
        return query("SELECT [id], [name] FROM [dbo].[" + t + "] ORDER BY [id]");
    }

    protected void createTarget(String t) throws SQLException {
        exec("CREATE TABLE [dbo].[" + t + "] ([id] int NOT NULL PRIMARY KEY, [name] nvarchar(40) NULL)");
    }

    protected void seed(String t, int from, int to) throws SQLException {
        for (int i = from; i < to; i++) {
            exec("INSERT INTO [dbo].[" + t + "] ([id], [name]) VALUES (" + i + ", N'old" + i + "')");
        }
    }

    protected BulkLoadSettings settings(String t, WriteMode mode) {
        return BulkLoadSettings.defaults(new TableName("dbo", t))
                .withWriteMode(mode, mode == WriteMode.MERGE ? List.of("id") : List.of());
    }

    protected RunWriter writer(BulkLoadSettings settings, BulkEncoder encoder) {
        ConnectionSettings connection = new ConnectionSettings(null, server().jdbcUrl(), server().user(),
                server().password(), 0, null);
        return new RunWriter(settings, ChannelFactory.channels("test", connection, encoder, false, false),
                RetryPolicy.NONE, 4, d -> true);
    }

    protected String newLoad(int shards) throws SQLException {
        String id = UUID.randomUUID().toString();
        try (Connection c = connect()) {
            ShardLoadPlans.open(c, STATE, id, "key-" + table, shards);
        }
        return id;
    }

    protected ShardAssignment shard(String loadId, int index, int count, boolean alreadyDone) {
        return new ShardAssignment(STATE, "key-" + table, loadId, index, count, alreadyDone);
    }

    /** One source row: id, name, and for change rows the change type and commit version. */
    record Row(int id, String name, String changeType, long version) {
        static Row plain(int id, String name) {
            return new Row(id, name, null, 0);
        }
    }

    static List<Row> plainRows(int from, int to) {
        List<Row> rows = new ArrayList<>();
        for (int i = from; i < to; i++) {
            rows.add(Row.plain(i, "new" + i));
        }
        return rows;
    }

    /**
     * Changes over a target holding ids 0..39: updates (pre- and postimage) of ids divisible by 3, deletes of ids
     * 1 mod 3 (below 40); inserts of 40..59 at version 2, of which 40..44 are deleted again at version 3 and 45..49
     * updated at version 3. In file order, so that one key's changes land in different shards.
     */
    static List<Row> changeRows() {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            if (i % 3 == 0) {
                rows.add(new Row(i, "old" + i, "update_preimage", 2));
                rows.add(new Row(i, "upd" + i, "update_postimage", 2));
            } else if (i % 3 == 1) {
                rows.add(new Row(i, "old" + i, "delete", 2));
            }
        }
        for (int i = 40; i < 60; i++) {
            rows.add(new Row(i, "ins" + i, "insert", 2));
        }
        for (int i = 40; i < 50; i++) {
            rows.add(i < 45 ? new Row(i, "ins" + i, "delete", 3) : new Row(i, "ins" + i, "update_preimage", 3));
            if (i >= 45) {
                rows.add(new Row(i, "v3_" + i, "update_postimage", 3));
            }
        }
        return rows;
    }

    /** The rows of shard {@code index} of {@code count}: every count-th row (as the consumer splits by file). */
    static List<Row> shareOf(List<Row> rows, int index, int count) {
        List<Row> out = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            // blocks of 5 rows stand for files: a file's rows stay together
            if ((i / 5) % count == index) {
                out.add(rows.get(i));
            }
        }
        return out;
    }

    static VectorSchemaRoot batch(BufferAllocator a, List<Row> rows, boolean changes) {
        IntVector id = new IntVector("id", a);
        VarCharVector name = new VarCharVector("name", a);
        VarCharVector type = changes ? new VarCharVector("_change_type", a) : null;
        BigIntVector version = changes ? new BigIntVector("_commit_version", a) : null;
        id.allocateNew(rows.size());
        name.allocateNew(rows.size());
        if (changes) {
            type.allocateNew(rows.size());
            version.allocateNew(rows.size());
        }
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            id.set(i, r.id());
            name.setSafe(i, r.name().getBytes(StandardCharsets.UTF_8));
            if (changes) {
                type.setSafe(i, r.changeType().getBytes(StandardCharsets.UTF_8));
                version.set(i, r.version());
            }
        }
        List<FieldVector> vectors = changes ? List.of(id, name, type, version) : List.of(id, name);
        VectorSchemaRoot root = new VectorSchemaRoot(vectors);
        root.setRowCount(rows.size());
        return root;
    }

    /**
     * Writes {@code rows} as one run in batches of 7 (at least one batch, possibly empty) and returns what the last
     * batch reported.
     */
    static RunWriter.Written run(RunWriter w, String runId, int attempt, List<Row> rows, boolean changes,
            IncrementalLoad incremental, ShardAssignment shard) {
        try (BufferAllocator a = new RootAllocator()) {
            int batches = Math.max(1, (rows.size() + 6) / 7);
            RunWriter.Written last = null;
            for (int b = 0; b < batches; b++) {
                List<Row> part = rows.subList(Math.min(rows.size(), b * 7), Math.min(rows.size(), b * 7 + 7));
                try (VectorSchemaRoot root = batch(a, part, changes);
                     RecordBatches one = RecordBatches.borrowing(root)) {
                    last = w.write(new RunWriter.Batch(runId, false, attempt, b, b == batches - 1, incremental, shard),
                            one, s -> { });
                }
            }
            return last;
        }
    }

    /** One run of the {@code id} column alone (no {@code name}), in one batch. */
    static RunWriter.Written runIdsOnly(RunWriter w, String runId, List<Row> rows, ShardAssignment shard) {
        try (BufferAllocator a = new RootAllocator()) {
            IntVector id = new IntVector("id", a);
            id.allocateNew(rows.size());
            for (int i = 0; i < rows.size(); i++) {
                id.set(i, rows.get(i).id());
            }
            try (VectorSchemaRoot root = new VectorSchemaRoot(List.<FieldVector>of(id));
                 RecordBatches one = RecordBatches.borrowing(root)) {
                root.setRowCount(rows.size());
                return w.write(new RunWriter.Batch(runId, false, 1, 0, true, null, shard), one, s -> { });
            }
        }
    }

    /** Runs the N shards of a load at the same time, each with a writer of its own; returns their load statuses. */
    protected List<LoadStatus> runShards(int n, String loadId, BulkLoadSettings settings, BulkEncoder encoder,
            List<Row> rows, boolean changes, IncrementalLoad incremental) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<LoadStatus>> results = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int index = i;
                results.add(pool.submit(() -> {
                    start.await();
                    try (RunWriter w = writer(settings, encoder)) {
                        return run(w, "run-" + index + "-" + loadId, 1, shareOf(rows, index, n), changes, incremental,
                                shard(loadId, index, n, false)).loadStatus();
                    }
                }));
            }
            start.countDown();
            List<LoadStatus> statuses = new ArrayList<>();
            for (Future<LoadStatus> f : results) {
                statuses.add(f.get(120, TimeUnit.SECONDS));
            }
            return statuses;
        } finally {
            pool.shutdownNow();
        }
    }

    /** The same rows as one ordinary run into {@code <table>_ref}. */
    protected void runUnsharded(BulkLoadSettings settings, BulkEncoder encoder, List<Row> rows, boolean changes,
            IncrementalLoad incremental) {
        try (RunWriter w = writer(settings, encoder)) {
            run(w, "ref-" + UUID.randomUUID(), 1, rows, changes, incremental, null);
        }
    }

    protected void assertLoadDoneOnce(String loadId, int n, List<LoadStatus> statuses, long finalRows) throws SQLException {
        assertEquals(1, statuses.stream().filter(LoadStatus.LOAD_DONE::equals).count(), statuses.toString());
        assertEquals(n - 1, statuses.stream().filter(LoadStatus.SHARD_DONE::equals).count(), statuses.toString());
        List<Object> load = query("SELECT [status], [finished_by], [final_rows], [write_mode], [target],"
                + " [finished_at] FROM [dbo].[df_shard_state_loads]"
                + " WHERE [load_id] = '" + loadId + "'").get(0);
        assertEquals("done", load.get(0));
        long finishedBy = (Long) load.get(1);
        assertTrue(finishedBy >= 0 && finishedBy < n, load.toString());
        assertEquals(finalRows, load.get(2));
        assertEquals("[dbo].[" + table + "]", load.get(4));
        assertNotNull(load.get(5), "finished_at");
        assertEquals(n, scalar("SELECT COUNT(*) FROM [dbo].[df_shard_state_shards] WHERE [load_id] = '" + loadId
                + "' AND [status] = 'done' AND [run_id] IS NOT NULL AND [done_at] IS NOT NULL"));
        assertEquals(0, scalar("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE '" + table
                + "[_][_]df[_]%'"), "the staging table is dropped");
    }

    // ---------------------------------------------------------------- scenarios

    @ParameterizedTest(name = "{0} shards, {1}, {2}")
    @CsvSource({"1, APPEND, DRIVER", "2, APPEND, DIRECT", "4, APPEND, DRIVER", "4, APPEND, DIRECT",
                "1, REPLACE, DIRECT", "2, REPLACE, DRIVER", "4, REPLACE, DIRECT", "4, TRUNCATE, DRIVER",
                "1, MERGE, DRIVER", "2, MERGE, DIRECT", "4, MERGE, DRIVER", "4, MERGE, DIRECT"})
    void shardsGiveTheRowsOfAnUnshardedLoad(int n, WriteMode mode, BulkEncoder encoder) throws Exception {
        for (String t : List.of(table, table + "_ref")) {
            createTarget(t);
            seed(t, 50, 70); // old rows: kept by append, gone with replace, partly updated by merge
        }
        if (mode == WriteMode.APPEND) {
            exec("DELETE FROM [dbo].[" + table + "] WHERE [id] < 70"); // no key clash with the appended rows
            exec("DELETE FROM [dbo].[" + table + "_ref] WHERE [id] < 70");
            seed(table, 100, 103);
            seed(table + "_ref", 100, 103);
        }
        List<Row> rows = plainRows(0, 60);
        String load = newLoad(n);
        List<LoadStatus> statuses = runShards(n, load, settings(table, mode), encoder, rows, false, null);
        runUnsharded(settings(table + "_ref", mode), encoder, rows, false, null);
        assertEquals(contents(table + "_ref"), contents(table));
        long expectedTargetRows = switch (mode) {
            case APPEND -> 63;
            case MERGE -> 70;
            default -> 60;
        };
        assertEquals(expectedTargetRows, contents(table).size());
        assertLoadDoneOnce(load, n, statuses, 60);
        assertEquals(60, scalar("SELECT SUM([rows]) FROM [dbo].[df_shard_state_shards] WHERE [load_id] = '" + load
                + "'"));
    }

    @ParameterizedTest(name = "{0} shards, {1}")
    @CsvSource({"1, DRIVER", "2, DIRECT", "4, DRIVER", "4, DIRECT"})
    void changeRowsAreRankedAcrossShardsAndTheStateAdvancesOnce(int n, BulkEncoder encoder) throws Exception {
        for (String t : List.of(table, table + "_ref")) {
            createTarget(t);
            seed(t, 0, 40);
        }
        exec("IF OBJECT_ID('" + STATE + "') IS NOT NULL DELETE FROM " + STATE + " WHERE [route] LIKE '"
                + table + "%'");
        List<Row> rows = changeRows();
        String load = newLoad(n);
        IncrementalLoad sharded = new IncrementalLoad(STATE, table + "-sharded", "changes",
                List.of(new IncrementalLoad.Source("t", "/data/" + table, null, 1L, 3, true)));
        IncrementalLoad plain = new IncrementalLoad(STATE, table + "-plain", "changes",
                List.of(new IncrementalLoad.Source("t", "/data/" + table, null, 1L, 3, true)));
        List<LoadStatus> statuses = runShards(n, load, settings(table, WriteMode.MERGE), encoder, rows, true, sharded);
        runUnsharded(settings(table + "_ref", WriteMode.MERGE), encoder, rows, true, plain);
        assertEquals(contents(table + "_ref"), contents(table));
        // 0..39: 14 updated (0 mod 3), 13 deleted (1 mod 3), 13 kept (2 mod 3); 40..44 inserted and deleted again
        assertEquals(14 + 13 + 15, contents(table).size());
        assertEquals(List.of(List.of(45L, "v3_45")), query("SELECT [id], [name] FROM [dbo].[" + table
                + "] WHERE [id] = 45"));
        assertEquals(3, scalar("SELECT [version] FROM " + STATE + " WHERE [route] = '" + table + "-sharded'"));
        List<Object> load0 = query("SELECT [status] FROM [dbo].[df_shard_state_loads] WHERE [load_id] = '" + load
                + "'").get(0);
        assertEquals("done", load0.get(0));
        assertEquals(1, statuses.stream().filter(LoadStatus.LOAD_DONE::equals).count(), statuses.toString());
    }

    @ParameterizedTest
    @EnumSource(value = BulkEncoder.class, names = {"DRIVER", "DIRECT"})
    void createTableWorksWhenShardsCreateTheTargetAtOnce(BulkEncoder encoder) throws Exception {
        String load = newLoad(4);
        List<LoadStatus> statuses = runShards(4, load, settings(table, WriteMode.APPEND).withCreateTable(true), encoder,
                plainRows(0, 60), false, null);
        assertEquals(60, contents(table).size());
        assertEquals(1770, scalar("SELECT SUM([id]) FROM [dbo].[" + table + "]"));
        assertLoadDoneOnce(load, 4, statuses, 60);
    }

    @ParameterizedTest
    @EnumSource(value = BulkEncoder.class, names = {"DRIVER", "DIRECT"})
    void aDoneShardReRunIsANoOp(BulkEncoder encoder) throws Exception {
        createTarget(table);
        String load = newLoad(2);
        BulkLoadSettings settings = settings(table, WriteMode.APPEND);
        runShards(2, load, settings, encoder, plainRows(0, 30), false, null);
        List<List<Object>> before = contents(table);
        List<List<Object>> loadBefore = query("SELECT [finished_by], [final_rows], [finished_at]"
                + " FROM [dbo].[df_shard_state_loads] WHERE [load_id] = '" + load + "'");
        try (RunWriter w = writer(settings, encoder)) {
            // as the consumer sends it: one empty batch, alreadyDone
            assertEquals(LoadStatus.ALREADY_DONE,
                    run(w, "again-0", 1, List.of(), false, null, shard(load, 0, 2, true)).loadStatus());
            // a runner that did not know: its rows are counted, not written
            RunWriter.Written w1 = run(w, "again-1", 1, shareOf(plainRows(0, 30), 1, 2), false, null,
                    shard(load, 1, 2, false));
            assertEquals(LoadStatus.ALREADY_DONE, w1.loadStatus());
            assertEquals(0, w1.stats().outputRows());
            assertEquals(15, w1.stats().inputRows());
        }
        assertEquals(before, contents(table));
        assertEquals(loadBefore, query("SELECT [finished_by], [final_rows], [finished_at]"
                + " FROM [dbo].[df_shard_state_loads] WHERE [load_id] = '" + load + "'"));
    }

    @ParameterizedTest
    @EnumSource(value = BulkEncoder.class, names = {"DRIVER", "DIRECT"})
    void ofTwoConcurrentRunnersOfOneShardOneIsRefused(BulkEncoder encoder) throws Exception {
        createTarget(table);
        String load = newLoad(1);
        BulkLoadSettings settings = settings(table, WriteMode.APPEND);
        List<Row> rows = plainRows(0, 10);
        try (BufferAllocator a = new RootAllocator(); RunWriter first = writer(settings, encoder);
             RunWriter second = writer(settings, encoder).shardClaimTimeout(Duration.ofMillis(200))) {
            try (VectorSchemaRoot root = batch(a, rows.subList(0, 5), false);
                 RecordBatches one = RecordBatches.borrowing(root)) {
                first.write(new RunWriter.Batch("first", false, 1, 0, false, null, shard(load, 0, 1, false)), one,
                        s -> { });
            }
            ShardLockException refused;
            try (VectorSchemaRoot root = batch(a, rows, false); RecordBatches one = RecordBatches.borrowing(root)) {
                // not granted within the claim timeout: transient (a replay claims again), nothing written
                refused = assertThrows(ShardLockException.class, () -> second.write(new RunWriter.Batch("second",
                        false, 1, 0, true, null, shard(load, 0, 1, false)), one, s -> { }));
            }
            assertTrue(refused.getMessage().contains("another runner"), refused.getMessage());
            assertEquals(ShardLockException.Reason.NOT_GRANTED, refused.reason());
            assertEquals("deltafunnel:" + load + ":0", refused.resource());
            try (VectorSchemaRoot root = batch(a, rows.subList(5, 10), false);
                 RecordBatches one = RecordBatches.borrowing(root)) {
                assertEquals(LoadStatus.LOAD_DONE, first.write(new RunWriter.Batch("first", false, 1, 1, true, null,
                        shard(load, 0, 1, false)), one, s -> { }).loadStatus());
            }
        }
        assertEquals(10, contents(table).size());
        assertEquals(10, scalar("SELECT [final_rows] FROM [dbo].[df_shard_state_loads] WHERE [load_id] = '" + load
                + "'"));
    }

    @ParameterizedTest
    @EnumSource(value = BulkEncoder.class, names = {"DRIVER", "DIRECT"})
    void aDifferentWriteModeIsRefused(BulkEncoder encoder) throws Exception {
        createTarget(table);
        String load = newLoad(2);
        try (RunWriter append = writer(settings(table, WriteMode.APPEND), encoder);
             RunWriter merge = writer(settings(table, WriteMode.MERGE), encoder)) {
            assertEquals(LoadStatus.SHARD_DONE, run(append, "a", 1, plainRows(0, 5), false, null,
                    shard(load, 0, 2, false)).loadStatus());
            ShardPlanException refused = assertThrows(ShardPlanException.class, () -> run(merge, "m", 1,
                    plainRows(5, 10), false, null, shard(load, 1, 2, false)));
            assertTrue(refused.getMessage().contains("writeMode=append") && refused.getMessage().contains("merge"),
                    refused.getMessage());
        }
        assertEquals(0, contents(table).size(), "the target is untouched");
        assertEquals("open", query("SELECT [status] FROM [dbo].[df_shard_state_loads] WHERE [load_id] = '" + load
                + "'").get(0).get(0));
    }

    @ParameterizedTest
    @EnumSource(value = BulkEncoder.class, names = {"DRIVER", "DIRECT"})
    void aShardWithOtherColumnsIsRefusedAndTheLoadKeepsEveryColumn(BulkEncoder encoder) throws Exception {
        createTarget(table);
        String load = newLoad(2);
        List<Row> rows = plainRows(0, 20);
        try (RunWriter w = writer(settings(table, WriteMode.APPEND), encoder)) {
            assertEquals(LoadStatus.SHARD_DONE, run(w, "s0", 1, shareOf(rows, 0, 2), false, null,
                    shard(load, 0, 2, false)).loadStatus());
            // shard 1 from another version of the query: (id) alone; its final step would copy id alone
            ShardPlanException refused = assertThrows(ShardPlanException.class,
                    () -> runIdsOnly(w, "s1", shareOf(rows, 1, 2), shard(load, 1, 2, false)));
            assertTrue(refused.getMessage().contains("columns:") && refused.getMessage().contains("name")
                    && refused.getMessage().contains("load " + load + " shard 1/2"), refused.getMessage());
            assertEquals(0, contents(table).size(), "the target is untouched");
            assertEquals("pending", query("SELECT [status] FROM [dbo].[df_shard_state_shards] WHERE [load_id] = '"
                    + load + "' AND [shard_index] = 1").get(0).get(0));
            // the same shard with the load's columns completes it
            assertEquals(LoadStatus.LOAD_DONE, run(w, "s1", 2, shareOf(rows, 1, 2), false, null,
                    shard(load, 1, 2, false)).loadStatus());
        }
        assertEquals(rows.stream().map(r -> List.<Object>of((long) r.id(), r.name())).toList(), contents(table),
                "every name arrived");
    }

    @ParameterizedTest
    @EnumSource(value = BulkEncoder.class, names = {"DRIVER", "DIRECT"})
    void aMergeShardWithOtherKeyColumnsIsRefused(BulkEncoder encoder) throws Exception {
        createTarget(table);
        seed(table, 0, 10);
        String load = newLoad(2);
        BulkLoadSettings byId = settings(table, WriteMode.MERGE);
        BulkLoadSettings byIdAndName = byId.withWriteMode(WriteMode.MERGE, List.of("id", "name"));
        try (RunWriter first = writer(byId, encoder); RunWriter second = writer(byIdAndName, encoder)) {
            assertEquals(LoadStatus.SHARD_DONE, run(first, "s0", 1, plainRows(0, 5), false, null,
                    shard(load, 0, 2, false)).loadStatus());
            ShardPlanException refused = assertThrows(ShardPlanException.class, () -> run(second, "s1", 1,
                    plainRows(5, 10), false, null, shard(load, 1, 2, false)));
            assertTrue(refused.getMessage().contains("keyColumns: the load has [id], this run has [id, name]"),
                    refused.getMessage());
        }
        assertEquals(10, contents(table).size());
        assertEquals(0, scalar("SELECT COUNT(*) FROM [dbo].[" + table + "] WHERE [name] LIKE 'new%'"),
                "the target is untouched");
    }
}
