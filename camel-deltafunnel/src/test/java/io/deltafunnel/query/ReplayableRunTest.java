package io.deltafunnel.query;

import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.deltafunnel.handoff.DownstreamException;
import io.deltafunnel.handoff.ReplayRequest;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The replay state machine without Camel: attempts, run id, pins, the pause and a stop during it. */
class ReplayableRunTest {

    private record Replay(Duration delay, int attempt) implements ReplayRequest {
    }

    /** A preparer whose "latest" version grows with every first attempt, as a table that advances. */
    private static final class Advancing implements PinningPreparer {
        final List<Map<String, Long>> received = new ArrayList<>();
        long latest = 7;

        @Override
        public Map<String, Long> prepare(java.sql.Connection connection, Map<String, Long> pinned) throws Exception {
            received.add(pinned);
            long version = pinned.getOrDefault("t", latest++);
            try (Statement st = connection.createStatement()) {
                st.execute("CREATE TEMP VIEW t AS SELECT CAST(" + version + " AS BIGINT) AS v FROM range(5)");
            }
            return Map.of("t", version);
        }
    }

    private static ReplayableRun start(Advancing preparer, BufferAllocator allocator) {
        return ReplayableRun.start("test", (runId, pinned) -> QueryRun.open("test", DuckDbSettings.inMemory(),
                List.of(preparer), "SELECT v FROM t", 2, allocator, runId, pinned));
    }

    @Test
    void replayReopensTheSameRunWithTheFirstAttemptsPinsFromBatchZero() {
        Advancing preparer = new Advancing();
        List<Duration> waited = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator()) {
            try (ReplayableRun run = start(preparer, allocator)) {
                String runId = run.runId();
                assertEquals(1, run.attempt());
                try (ArrowBatch b = run.next()) {
                    assertEquals(0, b.index());
                }
                try (ArrowBatch b = run.next()) {
                    assertEquals(1, b.index());
                }
                preparer.latest = 99; // the table advanced meanwhile
                run.replay(new Replay(Duration.ofMillis(25), 2), 1, new RuntimeException("deadlock"), d -> {
                    waited.add(d);
                    return true;
                });
                assertEquals(runId, run.runId());
                assertEquals(2, run.attempt());
                assertEquals(Map.of("t", 7L), run.pinnedVersions());
                assertEquals(0, run.stats().inputBatches(), "statistics restart with the attempt");
                try (ArrowBatch b = run.next()) {
                    assertEquals(0, b.index(), "the replay starts from batch 0");
                    assertEquals(7L, ((org.apache.arrow.vector.BigIntVector) b.root().getVector(0)).get(0));
                }
            }
            assertEquals(List.of(Duration.ofMillis(25)), waited);
            assertEquals(List.of(Map.of(), Map.of("t", 7L)), preparer.received);
        }
    }

    @Test
    void aStopDuringThePauseAbandonsTheRunWithTheDeliveredStatistics() {
        Advancing preparer = new Advancing();
        RuntimeException failure = new RuntimeException("deadlock");
        try (BufferAllocator allocator = new RootAllocator()) {
            ReplayableRun run = start(preparer, allocator);
            try (ArrowBatch b = run.next()) {
                assertEquals(2, b.rowCount());
            }
            DownstreamException stopped = assertThrows(DownstreamException.class,
                    () -> run.replay(new Replay(Duration.ofSeconds(30), 2), 0, failure, d -> false));
            assertSame(failure, stopped.getCause());
            assertEquals(1, stopped.stats().inputBatches(), "what the failed attempt had delivered");
            assertTrue(stopped.getMessage().contains("stopped while waiting to replay run " + run.runId()),
                    stopped.getMessage());
            assertNull(run.current(), "the run is closed");
            assertEquals(1, preparer.received.size(), "not re-opened");
            run.close(); // idempotent
        }
    }
}
