package io.deltafunnel.delta;

/** A data file (or deletion-vector file) listed by the snapshot does not exist. {@link #file()} names it. */
public class MissingDataFileException extends DeltaException {

    private static final long serialVersionUID = 1L;

    private final String file;

    public MissingDataFileException(String tablePath, String file, Throwable cause) {
        super(tablePath, "file listed in the Delta log does not exist (removed by VACUUM or copied incompletely?): " + file,
                cause);
        this.file = file;
    }

    public String file() {
        return file;
    }
}
