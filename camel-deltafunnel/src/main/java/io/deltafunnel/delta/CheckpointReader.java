package io.deltafunnel.delta;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one checkpoint: classic single file, multi-part, or v2 (UUID-named JSON or Parquet manifest, or a
 * classic-named v2 checkpoint) including the {@code _sidecars/} files it references, and hands its actions to an
 * {@link ActionReconciler.Sink}.
 *
 * <p>Parquet files are checked twice against {@link ActionSpec}: their schema once (every action column present must be
 * a struct whose required fields exist with a compatible type; optional fields, when present, too), then every row in
 * the same scan that reads it (a present action must have its required fields non-null). A JSON manifest is read and
 * checked line by line by {@link CommitReader}. Columns and fields the reader does not know are ignored.
 */
final class CheckpointReader {

    private static final String FILE = "__deltafunnel_file";
    private static final Set<String> INTEGERS = Set.of("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "UTINYINT",
            "USMALLINT", "UINTEGER");

    private CheckpointReader() {
    }

    /** Reads the checkpoint's protocol, metaData, add and remove actions into {@code sink}. */
    static void read(Connection duckdb, String table, LogListing.Checkpoint checkpoint, ActionReconciler.Sink sink)
            throws DeltaException {
        long v = checkpoint.version();
        String first = checkpoint.files().get(0);
        Set<String> sidecars = new LinkedHashSet<>();
        if (checkpoint.kind() == LogListing.Checkpoint.Kind.V2_JSON) {
            Map<String, String> contents = CommitReader.contents(duckdb, table, checkpoint.files());
            for (String file : checkpoint.files()) {
                CommitReader.parse(table, file, v, contents.get(file), ActionSpec.V2_MANIFEST,
                        (version, f, line, name, action) -> {
                            switch (name) {
                                case "sidecar" -> sidecars.add(sidecarLocation(table, action.get("path").asText()));
                                case "checkpointMetadata", "protocol", "metaData", "add", "remove" ->
                                        ActionReconciler.visit(table, sink, version, name, action);
                                default -> {
                                }
                            }
                        });
            }
        } else {
            parquet(duckdb, table, v, checkpoint.files(), first, true, sink, sidecars);
        }
        if (!sidecars.isEmpty()) {
            parquet(duckdb, table, v, new ArrayList<>(sidecars), null, false, sink, null);
        }
    }

    private static String sidecarLocation(String table, String path) {
        return TablePaths.resolve(TablePaths.logDir(table) + "/_sidecars", path);
    }

    /**
     * Reads Parquet checkpoint parts (or sidecars, {@code manifest == false}: add and remove only) in one scan.
     *
     * @param blame the file named when the schema is wrong (null: the first of {@code files})
     */
    private static void parquet(Connection duckdb, String table, long version, List<String> files, String blame,
            boolean manifest, ActionReconciler.Sink sink, Set<String> sidecars) throws DeltaException {
        String where = blame == null ? files.get(0) : blame;
        String source = "read_parquet(" + SqlText.list(files) + ", union_by_name = true, hive_partitioning = false, "
                + "filename = " + SqlText.literal(FILE) + ", file_row_number = true)";
        Map<String, DuckType> columns = new LinkedHashMap<>();
        try (Statement st = duckdb.createStatement(); ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM " + source)) {
            while (rs.next()) {
                columns.put(rs.getString(1), DuckType.parse(rs.getString(2)));
            }
        } catch (SQLException | IllegalArgumentException e) {
            throw new CorruptLogException(table, where, (manifest ? "cannot read checkpoint (" : "cannot read the sidecar "
                    + "files of the checkpoint " + files + " (") + e.getMessage() + ")", e);
        }
        Map<String, List<ActionSpec.Field>> spec = new LinkedHashMap<>();
        if (manifest) {
            spec.put("protocol", ActionSpec.PROTOCOL);
            spec.put("metaData", ActionSpec.METADATA);
        }
        spec.put("add", ActionSpec.ADD);
        spec.put("remove", ActionSpec.REMOVE_KEY); // replay takes only the file key from a tombstone
        if (manifest) {
            spec.put("sidecar", ActionSpec.SIDECAR);
        }
        List<String> present = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, List<ActionSpec.Field>> e : spec.entrySet()) {
            DuckType type = columns.get(e.getKey());
            if (type == null) {
                continue;
            }
            String mismatch = schemaProblem(e.getKey(), type, e.getValue());
            if (mismatch != null) {
                throw new CorruptLogException(table, where, 0, mismatch.substring(0, mismatch.indexOf(':')),
                        "checkpoint schema does not match the protocol: " + mismatch, null);
            }
            present.add(e.getKey());
            rowChecks(SqlText.ident(e.getKey()), e.getKey(), type, e.getValue(), problems);
        }
        if (present.isEmpty()) {
            return;
        }
        String problem = problems.isEmpty() ? "CAST(NULL AS VARCHAR)" : "CASE " + String.join(" ", problems) + " END";
        String sql = "SELECT " + SqlText.ident(FILE) + ", file_row_number, " + problem + ", "
                + get(columns, "protocol", "minReaderVersion") + ", " + get(columns, "protocol", "minWriterVersion") + ", "
                + json(columns, "protocol", "readerFeatures") + ", " + json(columns, "protocol", "writerFeatures") + ", "
                + get(columns, "metaData", "id") + ", " + get(columns, "metaData", "schemaString") + ", "
                + json(columns, "metaData", "partitionColumns") + ", " + json(columns, "metaData", "configuration") + ", "
                + get(columns, "add", "path") + ", " + json(columns, "add", "partitionValues") + ", "
                + get(columns, "add", "size") + ", " + get(columns, "add", "modificationTime") + ", "
                + dv(columns, "add") + ", " + get(columns, "remove", "path") + ", " + dv(columns, "remove") + ", "
                + get(columns, "sidecar", "path") + ", " + get(columns, "add", "stats")
                + " FROM " + source + " WHERE " + String.join(" OR ", present.stream()
                        .map(p -> SqlText.ident(p) + " IS NOT NULL").toList());
        try (Statement st = duckdb.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                String rowProblem = rs.getString(3);
                if (rowProblem != null) {
                    long row = rs.getLong(2) + 1;
                    throw new CorruptLogException(table, rs.getString(1), row, rowProblem.substring(0, rowProblem.indexOf(':')),
                            "invalid action in checkpoint row " + row + ", " + rowProblem, null);
                }
                if (rs.getObject(4) != null) {
                    sink.protocol(version, new DeltaProtocol(rs.getInt(4), rs.getInt(5),
                            ActionReconciler.stringList(rs.getString(6)), ActionReconciler.stringList(rs.getString(7))));
                }
                if (rs.getString(8) != null) {
                    sink.metaData(version, new ActionReconciler.Metadata(rs.getString(8), rs.getString(9),
                            ActionReconciler.stringList(rs.getString(10)), ActionReconciler.stringMap(rs.getString(11))));
                }
                String addPath = rs.getString(12);
                if (addPath != null) {
                    sink.add(version, new AddFile(addPath, TablePaths.resolve(table, addPath),
                            ActionReconciler.stringMap(rs.getString(13)), rs.getLong(14), rs.getLong(15), dv(rs, 16),
                            AddFile.numRecords(rs.getString(28))));
                }
                String removePath = rs.getString(21);
                if (removePath != null) {
                    DeletionVectorDescriptor dv = dv(rs, 22);
                    sink.remove(version, removePath, dv == null ? "" : dv.uniqueId());
                }
                String sidecar = rs.getString(27);
                if (sidecar != null && sidecars != null) {
                    sidecars.add(sidecarLocation(table, sidecar));
                }
            }
        } catch (SQLException e) {
            throw new CorruptLogException(table, where, "cannot read checkpoint (" + e.getMessage() + ")", e);
        }
    }

    private static DeletionVectorDescriptor dv(ResultSet rs, int first) throws SQLException {
        String storage = rs.getString(first);
        if (storage == null) {
            return null;
        }
        int offset = rs.getInt(first + 2);
        Integer off = rs.wasNull() ? null : offset;
        return new DeletionVectorDescriptor(storage, rs.getString(first + 1), off, rs.getInt(first + 3),
                rs.getLong(first + 4));
    }

    /** The five descriptor columns of {@code action}.deletionVector, NULLs when absent. */
    private static String dv(Map<String, DuckType> columns, String action) {
        List<String> parts = new ArrayList<>();
        for (String f : List.of("storageType", "pathOrInlineDv", "offset", "sizeInBytes", "cardinality")) {
            parts.add(get(columns, action, "deletionVector", f));
        }
        return String.join(", ", parts);
    }

    /** {@code column.f1.f2...}, or NULL when the column or a field on the way does not exist. */
    private static String get(Map<String, DuckType> columns, String column, String... fields) {
        DuckType t = columns.get(column);
        StringBuilder expr = new StringBuilder(SqlText.ident(column));
        for (String f : fields) {
            if (t == null || !t.is("STRUCT") || !t.fields().containsKey(f)) {
                return "NULL";
            }
            t = t.fields().get(f);
            expr.append('.').append(SqlText.ident(f));
        }
        return expr.toString();
    }

    private static String json(Map<String, DuckType> columns, String column, String field) {
        String g = get(columns, column, field);
        return g.equals("NULL") ? "CAST(NULL AS VARCHAR)" : "to_json(" + g + ")::VARCHAR";
    }

    /** Null when {@code type} fits the action's schema, else "field: problem". */
    static String schemaProblem(String path, DuckType type, List<ActionSpec.Field> fields) {
        if (!type.is("STRUCT")) {
            return path + ": must be a struct, found " + type.render();
        }
        for (ActionSpec.Field f : fields) {
            DuckType ft = type.fields().get(f.name());
            String fp = path + "." + f.name();
            if (ft == null) {
                if (f.required()) {
                    return fp + ": required field is missing from the checkpoint schema";
                }
                continue;
            }
            boolean ok = switch (f.kind()) {
                case STRING -> ft.is("VARCHAR");
                case LONG, INT -> INTEGERS.contains(ft.name());
                case BOOLEAN -> ft.is("BOOLEAN");
                case STRING_MAP -> ft.is("MAP") && ft.key().is("VARCHAR") && ft.value().is("VARCHAR");
                case STRING_ARRAY -> ft.is("LIST") && ft.element().is("VARCHAR");
                case STRUCT -> ft.is("STRUCT");
            };
            if (!ok) {
                return fp + ": must be " + f.kind().description + ", found the Parquet type " + ft.render();
            }
            if (f.kind() == ActionSpec.Kind.STRUCT) {
                String nested = schemaProblem(fp, ft, f.fields());
                if (nested != null) {
                    return nested;
                }
            }
        }
        return null;
    }

    /** WHEN clauses: a present struct lacking a required field value. */
    private static void rowChecks(String expr, String path, DuckType type, List<ActionSpec.Field> fields,
            List<String> out) {
        for (ActionSpec.Field f : fields) {
            DuckType ft = type.fields().get(f.name());
            if (ft == null) {
                continue;
            }
            String fe = expr + "." + SqlText.ident(f.name());
            String fp = path + "." + f.name();
            if (f.required()) {
                out.add("WHEN " + expr + " IS NOT NULL AND " + fe + " IS NULL THEN "
                        + SqlText.literal(fp + ": required field is null"));
            }
            if (f.kind() == ActionSpec.Kind.INT && !ft.is("INTEGER") && !ft.is("SMALLINT") && !ft.is("TINYINT")) {
                out.add("WHEN " + fe + " NOT BETWEEN -2147483648 AND 2147483647 THEN "
                        + SqlText.literal(fp + ": must be " + f.kind().description + ", out of range"));
            }
            if (f.kind() == ActionSpec.Kind.STRUCT) {
                rowChecks(fe, fp, ft, f.fields(), out);
            }
        }
    }
}
