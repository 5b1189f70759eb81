package io.deltafunnel.mssql;

/** What a run does to the target table. */
public enum WriteMode {
    /** Add the run's rows to the target. */
    APPEND,
    /** Empty the target at the start of the run, then add the run's rows. */
    TRUNCATE,
    /**
     * Load a staging table; when the run completes, replace the target's contents with it in one transaction
     * (readers see the old contents until the commit, the new ones after it).
     */
    REPLACE,
    /** Load a staging table; when the run completes, MERGE it into the target on the key columns. */
    MERGE,
    /**
     * Load a staging table; when the run completes, apply it to the target on the key columns as type 2 history
     * (slowly changing dimension): every version of a row is one target row with its validity period and a current
     * flag ({@link io.deltafunnel.mssql.session.HistoryStatement}).
     */
    HISTORY;

    /** Whether a run of this mode loads a staging table and changes the target only in its final step. */
    public boolean staged() {
        return this == REPLACE || this == MERGE || this == HISTORY;
    }
}
