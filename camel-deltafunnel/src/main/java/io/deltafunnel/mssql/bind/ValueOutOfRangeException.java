package io.deltafunnel.mssql.bind;

import io.deltafunnel.mssql.BulkLoadException;

/**
 * A value does not fit its target column (range, precision, scale, length, fractional seconds, NULL into NOT
 * NULL...). Raised by the validation of a batch before the batch is sent: nothing is ever rounded or truncated.
 */
public class ValueOutOfRangeException extends BulkLoadException {
    public ValueOutOfRangeException(String message, Context context) {
        super(message, context, null);
    }
}
