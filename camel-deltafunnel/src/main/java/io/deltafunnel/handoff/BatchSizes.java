package io.deltafunnel.handoff;

/** Validation of size-like options shared by both sides of the handoff. */
public final class BatchSizes {
    private BatchSizes() {
    }

    /**
     * Returns {@code value} when it is strictly positive.
     *
     * @throws HandoffException in phase {@link HandoffPhase#CONFIGURATION}, naming the option
     */
    public static int requirePositive(String option, long value) {
        if (value <= 0 || value > Integer.MAX_VALUE) {
            throw new HandoffException(HandoffPhase.CONFIGURATION,
                    option + " must be between 1 and " + Integer.MAX_VALUE + ", got " + value, HandoffStats.ZERO, null);
        }
        return (int) value;
    }
}
