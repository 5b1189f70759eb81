package io.deltafunnel.delta;

/**
 * A log file (commit, checkpoint, sidecar, deletion vector or {@code _last_checkpoint}) exists but cannot be
 * understood. {@link #file()} names it when one file is to blame, else it is null.
 */
public class CorruptLogException extends DeltaException {

    private static final long serialVersionUID = 1L;

    private final String file;

    public CorruptLogException(String tablePath, String file, String problem, Throwable cause) {
        super(tablePath, file == null ? problem : problem + ": " + file, cause);
        this.file = file;
    }

    public String file() {
        return file;
    }
}
