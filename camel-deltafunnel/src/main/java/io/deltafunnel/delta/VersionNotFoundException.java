package io.deltafunnel.delta;

/** The requested version or timestamp cannot be read: it does not exist yet, or its commits are no longer in the log. */
public class VersionNotFoundException extends DeltaException {

    private static final long serialVersionUID = 1L;

    public VersionNotFoundException(String tablePath, String problem) {
        super(tablePath, problem);
    }
}
