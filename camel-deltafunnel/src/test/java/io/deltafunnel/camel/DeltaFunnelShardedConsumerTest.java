package io.deltafunnel.camel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.microsoft.sqlserver.jdbc.SQLServerDataSource;
import io.deltafunnel.delta.DeltaConformanceTest;
import io.deltafunnel.handoff.IncrementalLoad;
import io.deltafunnel.handoff.ShardAssignment;
import io.deltafunnel.mssql.shard.LoadRowStatus;
import io.deltafunnel.query.ShardUnsafeQueryException;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sharded consumer alone (no producer): shard routes over real corpus tables together give exactly the rows of
 * the unsharded route, every exchange carries its {@link ShardAssignment} (and the plan's incremental run) and, when
 * the log's statistics tell it, the rows its share delivers (deletion vectors subtracted), a done
 * shard sends one empty batch marked alreadyDone, and bad sharding options or unsafe queries stop the route from
 * starting with a clear message. The load plan lives in the emulator (stateDataSource).
 */
class DeltaFunnelShardedConsumerTest extends EmulatorRouteTestSupport {

    private static final String STATE_TABLE = "dbo.deltafunnel_state";

    private Path corpus;
    private int routes;

    /** What one route saw: each exchange's headers and rows (as text, while the batch was valid). */
    private static final class Seen {
        final List<Map<String, Object>> headers = new CopyOnWriteArrayList<>();
        final List<String> rows = new CopyOnWriteArrayList<>();
        final List<List<String>> columns = new CopyOnWriteArrayList<>();
        final List<Boolean> complete = new CopyOnWriteArrayList<>();
        final CountDownLatch ended = new CountDownLatch(1);
        String routeId;
    }

    @BeforeEach
    void bindStateDataSource() {
        corpus = DeltaConformanceTest.corpus();
        Assumptions.assumeTrue(Files.isDirectory(corpus.resolve("tables")), "Delta corpus not found at " + corpus);
        SQLServerDataSource ds = new SQLServerDataSource();
        ds.setURL(SERVER.emulator().jdbcUrl());
        ds.setUser(SERVER.emulator().user());
        ds.setPassword(SERVER.emulator().password());
        context.getRegistry().bind("stateDs", ds);
    }

    private String tablePath(String name) {
        return corpus.resolve("tables").resolve(name).toString();
    }

    private static List<String> rowsOf(VectorSchemaRoot root) {
        List<String> lines = new ArrayList<>(Arrays.asList(root.contentToTSVString().split("\n")));
        lines.remove(0); // the header
        return lines;
    }

    /** Starts a route on {@code uri} that records what it sees. */
    private Seen start(String uri) throws Exception {
        Seen seen = new Seen();
        String id = "r" + (routes++);
        seen.routeId = id;
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri + "&repeatCount=1&initialDelay=0").routeId(id).process(e -> {
                    VectorSchemaRoot root = e.getIn().getBody(VectorSchemaRoot.class);
                    seen.headers.add(Map.copyOf(e.getIn().getHeaders()));
                    seen.rows.addAll(rowsOf(root));
                    seen.columns.add(root.getSchema().getFields().stream().map(f -> f.getName()).toList());
                    boolean last = e.getProperty(Exchange.BATCH_COMPLETE, false, Boolean.class);
                    seen.complete.add(last);
                    if (last) {
                        seen.ended.countDown();
                    }
                });
            }
        });
        return seen;
    }

    private static List<String> sorted(List<String> rows) {
        List<String> copy = new ArrayList<>(rows);
        Collections.sort(copy);
        return copy;
    }

    private static void await(Seen... seen) throws InterruptedException {
        for (Seen s : seen) {
            assertTrue(s.ended.await(60, TimeUnit.SECONDS), "a route did not finish its run");
        }
    }

    private static ShardAssignment shardOf(Map<String, Object> headers) {
        return (ShardAssignment) headers.get(DeltaFunnelConstants.SHARD);
    }

    /** Runs N shard routes of {@code name} at once and the unsharded route; returns (shard runs, unsharded run). */
    private List<Seen> shardsAndWhole(String name, String options, int n) throws Exception {
        List<Seen> runs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            runs.add(start("deltafunnel:" + name + "?" + options + "&shardCount=" + n + "&shardIndex=" + i
                    + "&stateDataSource=#stateDs"));
        }
        runs.add(start("deltafunnel:" + name + "_whole?" + options + "&stateDataSource=#stateDs&stateKey=" + name
                + "_whole"));
        await(runs.toArray(Seen[]::new));
        return runs;
    }

    @Test
    void twoShardsTogetherGiveExactlyTheUnshardedRowsWithTheirShardHeaders() throws Exception {
        int split = 0;
        for (String table : List.of("delta-0.8.0-partitioned", "table-with-dv-small", "delta-2.2.0-partitioned-types",
                "table_with_column_mapping")) {
            String name = "two_" + table.replaceAll("[^A-Za-z0-9]", "_");
            List<Seen> runs = shardsAndWhole(name, "delta.t=" + tablePath(table)
                    + "&query=SELECT * FROM t&batchSize=3", 2);
            Seen whole = runs.get(2);
            List<String> union = new ArrayList<>(runs.get(0).rows);
            union.addAll(runs.get(1).rows);
            assertFalse(whole.rows.isEmpty(), table);
            assertEquals(sorted(whole.rows), sorted(union), table + ": the shards' rows are the unsharded rows");
            split += !runs.get(0).rows.isEmpty() && !runs.get(1).rows.isEmpty() ? 1 : 0;
            assertNull(whole.headers.get(0).get(DeltaFunnelConstants.SHARD), "an unsharded run has no shard header");

            String loadId = null;
            for (int i = 0; i < 2; i++) {
                Seen shard = runs.get(i);
                assertEquals(whole.columns.get(0), shard.columns.get(0), "every shard has the query's columns");
                for (Map<String, Object> h : shard.headers) {
                    ShardAssignment a = shardOf(h);
                    assertNotNull(a, "every exchange of a shard carries its assignment");
                    assertEquals(i, a.shardIndex());
                    assertEquals(2, a.shardCount());
                    assertEquals(name, a.loadKey(), "the load key is the endpoint's name");
                    assertEquals(STATE_TABLE, a.stateTable());
                    assertFalse(a.alreadyDone());
                    assertEquals(whole.headers.get(0).get(DeltaFunnelConstants.DELTA_VERSIONS),
                            h.get(DeltaFunnelConstants.DELTA_VERSIONS), "the plan pins the version the whole read");
                    loadId = loadId == null ? a.loadId() : loadId;
                    assertEquals(loadId, a.loadId(), "both shards load the same plan");
                }
            }
            assertEquals(List.of(List.of(loadId, name, 2, LoadRowStatus.OPEN.text())),
                    query("SELECT [load_id], [load_key], [shard_count], [status] FROM [dbo].[deltafunnel_state_loads]"
                            + " WHERE [load_key] = N'" + name + "'"));
        }
        assertTrue(split >= 2, "tables whose rows really went to both shards: " + split);
        stopAndAssertNoArrowLeak();
    }

    @Test
    void fourShardsWithAFilterAndAJoinWithAWholeViewGiveTheUnshardedRows() throws Exception {
        String options = "delta.t=" + tablePath("delta-0.8.0-partitioned") + "&delta.w="
                + tablePath("table-with-dv-small") + "&shardView=t&batchSize=2"
                + "&query=SELECT t.value, t.year, t.month, w.value AS w FROM t JOIN w ON true WHERE t.day <> '0'";
        List<Seen> runs = shardsAndWhole("four", options, 4);
        Seen whole = runs.get(4);
        List<String> union = new ArrayList<>();
        int nonEmpty = 0;
        for (int i = 0; i < 4; i++) {
            union.addAll(runs.get(i).rows);
            nonEmpty += runs.get(i).rows.isEmpty() ? 0 : 1;
            assertEquals(i, shardOf(runs.get(i).headers.get(0)).shardIndex());
        }
        assertFalse(whole.rows.isEmpty());
        assertTrue(nonEmpty >= 2, "rows in " + nonEmpty + " of 4 shards");
        assertEquals(sorted(whole.rows), sorted(union));
        assertEquals(1, context.getComponent("deltafunnel", DeltaFunnelComponent.class).duckDbInstances().size(),
                "the 5 routes' runs, checks and plan took their connections from one shared DuckDB instance");
        stopAndAssertNoArrowLeak();
    }

    @Test
    void theFourShardRoutesOfALoadReadEachPinnedSnapshotOnce() throws Exception {
        // t sharded, w read whole by every shard: 4 shards take 2 snapshots each
        String options = "delta.t=" + tablePath("delta-0.8.0-partitioned") + "&delta.w="
                + tablePath("table-with-dv-small") + "&shardView=t&batchSize=2"
                + "&query=SELECT t.value, t.year, w.value AS w FROM t JOIN w ON true";
        io.deltafunnel.delta.SharedSnapshots shared = context.getComponent("deltafunnel", DeltaFunnelComponent.class)
                .sharedSnapshots();
        long reads = shared.reads();
        long taken = shared.shared();
        List<Seen> runs = shardsAndWhole("once", options, 4);
        List<String> union = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            union.addAll(runs.get(i).rows);
        }
        assertFalse(runs.get(4).rows.isEmpty());
        assertEquals(sorted(runs.get(4).rows), sorted(union), "the shards together deliver the unsharded rows");
        long read = shared.reads() - reads;
        // w: read by the first shard that needs it; t: offered by the plan maker, or read by a shard that was faster
        assertTrue(read >= 1 && read <= 2, read + " snapshots read for the load");
        assertEquals(8, read + shared.shared() - taken, "every one of the 8 takes was a read or a shared snapshot");
        assertEquals(0, shared.size(), "all 4 shards took both snapshots: nothing is kept after the load");
        stopAndAssertNoArrowLeak();
    }

    @Test
    void withoutTheSharedInstanceFourShardsStillGiveTheUnshardedRows() throws Exception {
        String options = "delta.t=" + tablePath("delta-0.8.0-partitioned") + "&batchSize=2&sharedDuckDb=false"
                + "&query=SELECT value, year, month FROM t&initSql=SET threads=1";
        List<Seen> runs = shardsAndWhole("own_instances", options, 4);
        List<String> union = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            union.addAll(runs.get(i).rows);
        }
        assertFalse(runs.get(4).rows.isEmpty());
        assertEquals(sorted(runs.get(4).rows), sorted(union));
        assertEquals(0, context.getComponent("deltafunnel", DeltaFunnelComponent.class).duckDbInstances().size(),
                "sharedDuckDb=false: every run started its own instance");
        stopAndAssertNoArrowLeak();
    }

    @Test
    void aDoneShardSendsOneEmptyBatchMarkedAlreadyDone() throws Exception {
        String uri = "deltafunnel:done_orders?delta.t=" + tablePath("delta-0.8.0-partitioned")
                + "&query=SELECT value, year FROM t&shardCount=2&shardIndex=1&loadId=job-7&stateDataSource=#stateDs";
        Seen first = start(uri);
        await(first);
        assertFalse(shardOf(first.headers.get(0)).alreadyDone());
        context.getRouteController().stopRoute(first.routeId);
        context.removeRoute(first.routeId);
        // the producer would commit the share with the shard's done row
        exec("UPDATE [dbo].[deltafunnel_state_shards] SET [status] = N'done' WHERE [load_id] = N'job-7'"
                + " AND [shard_index] = 1");
        Seen again = start(uri);
        await(again);
        assertEquals(1, again.headers.size(), "one batch");
        assertEquals(List.of(), again.rows, "no rows");
        assertEquals(List.of("value", "year"), again.columns.get(0), "with the query's schema");
        assertEquals(List.of(true), again.complete);
        ShardAssignment a = shardOf(again.headers.get(0));
        assertTrue(a.alreadyDone());
        assertEquals("job-7", a.loadId());
        assertEquals(1, a.shardIndex());
        stopAndAssertNoArrowLeak();
    }

    @Test
    void incrementalChangeShardsGiveTheUnshardedChangesAndCarryThePlansIncrementalRun() throws Exception {
        String name = "inc_cdf";
        List<Seen> runs = shardsAndWhole(name, "delta.t=" + tablePath("cdf-table")
                + "&query=SELECT * FROM t&incremental=changes&batchSize=4", 2);
        Seen whole = runs.get(2);
        List<String> union = new ArrayList<>(runs.get(0).rows);
        union.addAll(runs.get(1).rows);
        assertFalse(whole.rows.isEmpty());
        assertEquals(sorted(whole.rows), sorted(union));
        IncrementalLoad wholeLoad = (IncrementalLoad) whole.headers.get(0).get(DeltaFunnelConstants.INCREMENTAL);
        for (int i = 0; i < 2; i++) {
            for (Map<String, Object> h : runs.get(i).headers) {
                IncrementalLoad load = (IncrementalLoad) h.get(DeltaFunnelConstants.INCREMENTAL);
                assertNotNull(load, "the plan's incremental run travels with every exchange");
                assertEquals(name, load.stateKey());
                assertEquals(wholeLoad.sources(), load.sources());
                assertEquals(load.describe(), h.get(DeltaFunnelConstants.STATE));
                assertEquals(i, shardOf(h).shardIndex());
            }
        }
        assertEquals(runs.get(0).headers.get(0).get(DeltaFunnelConstants.INCREMENTAL),
                runs.get(1).headers.get(0).get(DeltaFunnelConstants.INCREMENTAL), "one plan for both shards");
        stopAndAssertNoArrowLeak();
    }

    /** The rows a run delivered: the sum of its batches' row counts. */
    private static long delivered(Seen run) {
        return run.headers.stream().mapToLong(h -> (Long) h.get(DeltaFunnelConstants.BATCH_ROWS)).sum();
    }

    /** The one value of header {@code name} on every exchange of {@code run} (asserting it is the same on all). */
    private static Object single(Seen run, String name) {
        Object first = run.headers.get(0).get(name);
        for (Map<String, Object> h : run.headers) {
            assertEquals(first, h.get(name), "every exchange of a run carries the same " + name);
        }
        return first;
    }

    @Test
    void eachShardsExpectedRowsAreTheRowsItDeliversDeletionVectorsSubtracted() throws Exception {
        int withDeletions = 0;
        for (String table : List.of("cdf-table-with-cdc-and-dvs", "checkpoint-v2-table", "table-with-dv-small",
                "table_with_column_mapping", "delta-2.2.0-partitioned-types")) {
            String name = "exp_" + table.replaceAll("[^A-Za-z0-9]", "_");
            List<Seen> runs = shardsAndWhole(name, "delta.t=" + tablePath(table) + "&query=SELECT * FROM t&batchSize=2",
                    3);
            long sum = 0;
            for (Seen run : runs) {
                Object expected = single(run, DeltaFunnelConstants.EXPECTED_ROWS);
                assertNotNull(expected, table + ": every file has stats.numRecords, so the rows are known up front");
                assertEquals(delivered(run), expected, table + ", route " + run.routeId
                        + ": the expected rows are the rows the run delivers");
            }
            Seen whole = runs.get(3);
            for (int i = 0; i < 3; i++) {
                sum += (Long) single(runs.get(i), DeltaFunnelConstants.EXPECTED_ROWS);
            }
            assertEquals(delivered(whole), sum, table + ": the shares add up to the table");
            // the tables with deletion vectors: counting numRecords alone would claim more rows than are live
            try (java.sql.Connection duck = io.deltafunnel.query.DuckDbConnections.open(
                    io.deltafunnel.query.DuckDbSettings.inMemory())) {
                var snapshot = io.deltafunnel.delta.DeltaLog.snapshot(duck, tablePath(table), null, null);
                long physical = snapshot.files().stream().mapToLong(f -> f.numRecords()).sum();
                if (snapshot.files().stream().anyMatch(f -> f.deletionVector() != null)) {
                    assertTrue(physical > delivered(whole), table + ": " + physical + " physical rows");
                    withDeletions++;
                }
            }
        }
        assertTrue(withDeletions >= 2, "tables with deletion vectors: " + withDeletions);
        stopAndAssertNoArrowLeak();
    }

    @Test
    void expectedRowsAreAbsentWhenTheLogCannotTellThem() throws Exception {
        // no stats.numRecords in the log
        List<Seen> noStats = shardsAndWhole("exp_nostats", "delta.t=" + tablePath("delta-0.8.0-partitioned")
                + "&query=SELECT * FROM t&batchSize=3", 2);
        // a query that is not the whole view
        List<Seen> filtered = shardsAndWhole("exp_filtered", "delta.t=" + tablePath("table_with_column_mapping")
                + "&query=SELECT * FROM t WHERE false&batchSize=3", 2);
        // an incremental run
        List<Seen> incremental = shardsAndWhole("exp_inc", "delta.t=" + tablePath("cdf-table")
                + "&query=SELECT * FROM t&incremental=changes&batchSize=4", 2);
        for (List<Seen> runs : List.of(noStats, filtered, incremental)) {
            for (Seen run : runs) {
                for (Map<String, Object> h : run.headers) {
                    assertFalse(h.containsKey(DeltaFunnelConstants.EXPECTED_ROWS), run.routeId + ": " + h);
                }
            }
        }
        assertFalse(delivered(noStats.get(2)) == 0, "the table without stats has rows");
        stopAndAssertNoArrowLeak();
    }

    private Throwable startFails(String options) {
        Exception e = assertThrows(Exception.class, () -> context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("deltafunnel:bad" + (routes++) + "?delta.t=" + tablePath("delta-0.8.0-partitioned")
                        + "&repeatCount=1&" + options).routeId("bad" + routes).to("log:x");
            }
        }));
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root;
    }

    @Test
    void badShardingOptionsAndUnsafeQueriesAreRefusedAtStart() {
        String ok = "query=SELECT * FROM t&stateDataSource=#stateDs&";
        assertTrue(startFails(ok + "shardCount=2").getMessage().contains("shardCount=2 needs shardIndex (0..1)"));
        assertTrue(startFails(ok + "shardCount=2&shardIndex=2").getMessage()
                .contains("shardIndex=2 is out of range 0..1 (shardCount=2)"));
        assertTrue(startFails(ok + "shardCount=0").getMessage().contains("shardCount must be 1 or more"));
        assertTrue(startFails(ok + "shardIndex=1").getMessage().contains("shardIndex=1 needs shardCount > 1"));
        assertTrue(startFails(ok + "shardCount=2&shardIndex=0&shardView=nope").getMessage()
                .contains("shardView=nope is not one of the delta.<view> tables [t]"));
        assertTrue(startFails(ok + "shardCount=2&shardIndex=0&delta.u=" + tablePath("table-with-dv-small"))
                .getMessage().contains("needs shardView when there is not exactly one delta.<view> table; the views"
                        + " are [t, u]"));
        assertTrue(startFails("query=SELECT * FROM t&shardCount=2&shardIndex=0").getMessage()
                .contains("needs stateDataSource (the target database, where the load plan lives) or loadPlanStore"));
        Throwable unsafe = startFails("query=SELECT year, count(*) FROM t GROUP BY year&stateDataSource=#stateDs"
                + "&shardCount=2&shardIndex=0");
        assertTrue(unsafe instanceof ShardUnsafeQueryException, unsafe.toString());
        assertTrue(unsafe.getMessage().contains("not shard-safe for the sharded view t: the query has GROUP BY"),
                unsafe.getMessage());
    }
}
