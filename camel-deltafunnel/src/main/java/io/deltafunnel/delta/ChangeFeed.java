package io.deltafunnel.delta;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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

    private static final String ACTION_ADD = "STRUCT(path VARCHAR, partitionValues MAP(VARCHAR, VARCHAR), size BIGINT, "
            + "dataChange BOOLEAN, deletionVector " + ActionSchema.DV + ")";
    private static final String ACTION_REMOVE = "STRUCT(path VARCHAR, partitionValues MAP(VARCHAR, VARCHAR), "
            + "size BIGINT, dataChange BOOLEAN, deletionVector " + ActionSchema.DV + ")";
    private static final String ACTION_CDC = "STRUCT(path VARCHAR, partitionValues MAP(VARCHAR, VARCHAR), size BIGINT)";
    private static final String ACTION_METADATA = "STRUCT(configuration MAP(VARCHAR, VARCHAR))";
    private static final String ACTION_COMMIT_INFO = "STRUCT(\"timestamp\" BIGINT, inCommitTimestamp BIGINT)";

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
        /** Removes without partition values (no extendedFileMetadata): resolved from the previous snapshot. */
        final List<String> bareRemoves = new ArrayList<>();
        Boolean cdfEnabled;

        VersionActions(long version) {
            this.version = version;
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
                ViewBuilder.register(duckdb, snap, target);
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
                        ViewBuilder.register(duckdb, cdcView, withFiles(target, va.cdc, true));
                        parts.add("SELECT " + colList + ", " + SqlText.ident(CHANGE_TYPE) + ", " + meta + " FROM "
                                + SqlText.ident(cdcView));
                        continue;
                    }
                    if (va.adds.isEmpty() && va.removes.isEmpty() && va.bareRemoves.isEmpty()) {
                        continue;
                    }
                    if (!va.bareRemoves.isEmpty()) {
                        Map<String, AddFile> before = new LinkedHashMap<>();
                        for (AddFile f : DeltaLog.snapshot(duckdb, table, va.version - 1, null).files()) {
                            before.put(TablePaths.percentDecode(f.path()), f);
                        }
                        for (String path : va.bareRemoves) {
                            AddFile f = before.get(TablePaths.percentDecode(path));
                            if (f == null) {
                                throw new CorruptLogException(table, listing.commitFileName(va.version), "version "
                                        + va.version + " removes " + path + ", which is not live at version "
                                        + (va.version - 1), null);
                            }
                            va.removes.add(f);
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
        if (files.isEmpty()) {
            return out;
        }
        Map<String, String> actions = new LinkedHashMap<>();
        actions.put("add", ACTION_ADD);
        actions.put("remove", ACTION_REMOVE);
        actions.put("cdc", ACTION_CDC);
        actions.put("metaData", ACTION_METADATA);
        actions.put("commitInfo", ACTION_COMMIT_INFO);
        String relation = CommitReader.lines(files, actions);
        String sql = "SELECT version,"
                + " CASE WHEN \"add\" IS NOT NULL THEN 'add' WHEN \"remove\" IS NOT NULL THEN 'remove'"
                + " WHEN cdc IS NOT NULL THEN 'cdc' WHEN \"metaData\" IS NOT NULL THEN 'metaData' ELSE 'commitInfo' END,"
                + " coalesce(\"add\".path, \"remove\".path, cdc.path),"
                + " to_json(coalesce(\"add\".partitionValues, \"remove\".partitionValues, cdc.partitionValues))::VARCHAR,"
                + " coalesce(\"add\".size, \"remove\".size, cdc.size),"
                + " coalesce(\"add\".dataChange, \"remove\".dataChange),"
                + " coalesce(\"add\".deletionVector, \"remove\".deletionVector).storageType,"
                + " coalesce(\"add\".deletionVector, \"remove\".deletionVector).pathOrInlineDv,"
                + " coalesce(\"add\".deletionVector, \"remove\".deletionVector).\"offset\","
                + " coalesce(\"add\".deletionVector, \"remove\".deletionVector).sizeInBytes,"
                + " coalesce(\"add\".deletionVector, \"remove\".deletionVector).cardinality,"
                + " \"metaData\".configuration[" + SqlText.literal(ENABLE_PROPERTY) + "],"
                + " coalesce(commitInfo.inCommitTimestamp, commitInfo.\"timestamp\"),"
                + " \"metaData\" IS NOT NULL"
                + " FROM (" + relation + ") WHERE \"add\" IS NOT NULL OR \"remove\" IS NOT NULL OR cdc IS NOT NULL"
                + " OR \"metaData\" IS NOT NULL OR commitInfo IS NOT NULL ORDER BY version";
        try (Statement st = duckdb.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                VersionActions va = out.get(rs.getLong(1));
                String kind = rs.getString(2);
                switch (kind) {
                    case "commitInfo" -> {
                        long ts = rs.getLong(13);
                        if (!rs.wasNull()) {
                            va.timestampMs = ts;
                        }
                    }
                    case "metaData" -> {
                        String enabled = rs.getString(12);
                        va.cdfEnabled = enabled != null && "true".equalsIgnoreCase(enabled.trim());
                    }
                    default -> {
                        String path = rs.getString(3);
                        String pvJson = rs.getString(4);
                        Map<String, String> pv = pvJson == null ? null : ActionReconciler.stringMap(pvJson);
                        long size = rs.getLong(5);
                        boolean dataChange = rs.getObject(6) == null || rs.getBoolean(6);
                        DeletionVectorDescriptor dv = null;
                        String storage = rs.getString(7);
                        if (storage != null) {
                            int offset = rs.getInt(9);
                            Integer off = rs.wasNull() ? null : offset;
                            dv = new DeletionVectorDescriptor(storage, rs.getString(8), off, rs.getInt(10),
                                    rs.getLong(11));
                        }
                        AddFile file = new AddFile(path, TablePaths.resolve(table, path), pv == null ? Map.of() : pv,
                                size, 0, dv);
                        switch (kind) {
                            case "cdc" -> va.cdc.add(new AddFile(path, file.location(), file.partitionValues(), size,
                                    0, null));
                            case "add" -> {
                                if (dataChange) {
                                    va.adds.add(file);
                                }
                            }
                            default -> {
                                if (dataChange) {
                                    if (pv == null) {
                                        va.bareRemoves.add(path);
                                    } else {
                                        va.removes.add(file);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        } catch (SQLException e) {
            throw new CorruptLogException(table, null, "cannot read the commits of versions " + first + " to " + last
                    + " (" + e.getMessage() + ")", e);
        }
        return out;
    }

    /** Commit timestamps (in-commit timestamp, else commitInfo.timestamp) in ms, null when unknown. */
    private static Map<Long, Long> timestamps(Connection duckdb, LogListing listing, List<Long> versions) {
        Map<Long, Long> out = new TreeMap<>();
        List<String> files = new ArrayList<>();
        for (long v : versions) {
            String f = listing.commits().get(v);
            if (f != null) {
                files.add(f);
            }
        }
        if (files.isEmpty()) {
            return out;
        }
        String sql = "SELECT version, coalesce(commitInfo.inCommitTimestamp, commitInfo.\"timestamp\") FROM ("
                + CommitReader.lines(files, Map.of("commitInfo", ACTION_COMMIT_INFO)) + ") WHERE commitInfo IS NOT NULL";
        try (Statement st = duckdb.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                long ts = rs.getLong(2);
                if (!rs.wasNull()) {
                    out.put(rs.getLong(1), ts);
                }
            }
        } catch (SQLException e) {
            LOG.debug("Delta table {}: no commit timestamps ({})", listing.table(), e.getMessage());
        }
        return out;
    }

    private static void execute(Connection duckdb, String sql) throws SQLException {
        try (Statement st = duckdb.createStatement()) {
            st.execute(sql);
        }
    }
}
