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

    /**
     * True when running the same input again later cannot do better (bad data, a missing table, bad SQL,
     * configuration, a permanent SQL Server error); false when a later run may succeed (a transient SQL Server
     * failure whose retries ran out). A handoff failure that merely wraps another one (the consumer's
     * {@link DownstreamException} around the producer's failure) answers for the first handoff failure in its cause
     * chain; one without any is permanent. Subclasses that know better (the SQL Server producer's failures, which
     * decide by SQL Server error number) override this.
     */
    public boolean permanent() {
        for (Throwable t = getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            if (t instanceof HandoffException h) {
                return h.permanent();
            }
        }
        return true;
    }

    /**
     * Whether {@code failure} is permanent ({@link #permanent()}): decided by the first {@link HandoffException} in
     * its cause chain; a failure without one (another step of the route broke) is permanent.
     */
    public static boolean permanent(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof HandoffException h) {
                return h.permanent();
            }
        }
        return true;
    }
}
