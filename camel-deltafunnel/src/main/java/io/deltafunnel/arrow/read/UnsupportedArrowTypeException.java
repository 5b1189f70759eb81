package io.deltafunnel.arrow.read;

import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * A column has an Arrow type that has no reader here (so no SQL Server type and no Java or JSON value). Raised by
 * {@link ArrowColumnTypes#forField} before any value is read; it names the column. The producer reports it as a
 * {@code ColumnMappingException} with the target table, caused by this one.
 */
public class UnsupportedArrowTypeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String column;
    private final transient ArrowType arrowType;
    private final String reason;

    public UnsupportedArrowTypeException(String column, ArrowType arrowType, String reason) {
        super("column '" + column + "': " + reason);
        this.column = column;
        this.arrowType = arrowType;
        this.reason = reason;
    }

    /** The column's name. */
    public String column() {
        return column;
    }

    /** Why the type is unsupported, without the column prefix. */
    public String reason() {
        return reason;
    }

    /** The offending Arrow type. */
    public ArrowType arrowType() {
        return arrowType;
    }
}
