package io.deltafunnel.handoff;

import java.time.Duration;

/**
 * Marker a downstream failure implements to ask the source to <em>replay the whole run</em>: the writer has rolled
 * back everything it had written for the run (nothing of it is left in the target) and can take the run again from
 * its first batch, under the same run id.
 *
 * <p>Plain Java on purpose: the writer ({@code deltafunnel-mssql:}) throws it, the source ({@code deltafunnel:})
 * looks for it in the failed exchange's exception chain ({@link #find(Throwable)}), and neither depends on the other.
 * The writer decides whether a failure deserves a replay (transient, attempts left) and how long to wait; the source
 * only obeys. A source that cannot replay treats it as an ordinary failure, which is safe: the run is rolled back.
 */
public interface ReplayRequest {

    /** How long the source should wait before it re-opens the run. Never negative. */
    Duration delay();

    /** The 1-based number of the attempt the replay will be: 2 for the first replay, 3 for the second, …. */
    int attempt();

    /** The first {@code ReplayRequest} in {@code failure}'s cause chain, or null when there is none. */
    static ReplayRequest find(Throwable failure) {
        int depth = 0;
        for (Throwable t = failure; t != null && depth < 32; t = t.getCause() == t ? null : t.getCause(), depth++) {
            if (t instanceof ReplayRequest request) {
                return request;
            }
        }
        return null;
    }
}
