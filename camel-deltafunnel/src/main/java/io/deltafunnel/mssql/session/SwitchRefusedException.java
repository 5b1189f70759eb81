package io.deltafunnel.mssql.session;

import io.deltafunnel.mssql.BulkLoadException;

/**
 * {@code replaceStrategy=switch} was asked for but the target cannot be replaced by {@code ALTER TABLE ... SWITCH}
 * (the message names the table and every reason). Raised before any row reaches the target; permanent.
 */
public class SwitchRefusedException extends BulkLoadException {
    public SwitchRefusedException(String message, Context context, Throwable cause) {
        super(message, context, cause);
    }
}
