package io.deltafunnel.delta;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.JsonNode;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a Delta table's Change Data Feed between two versions and registers it as a DuckDB TEMP view: the table's
 * columns (schema of the {@code to} version) plus {@code _change_type} ({@code insert}, {@code update_preimage},
 * {@code update_postimage}, {@code delete}), {@code _commit_version} (BIGINT) and {@code _commit_timestamp}
 * (TIMESTAMP, UTC).
 *
 * <p>As the protocol's "Change Data Feed" section defines, per version in {@code (from, to]}:
 * <ul>
 *   <li>a version with {@code cdc} actions: the rows of its {@code _change_data/} files, whose {@code _change_type}
 *       column says what each row is (the version's add/remove actions are then ignored);</li>
 *   <li>a version without {@code cdc} actions: rows of files added with {@code dataChange=true} are inserts, rows of
 *       files removed with {@code dataChange=true} are deletes. Both sides are read with their deletion vectors, and
 *       rows that appear on both sides of the same version (a file rewritten, or re-added with a new deletion vector)
 *       cancel out ({@code EXCEPT ALL}), so only the rows that really changed are reported.</li>
 * </ul>
 * Files, partition values, deletion vectors, column mapping and type widening go through the same view builder as a
 * snapshot read. Requires {@code delta.enableChangeDataFeed=true} at {@code to} and no {@code metaData} action in the
 * range turning it off; otherwise {@link ChangeDataFeedException}. A commit of the range that is no longer in the log
 * gives {@link VersionNotFoundException}.
 */
public final class ChangeFeed {

    public static final String CHANGE_TYPE = "_change_type";
    public static final String COMMIT_VERSION = "_commit_version";
    public static final String COMMIT_TIMESTAMP = "_commit_timestamp";
    /** The table property that enables the change data feed. */
    public static final String ENABLE_PROPERTY = "delta.enableChangeDataFeed";

    private static final Logger LOG = LoggerFactory.getLogger(ChangeFeed.class);

    private ChangeFeed() {
    }

    /** Whether the snapshot's table properties enable the change data feed. */
    public static boolean enabled(DeltaSnapshot snapshot) {
        return "true".equalsIgnoreCase(String.valueOf(snapshot.configuration().get(ENABLE_PROPERTY)).trim());
    }

    /** What one version contributes. */
    private static final class VersionActions {
        final long version;
        Long timestampMs;
        final List<AddFile> cdc = new ArrayList<>();
        final List<AddFile> adds = new ArrayList<>();
        final List<AddFile> removes = new ArrayList<>();
        /** Removes without partition values (no extendedFileMetadata): resolved from the previous snapshot by key. */
        final List<ActionReconciler.FileKey> bareRemoves = new ArrayList<>();
        Boolean cdfEnabled;

        VersionActions(long version) {
            this.version = version;
        }

        void keep(List<AddFile> keptAdds, List<AddFile> keptRemoves) {
            adds.clear();
            adds.addAll(keptAdds);
            removes.clear();
            removes.addAll(keptRemoves);
        }

        /** The smallest path (as written in the log) among the adds and removes: names the shard of a rewrite. */
        String smallestPath() {
            String min = null;
            for (List<AddFile> files : List.of(adds, removes)) {
                for (AddFile f : files) {
                    min = min == null || f.path().compareTo(min) < 0 ? f.path() : min;
                }
            }
            return min;
        }
    }

    /**
     * Registers the view {@code view} holding the changes of versions {@code (fromExclusive, toInclusive]}; with
     * {@code fromExclusive == null} the whole snapshot at {@code toInclusive} as {@code insert} rows (an initial load).
     * An empty range ({@code fromExclusive == toInclusive}) gives an empty view with the right columns.
     *
     * @return the snapshot at {@code toInclusive} (its schema is the view's)
     */
    public static DeltaSnapshot register(Connection duckdb, String view, String tablePath, Long fromExclusive,
            long toInclusive) throws DeltaException {
        return register(duckdb, view, tablePath, fromExclusive, toInclusive, null);
    }

    /**
     * As {@link #register(Connection, String, String, Long, long)}, but only one shard's share of the changes
     * ({@code shard} null: all of them). The shards' shares add up to exactly the whole change feed:
     * <ul>
     *   <li>an initial load (no {@code fromExclusive}): the snapshot's files of the shard;</li>
     *   <li>a version with {@code cdc} actions: its change files of the shard;</li>
     *   <li>a version whose {@code add}/{@code remove} actions are only adds or only removes: those of the shard;</li>
     *   <li>a version with both adds and removes (a rewrite, whose rows cancel out across files with
     *       {@code EXCEPT ALL}): the whole version goes to one shard, the shard of the smallest path among its adds
     *       and removes, so that the cancellation sees all of its files.</li>
     * </ul>
     */
    public static DeltaSnapshot register(Connection duckdb, String view, String tablePath, Long fromExclusive,
            long toInclusive, ShardFilter shard) throws DeltaException {
        long started = System.nanoTime();
        DeltaSnapshot target = DeltaLog.snapshot(duckdb, tablePath, toInclusive, null);
        String table = target.tablePath();
        LogListing listing = LogListing.list(duckdb, table);
        List<String> cols = target.viewColumns().stream().map(c -> SqlText.ident(c.name())).toList();
        String colList = String.join(", ", cols);
        List<String> parts = new ArrayList<>();
        try {
            if (fromExclusive == null) {
                String snap = helperView(view, "s");
                ViewBuilder.register(duckdb, snap, shard == null ? target : target.shard(shard));
                Map<Long, Long> ts = timestamps(duckdb, listing, List.of(toInclusive));
                parts.add("SELECT " + colList + ", 'insert' AS " + SqlText.ident(CHANGE_TYPE) + ", "
                        + changeColumns(toInclusive, ts.get(toInclusive)) + " FROM " + SqlText.ident(snap));
            } else {
                if (fromExclusive > toInclusive) {
                    throw new VersionNotFoundException(table, "cannot read changes from version " + fromExclusive
                            + " back to " + toInclusive);
                }
                if (fromExclusive < toInclusive && !enabled(target)) {
                    throw new ChangeDataFeedException(table, "the change data feed is not enabled ("
                            + ENABLE_PROPERTY + " is not true at version " + toInclusive + ")");
                }
                Map<Long, VersionActions> versions = readActions(duckdb, listing, fromExclusive + 1, toInclusive);
                for (VersionActions va : versions.values()) {
                    if (Boolean.FALSE.equals(va.cdfEnabled)) {
                        throw new ChangeDataFeedException(table, "the change data feed is turned off at version "
                                + va.version + ", inside the requested range (" + fromExclusive + ", " + toInclusive
                                + "]");
                    }
                    String meta = changeColumns(va.version, va.timestampMs);
                    if (!va.cdc.isEmpty()) {
                        String cdcView = helperView(view, "c" + va.version);
                        ViewBuilder.register(duckdb, cdcView,
                                withFiles(target, shard == null ? va.cdc : shard.select(va.cdc), true));
                        parts.add("SELECT " + colList + ", " + SqlText.ident(CHANGE_TYPE) + ", " + meta + " FROM "
                                + SqlText.ident(cdcView));
                        continue;
                    }
                    if (va.adds.isEmpty() && va.removes.isEmpty() && va.bareRemoves.isEmpty()) {
                        continue;
                    }
                    if (!va.bareRemoves.isEmpty()) {
                        Map<ActionReconciler.FileKey, AddFile> before = new LinkedHashMap<>();
                        for (AddFile f : DeltaLog.snapshot(duckdb, table, va.version - 1, null).files()) {
                            before.put(ActionReconciler.FileKey.of(f.path(), f.deletionVector()), f);
                        }
                        for (ActionReconciler.FileKey key : va.bareRemoves) {
                            AddFile f = before.get(key);
                            if (f == null) {
                                throw new CorruptLogException(table, listing.commitFileName(va.version), "version "
                                        + va.version + " removes " + key.path()
                                        + (key.dvId().isEmpty() ? "" : " (deletion vector " + key.dvId() + ")")
                                        + ", which is not live at version " + (va.version - 1), null);
                            }
                            va.removes.add(f);
                        }
                    }
                    if (shard != null) {
                        if (va.adds.isEmpty() || va.removes.isEmpty()) {
                            va.keep(shard.select(va.adds), shard.select(va.removes));
                        } else if (!shard.keeps(va.smallestPath())) {
                            continue; // a rewrite: the whole version belongs to another shard
                        }
                        if (va.adds.isEmpty() && va.removes.isEmpty()) {
                            continue;
                        }
                    }
                    String addView = helperView(view, "a" + va.version);
                    String removeView = helperView(view, "r" + va.version);
                    ViewBuilder.register(duckdb, addView, withFiles(target, va.adds, false));
                    ViewBuilder.register(duckdb, removeView, withFiles(target, va.removes, false));
                    String a = "SELECT " + colList + " FROM " + SqlText.ident(addView);
                    String r = "SELECT " + colList + " FROM " + SqlText.ident(removeView);
                    parts.add("SELECT " + colList + ", 'insert' AS " + SqlText.ident(CHANGE_TYPE) + ", " + meta
                            + " FROM (" + a + " EXCEPT ALL " + r + ")");
                    parts.add("SELECT " + colList + ", 'delete' AS " + SqlText.ident(CHANGE_TYPE) + ", " + meta
                            + " FROM (" + r + " EXCEPT ALL " + a + ")");
                }
            }
            if (parts.isEmpty()) {
                String empty = helperView(view, "e");
                ViewBuilder.register(duckdb, empty, withFiles(target, List.of(), false));
                parts.add("SELECT " + colList + ", CAST(NULL AS VARCHAR) AS " + SqlText.ident(CHANGE_TYPE) + ", "
                        + changeColumns(toInclusive, null) + " FROM " + SqlText.ident(empty) + " WHERE false");
            }
            execute(duckdb, "CREATE OR REPLACE TEMP VIEW " + SqlText.ident(view) + " AS "
                    + String.join(" UNION ALL ", parts));
        } catch (SQLException e) {
            throw new DeltaException(table, "cannot create change view " + view + " (" + e.getMessage() + ")", e);
        }
        LOG.info("Delta table {}: registered change view {} for versions ({}, {}] in {} ms", table, view,
                fromExclusive == null ? "initial" : fromExclusive, toInclusive,
                (System.nanoTime() - started) / 1_000_000);
        return target;
    }

    private static String helperView(String view, String suffix) {
        return "__df_cdf_" + view + "_" + suffix;
    }

    private static String changeColumns(long version, Long timestampMs) {
        return "CAST(" + version + " AS BIGINT) AS " + SqlText.ident(COMMIT_VERSION) + ", "
                + (timestampMs == null ? "CAST(NULL AS TIMESTAMP)" : "epoch_ms(CAST(" + timestampMs + " AS BIGINT))")
                + " AS " + SqlText.ident(COMMIT_TIMESTAMP);
    }

    /** A snapshot with the target's schema and the given files; with {@code changeType} a {@code _change_type} column. */
    private static DeltaSnapshot withFiles(DeltaSnapshot target, List<AddFile> files, boolean changeType) {
        List<DeltaColumn> schema = new ArrayList<>(target.schema());
        if (changeType) {
            schema.add(new DeltaColumn(CHANGE_TYPE, new DeltaType.Primitive("string"), true, CHANGE_TYPE, null,
                    Map.of()));
        }
        return new DeltaSnapshot(target.tablePath(), target.version(), target.protocol(), target.tableId(), schema,
                target.partitionColumns(), target.configuration(), target.columnMappingMode(), files);
    }

    private static Map<Long, VersionActions> readActions(Connection duckdb, LogListing listing, long first, long last)
            throws DeltaException {
        String table = listing.table();
        List<String> files = new ArrayList<>();
        for (long v = first; v <= last; v++) {
            String f = listing.commits().get(v);
            if (f == null) {
                throw new VersionNotFoundException(table, "the commit of version " + v + " is no longer in the log;"
                        + " its changes cannot be read");
            }
            files.add(f);
        }
        Map<Long, VersionActions> out = new TreeMap<>();
        for (long v = first; v <= last; v++) {
            out.put(v, new VersionActions(v));
        }
        CommitReader.read(duckdb, table, files, ActionSpec.CHANGE_FEED, (version, file, line, name, action) -> {
            VersionActions va = out.get(version);
            switch (name) {
                case "commitInfo" -> {
                    Long ts = commitTimestamp(action);
                    if (ts != null) {
                        va.timestampMs = ts;
                    }
                }
                case "metaData" -> {
                    JsonNode enabled = action.get("configuration").get(ENABLE_PROPERTY);
                    va.cdfEnabled = enabled != null && !enabled.isNull() && "true".equalsIgnoreCase(enabled.asText().trim());
                }
                case "cdc" -> {
                    AddFile f = CommitReader.addFile(table, action);
                    va.cdc.add(new AddFile(f.path(), f.location(), f.partitionValues(), f.size(), 0, null));
                }
                case "add" -> {
                    if (action.get("dataChange").asBoolean()) {
                        va.adds.add(CommitReader.addFile(table, action));
                    }
                }
                case "remove" -> {
                    if (action.get("dataChange").asBoolean()) {
                        if (action.hasNonNull("partitionValues")) {
                            va.removes.add(CommitReader.addFile(table, action));
                        } else {
                            va.bareRemoves.add(ActionReconciler.FileKey.of(action.get("path").asText(),
                                    CommitReader.deletionVector(action)));
                        }
                    }
                }
                default -> {
                }
            }
        });
        return out;
    }

    /** In-commit timestamp, else commitInfo.timestamp, else null (both already checked to be integers). */
    private static Long commitTimestamp(JsonNode commitInfo) {
        JsonNode ict = commitInfo.get("inCommitTimestamp");
        if (ict != null && !ict.isNull()) {
            return ict.asLong();
        }
        JsonNode ts = commitInfo.get("timestamp");
        return ts != null && !ts.isNull() ? ts.asLong() : null;
    }

    /** Commit timestamps (in-commit timestamp, else commitInfo.timestamp) in ms, absent when unknown. */
    private static Map<Long, Long> timestamps(Connection duckdb, LogListing listing, List<Long> versions)
            throws DeltaException {
        Map<Long, Long> out = new TreeMap<>();
        List<String> files = new ArrayList<>();
        for (long v : versions) {
            String f = listing.commits().get(v);
            if (f != null) {
                files.add(f);
            }
        }
        CommitReader.read(duckdb, listing.table(), files, ActionSpec.TIMESTAMPS, (version, file, line, name, action) -> {
            Long ts = commitTimestamp(action);
            if (ts != null) {
                out.put(version, ts);
            }
        });
        return out;
    }

    private static void execute(Connection duckdb, String sql) throws SQLException {
        try (Statement st = duckdb.createStatement()) {
            st.execute(sql);
        }
    }
}
