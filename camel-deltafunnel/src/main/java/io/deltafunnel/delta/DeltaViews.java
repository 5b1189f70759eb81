package io.deltafunnel.delta;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers Delta table snapshots as DuckDB TEMP views on a caller-owned connection, so that a SQL query on that same
 * connection can read them by name. Each view shows the table's logical columns (variants as the {@link VariantStruct} the reader decodes) with
 * deletion vectors, column mapping, partition values and type widening applied. See DELTA.md.
 */
public final class DeltaViews {

    private static final Logger LOG = LoggerFactory.getLogger(DeltaViews.class);

    private DeltaViews() {
    }

    /**
     * Resolves each spec's snapshot and creates (or replaces) a TEMP view named {@code spec.view()} on the connection.
     * Returns the snapshots, in order. Fails on the first spec that cannot be registered; views registered before it
     * stay registered.
     */
    public static List<DeltaSnapshot> register(Connection duckdb, List<DeltaTableSpec> specs) throws DeltaException {
        return register(duckdb, specs, null, null);
    }

    /**
     * As {@link #register(Connection, List)}, but the view {@code shardView} shows only the files {@code shard} reads
     * (one shard of a sharded load); the other views are whole. Returns the snapshots, the sharded one reduced to its
     * shard's files.
     */
    public static List<DeltaSnapshot> register(Connection duckdb, List<DeltaTableSpec> specs, String shardView,
            ShardFilter shard) throws DeltaException {
        return register(duckdb, specs, shardView, shard, SnapshotSource.LOG, true);
    }

    /**
     * As {@link #register(Connection, List, String, ShardFilter)}, with each spec's snapshot from {@code source} (the
     * snapshots the shard routes of one load share, {@link SharedSnapshots#forLoad}).
     */
    public static List<DeltaSnapshot> register(Connection duckdb, List<DeltaTableSpec> specs, String shardView,
            ShardFilter shard, SnapshotSource source) throws DeltaException {
        return register(duckdb, specs, shardView, shard, source, true);
    }

    /**
     * As {@link #register(Connection, List)}, but logs the registration at debug level only: for a private look at
     * a table beside the run that reads it (an application counting the rows for its progress percentage), so that
     * a run's log says once which views it registered.
     */
    public static List<DeltaSnapshot> registerQuietly(Connection duckdb, List<DeltaTableSpec> specs)
            throws DeltaException {
        return register(duckdb, specs, null, null, SnapshotSource.LOG, false);
    }

    private static List<DeltaSnapshot> register(Connection duckdb, List<DeltaTableSpec> specs, String shardView,
            ShardFilter shard, SnapshotSource source, boolean announce) throws DeltaException {
        List<DeltaSnapshot> snapshots = new ArrayList<>(specs.size());
        for (DeltaTableSpec spec : specs) {
            long started = System.nanoTime();
            DeltaSnapshot snapshot = source.snapshot(duckdb, spec);
            if (shard != null && spec.view().equals(shardView)) {
                long all = snapshot.fileCount();
                snapshot = snapshot.shard(shard);
                LOG.info("Delta table {}: view {} is {}: {} of {} files", snapshot.tablePath(), spec.view(), shard,
                        snapshot.fileCount(), all);
            }
            ViewBuilder.register(duckdb, spec.view(), snapshot);
            if (!snapshot.skippedColumns().isEmpty()) {
                LOG.warn("Delta table {}: view {} leaves out column(s) it cannot read: {}", snapshot.tablePath(),
                        spec.view(), snapshot.skippedColumnReasons());
            }
            if (announce) {
                LOG.info("Delta table {}: registered view {} at version {} ({} files) in {} ms", snapshot.tablePath(),
                        spec.view(), snapshot.version(), snapshot.fileCount(), (System.nanoTime() - started) / 1_000_000);
            } else {
                LOG.debug("Delta table {}: registered view {} at version {} ({} files) in {} ms", snapshot.tablePath(),
                        spec.view(), snapshot.version(), snapshot.fileCount(), (System.nanoTime() - started) / 1_000_000);
            }
            snapshots.add(snapshot);
        }
        return snapshots;
    }
}
