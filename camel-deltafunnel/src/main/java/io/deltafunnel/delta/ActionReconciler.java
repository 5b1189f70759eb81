package io.deltafunnel.delta;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replays a {@link LogSegment} inside DuckDB: the checkpoint and all commits are read in bulk into one temporary
 * table, then the protocol's reconciliation rules pick the latest protocol, the latest metaData and the live
 * {@code add} actions (newest action per (path, deletion-vector id); adds win only when newest). The temporary table
 * is dropped before returning.
 */
final class ActionReconciler {

    private static final Pattern FILE_IN_MESSAGE = Pattern.compile("file \"([^\"]+)\"");

    /** What a replay yields. {@code metadata} holds id, schemaString, partitionColumns, configuration. */
    record Replay(DeltaProtocol protocol, String metadataId, String schemaString, List<String> partitionColumns,
            Map<String, String> configuration, List<AddFile> files) {
    }

    private ActionReconciler() {
    }

    static Replay replay(Connection duckdb, String table, LogSegment segment, String checkpointRelation)
            throws DeltaException {
        List<String> parts = new ArrayList<>();
        if (checkpointRelation != null) {
            parts.add(checkpointRelation);
        }
        if (!segment.commits().isEmpty()) {
            parts.add(CommitReader.relation(segment.commits()));
        }
        String temp = SqlText.ident("__deltafunnel_replay_" + UUID.randomUUID().toString().replace('-', '_'));
        String create = "CREATE TEMP TABLE " + temp + " AS SELECT * FROM (" + String.join(" UNION ALL BY NAME ", parts)
                + ") WHERE \"add\" IS NOT NULL OR \"remove\" IS NOT NULL OR \"metaData\" IS NOT NULL OR \"protocol\" IS NOT NULL";
        try {
            execute(duckdb, create);
        } catch (SQLException e) {
            throw failure(duckdb, table, segment, e);
        }
        try {
            return read(duckdb, table, temp);
        } catch (SQLException e) {
            throw new CorruptLogException(table, null, "cannot replay the log (" + e.getMessage() + ")", e);
        } finally {
            try {
                execute(duckdb, "DROP TABLE IF EXISTS " + temp);
            } catch (SQLException e) {
                org.slf4j.LoggerFactory.getLogger(ActionReconciler.class)
                        .warn("Delta table {}: cannot drop temporary table {}: {}", table, temp, e.getMessage());
            }
        }
    }

    private static Replay read(Connection duckdb, String table, String temp) throws SQLException, DeltaException {
        DeltaProtocol protocol = null;
        try (Statement st = duckdb.createStatement();
                ResultSet rs = st.executeQuery("SELECT protocol.minReaderVersion, protocol.minWriterVersion, "
                        + "to_json(protocol.readerFeatures)::VARCHAR, to_json(protocol.writerFeatures)::VARCHAR FROM " + temp
                        + " WHERE \"protocol\" IS NOT NULL ORDER BY version DESC LIMIT 1")) {
            if (rs.next()) {
                protocol = new DeltaProtocol(rs.getInt(1), rs.getInt(2), stringList(rs.getString(3)),
                        stringList(rs.getString(4)));
            }
        }
        if (protocol == null) {
            throw new CorruptLogException(table, null, "the log has no protocol action", null);
        }
        ProtocolSupport.check(table, protocol);
        String id;
        String schema;
        List<String> partitionColumns;
        Map<String, String> configuration;
        try (Statement st = duckdb.createStatement();
                ResultSet rs = st.executeQuery("SELECT metaData.id, metaData.schemaString, "
                        + "to_json(metaData.partitionColumns)::VARCHAR, to_json(metaData.configuration)::VARCHAR FROM "
                        + temp + " WHERE \"metaData\" IS NOT NULL ORDER BY version DESC LIMIT 1")) {
            if (!rs.next()) {
                throw new CorruptLogException(table, null, "the log has no metaData action", null);
            }
            id = rs.getString(1);
            schema = rs.getString(2);
            partitionColumns = stringList(rs.getString(3));
            configuration = stringMap(rs.getString(4));
        }
        if (schema == null) {
            throw new CorruptLogException(table, null, "the metaData action has no schemaString", null);
        }
        List<AddFile> files = new ArrayList<>();
        String live = "WITH actions AS ("
                + " SELECT version, 1 AS is_add, \"add\".path AS path, \"add\".deletionVector AS dv, \"add\".partitionValues AS pv,"
                + " \"add\".size AS size, \"add\".modificationTime AS mtime FROM " + temp + " WHERE \"add\" IS NOT NULL"
                + " UNION ALL SELECT version, 0, \"remove\".path, \"remove\".deletionVector, NULL, NULL, NULL FROM " + temp
                + " WHERE \"remove\" IS NOT NULL),"
                + " keyed AS (SELECT *, url_decode(path) AS key_path, coalesce(dv.storageType || dv.pathOrInlineDv"
                + " || coalesce('@' || dv.\"offset\", ''), '') AS dv_id FROM actions),"
                + " newest AS (SELECT * FROM keyed QUALIFY row_number() OVER (PARTITION BY key_path, dv_id"
                + " ORDER BY version DESC, is_add DESC) = 1)"
                + " SELECT path, to_json(pv)::VARCHAR, size, mtime, dv.storageType, dv.pathOrInlineDv, dv.\"offset\","
                + " dv.sizeInBytes, dv.cardinality FROM newest WHERE is_add = 1"
                + " QUALIFY row_number() OVER (PARTITION BY key_path ORDER BY version DESC) = 1 ORDER BY path";
        try (Statement st = duckdb.createStatement(); ResultSet rs = st.executeQuery(live)) {
            while (rs.next()) {
                String path = rs.getString(1);
                Map<String, String> pv = stringMap(rs.getString(2));
                long size = rs.getLong(3);
                long mtime = rs.getLong(4);
                DeletionVectorDescriptor dv = null;
                String storage = rs.getString(5);
                if (storage != null) {
                    int offset = rs.getInt(7);
                    Integer off = rs.wasNull() ? null : offset;
                    dv = new DeletionVectorDescriptor(storage, rs.getString(6), off, rs.getInt(8), rs.getLong(9));
                }
                files.add(new AddFile(path, TablePaths.resolve(table, path), pv, size, mtime, dv));
            }
        }
        return new Replay(protocol, id, schema, partitionColumns, configuration, files);
    }

    private static DeltaException failure(Connection duckdb, String table, LogSegment segment, SQLException e) {
        String message = e.getMessage() == null ? "" : e.getMessage();
        Matcher m = FILE_IN_MESSAGE.matcher(message);
        String file = m.find() ? m.group(1) : null;
        if (file == null && !segment.commits().isEmpty()) {
            file = findUnreadableCommit(duckdb, segment.commits());
        }
        if (file == null && segment.checkpoint() != null) {
            file = segment.checkpoint().files().get(0);
        }
        String firstLine = message.lines().findFirst().orElse(message);
        return new CorruptLogException(table, file, "cannot read the Delta log (" + firstLine + ")", e);
    }

    /** Error path only: probe the commits one by one to name the one DuckDB cannot read. */
    private static String findUnreadableCommit(Connection duckdb, List<String> commits) {
        for (String commit : commits) {
            try (Statement st = duckdb.createStatement();
                    ResultSet rs = st.executeQuery("SELECT count(*) FROM (" + CommitReader.relation(List.of(commit))
                            + ") WHERE \"add\" IS NOT NULL OR \"remove\" IS NOT NULL OR \"metaData\" IS NOT NULL"
                            + " OR \"protocol\" IS NOT NULL")) {
                rs.next();
            } catch (SQLException probe) {
                return commit;
            }
        }
        return null;
    }

    private static void execute(Connection duckdb, String sql) throws SQLException {
        try (Statement st = duckdb.createStatement()) {
            st.execute(sql);
        }
    }

    @SuppressWarnings("unchecked")
    static List<String> stringList(String json) {
        if (json == null) {
            return List.of();
        }
        List<String> result = new ArrayList<>();
        for (Object o : (List<Object>) Json.parse(json)) {
            result.add(o == null ? null : o.toString());
        }
        return result;
    }

    static Map<String, String> stringMap(String json) {
        Map<String, String> result = new LinkedHashMap<>();
        if (json == null) {
            return result;
        }
        for (Map.Entry<String, Object> e : Json.parseObject(json).entrySet()) {
            result.put(e.getKey(), e.getValue() == null ? null : e.getValue().toString());
        }
        return result;
    }
}
