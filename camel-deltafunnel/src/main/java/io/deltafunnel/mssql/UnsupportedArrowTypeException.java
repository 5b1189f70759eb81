package io.deltafunnel.mssql;

import org.apache.arrow.vector.types.pojo.ArrowType;

/** A source column has an Arrow type that cannot be written to SQL Server. Raised before any row is sent. */
public class UnsupportedArrowTypeException extends BulkLoadException {

    private final transient ArrowType arrowType;

    public UnsupportedArrowTypeException(String message, ArrowType arrowType, Context context) {
        super(message, context, null);
        this.arrowType = arrowType;
    }

    /** The offending Arrow type. */
    public ArrowType arrowType() {
        return arrowType;
    }
}
