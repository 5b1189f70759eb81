package io.deltafunnel.arrow;

/**
 * A dictionary-encoded column could not be decoded ({@link DictionaryColumns}): its dictionary is not available, an
 * index points outside the dictionary, or the column's layout cannot be rebuilt. The message names the column (a
 * path such as {@code tags[]} or {@code s.mood} when nested) and, where one is involved, the row of the batch.
 */
public class DictionaryDecodeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String column;
    private final int row;

    public DictionaryDecodeException(String column, int row, String problem) {
        super("dictionary-encoded column '" + column + "'" + (row >= 0 ? ", row " + row : "") + ": " + problem);
        this.column = column;
        this.row = row;
    }

    /** The column's path ({@code name}, {@code name[]}, {@code struct.child}). */
    public String column() {
        return column;
    }

    /** The row of the batch (0-based), or -1 when the failure concerns the column's schema. */
    public int row() {
        return row;
    }
}
