package io.deltafunnel.delta;

/**
 * Base of every failure raised while reading a Delta table's log or registering its view. The message always names
 * the table path and the problem; subclasses say which kind of problem it is so that callers can react to it
 * (for example retry on {@link MissingDataFileException} after a concurrent VACUUM, or fail fast on
 * {@link UnsupportedFeatureException}).
 */
public class DeltaException extends Exception {

    private static final long serialVersionUID = 1L;

    private final String tablePath;

    public DeltaException(String tablePath, String problem) {
        this(tablePath, problem, null);
    }

    public DeltaException(String tablePath, String problem, Throwable cause) {
        super("Delta table " + tablePath + ": " + problem, cause);
        this.tablePath = tablePath;
    }

    /** The table path as given by the caller (normalized: no trailing slash). */
    public String tablePath() {
        return tablePath;
    }
}
