package io.deltafunnel.mssql.shard;

import java.sql.SQLException;

import io.deltafunnel.mssql.BulkLoadException;

/**
 * A shard's run does not hold (or could not get) the shard's application lock. Transient, decided by the lock's
 * outcome and never by message text: the cause is an {@link SQLException} whose error number (1222, lock request time
 * out; 1205, deadlock victim) or SQLState (08S01, the session that held the lock is gone) {@link
 * io.deltafunnel.mssql.SqlServerErrors} classifies as transient, so that the run is replayed. Nothing of the share is
 * committed when it is thrown.
 */
public final class ShardLockException extends BulkLoadException {

    private static final long serialVersionUID = 1L;

    /** Why the lock is not held. */
    public enum Reason {
        /** {@code sp_getapplock} returned -1: not granted within {@code shardClaimTimeout}. */
        NOT_GRANTED,
        /** {@code sp_getapplock} returned -3: chosen as a deadlock victim. */
        DEADLOCK,
        /** {@code APPLOCK_MODE} before the share's commit: the session no longer holds the lock (reconnected). */
        LOST
    }

    private final transient Reason reason;
    private final String resource;

    ShardLockException(Reason reason, String resource, String message, Context context) {
        super(message, context.withErrorNumber(number(reason)), cause(reason, message));
        this.reason = reason;
        this.resource = resource;
    }

    private static Integer number(Reason reason) {
        return switch (reason) {
            case NOT_GRANTED -> 1222;
            case DEADLOCK -> 1205;
            case LOST -> null;
        };
    }

    private static SQLException cause(Reason reason, String message) {
        return switch (reason) {
            case NOT_GRANTED -> new SQLException(message, "HY000", 1222);
            case DEADLOCK -> new SQLException(message, "40001", 1205);
            // the session that held the lock has ended: a connection failure, as the driver reports one
            case LOST -> new SQLException(message, "08S01", 0);
        };
    }

    public Reason reason() {
        return reason;
    }

    /** The application lock's resource name, {@code deltafunnel:<load id>:<shard index>}. */
    public String resource() {
        return resource;
    }
}
