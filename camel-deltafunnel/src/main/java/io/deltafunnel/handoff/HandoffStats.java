package io.deltafunnel.handoff;

/**
 * Per-run handoff counters, kept separately for the two sides of the handoff.
 *
 * <ul>
 *   <li>{@code inputBatches} / {@code inputRows}: what the source query produced (counted by the consumer).</li>
 *   <li>{@code outputBatches} / {@code outputRows}: what SQL Server accepted (counted by the producer).</li>
 *   <li>{@code rejectedRows}: the input rows the producer set aside instead of loading ({@code maxRejectedRows});
 *       for a written batch, its input rows = its output rows + its rejected rows.</li>
 * </ul>
 *
 * <p>Keeping the two sides apart lets a failure report only the work that was really accepted
 * downstream. Counters saturate at {@link Long#MAX_VALUE} instead of overflowing. Empty batches are
 * counted as batches (with zero rows). Instances are immutable; the {@code with…} methods return new
 * values.
 */
public record HandoffStats(long inputBatches, long inputRows, long outputBatches, long outputRows,
        long rejectedRows) {

    /** All counters at zero: the start of every run. */
    public static final HandoffStats ZERO = new HandoffStats(0, 0, 0, 0, 0);

    /** Counters without rejected rows. */
    public HandoffStats(long inputBatches, long inputRows, long outputBatches, long outputRows) {
        this(inputBatches, inputRows, outputBatches, outputRows, 0);
    }

    public HandoffStats {
        if (inputBatches < 0 || inputRows < 0 || outputBatches < 0 || outputRows < 0 || rejectedRows < 0) {
            throw new IllegalArgumentException("handoff counters cannot be negative: " + inputBatches + ", "
                    + inputRows + ", " + outputBatches + ", " + outputRows + ", " + rejectedRows);
        }
    }

    /** Records one batch of {@code rows} rows observed from the source query. */
    public HandoffStats withInputBatch(long rows) {
        return new HandoffStats(saturatingAdd(inputBatches, 1), saturatingAdd(inputRows, checkRows(rows)),
                outputBatches, outputRows, rejectedRows);
    }

    /** Records one batch of {@code rows} rows accepted by the downstream writer. */
    public HandoffStats withOutputBatch(long rows) {
        return new HandoffStats(inputBatches, inputRows, saturatingAdd(outputBatches, 1),
                saturatingAdd(outputRows, checkRows(rows)), rejectedRows);
    }

    /** Records {@code rows} input rows set aside (rejected) instead of loaded. */
    public HandoffStats withRejectedRows(long rows) {
        return new HandoffStats(inputBatches, inputRows, outputBatches, outputRows,
                saturatingAdd(rejectedRows, checkRows(rows)));
    }

    /** Saturating addition of two non-negative counters. */
    static long saturatingAdd(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    private static long checkRows(long rows) {
        if (rows < 0) {
            throw new IllegalArgumentException("a batch cannot have a negative row count: " + rows);
        }
        return rows;
    }

    @Override
    public String toString() {
        return "inputBatches=" + inputBatches + ", inputRows=" + inputRows + ", outputBatches=" + outputBatches
                + ", outputRows=" + outputRows + (rejectedRows == 0 ? "" : ", rejectedRows=" + rejectedRows);
    }
}
