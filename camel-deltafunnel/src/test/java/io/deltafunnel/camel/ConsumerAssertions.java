package io.deltafunnel.camel;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** Assertions shared by the consumer tests. */
final class ConsumerAssertions {

    private ConsumerAssertions() {
    }

    /**
     * Checks one run of 1,000,000 rows at batch size 65,536: 16 exchanges of 65,536 × 15 + 16,960 rows, exact
     * cumulative headers, one run id, and {@code CamelBatchComplete} only on the 16th.
     */
    static void assertMillionRowRun(List<BatchRecorder.Seen> seen) {
        assertEquals(16, seen.size());
        String runId = seen.get(0).runId();
        long rows = 0;
        for (int i = 0; i < 16; i++) {
            BatchRecorder.Seen s = seen.get(i);
            int expected = i < 15 ? 65536 : 16960;
            rows += expected;
            assertEquals(expected, s.rowCount(), "rows of batch " + i);
            assertEquals(expected, s.batchRows(), "CamelDeltaFunnelBatchRows of batch " + i);
            assertEquals(i + 1, s.inputBatches(), "CamelDeltaFunnelInputBatches of batch " + i);
            assertEquals(rows, s.inputRows(), "CamelDeltaFunnelInputRows of batch " + i);
            assertEquals(i, s.batchIndex(), "CamelBatchIndex of batch " + i);
            assertEquals(i == 15, s.complete(), "CamelBatchComplete of batch " + i);
            assertEquals(runId, s.runId(), "one run id per run");
            if (i == 15) {
                assertEquals(16, s.batchSize(), "CamelBatchSize on the last exchange");
            } else {
                assertNull(s.batchSize());
            }
        }
        assertEquals(1_000_000, rows);
    }
}
