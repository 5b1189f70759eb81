package io.deltafunnel.mssql.reject;

import io.deltafunnel.mssql.BulkLoadException;

/**
 * A run found more bad rows than {@code maxRejectedRows} allows: it fails, and nothing of it is kept (the usual
 * atomicity: rolled back, no reject rows either). Permanent: the same data fails the same way.
 */
public final class TooManyRejectedRowsException extends BulkLoadException {

    private static final long serialVersionUID = 1L;

    private final int limit;

    public TooManyRejectedRowsException(String message, int limit, BulkLoadException.Context context) {
        super(message, context, null);
        this.limit = limit;
    }

    /** The run's {@code maxRejectedRows}. */
    public int limit() {
        return limit;
    }
}
