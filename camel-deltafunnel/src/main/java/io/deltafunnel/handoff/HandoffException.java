package io.deltafunnel.handoff;

import java.util.Objects;

/**
 * A terminal failure of a handoff run. It always carries the {@linkplain #stats() counters of the work
 * accepted before it}, so a caller never has to guess what reached the target.
 */
public class HandoffException extends RuntimeException {

    private final HandoffPhase phase;
    private final HandoffStats stats;

    public HandoffException(HandoffPhase phase, String message, HandoffStats stats, Throwable cause) {
        super(phase + " failed: " + message + " [" + Objects.requireNonNull(stats, "stats") + "]", cause);
        this.phase = phase;
        this.stats = stats;
    }

    /** The step that failed. */
    public HandoffPhase phase() {
        return phase;
    }

    /** The counters of the batches accepted before the failure. */
    public HandoffStats stats() {
        return stats;
    }
}
