package io.deltafunnel.delta;

/** A commit file the snapshot needs is absent from {@code _delta_log/} (a gap in the log). {@link #file()} names it. */
public class MissingCommitException extends DeltaException {

    private static final long serialVersionUID = 1L;

    private final String file;

    public MissingCommitException(String tablePath, String file, String problem) {
        super(tablePath, problem + ": " + file);
        this.file = file;
    }

    public String file() {
        return file;
    }
}
