package io.deltafunnel.mssql;

import org.apache.arrow.vector.types.pojo.ArrowType;

/** A source column has an Arrow type that cannot be written to SQL Server. Raised before any row is sent. */
public class UnsupportedArrowTypeException extends BulkLoadException {

    private final transient ArrowType arrowType;
    private final String reason;

    public UnsupportedArrowTypeException(String reason, ArrowType arrowType, Context context) {
        super(reason, context, null);
        this.arrowType = arrowType;
        this.reason = reason;
    }

    /** Why the type is unsupported, without the context prefix. */
    public String reason() {
        return reason;
    }

    /** The offending Arrow type. */
    public ArrowType arrowType() {
        return arrowType;
    }
}
