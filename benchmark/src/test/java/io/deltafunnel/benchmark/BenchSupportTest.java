package io.deltafunnel.benchmark;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The reports' statistics: medians, each run's figure less a part, and ratios paired by round. */
class BenchSupportTest {

    @Test
    void pairedRatiosAreTheMedianAndRangeOfEachRoundsRatio() {
        // round 2 ran slower for both (a drifting machine): its ratio is still 1.1
        double[] four = {110, 220, 121};
        double[] one = {100, 200, 100};
        BenchSupport.PairedRatios p = BenchSupport.PairedRatios.of(four, one);
        assertEquals(1.1, p.median(), 1e-12);
        assertEquals(1.1, p.min(), 1e-12);
        assertEquals(1.21, p.max(), 1e-12);
        assertEquals("1.10× [1.10–1.21×]", p.text());
        // the ratio of the medians pairs round 3's 121 with round 1's 100 … and is not what a round measured
        assertEquals(1.21, BenchSupport.median(four) / BenchSupport.median(one), 1e-12);
    }

    @Test
    void anEvenNumberOfRoundsTakesTheMeanOfTheMiddleTwo() {
        BenchSupport.PairedRatios p = BenchSupport.PairedRatios.of(new double[] {120, 100}, new double[] {100, 100});
        assertEquals(1.1, p.median(), 1e-12);
        assertEquals(1.0, p.min(), 1e-12);
        assertEquals(1.2, p.max(), 1e-12);
    }

    @Test
    void anUnknownFigureMakesThePairingUnknownAndUnequalRunsAreRefused() {
        BenchSupport.PairedRatios p = BenchSupport.PairedRatios.of(new double[] {1, Double.NaN},
                new double[] {1, 1});
        assertTrue(Double.isNaN(p.median()));
        assertEquals("-", p.text());
        assertEquals("-", BenchSupport.PairedRatios.of(new double[0], new double[0]).text());
        assertThrows(IllegalArgumentException.class,
                () -> BenchSupport.PairedRatios.of(new double[] {1, 2}, new double[] {1}));
    }

    @Test
    void differencesAreRunByRunAndTheirMedianIsLessJit() {
        assertArrayEquals(new double[] {90, 180, 95}, BenchSupport.differences(new double[] {100, 200, 100},
                new double[] {10, 20, 5}), 1e-12);
        assertEquals(95, BenchSupport.medianOfDifferences(new double[] {100, 200, 100}, new double[] {10, 20, 5}),
                1e-12);
    }
}
