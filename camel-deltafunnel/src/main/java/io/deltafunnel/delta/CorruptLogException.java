package io.deltafunnel.delta;

/**
 * A log file (commit, checkpoint, sidecar, deletion vector or {@code _last_checkpoint}) exists but cannot be
 * understood. {@link #file()} names it when one file is to blame, else it is null; when one action is to blame,
 * {@link #line()} is its line in a JSON file or its row in a Parquet checkpoint (1-based) and {@link #field()} the
 * offending field as a dotted path starting with the action name ({@code add.size}).
 */
public class CorruptLogException extends DeltaException {

    private static final long serialVersionUID = 1L;

    private final String file;
    private final long line;
    private final String field;

    public CorruptLogException(String tablePath, String file, String problem, Throwable cause) {
        this(tablePath, file, 0, null, problem, cause);
    }

    /**
     * @param line  1-based line (JSON) or row (Parquet) of the offending action, 0 when not known
     * @param field the offending field, or null
     */
    public CorruptLogException(String tablePath, String file, long line, String field, String problem, Throwable cause) {
        super(tablePath, file == null ? problem : problem + ": " + file, cause);
        this.file = file;
        this.line = line;
        this.field = field;
    }

    public String file() {
        return file;
    }

    /** 1-based line (JSON commit or manifest) or row (Parquet checkpoint or sidecar); 0 when not about one action. */
    public long line() {
        return line;
    }

    /** The offending field ({@code add.partitionValues}), or null. */
    public String field() {
        return field;
    }
}
