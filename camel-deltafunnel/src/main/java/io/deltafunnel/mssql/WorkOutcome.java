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
    ROLLED_BACK
}
