package io.deltafunnel.mssql.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The {@code [status]} texts of the load tables are stored data (docs/sharding.md, {@link ShardTables}): loads and
 * shards written by an earlier version must read back as the same statuses, so the texts never change.
 */
class RowStatusTest {

    @Test
    void loadRowStatusesKeepTheirStoredText() {
        assertEquals(List.of("open", "done", "abandoned"),
                Arrays.stream(LoadRowStatus.values()).map(LoadRowStatus::text).toList());
        for (LoadRowStatus s : LoadRowStatus.values()) {
            assertEquals(s, LoadRowStatus.of(s.text()));
            assertEquals(s.text(), s.toString());
        }
        assertNull(LoadRowStatus.of(null), "no row, no status");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> LoadRowStatus.of("OPEN"));
        assertTrue(e.getMessage().contains("'OPEN'") && e.getMessage().contains("loads table"), e.getMessage());
    }

    @Test
    void shardRowStatusesKeepTheirStoredText() {
        assertEquals(List.of("pending", "done"),
                Arrays.stream(ShardRowStatus.values()).map(ShardRowStatus::text).toList());
        for (ShardRowStatus s : ShardRowStatus.values()) {
            assertEquals(s, ShardRowStatus.of(s.text()));
        }
        assertNull(ShardRowStatus.of(null));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ShardRowStatus.of("open"));
        assertTrue(e.getMessage().contains("'open'") && e.getMessage().contains("shards table"), e.getMessage());
    }
}
