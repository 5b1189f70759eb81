package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.semantics.SqlServerError;

/**
 * The one interface through which a test harness (fault injection, {@link io.deltafunnel.emulator.testing.Faults})
 * reaches the request path: the executor asks it before a SQL batch and at the start of a BULK_LOAD, and knows no
 * faults itself. Called on the session's thread.
 */
public interface RequestInterceptor {
    /**
     * Called before {@code sql} is parsed.
     *
     * @return the error to report instead of running the batch, or null to run it
     */
    SqlServerError beforeBatch(String sql);

    /** A BULK_LOAD begins: what to do to it, or null to run it undisturbed. */
    BulkLoadFault startBulkLoad();

    /** Holds the reply of a load whose fault is a {@linkplain BulkLoadFault#stall() stall} (its rows are applied). */
    void stallReply(BulkLoadFault fault, String table, int spid);

    /** What happens to one bulk load. */
    interface BulkLoadFault {
        /** The row count at which the load fails (or the connection drops). */
        long afterRows();

        /** The error number to fail with (its severity is 13 for 1205, otherwise 16). */
        int errorNumber();

        /** Drop the connection instead of failing with an error. */
        boolean dropConnection();

        /** Not a failure: the load's reply is held (see {@link RequestInterceptor#stallReply}). */
        boolean stall();
    }
}
