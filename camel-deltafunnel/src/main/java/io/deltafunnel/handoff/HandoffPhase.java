package io.deltafunnel.handoff;

/** The step of a handoff at which a failure happened. The display names are stable. */
public enum HandoffPhase {
    /** Caller-supplied configuration is invalid (for example a batch size of zero). */
    CONFIGURATION("configuration"),
    /** The source query could not be started (bad SQL, missing file, unknown extension, Delta snapshot error). */
    QUERY_SETUP("query setup"),
    /** The source stream failed while producing a later batch. */
    UPSTREAM("upstream"),
    /** The downstream writer rejected a batch. */
    DOWNSTREAM("downstream");

    private final String displayName;

    HandoffPhase(String displayName) {
        this.displayName = displayName;
    }

    @Override
    public String toString() {
        return displayName;
    }
}
