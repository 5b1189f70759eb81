package io.deltafunnel.handoff;

/** The source query could not be started: nothing was produced, all counters are zero. */
public class QuerySetupException extends HandoffException {
    public QuerySetupException(String message, Throwable cause) {
        super(HandoffPhase.QUERY_SETUP, message, HandoffStats.ZERO, cause);
    }
}
