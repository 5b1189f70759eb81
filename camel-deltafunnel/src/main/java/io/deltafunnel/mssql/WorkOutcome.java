package io.deltafunnel.mssql;

/**
 * What happened to the work a failed run had already had accepted by SQL Server (the output counters of its
 * statistics).
 */
public enum WorkOutcome {
    /** The counted work is committed and visible in the target table (transaction=batch, append/truncate). */
    COMMITTED,
    /**
     * The counted work was rolled back (transaction=run), or was only ever in a staging table that has been
     * dropped (replace/merge): the target holds none of it.
     */
    ROLLED_BACK,
    /**
     * The connection failed while a commit was under way: whether that commit (transaction=run: the whole run;
     * transaction=batch: the batch being committed, which is not counted) took effect is unknown. Never retried,
     * because a retry could write the same rows twice.
     */
    IN_DOUBT
}
