package io.deltafunnel.incremental;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.deltafunnel.delta.DeltaSnapshot;
import io.deltafunnel.delta.DeltaTableSpec;
import io.deltafunnel.delta.DeltaViews;
import io.deltafunnel.delta.ShardFilter;
import io.deltafunnel.delta.SnapshotSource;
import io.deltafunnel.query.PinningPreparer;

/**
 * The preparer of a poll that reads snapshots (not incremental): registers each table (latest, or its
 * deltaVersion/deltaTimestamp pin), the sharded view reduced to the shard's files, and reports the versions read; a
 * replay gets those versions back and reads exactly them. It also keeps what the log's statistics say about each
 * registered view ({@link #liveRecords(String)}), so that the run can say up front how many rows it will deliver.
 *
 * <p>Used by the one poller of its consumer: {@link #prepare} runs when the poll's run (or its replay) opens.
 */
final class SnapshotPreparer implements PinningPreparer {

    private final List<DeltaTableSpec> specs;
    private final String shardView;
    private final ShardFilter shard;
    private final SnapshotSource source;
    /** View (lower case) to its live rows by the log's statistics, from the last preparation; absent when unknown. */
    private volatile Map<String, Long> liveRecords = Map.of();

    /**
     * @param shardView the view whose files are split, or null (not sharded)
     * @param shard     the shard's files of {@code shardView}, or null (not sharded)
     * @param source    where the snapshots come from: the logs, or those the shard routes of a load share
     */
    SnapshotPreparer(List<DeltaTableSpec> specs, String shardView, ShardFilter shard, SnapshotSource source) {
        this.specs = List.copyOf(specs);
        this.shardView = shardView;
        this.shard = shard;
        this.source = java.util.Objects.requireNonNull(source, "source");
    }

    @Override
    public Map<String, Long> prepare(Connection connection, Map<String, Long> pinned) throws Exception {
        List<DeltaTableSpec> effective = new ArrayList<>(specs.size());
        for (DeltaTableSpec spec : specs) {
            Long version = pinned.get(spec.view());
            effective.add(version == null ? spec : new DeltaTableSpec(spec.view(), spec.path(), version, null));
        }
        List<DeltaSnapshot> snapshots = DeltaViews.register(connection, effective, shardView, shard, source);
        Map<String, Long> versions = new LinkedHashMap<>();
        Map<String, Long> rows = new LinkedHashMap<>();
        for (int i = 0; i < effective.size(); i++) {
            DeltaSnapshot snapshot = snapshots.get(i);
            versions.put(effective.get(i).view(), snapshot.version());
            Long live = snapshot.liveRecords();
            if (live != null) {
                rows.put(effective.get(i).view().toLowerCase(Locale.ROOT), live);
            }
        }
        liveRecords = Map.copyOf(rows);
        return versions;
    }

    /**
     * The rows of {@code view} as registered by the last preparation, by the Delta log's statistics alone
     * ({@link DeltaSnapshot#liveRecords()}: {@code stats.numRecords} less deletion vectors; for the sharded view,
     * the shard's share); null when a file of it has no {@code numRecords}, when no such view was registered, or
     * before the first preparation.
     */
    Long liveRecords(String view) {
        return view == null ? null : liveRecords.get(view.toLowerCase(Locale.ROOT));
    }
}
