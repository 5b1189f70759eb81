package io.deltafunnel.query;

/**
 * A variant value could not be turned into JSON text: malformed binary encoding, a primitive type id the Parquet
 * Variant specification does not define, or a shredded layout that breaks the shredding rules. The message names the
 * column (its path inside nested types) and the row of the batch.
 */
public class VariantDecodeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String column;
    private final int row;

    public VariantDecodeException(String column, int row, String problem, Throwable cause) {
        super("variant column " + column + ", row " + row + " of the batch: " + problem, cause);
        this.column = column;
        this.row = row;
    }

    /** The column, with its path inside nested types ({@code s.v}, {@code arr[]}, {@code m{}}). */
    public String column() {
        return column;
    }

    /** The row index within its batch. */
    public int row() {
        return row;
    }
}
