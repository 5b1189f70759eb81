package io.deltafunnel.delta;

import java.sql.Connection;

/**
 * Where {@link DeltaViews} gets a table's snapshot: the log itself ({@link #LOG}), or a snapshot the shard routes of
 * one load share ({@link SharedSnapshots#forLoad}). Either way the snapshot is the one of {@code spec}'s version (or
 * timestamp, or the latest), read with the caller's DuckDB connection.
 */
@FunctionalInterface
public interface SnapshotSource {

    /** Reads {@code spec}'s snapshot from the table's log ({@link DeltaLog#snapshot}). */
    SnapshotSource LOG = (duckdb, spec) -> DeltaLog.snapshot(duckdb, spec.path(), spec.version(), spec.timestamp());

    /** The snapshot {@code spec} names; the connection stays the caller's. */
    DeltaSnapshot snapshot(Connection duckdb, DeltaTableSpec spec) throws DeltaException;
}
