package io.deltafunnel.query;

import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A replayed run keeps its id and hands its pinning preparers back what they chose the first time. */
class QueryRunReplayTest {

    @Test
    void pinsChosenByTheFirstAttemptAreHandedBackOnReplay() {
        List<Map<String, Long>> received = new CopyOnWriteArrayList<>();
        PinningPreparer delta = (connection, pinned) -> {
            received.add(pinned);
            long version = pinned.getOrDefault("orders", 42L); // "latest" is 42 the first time
            try (Statement st = connection.createStatement()) {
                st.execute("CREATE TEMP VIEW orders AS SELECT " + version + " AS v");
            }
            return Map.of("orders", version);
        };
        ConnectionPreparer plain = connection -> { };
        try (BufferAllocator allocator = new RootAllocator()) {
            String runId;
            Map<String, Long> pins;
            try (QueryRun first = QueryRun.open("test", DuckDbSettings.inMemory(), List.of(plain, delta),
                    "SELECT v FROM orders", 10, allocator)) {
                runId = first.runId();
                pins = first.pinnedVersions();
                try (ArrowBatch b = first.next()) {
                    assertEquals(1, b.rowCount());
                }
            }
            assertEquals(Map.of("orders", 42L), pins);
            try (QueryRun replay = QueryRun.open("test", DuckDbSettings.inMemory(), List.of(plain, delta),
                    "SELECT v FROM orders", 10, allocator, runId, pins)) {
                assertEquals(runId, replay.runId());
                assertEquals(pins, replay.pinnedVersions());
            }
            assertEquals(List.of(Map.of(), Map.of("orders", 42L)), received);
        }
    }
}
