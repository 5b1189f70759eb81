package io.deltafunnel.mssql;

/**
 * The source columns and the target table do not fit together: a source column without target column, a NOT NULL
 * target column without source, a type that cannot go into the target column's type, an unknown column in the
 * explicit mapping, or a missing target table. Raised before any row is sent.
 */
public class ColumnMappingException extends BulkLoadException {
    public ColumnMappingException(String message, Context context) {
        super(message, context, null);
    }
}
