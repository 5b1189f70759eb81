package io.deltafunnel.handoff;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HandoffStatsTest {

    @Test
    void statsStartAtZero() {
        HandoffStats stats = HandoffStats.ZERO;
        assertEquals(0, stats.inputBatches());
        assertEquals(0, stats.inputRows());
        assertEquals(0, stats.outputBatches());
        assertEquals(0, stats.outputRows());
    }

    @Test
    void inputAndOutputAreCountedSeparately() {
        HandoffStats stats = HandoffStats.ZERO.withInputBatch(5).withInputBatch(7).withOutputBatch(5);
        assertEquals(2, stats.inputBatches());
        assertEquals(12, stats.inputRows());
        assertEquals(1, stats.outputBatches());
        assertEquals(5, stats.outputRows());
    }

    @Test
    void emptyBatchesAreCountedAsBatches() {
        HandoffStats stats = HandoffStats.ZERO.withInputBatch(0).withOutputBatch(0).withInputBatch(2);
        assertEquals(2, stats.inputBatches());
        assertEquals(2, stats.inputRows());
        assertEquals(1, stats.outputBatches());
        assertEquals(0, stats.outputRows());
    }

    @Test
    void updatesSaturateInsteadOfOverflowing() {
        HandoffStats stats = new HandoffStats(Long.MAX_VALUE, Long.MAX_VALUE - 1, Long.MAX_VALUE, Long.MAX_VALUE - 3)
                .withInputBatch(2).withOutputBatch(Long.MAX_VALUE);
        assertEquals(Long.MAX_VALUE, stats.inputBatches());
        assertEquals(Long.MAX_VALUE, stats.inputRows());
        assertEquals(Long.MAX_VALUE, stats.outputBatches());
        assertEquals(Long.MAX_VALUE, stats.outputRows());
    }

    @Test
    void exactValuesBelowTheLimitAreKept() {
        assertEquals(42, HandoffStats.ZERO.withInputBatch(42).inputRows());
        assertEquals(Long.MAX_VALUE - 1, HandoffStats.saturatingAdd(Long.MAX_VALUE - 2, 1));
    }

    @Test
    void negativeCountsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> HandoffStats.ZERO.withInputBatch(-1));
        assertThrows(IllegalArgumentException.class, () -> new HandoffStats(-1, 0, 0, 0));
    }

    @Test
    void validationAcceptsPositiveAndRejectsZero() {
        assertEquals(3, BatchSizes.requirePositive("batchSize", 3));
        HandoffException zero = assertThrows(HandoffException.class, () -> BatchSizes.requirePositive("batchSize", 0));
        assertSame(HandoffPhase.CONFIGURATION, zero.phase());
        assertTrue(zero.getMessage().contains("batchSize"), zero.getMessage());
    }

    @Test
    void phaseDisplayNamesAreStable() {
        assertEquals("configuration", HandoffPhase.CONFIGURATION.toString());
        assertEquals("query setup", HandoffPhase.QUERY_SETUP.toString());
        assertEquals("upstream", HandoffPhase.UPSTREAM.toString());
        assertEquals("downstream", HandoffPhase.DOWNSTREAM.toString());
    }

    @Test
    void failuresCarryTheAcceptedStatsAndTheirCause() {
        HandoffStats accepted = HandoffStats.ZERO.withInputBatch(2).withOutputBatch(2);
        IllegalStateException cause = new IllegalStateException("consumer failed");
        HandoffException e = new DownstreamException("write rejected", accepted, cause);
        assertSame(accepted, e.stats());
        assertSame(cause, e.getCause());
        assertSame(HandoffPhase.DOWNSTREAM, e.phase());
        assertTrue(e.getMessage().contains("write rejected") && e.getMessage().contains("outputRows=2"), e.getMessage());
        assertInstanceOf(HandoffException.class, new UpstreamException("x", accepted, null));
        assertEquals(HandoffStats.ZERO, new QuerySetupException("bad", null).stats());
    }
}
