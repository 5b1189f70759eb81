package io.deltafunnel.camel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.deltafunnel.delta.DeltaConformanceTest;
import io.deltafunnel.handoff.ShardAssignment;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;
import io.deltafunnel.sample.SampleDeltaWriter;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sharded loads end to end, consumer and producer together, against the emulator: N = 1, 2 and 4 shard routes
 * (running at once, each its own {@code deltafunnel:} consumer and {@code deltafunnel-mssql:} producer) append
 * exactly the rows of an unsharded load, and the load's final step ran once (the load row is done, by one shard,
 * with the rows of the whole load; every shard row is done).
 */
class ShardedLoadRouteTest extends DeltaRouteTestSupport {

    @TempDir
    Path dir;

    private String producer(String target, String options) {
        return "deltafunnel-mssql:dbo." + target + "?url=RAW(" + jdbcUrl() + ")&username=" + user()
                + "&password=RAW(" + password() + ")&" + options;
    }

    /** Runs the routes (at once) and waits until each has ended its run, with no failure. */
    private void run(List<String[]> consumerAndProducer) throws Exception {
        List<OneRunRoutes.Pair> pairs = consumerAndProducer.stream().map(uris -> new OneRunRoutes.Pair(uris[0]
                + "&repeatCount=1&initialDelay=0&stateDataSource=#stateDs", uris[1])).toList();
        assertEquals(List.of(), runs.runPairs(pairs, 120).failures());
    }

    private List<String> rows(String target) throws Exception {
        List<String> rows = new ArrayList<>();
        for (List<Object> r : query("SELECT * FROM [dbo].[" + target + "]")) {
            rows.add(r.toString());
        }
        rows.sort(null);
        return rows;
    }

    private void shardedAppendEqualsUnsharded(String name, String consumerOptions) throws Exception {
        String reference = table + "_" + name + "_ref";
        dropIfExists(reference);
        run(List.<String[]>of(new String[] {"deltafunnel:" + name + "_ref?" + consumerOptions,
                producer(reference, "writeMode=append&createTable=true")}));
        List<String> expected = rows(reference);
        assertTrue(expected.size() > 3, name + ": " + expected.size() + " rows");
        for (int n : new int[] {1, 2, 4}) {
            String target = table + "_" + name + "_" + n;
            dropIfExists(target);
            String endpoint = name + "_n" + n;
            List<String[]> shards = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                shards.add(new String[] {"deltafunnel:" + endpoint + "?" + consumerOptions + "&shardCount=" + n
                        + "&shardIndex=" + i, producer(target, "writeMode=append&createTable=true")});
            }
            run(shards);
            assertEquals(expected, rows(target), name + " N=" + n + ": the shards appended exactly the rows of an"
                    + " unsharded load");
            if (n > 1) {
                List<List<Object>> loads = query("SELECT [load_id], [status], [final_rows], [finished_by],"
                        + " [write_mode] FROM [dbo].[deltafunnel_state_loads] WHERE [load_key] = N'" + endpoint + "'");
                assertEquals(1, loads.size(), "one load");
                assertEquals("done", loads.get(0).get(1), "the final step ran");
                assertEquals((long) expected.size(), ((Number) loads.get(0).get(2)).longValue(), "final rows");
                int finishedBy = ((Number) loads.get(0).get(3)).intValue();
                assertTrue(finishedBy >= 0 && finishedBy < n, "finished by a shard: " + finishedBy);
                assertEquals(List.of(List.of(n)), query("SELECT COUNT(*) FROM [dbo].[deltafunnel_state_shards]"
                        + " WHERE [load_id] = N'" + loads.get(0).get(0) + "' AND [status] = N'done'"));
                List<List<Object>> staging = query("SELECT name FROM sys.tables WHERE name LIKE N'"
                        + target + "__df_load_%'");
                assertEquals(List.of(), staging, "the staging heap was dropped");
                assertEquals(List.of(List.of(target)), query("SELECT name FROM sys.tables WHERE name = N'" + target
                        + "'"), "the catalog query sees the target (so the staging check above can see tables)");
            }
        }
    }

    @Test
    void oneTwoAndFourShardsAppendExactlyTheRowsOfAnUnshardedLoad() throws Exception {
        Path orders = dir.resolve("orders");
        try (Connection duck = DuckDbConnections.open(DuckDbSettings.inMemory())) {
            SampleDeltaWriter w = new SampleDeltaWriter(duck, orders);
            w.append("SELECT i::INTEGER AS id, 'n' || i AS name, i * 1.5 AS amount FROM range(400) t(i)", 8);
            w.append("SELECT (1000 + i)::INTEGER AS id, 'm' || i AS name, i * 2.5 AS amount FROM range(150) t(i)", 3);
        }
        shardedAppendEqualsUnsharded("orders", "delta.t=" + orders + "&query=SELECT * FROM t WHERE id % 7 <> 3"
                + "&batchSize=64");
        Path corpus = DeltaConformanceTest.corpus().resolve("tables").resolve("delta-0.8.0-partitioned");
        Assumptions.assumeTrue(Files.isDirectory(corpus), "Delta corpus not found");
        shardedAppendEqualsUnsharded("parts", "delta.t=" + corpus + "&query=SELECT * FROM t&batchSize=2");
        stopAndAssertNoArrowLeak();
    }

    @Test
    void incrementalChangesMergedByOneTwoAndFourShardsEqualAnUnshardedLoad() throws Exception {
        Path cdf = DeltaConformanceTest.corpus().resolve("tables").resolve("cdf-table");
        Assumptions.assumeTrue(Files.isDirectory(cdf), "Delta corpus not found");
        String merge = "writeMode=merge&keyColumns=id&createTable=true";
        String reference = table + "_cdf_ref";
        dropIfExists(reference);
        // an initial load at version 1, then the changes (1, latest]: inserts, updates and deletes
        for (String pin : List.of("&deltaVersion.t=1", "")) {
            run(List.<String[]>of(new String[] {"deltafunnel:cdf_ref?delta.t=" + cdf + "&query=SELECT * FROM t"
                    + "&incremental=changes&batchSize=3&stateKey=cdf_ref" + pin, producer(reference, merge)}));
        }
        List<String> expected = rows(reference);
        assertTrue(expected.size() >= 5, expected.toString());
        for (int n : new int[] {1, 2, 4}) {
            String target = table + "_cdf_" + n;
            dropIfExists(target);
            for (String pin : List.of("&deltaVersion.t=1", "")) {
                List<String[]> shards = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    shards.add(new String[] {"deltafunnel:cdf_n" + n + "?delta.t=" + cdf + "&query=SELECT * FROM t"
                            + "&incremental=changes&batchSize=3&shardCount=" + n + "&shardIndex=" + i + pin
                            // N = 1 is not sharded: its state key is the route id unless set (sharded: the name)
                            + (n == 1 ? "&stateKey=cdf_n1" : ""),
                            producer(target, merge)});
                }
                run(shards);
            }
            assertEquals(expected, rows(target), "N=" + n + ": the merged changes equal the unsharded load");
            assertEquals(query("SELECT [source], [version] FROM [dbo].[deltafunnel_state] WHERE [route] ="
                    + " N'cdf_ref'"), query("SELECT [source], [version] FROM [dbo].[deltafunnel_state]"
                    + " WHERE [route] = N'cdf_n" + n + "'"), "N=" + n + ": the state advanced as unsharded");
        }
        stopAndAssertNoArrowLeak();
    }

    @Test
    void theShardHeaderReachesTheProducerAndARerunOfADoneShardWritesNothing() throws Exception {
        Path orders = dir.resolve("small");
        try (Connection duck = DuckDbConnections.open(DuckDbSettings.inMemory())) {
            new SampleDeltaWriter(duck, orders).append("SELECT i::INTEGER AS id FROM range(100) t(i)", 6);
        }
        String target = table + "_rerun";
        dropIfExists(target);
        List<String[]> shards = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            shards.add(new String[] {"deltafunnel:rerun?delta.t=" + orders + "&query=SELECT * FROM t&loadId=job-1"
                    + "&shardCount=2&shardIndex=" + i, producer(target, "writeMode=append&createTable=true")});
        }
        run(shards);
        assertEquals(100, count(target));
        List<ShardAssignment> seen = new CopyOnWriteArrayList<>();
        List<Object> statuses = new CopyOnWriteArrayList<>();
        CountDownLatch ended = new CountDownLatch(1);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("deltafunnel:rerun?delta.t=" + orders + "&query=SELECT * FROM t&loadId=job-1&shardCount=2"
                        + "&shardIndex=0&repeatCount=1&initialDelay=0&stateDataSource=#stateDs").routeId("again")
                        .to(producer(target, "writeMode=append&createTable=true"))
                        .process(e -> {
                            seen.add(e.getIn().getHeader(DeltaFunnelConstants.SHARD, ShardAssignment.class));
                            statuses.add(e.getIn().getHeader(DeltaFunnelConstants.LOAD_STATUS));
                            ended.countDown();
                        });
            }
        });
        assertTrue(ended.await(60, TimeUnit.SECONDS), "the re-run did not end");
        assertEquals(1, seen.size(), "one (empty) exchange");
        assertTrue(seen.get(0).alreadyDone());
        assertEquals("already-done", statuses.get(0));
        assertEquals(100, count(target), "nothing written twice");
        stopAndAssertNoArrowLeak();
    }
}
