package io.deltafunnel.mssql.state;

import io.deltafunnel.mssql.BulkLoadException;

/**
 * The state table no longer holds the version a run was planned from: the run was already applied (for example by an
 * earlier attempt whose commit outcome was in doubt) or another writer moved the state. The run is rolled back and
 * not retried, so that nothing is applied twice.
 */
public class StateConflictException extends BulkLoadException {
    public StateConflictException(String message, Context context) {
        super(message, context, null);
    }
}
