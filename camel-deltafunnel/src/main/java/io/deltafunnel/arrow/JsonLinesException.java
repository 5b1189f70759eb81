package io.deltafunnel.arrow;

/** JSON lines could not be turned into an Arrow batch: names the line (1-based) and, where known, the column. */
public class JsonLinesException extends RuntimeException {

    private final int line;
    private final String column;

    public JsonLinesException(int line, String column, String problem, Throwable cause) {
        super("JSON lines, line " + line + (column == null ? "" : ", column " + column) + ": " + problem, cause);
        this.line = line;
        this.column = column;
    }

    /** The 1-based line that failed. */
    public int line() {
        return line;
    }

    /** The column (JSON key) that failed, or null when the whole line failed. */
    public String column() {
        return column;
    }
}
