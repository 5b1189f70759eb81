package io.deltafunnel.incremental;

/** What {@code incremental=changes} does on a table whose change data feed is not enabled. */
public enum ChangeFeedFallback {
    /** Fail the poll with a clear error (the default). */
    FAIL,
    /** Load the table's snapshot instead (snapshot-incremental). */
    SNAPSHOT
}
