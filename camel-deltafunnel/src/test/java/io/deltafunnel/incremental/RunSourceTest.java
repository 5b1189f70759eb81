package io.deltafunnel.incremental;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.deltafunnel.delta.DeltaTableSpec;
import io.deltafunnel.handoff.DeltaFunnelStateStore;
import io.deltafunnel.handoff.LoadPlan;
import io.deltafunnel.handoff.LoadPlanStore;
import io.deltafunnel.handoff.ShardAssignment;
import io.deltafunnel.handoff.ShardPlanException;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;
import io.deltafunnel.sample.SampleDeltaWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a poll reads, without Camel: latest snapshots, pins, replays, incremental plans and unchanged polls. */
class RunSourceTest {

    @TempDir
    Path dir;

    private Connection duck;
    private Path orders;

    /** A state store in memory: what the producer would have recorded. */
    private static final class MemoryStore implements DeltaFunnelStateStore {
        final Map<String, Map<String, Long>> rows = new HashMap<>();

        @Override
        public String tableName() {
            return "dbo.test_state";
        }

        @Override
        public Map<String, Long> loadedVersions(String key) {
            return rows.getOrDefault(key, Map.of());
        }

        @Override
        public void reset(String key) {
            rows.remove(key);
        }
    }

    /** Load plans in memory: one plan per key, as the SQL Server store keeps them (without the locking). */
    private static final class MemoryPlans implements LoadPlanStore {
        final Map<String, LoadPlan> plans = new HashMap<>();
        final java.util.Set<Integer> done = new java.util.HashSet<>();
        int made;

        @Override
        public LoadPlan join(String loadKey, String loadId, int shardCount, int shardIndex, PlanMaker maker)
                throws Exception {
            LoadPlan plan = plans.get(loadKey);
            if (plan == null) {
                LoadPlan.Pinned pinned = maker.pin();
                made++;
                plan = new LoadPlan("L" + made, shardCount, "open", pinned.versions(), pinned.incremental(), false,
                        true);
                plans.put(loadKey, plan);
                return plan;
            }
            return new LoadPlan(plan.loadId(), plan.shardCount(), plan.status(), plan.versions(), plan.incremental(),
                    done.contains(shardIndex), false);
        }

        @Override
        public String stateTableName() {
            return "dbo.test_state";
        }
    }

    private RunSource.Sharding shard(MemoryPlans plans, int index, int count) {
        return new RunSource.Sharding(plans, "orders", null, index, count, "o", DuckDbSettings.inMemory());
    }

    @Test
    void shardsReadTheFirstShardsPinnedVersionAndTogetherAllRows() throws Exception {
        MemoryPlans plans = new MemoryPlans();
        List<DeltaTableSpec> specs = List.of(DeltaTableSpec.latest("o", orders.toString()));
        RunSource.Poll first = new RunSource("test", specs, null, shard(plans, 0, 2)).poll();
        assertEquals(new ShardAssignment("dbo.test_state", "orders", "L1", 0, 2, false), first.shard());
        assertEquals(Map.of(orders.toString(), 0L), plans.plans.get("orders").versions());
        assertEquals(Map.of("o", 0L), first.preparer().prepare(duck, Map.of()));
        long rows0 = count("o");

        new SampleDeltaWriter(duck, orders).append("SELECT (100 + i)::INTEGER AS id FROM range(5) t(i)", 1);
        RunSource.Poll second = new RunSource("test", specs, null, shard(plans, 1, 2)).poll();
        assertEquals(1, plans.made, "the second shard joins the plan");
        assertEquals(Map.of("o", 0L), second.preparer().prepare(duck, Map.of()), "the plan's version, not latest");
        assertEquals(10, rows0 + count("o"), "the two shards read the 10 rows of version 0 together");
        assertNull(second.incremental());

        plans.done.add(1);
        RunSource.Poll again = new RunSource("test", specs, null, shard(plans, 1, 2)).poll();
        assertTrue(again.shard().alreadyDone());
        again.preparer().prepare(duck, Map.of());
        assertEquals(0, count("o"), "a done shard reads no file");
    }

    @Test
    void anUnchangedIncrementalShardMakesNoPlan() throws Exception {
        MemoryStore store = new MemoryStore();
        store.rows.put("orders", Map.of(orders.toString(), 0L));
        List<DeltaTableSpec> specs = List.of(DeltaTableSpec.latest("o", orders.toString()));
        IncrementalPlanner planner = new IncrementalPlanner("test", IncrementalMode.CHANGES, store, "orders", null,
                false, specs, DuckDbSettings.inMemory());
        MemoryPlans plans = new MemoryPlans();
        RunSource.Poll poll = new RunSource("test", specs, planner, shard(plans, 0, 2)).poll();
        assertFalse(poll.changed());
        assertNull(poll.shard());
        assertEquals(0, plans.made);
        assertTrue(plans.plans.isEmpty());
    }

    @Test
    void aShardIsRefusedWhenThePlanWasMadeForAnotherKindOfLoad() throws Exception {
        MemoryPlans plans = new MemoryPlans();
        List<DeltaTableSpec> specs = List.of(DeltaTableSpec.latest("o", orders.toString()));
        new RunSource("test", specs, null, shard(plans, 0, 2)).poll(); // a non-incremental plan
        IncrementalPlanner planner = new IncrementalPlanner("test", IncrementalMode.SNAPSHOT, new MemoryStore(),
                "orders", null, false, specs, DuckDbSettings.inMemory());
        ShardPlanException e = assertThrows(ShardPlanException.class,
                () -> new RunSource("test", specs, planner, shard(plans, 1, 2)).poll());
        assertTrue(e.getMessage().contains("was planned as a non-incremental load, but this shard is incremental"),
                e.getMessage());
        List<DeltaTableSpec> other = List.of(DeltaTableSpec.latest("o", dir.resolve("elsewhere").toString()));
        ShardPlanException missing = assertThrows(ShardPlanException.class,
                () -> new RunSource("test", other, null, shard(plans, 1, 2)).poll());
        assertTrue(missing.getMessage().contains("pins no version of"), missing.getMessage());
        IllegalArgumentException view = assertThrows(IllegalArgumentException.class, () -> new RunSource("test",
                specs, null, new RunSource.Sharding(plans, "k", null, 0, 2, "x", DuckDbSettings.inMemory())));
        assertTrue(view.getMessage().contains("the sharded view x is not one of the delta.<view> tables [o]"),
                view.getMessage());
    }

    private static String refusal(int count, Integer index, String view, List<DeltaTableSpec> specs) {
        return assertThrows(IllegalArgumentException.class, () -> RunSource.Sharding.of("src", count, index, view,
                null, "k", specs, MemoryPlans::new, DuckDbSettings.inMemory())).getMessage();
    }

    @Test
    void shardingOptionsAreValidatedNamingTheOption() {
        List<DeltaTableSpec> one = List.of(DeltaTableSpec.latest("o", "/lake/o"));
        List<DeltaTableSpec> two = List.of(DeltaTableSpec.latest("o", "/lake/o"), DeltaTableSpec.latest("c", "/lake/c"));
        assertNull(RunSource.Sharding.of("src", 1, null, null, null, "k", two, () -> {
            throw new AssertionError("not sharded: no plan store needed");
        }, DuckDbSettings.inMemory()));
        assertNull(RunSource.Sharding.of("src", 1, 0, null, null, "k", one, MemoryPlans::new, DuckDbSettings.inMemory()));
        RunSource.Sharding s = RunSource.Sharding.of("src", 4, 3, null, " job-1 ", "k", one, MemoryPlans::new,
                DuckDbSettings.inMemory());
        assertEquals(List.of(3, 4, "o", "job-1", "k"), List.of(s.index(), s.count(), s.view(), s.loadId(), s.loadKey()));
        assertEquals("c", RunSource.Sharding.of("src", 2, 0, "c", "", "k", two, MemoryPlans::new,
                DuckDbSettings.inMemory()).view());
        assertNull(RunSource.Sharding.of("src", 2, 0, "c", "", "k", two, MemoryPlans::new,
                DuckDbSettings.inMemory()).loadId());
        assertEquals("src: shardCount must be 1 or more, was 0", refusal(0, null, null, one));
        assertEquals("src: shardIndex=2 needs shardCount > 2 (shardCount is 1: not sharded)", refusal(1, 2, null, one));
        assertTrue(refusal(3, null, null, one).startsWith("src: shardCount=3 needs shardIndex (0..2)"));
        assertEquals("src: shardIndex=3 is out of range 0..2 (shardCount=3)", refusal(3, 3, null, one));
        assertEquals("src: shardIndex=-1 is out of range 0..2 (shardCount=3)", refusal(3, -1, null, one));
        assertEquals("src: a sharded load needs shardView when there is not exactly one delta.<view> table; the views"
                + " are [o, c]", refusal(2, 0, null, two));
        assertEquals("src: a sharded load needs shardView when there is not exactly one delta.<view> table; the views"
                + " are []", refusal(2, 0, null, List.of()));
        assertEquals("src: shardView=x is not one of the delta.<view> tables [o, c]", refusal(2, 0, "x", two));
    }

    @BeforeEach
    void setUp() throws Exception {
        duck = DuckDbConnections.open(DuckDbSettings.inMemory());
        orders = dir.resolve("orders");
        new SampleDeltaWriter(duck, orders).append("SELECT i::INTEGER AS id FROM range(10) t(i)", 2); // version 0
    }

    @AfterEach
    void tearDown() throws Exception {
        duck.close();
    }

    private long count(String view) throws Exception {
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM " + view)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void aPlainSourceReadsTheLatestSnapshotAndAReplayTheFirstAttemptsVersion() throws Exception {
        RunSource source = new RunSource("test", List.of(DeltaTableSpec.latest("o", orders.toString())), null);
        assertFalse(source.incremental());
        RunSource.Poll poll = source.poll();
        assertTrue(poll.changed());
        assertNull(poll.incremental());
        assertEquals(Map.of("o", 0L), poll.preparer().prepare(duck, Map.of()));
        assertEquals(10, count("o"));
        new SampleDeltaWriter(duck, orders).append("SELECT (100 + i)::INTEGER AS id FROM range(5) t(i)", 1);
        assertEquals(Map.of("o", 0L), poll.preparer().prepare(duck, Map.of("o", 0L)), "a replay keeps version 0");
        assertEquals(10, count("o"));
        assertEquals(Map.of("o", 1L), source.poll().preparer().prepare(duck, Map.of()), "the next poll reads latest");
        assertEquals(15, count("o"));
    }

    @Test
    void aSourceWithoutTablesHasNoPreparer() throws Exception {
        RunSource.Poll poll = new RunSource("test", List.of(), null).poll();
        assertTrue(poll.changed());
        assertNull(poll.preparer());
    }

    @Test
    void anIncrementalSourceIsUnchangedUntilTheTableAdvances() throws Exception {
        MemoryStore store = new MemoryStore();
        List<DeltaTableSpec> specs = List.of(DeltaTableSpec.latest("o", orders.toString()));
        IncrementalPlanner planner = new IncrementalPlanner("test", IncrementalMode.SNAPSHOT, store, "k", null, false,
                specs, DuckDbSettings.inMemory());
        RunSource source = new RunSource("test", specs, planner);
        assertTrue(source.incremental());

        RunSource.Poll first = source.poll();
        assertTrue(first.changed());
        assertNotNull(first.incremental());
        assertEquals("key=k mode=snapshot o: full -> 0 (snapshot)", first.incremental().describe());
        assertEquals(Map.of("o", 0L), first.preparer().prepare(duck, Map.of()));

        store.rows.put("k", Map.of(orders.toString(), 0L)); // the producer recorded version 0
        RunSource.Poll unchanged = source.poll();
        assertFalse(unchanged.changed());
        assertNull(unchanged.preparer());
        assertEquals(0L, unchanged.incremental().sources().get(0).toVersion());

        new SampleDeltaWriter(duck, orders).append("SELECT (100 + i)::INTEGER AS id FROM range(5) t(i)", 1);
        RunSource.Poll next = source.poll();
        assertTrue(next.changed());
        assertEquals("key=k mode=snapshot o: 0 -> 1 (snapshot)", next.incremental().describe());

        source.resetState();
        assertTrue(store.rows.isEmpty(), "resetState deletes the key's rows");
    }
}
