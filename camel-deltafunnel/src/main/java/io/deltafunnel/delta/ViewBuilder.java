package io.deltafunnel.delta;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

/**
 * Creates the TEMP view for one snapshot on a DuckDB connection:
 *
 * <pre>
 * SELECT &lt;projected columns&gt;
 * FROM read_parquet([files], filename = '__deltafunnel_file', file_row_number = true,
 *                   hive_partitioning = false [, union_by_name = true]) AS d
 * JOIN temp.__deltafunnel_files_&lt;view&gt; AS f ON d.__deltafunnel_file = f.filename          -- partitioned tables
 * ANTI JOIN temp.__deltafunnel_dv_&lt;view&gt; AS x ON (file, row position) = (x.filename, x.pos) -- deletion vectors
 * </pre>
 *
 * The two helper tables (typed partition values per file; deleted row positions) are TEMP tables owned by the view:
 * replaced with it, dropped when a later registration of the same view does not need them, gone with the
 * connection. Both joins keep projection and filter pushdown into the Parquet scan, and filters on partition columns
 * reach the scan as DuckDB dynamic join filters on the file name. {@code union_by_name} is only used when the files' schemas
 * differ (schema evolution), see {@link #physicalSchema}. When the same data file is live more than once (the live set
 * is keyed by (path, deletion vector), so a lost {@code remove} can leave a file live with and without a deletion
 * vector), each repetition is read by its own scan ("layer", a column of both helper tables) and the scans are joined
 * with UNION ALL; an ordinary snapshot has one layer and the SQL above.
 */
final class ViewBuilder {

    static final String FILE_COLUMN = "__deltafunnel_file";
    private static final Pattern MISSING = Pattern.compile("No files found that match the pattern \"([^\"]+)\"");

    private ViewBuilder() {
    }

    static String filesTable(String view) {
        return "__deltafunnel_files_" + view;
    }

    static String dvTable(String view) {
        return "__deltafunnel_dv_" + view;
    }

    static void register(Connection duckdb, String view, DeltaSnapshot snapshot) throws DeltaException {
        String table = snapshot.tablePath();
        List<DeltaColumn> columns = snapshot.viewColumns();
        if (columns.isEmpty()) {
            throw new UnsupportedFeatureException(table, "columns", "no column of the table can be read ("
                    + snapshot.skippedColumnReasons() + "), so the view would have no columns");
        }
        try {
            String select;
            String filesTable = null;
            String dvTable = null;
            if (snapshot.files().isEmpty()) {
                StringJoiner cols = new StringJoiner(", ");
                for (DeltaColumn c : columns) {
                    cols.add(ColumnProjection.nullOf(c.type()) + " AS " + SqlText.ident(c.name()));
                }
                select = "SELECT " + cols + " WHERE false";
            } else {
                List<AddFile> files = snapshot.files();
                // the same data file may be live more than once (one entry per (path, deletion vector)): each
                // repetition goes into its own "layer", a separate scan, so that joins by file name stay unambiguous
                int[] layerOf = new int[files.size()];
                Map<String, Integer> seen = new java.util.HashMap<>();
                int layers = 1;
                for (int i = 0; i < files.size(); i++) {
                    layerOf[i] = seen.merge(files.get(i).location(), 1, Integer::sum) - 1;
                    layers = Math.max(layers, layerOf[i] + 1);
                }
                List<AddFile> firstLayer = new ArrayList<>(seen.size());
                List<String> locations = new ArrayList<>(seen.size());
                for (int i = 0; i < files.size(); i++) {
                    if (layerOf[i] == 0) {
                        firstLayer.add(files.get(i));
                        locations.add(files.get(i).location());
                    }
                }
                PhysicalSchema physical = physicalSchema(duckdb, table, firstLayer);
                if (!physical.uniform()) {
                    ShreddingLayouts.check(duckdb, table, locations, columns, physical.columns());
                }
                boolean partitioned = !snapshot.partitionColumns().isEmpty();
                List<long[]> deleted = DeletionVectorReader.read(duckdb, table, files);
                if (partitioned) {
                    filesTable = filesTable(view);
                    createFilesTable(duckdb, filesTable, snapshot, layerOf);
                }
                if (deleted.stream().anyMatch(java.util.Objects::nonNull)) {
                    dvTable = dvTable(view);
                    createDvTable(duckdb, dvTable, files, layerOf, deleted);
                }
                StringJoiner cols = new StringJoiner(", ");
                for (DeltaColumn c : columns) {
                    int partitionIndex = snapshot.partitionColumns().indexOf(c.name());
                    String expr;
                    if (partitionIndex >= 0) {
                        expr = "f." + SqlText.ident("p" + partitionIndex);
                    } else {
                        try {
                            expr = ColumnProjection.project("d." + SqlText.ident(c.physicalName()), c.type(),
                                    physical.columns().get(c.physicalName()), 0).sql();
                        } catch (IllegalArgumentException e) {
                            throw new UnsupportedFeatureException(table, c.type().simpleString(), "column " + c.name()
                                    + " (" + c.type().simpleString() + ") cannot be read: " + e.getMessage());
                        }
                    }
                    cols.add(expr + " AS " + SqlText.ident(c.name()));
                }
                List<String> scans = new ArrayList<>();
                for (int layer = 0; layer < layers; layer++) {
                    List<String> layerFiles = new ArrayList<>();
                    for (int i = 0; i < files.size(); i++) {
                        if (layerOf[i] == layer) {
                            layerFiles.add(files.get(i).location());
                        }
                    }
                    String layerFilter = layers == 1 ? "" : " AND %s.layer = " + layer;
                    StringBuilder sb = new StringBuilder("SELECT ").append(cols).append(" FROM read_parquet(")
                            .append(SqlText.list(layerFiles));
                    if (filesTable != null || dvTable != null) {
                        sb.append(", filename = ").append(SqlText.literal(FILE_COLUMN));
                    }
                    if (dvTable != null) {
                        sb.append(", file_row_number = true");
                    }
                    sb.append(", hive_partitioning = false").append(physical.uniform() ? "" : ", union_by_name = true")
                            .append(") AS d");
                    String file = "d." + SqlText.ident(FILE_COLUMN);
                    if (filesTable != null) {
                        sb.append(" JOIN ").append(tempRef(filesTable)).append(" AS f ON ").append(file)
                                .append(" = f.filename").append(String.format(layerFilter, "f"));
                    }
                    if (dvTable != null) {
                        sb.append(" ANTI JOIN ").append(tempRef(dvTable)).append(" AS x ON ").append(file)
                                .append(" = x.filename AND d.file_row_number = x.pos").append(String.format(layerFilter, "x"));
                    }
                    scans.add(sb.toString());
                }
                select = String.join(" UNION ALL ", scans);
            }
            if (filesTable == null) {
                execute(duckdb, "DROP TABLE IF EXISTS " + tempRef(filesTable(view)));
            }
            if (dvTable == null) {
                execute(duckdb, "DROP TABLE IF EXISTS " + tempRef(dvTable(view)));
            }
            execute(duckdb, "CREATE OR REPLACE TEMP VIEW " + SqlText.ident(view) + " AS " + select);
        } catch (SQLException e) {
            throw new DeltaException(table, "cannot create view " + view + " (" + e.getMessage() + ")", e);
        }
    }

    private static String tempRef(String name) {
        return "temp.main." + SqlText.ident(name);
    }

    /** The files' physical schema: column name to DuckDB type, and whether every file has that same schema. */
    record PhysicalSchema(Map<String, DuckType> columns, boolean uniform) {
    }

    /**
     * Reads every file's footer once (one {@code parquet_schema} call) to learn whether all files share one schema.
     * If so the view reads them without {@code union_by_name}, so a query binds on one footer and never opens files
     * that a partition filter prunes; otherwise the view unions by name (missing columns read as NULL) and the
     * schema is the union. Fails naming the first missing file.
     */
    private static PhysicalSchema schemaFromEveryFooter(Connection duckdb, String table, List<String> locations)
            throws DeltaException {
        String list = SqlText.list(locations);
        String signatures = "SELECT count(DISTINCT sig), min(file_name) FROM (" + signatureQuery(list) + ")";
        try {
            boolean uniform;
            String sample;
            try (Statement st = duckdb.createStatement(); ResultSet rs = st.executeQuery(signatures)) {
                rs.next();
                uniform = rs.getLong(1) <= 1;
                sample = rs.getString(2);
            }
            FileSchemas.footersRead(locations.size());
            String source = uniform ? SqlText.list(List.of(sample == null ? locations.get(0) : sample)) : list;
            return new PhysicalSchema(describe(duckdb, source, uniform), uniform);
        } catch (SQLException e) {
            throw failure(duckdb, table, locations, e);
        }
    }

    /**
     * {@link #schemaFromEveryFooter} with what {@link FileSchemas} keeps of local files
     * ({@code files}: one layer's, each location once). Every file is looked up in the file system
     * first: a missing one fails as {@link MissingDataFileException}, naming the first. Only the footers of files
     * not seen before (or whose size is not the log's) are read, and {@code DESCRIBE} runs only for a schema not seen
     * before; a table whose files are all known, with one schema, reads no footer here. Files of more than one schema
     * are described as their union, which reads every footer. A remote file, or a footer DuckDB names differently,
     * falls back to {@link #schemaFromEveryFooter}.
     */
    static PhysicalSchema physicalSchema(Connection duckdb, String table, List<AddFile> files) throws DeltaException {
        List<String> locations = files.stream().map(AddFile::location).toList();
        Map<String, String> signatureOf = new HashMap<>();
        List<AddFile> unknown = new ArrayList<>();
        // unknown files whose size on disk is not the log's: read now, not kept
        Set<String> resized = new HashSet<>();
        for (AddFile f : files) {
            Path path = FileSchemas.localPath(f.location());
            if (path == null) {
                return schemaFromEveryFooter(duckdb, table, locations);
            }
            long size;
            try {
                size = FileSchemas.size(path);
            } catch (IOException | RuntimeException e) {
                return schemaFromEveryFooter(duckdb, table, locations); // reading every footer says what is wrong
            }
            if (size < 0) {
                throw new MissingDataFileException(table, f.location(), null);
            }
            if (size != f.size()) {
                resized.add(f.location());
                unknown.add(f);
                continue;
            }
            String known = FileSchemas.signature(f);
            if (known != null) {
                signatureOf.put(f.location(), known);
            } else {
                unknown.add(f);
            }
        }
        try {
            if (!unknown.isEmpty()) {
                List<String> unknownLocations = unknown.stream().map(AddFile::location).toList();
                Map<String, String> read = new HashMap<>();
                try (Statement st = duckdb.createStatement();
                        ResultSet rs = st.executeQuery(signatureQuery(SqlText.list(unknownLocations)))) {
                    while (rs.next()) {
                        read.put(rs.getString(1), rs.getString(2));
                    }
                } catch (SQLException e) {
                    throw failure(duckdb, table, unknownLocations, e);
                }
                FileSchemas.footersRead(unknown.size());
                for (AddFile f : unknown) {
                    String signature = read.get(f.location());
                    if (signature == null) {
                        return schemaFromEveryFooter(duckdb, table, locations);
                    }
                    if (!resized.contains(f.location())) {
                        FileSchemas.putSignature(f, signature);
                    }
                    signatureOf.put(f.location(), signature);
                }
            }
            Set<String> distinct = new HashSet<>(signatureOf.values());
            if (distinct.size() > 1) {
                // more than one schema: the view unions by name, and its columns are the union of every footer's
                return new PhysicalSchema(describe(duckdb, SqlText.list(locations), false), false);
            }
            String signature = distinct.iterator().next();
            Map<String, DuckType> columns = FileSchemas.columns(signature);
            if (columns == null) {
                columns = Collections.unmodifiableMap(
                        describe(duckdb, SqlText.list(List.of(locations.get(0))), true));
                FileSchemas.putColumns(signature, columns);
            }
            return new PhysicalSchema(columns, true);
        } catch (SQLException e) {
            throw failure(duckdb, table, locations, e);
        }
    }

    /** Each file's name and schema signature (its columns' names, types and repetitions in order). */
    private static String signatureQuery(String list) {
        return "SELECT file_name, list(name || ':' || coalesce(duckdb_type, '') || ':'"
                + " || coalesce(repetition_type, '') ORDER BY column_id) AS sig FROM parquet_schema(" + list + ")"
                + " WHERE column_id > 0 GROUP BY file_name";
    }

    /** The columns of {@code read_parquet(source)}, by name (case-insensitive). */
    private static Map<String, DuckType> describe(Connection duckdb, String source, boolean uniform)
            throws SQLException {
        Map<String, DuckType> result = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        try (Statement st = duckdb.createStatement();
                ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM read_parquet(" + source
                        + ", hive_partitioning = false" + (uniform ? "" : ", union_by_name = true") + ")")) {
            while (rs.next()) {
                result.put(rs.getString(1), DuckType.parse(rs.getString(2)));
            }
        }
        return result;
    }

    /** The failure of reading {@code locations}' schema: the first missing file named, if one is missing. */
    private static DeltaException failure(Connection duckdb, String table, List<String> locations, SQLException e) {
        Matcher m = MISSING.matcher(String.valueOf(e.getMessage()));
        if (m.find()) {
            return new MissingDataFileException(table, m.group(1), e);
        }
        // DuckDB's message is not always available (a streaming connection reports "Invalid result set"),
        // so look for a missing file directly before giving up with the generic error.
        String missing = firstMissing(duckdb, locations, e);
        if (missing != null) {
            return new MissingDataFileException(table, missing, e);
        }
        return new DeltaException(table, "cannot read the data files' schema (" + e.getMessage() + ")", e);
    }

    /**
     * The first location that does not exist, or null. Only called after a failure: local files are checked with the
     * file system, other URIs with DuckDB's {@code glob} (one call per file, so only on this error path). A check that
     * itself fails is added to {@code failure} as suppressed.
     */
    private static String firstMissing(Connection duckdb, List<String> locations, SQLException failure) {
        for (String location : locations) {
            try {
                boolean exists;
                Path path = FileSchemas.localPathOrNull(location);
                if (path != null) {
                    exists = Files.exists(path);
                } else {
                    try (Statement st = duckdb.createStatement();
                            ResultSet rs = st.executeQuery("SELECT count(*) FROM glob(" + SqlText.literal(location) + ")")) {
                        exists = rs.next() && rs.getLong(1) > 0;
                    }
                }
                if (!exists) {
                    return location;
                }
            } catch (SQLException | RuntimeException checkFailure) {
                failure.addSuppressed(checkFailure); // reported with the original failure
            }
        }
        return null;
    }

    private static void createFilesTable(Connection duckdb, String name, DeltaSnapshot snapshot, int[] layerOf)
            throws SQLException {
        String staging = name + "_staging";
        List<String> partitionColumns = snapshot.partitionColumns();
        List<DeltaColumn> partitionFields = new ArrayList<>();
        for (String p : partitionColumns) {
            partitionFields.add(snapshot.schema().stream().filter(c -> c.name().equals(p)).findFirst().orElseThrow());
        }
        StringJoiner ddl = new StringJoiner(", ", "CREATE OR REPLACE TEMP TABLE " + tempRef(staging) + " (filename VARCHAR, layer INTEGER, ", ")");
        for (int i = 0; i < partitionFields.size(); i++) {
            ddl.add(SqlText.ident("p" + i) + " VARCHAR");
        }
        execute(duckdb, ddl.toString());
        try {
            try (DuckDBAppender appender = duckdb.unwrap(DuckDBConnection.class).createAppender("temp", "main", staging)) {
                for (int n = 0; n < snapshot.files().size(); n++) {
                    AddFile f = snapshot.files().get(n);
                    appender.beginRow();
                    appender.append(f.location());
                    appender.append(layerOf[n]);
                    for (DeltaColumn field : partitionFields) {
                        String value = PartitionValues.prepare(field.type(), f.partitionValues().get(field.physicalName()));
                        if (value == null) {
                            appender.appendNull();
                        } else {
                            appender.append(value);
                        }
                    }
                    appender.endRow();
                }
            }
            StringJoiner typed = new StringJoiner(", ", "CREATE OR REPLACE TEMP TABLE " + tempRef(name) + " AS SELECT filename, layer, ",
                    " FROM " + tempRef(staging));
            for (int i = 0; i < partitionFields.size(); i++) {
                typed.add(PartitionValues.convert(SqlText.ident("p" + i), partitionFields.get(i).type()) + " AS "
                        + SqlText.ident("p" + i));
            }
            execute(duckdb, typed.toString());
        } finally {
            execute(duckdb, "DROP TABLE IF EXISTS " + tempRef(staging));
        }
    }

    private static void createDvTable(Connection duckdb, String name, List<AddFile> files, int[] layerOf,
            List<long[]> deleted) throws SQLException {
        execute(duckdb, "CREATE OR REPLACE TEMP TABLE " + tempRef(name) + " (filename VARCHAR, layer INTEGER, pos BIGINT)");
        try (DuckDBAppender appender = duckdb.unwrap(DuckDBConnection.class).createAppender("temp", "main", name)) {
            for (int i = 0; i < files.size(); i++) {
                long[] rows = deleted.get(i);
                if (rows == null) {
                    continue;
                }
                for (long pos : rows) {
                    appender.beginRow();
                    appender.append(files.get(i).location());
                    appender.append(layerOf[i]);
                    appender.append(pos);
                    appender.endRow();
                }
            }
        }
    }

    private static void execute(Connection duckdb, String sql) throws SQLException {
        try (Statement st = duckdb.createStatement()) {
            st.execute(sql);
        }
    }
}
