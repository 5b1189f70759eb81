package io.deltafunnel.mssql.shard;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import io.deltafunnel.handoff.HandoffPhase;
import io.deltafunnel.handoff.IncrementalLoad;
import io.deltafunnel.handoff.LoadPlan;
import io.deltafunnel.handoff.ShardPlanException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** Step 1 of the sharding protocol (the plan join) against the emulator: create, join, refuse, done, concurrency. */
class MssqlLoadPlansTest {

    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(b -> b.port(0).sinkMode(false));

    private String stateTable;
    private MssqlLoadPlans plans;

    static Connection jdbc() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", SERVER.emulator().user());
        p.setProperty("password", SERVER.emulator().password());
        return DriverManager.getConnection(SERVER.emulator().jdbcUrl(), p);
    }

    @BeforeEach
    void setUp(TestInfo info) {
        // a state table per test, so that each test has load tables of its own
        stateTable = "dbo.st_" + info.getTestMethod().orElseThrow().getName().toLowerCase();
        plans = new MssqlLoadPlans(MssqlLoadPlansTest::jdbc, stateTable);
    }

    private static List<List<Object>> query(String sql, Object... params) throws SQLException {
        try (Connection c = jdbc(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            List<List<Object>> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                        row.add(rs.getObject(i));
                    }
                    rows.add(row);
                }
            }
            return rows;
        }
    }

    private static void exec(String sql, Object... params) throws SQLException {
        try (Connection c = jdbc(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            ps.executeUpdate();
        }
    }

    private static LoadPlan.Pinned pins(long version) {
        return new LoadPlan.Pinned(Map.of("/lake/orders", version), null);
    }

    @Test
    void theFirstShardCreatesThePlanAndTheOthersJoinIt() throws Exception {
        LoadPlan first = plans.join("orders", null, 3, 1, () -> pins(7));
        assertTrue(first.created());
        assertFalse(first.shardDone());
        assertEquals(LoadRowStatus.OPEN.text(), first.status());
        assertEquals(3, first.shardCount());
        assertEquals(Map.of("/lake/orders", 7L), first.versions());
        assertTrue(first.loadId().matches("\\d{8}T\\d{6}\\.\\d{3}Z-[0-9a-f]{12}"), first.loadId());

        LoadPlan second = plans.join("orders", null, 3, 0, () -> fail("the plan exists: no new pins"));
        assertFalse(second.created());
        assertEquals(first.loadId(), second.loadId());
        assertEquals(first.versions(), second.versions());
        assertNull(second.incremental());

        ShardTables t = plans.tables();
        assertEquals(List.of(List.of(first.loadId(), "orders", 3, "open")),
                query("SELECT [load_id], [load_key], [shard_count], [status] FROM " + t.loads().quoted()));
        assertEquals(List.of(List.of(0, "pending"), List.of(1, "pending"), List.of(2, "pending")),
                query("SELECT [shard_index], [status] FROM " + t.shards().quoted() + " WHERE [load_id] = ?"
                        + " ORDER BY [shard_index]", first.loadId()));
        assertEquals("dbo.st_thefirstshardcreatestheplanandtheothersjoinit", plans.stateTableName());
    }

    @Test
    void anIncrementalPlanTravelsAsJsonWithItsVersions() throws Exception {
        IncrementalLoad load = new IncrementalLoad(stateTable, "orders", "changes", List.of(
                new IncrementalLoad.Source("o", "/lake/orders", 3L, 3L, 5, true),
                new IncrementalLoad.Source("c", "/lake/customers", null, null, 2, false)));
        LoadPlan made = plans.join("orders", "job-42", 2, 0,
                () -> new LoadPlan.Pinned(Map.of("/lake/orders", 5L, "/lake/customers", 2L), load));
        assertEquals("job-42", made.loadId());
        LoadPlan joined = plans.join("orders", "job-42", 2, 1, () -> fail("no new pins"));
        assertEquals(load, joined.incremental());
        assertEquals(Map.of("/lake/orders", 5L, "/lake/customers", 2L), joined.versions());
    }

    @Test
    void aMismatchingShardCountIsRefused() throws Exception {
        LoadPlan plan = plans.join("orders", null, 2, 0, () -> pins(1));
        ShardPlanException e = assertThrows(ShardPlanException.class,
                () -> plans.join("orders", null, 4, 3, () -> pins(1)));
        assertEquals(HandoffPhase.QUERY_SETUP, e.phase());
        assertEquals(plan.loadId(), e.loadId());
        assertEquals(3, e.shardIndex());
        assertTrue(e.getMessage().contains("planned with 2 shards; this shard was started with shardCount=4"),
                e.getMessage());
        assertEquals(1, query("SELECT [load_id] FROM " + plans.tables().loads().quoted()).size(), "no second load");
    }

    @Test
    void aLoadIdOfAnotherKeyIsRefused() throws Exception {
        plans.join("orders", "L1", 2, 0, () -> pins(1));
        ShardPlanException e = assertThrows(ShardPlanException.class,
                () -> plans.join("customers", "L1", 2, 1, () -> pins(1)));
        assertTrue(e.getMessage().contains("belongs to the key 'orders', not 'customers'"), e.getMessage());
    }

    @Test
    void anAbandonedLoadIsRefused() throws Exception {
        LoadPlan plan = plans.join("orders", "L2", 2, 0, () -> pins(1));
        exec("UPDATE " + plans.tables().loads().quoted() + " SET [status] = ? WHERE [load_id] = ?",
                LoadRowStatus.ABANDONED.text(), plan.loadId());
        ShardPlanException e = assertThrows(ShardPlanException.class,
                () -> plans.join("orders", "L2", 2, 1, () -> pins(1)));
        assertTrue(e.getMessage().contains("load L2 was abandoned"), e.getMessage());
        // without the id, the abandoned load is not the open load of the key: a new load starts
        LoadPlan fresh = plans.join("orders", null, 2, 1, () -> pins(2));
        assertTrue(fresh.created());
        assertEquals(Map.of("/lake/orders", 2L), fresh.versions());
    }

    @Test
    void aDoneShardIsFlaggedAndADoneLoadIsNotJoinedByKey() throws Exception {
        LoadPlan plan = plans.join("orders", null, 2, 0, () -> pins(1));
        exec("UPDATE " + plans.tables().shards().quoted() + " SET [status] = ? WHERE [load_id] = ? AND"
                + " [shard_index] = ?", ShardRowStatus.DONE.text(), plan.loadId(), 0);
        assertTrue(plans.join("orders", null, 2, 0, () -> pins(9)).shardDone());
        assertFalse(plans.join("orders", null, 2, 1, () -> pins(9)).shardDone());
        exec("UPDATE " + plans.tables().loads().quoted() + " SET [status] = ? WHERE [load_id] = ?",
                LoadRowStatus.DONE.text(), plan.loadId());
        LoadPlan byId = plans.join("orders", plan.loadId(), 2, 0, () -> pins(9));
        assertTrue(byId.shardDone());
        assertEquals(LoadRowStatus.DONE.text(), byId.status());
        LoadPlan next = plans.join("orders", null, 2, 0, () -> pins(9));
        assertTrue(next.created(), "a done load is over: the key's next load starts");
        assertEquals(Map.of("/lake/orders", 9L), next.versions());
    }

    @Test
    void aFailingPlanMakerLeavesNoLoad() throws Exception {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> plans.join("orders", null, 2, 0, () -> {
                    throw new IllegalStateException("table gone");
                }));
        assertEquals("table gone", e.getMessage());
        assertEquals(List.of(), query("SELECT [load_id] FROM " + plans.tables().loads().quoted()));
        assertEquals(List.of(), query("SELECT [load_id] FROM " + plans.tables().shards().quoted()));
    }

    @Test
    void badArgumentsAreRefusedBeforeAnySql() {
        assertThrows(IllegalArgumentException.class, () -> plans.join("orders", null, 2, 2, () -> pins(1)));
        assertThrows(IllegalArgumentException.class, () -> plans.join("orders", "x".repeat(65), 2, 0, () -> pins(1)));
        assertThrows(IllegalArgumentException.class, () -> plans.join(" ", null, 2, 0, () -> pins(1)));
    }

    @Test
    void fourShardsJoiningConcurrentlyGetOnePlan() throws Exception {
        plans.join("warmup", null, 1, 0, () -> pins(0)); // the load tables exist before the race
        int n = 4;
        AtomicInteger made = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<LoadPlan>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int index = i;
                futures.add(pool.submit((Callable<LoadPlan>) () -> {
                    start.await();
                    return plans.join("orders", null, n, index, () -> pins(made.incrementAndGet()));
                }));
            }
            start.countDown();
            Set<String> ids = new HashSet<>();
            Set<Map<String, Long>> versions = new HashSet<>();
            int created = 0;
            for (Future<LoadPlan> f : futures) {
                LoadPlan p = f.get(60, TimeUnit.SECONDS);
                ids.add(p.loadId());
                versions.add(p.versions());
                created += p.created() ? 1 : 0;
            }
            assertEquals(1, ids.size());
            assertEquals(1, created);
            assertEquals(1, versions.size(), "every shard loads the winning shard's pins: " + versions);
            // pins are made before the lock: shards that found no plan may each pin, but one plan is recorded
            assertTrue(made.get() >= 1 && made.get() <= n, "the plan maker ran " + made.get() + " times");
            assertEquals(List.of(List.of(4)), query("SELECT COUNT(*) FROM " + plans.tables().shards().quoted()
                    + " WHERE [load_id] = ?", ids.iterator().next()));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void tableNamesWithBracketsAreQuoted() throws Exception {
        MssqlLoadPlans odd = new MssqlLoadPlans(MssqlLoadPlansTest::jdbc, "dbo.[st]]odd]");
        LoadPlan plan = odd.join("k'ey", null, 1, 0, () -> pins(3));
        assertEquals(plan.loadId(), odd.join("k'ey", null, 1, 0, () -> pins(4)).loadId());
        try (Connection c = jdbc(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT [load_key] FROM [dbo].[st]]odd_loads]")) {
            assertTrue(rs.next());
            assertEquals("k'ey", rs.getString(1));
        }
    }

    @Test
    void theLoadsTableHasAnIndexOnKeyAndStatusAlsoWhenItWasCreatedWithout() throws Exception {
        plans.join("orders", null, 2, 0, () -> pins(1));
        ShardTables t = plans.tables();
        String byName = "SELECT i.[name] FROM sys.indexes i WHERE i.[object_id] = OBJECT_ID(?) AND i.[name] = ?";
        assertEquals(List.of(List.of(ShardTables.KEY_STATUS_INDEX)), query(byName, t.loads().quoted(),
                ShardTables.KEY_STATUS_INDEX));
        // a loads table made by an older version, without the index: the next join adds it, once
        exec("DROP INDEX " + ShardTables.KEY_STATUS_INDEX + " ON " + t.loads().quoted());
        assertEquals(List.of(), query(byName, t.loads().quoted(), ShardTables.KEY_STATUS_INDEX));
        plans.join("orders", null, 2, 1, () -> fail("the plan exists"));
        plans.join("orders", null, 2, 1, () -> fail("the plan exists"));
        assertEquals(List.of(List.of(ShardTables.KEY_STATUS_INDEX)), query(byName, t.loads().quoted(),
                ShardTables.KEY_STATUS_INDEX));
    }

    @Test
    void thePinsAreMadeOutsideThePlanTransaction() throws Exception {
        // counts the connections of the store that are inside a transaction (auto-commit off) right now
        AtomicInteger inTransaction = new AtomicInteger();
        MssqlLoadPlans watched = new MssqlLoadPlans(() -> {
            Connection real = jdbc();
            boolean[] open = {false};
            return (Connection) java.lang.reflect.Proxy.newProxyInstance(Connection.class.getClassLoader(),
                    new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                        if (method.getName().equals("setAutoCommit") && open[0] == (Boolean) args[0]) {
                            open[0] = !(Boolean) args[0];
                            inTransaction.addAndGet(open[0] ? 1 : -1);
                        } else if (method.getName().equals("close") && open[0]) {
                            open[0] = false;
                            inTransaction.decrementAndGet();
                        }
                        try {
                            return method.invoke(real, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }, stateTable);
        List<Integer> seen = new ArrayList<>();
        LoadPlan plan = watched.join("orders", null, 2, 0, () -> {
            seen.add(inTransaction.get()); // the Delta logs are read here
            return pins(4);
        });
        assertEquals(List.of(0), seen, "no transaction of the plan store is open while the versions are pinned");
        assertTrue(plan.created());
        assertEquals(0, inTransaction.get());
    }

    @Test
    void theFileAssignmentIsRecordedWithThePlanAndEveryShardGetsIt() throws Exception {
        Map<String, Integer> files = Map.of("p=a b/f0.parquet", 0, "f1.parquet", 1, "f2.parquet", 1);
        LoadPlan made = plans.join("orders", "job-7", 2, 1,
                () -> new LoadPlan.Pinned(Map.of("/lake/orders", 3L), null, files));
        assertEquals(files, made.files());
        LoadPlan joined = plans.join("orders", "job-7", 2, 0, () -> fail("no new pins"));
        assertEquals(files, joined.files());
        assertEquals(Map.of("/lake/orders", 3L), joined.versions());
    }

    @Test
    void aShardThatPinnedWhileAnotherPlannedUsesTheOtherPlan() throws Exception {
        LoadPlan[] other = new LoadPlan[1];
        LoadPlan mine = plans.join("orders", null, 2, 0, () -> {
            // while this shard reads the logs (no lock held), shard 1 makes and commits its plan
            other[0] = plans.join("orders", null, 2, 1, () -> pins(9));
            return pins(10);
        });
        assertTrue(other[0].created());
        assertFalse(mine.created());
        assertEquals(other[0].loadId(), mine.loadId());
        assertEquals(Map.of("/lake/orders", 9L), mine.versions(), "the first plan wins, the later pins are dropped");
        assertEquals(1, ((Number) query("SELECT COUNT(*) FROM " + plans.tables().loads().quoted()).get(0).get(0)).intValue());
    }
}
