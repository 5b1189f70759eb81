package io.deltafunnel.mssql;

/** When the work of a run is committed. */
public enum TransactionMode {
    /** All batches of a run commit together when its last batch has been written; any failure rolls back all. */
    RUN,
    /** Each batch commits on its own. */
    BATCH
}
