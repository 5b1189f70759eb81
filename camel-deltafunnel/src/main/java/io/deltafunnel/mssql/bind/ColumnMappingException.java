package io.deltafunnel.mssql.bind;

import io.deltafunnel.mssql.BulkLoadException;

/**
 * The source columns and the target table do not fit together: a source column without target column, a NOT NULL
 * target column without source, a type that cannot go into the target column's type, an unknown column in the
 * explicit mapping, or a missing target table. Raised before any row is sent.
 */
public class ColumnMappingException extends BulkLoadException {
    public ColumnMappingException(String message, Context context) {
        super(message, context, null);
    }

    /** A mapping failure caused by {@code cause} (e.g. an {@code UnsupportedArrowTypeException}). */
    public ColumnMappingException(String message, Context context, Throwable cause) {
        super(message, context, cause);
    }
}
