package io.deltafunnel.routes;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sharding settings: which shards a process runs, where its index comes from, and what is refused. */
class AppSettingsShardingTest {

    private static AppSettings settings(Map<String, String> properties, Map<String, String> environment) {
        return AppSettings.from(properties::get, environment::get);
    }

    private static AppSettings settings(Map<String, String> properties) {
        return settings(properties, Map.of());
    }

    @Test
    void unshardedByDefaultEvenInsideAnIndexedJobOfOne() {
        AppSettings s = settings(Map.of());
        assertFalse(s.sharded());
        assertEquals(1, s.effectiveShardCount());
        assertEquals("", s.loadId());
        AppSettings job = settings(Map.of(), Map.of(AppSettings.JOB_COMPLETION_INDEX, "0"));
        assertFalse(job.sharded());
        assertEquals(List.of(0), job.shardIndexes());
    }

    @Test
    void shardsRunsEveryShardOfTheLoadInThisJvm() {
        AppSettings s = settings(Map.of("deltafunnel.shards", "4"), Map.of(AppSettings.JOB_COMPLETION_INDEX, "2"));
        assertTrue(s.sharded());
        assertEquals(4, s.effectiveShardCount());
        assertEquals(List.of(0, 1, 2, 3), s.shardIndexes());
        assertEquals("load-table-shard-3", AppSettings.shardRouteId(3));
        assertTrue(s.toString().contains("shards=4"), s.toString());
    }

    @Test
    void theKubernetesCompletionIndexIsTheShardIndex() {
        AppSettings s = settings(Map.of("deltafunnel.shard-count", "3", "deltafunnel.load-id", "orders-x7k2p"),
                Map.of(AppSettings.JOB_COMPLETION_INDEX, "2"));
        assertTrue(s.sharded());
        assertEquals(3, s.effectiveShardCount());
        assertEquals(2, s.shardIndex());
        assertEquals(List.of(2), s.shardIndexes());
        assertEquals("orders-x7k2p", s.loadId());
        assertTrue(s.toString().contains("shard=2 of 3"), s.toString());
        assertTrue(s.toString().contains("loadId=orders-x7k2p"), s.toString());
    }

    @Test
    void anExplicitShardIndexWinsOverTheCompletionIndex() {
        Map<String, String> p = new HashMap<>();
        p.put("deltafunnel.shard-count", "3");
        p.put("deltafunnel.shard-index", "1");
        assertEquals(1, settings(p, Map.of(AppSettings.JOB_COMPLETION_INDEX, "2")).shardIndex());
    }

    @Test
    void refusesWhatCannotWork() {
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of("deltafunnel.shard-count", "3"))).getMessage().contains("JOB_COMPLETION_INDEX"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of("deltafunnel.shard-count", "3"), Map.of(AppSettings.JOB_COMPLETION_INDEX, "3")))
                .getMessage().contains("out of range"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of("deltafunnel.shards", "2", "deltafunnel.shard-count", "2",
                        "deltafunnel.shard-index", "0"))).getMessage().contains("exclude each other"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of("deltafunnel.shards", "0"))).getMessage().contains("deltafunnel.shards"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of("deltafunnel.shards", "two"))).getMessage().contains("two"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of("deltafunnel.shard-count", "2"), Map.of(AppSettings.JOB_COMPLETION_INDEX, "-1")))
                .getMessage().contains("JOB_COMPLETION_INDEX"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of("deltafunnel.shards", "2", "deltafunnel.tables", "a=>dbo.a")))
                .getMessage().contains("deltafunnel.tables"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of("deltafunnel.shards", "2", "deltafunnel.routes", "my.yaml")))
                .getMessage().contains("deltafunnel.routes"));
    }

    @Test
    void runsRepeatOnlyTheBuiltInUnshardedOneShotJob() {
        assertEquals(1, settings(Map.of()).runs());
        assertEquals(5, settings(Map.of("deltafunnel.runs", "5")).runs());
        assertEquals(2, settings(Map.of("deltafunnel.runs", "2", "deltafunnel.tables", "a=>dbo.a")).runs());
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of("deltafunnel.runs", "0"))).getMessage().contains("deltafunnel.runs"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of("deltafunnel.runs", "2", "deltafunnel.shards", "2"))).getMessage()
                .contains("sharded"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of("deltafunnel.runs", "2", "deltafunnel.routes", "my.yaml"))).getMessage()
                .contains("deltafunnel.routes"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> settings(Map.of("deltafunnel.runs", "2", "deltafunnel.mode", "scheduled"))).getMessage()
                .contains("scheduled"));
    }
}
