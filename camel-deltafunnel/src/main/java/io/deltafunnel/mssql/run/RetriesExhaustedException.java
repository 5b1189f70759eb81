package io.deltafunnel.mssql.run;

import io.deltafunnel.mssql.BulkLoadException;

/**
 * A transient failure outlived the retry policy: the run (or, with {@code transaction=batch}, the batch) failed on
 * every one of {@link #attempts()} attempts. The {@linkplain #getCause() cause} is the last attempt's failure;
 * {@link #stats()} and {@link #outcome()} describe what the last attempt left.
 */
public class RetriesExhaustedException extends BulkLoadException {

    private final int attempts;

    RetriesExhaustedException(BulkLoadException last, int attempts) {
        super("gave up after " + attempts + " attempts: " + last.detail(), last.context(), last);
        this.attempts = attempts;
    }

    /** Not permanent: the failure was transient, only the attempts ran out; a later run may succeed. */
    @Override
    public boolean permanent() {
        return false;
    }

    /** How many attempts were made, the first included. */
    public int attempts() {
        return attempts;
    }
}
