package io.deltafunnel.delta;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Builds the SQL relation over one checkpoint: classic single file, multi-part, or v2 (UUID-named JSON or Parquet
 * manifest, or a classic-named v2 checkpoint) including the {@code _sidecars/} files it references. Parquet
 * checkpoints are read with {@code read_parquet} and their action structs CAST by field name to
 * {@link ActionSchema} (missing fields become NULL, so writers with different checkpoint schemas all work).
 */
final class CheckpointReader {

    private CheckpointReader() {
    }

    /** Columns: version, add, remove, metaData, protocol. Runs small metadata queries (DESCRIBE, sidecar list). */
    static String relation(Connection duckdb, String table, LogListing.Checkpoint checkpoint) throws DeltaException {
        long v = checkpoint.version();
        String first = checkpoint.files().get(0);
        try {
            String manifest;
            String sidecarQuery;
            if (checkpoint.kind() == LogListing.Checkpoint.Kind.V2_JSON) {
                String source = "read_ndjson(" + SqlText.list(checkpoint.files()) + ", columns = "
                        + ActionSchema.ndjsonColumns(true) + ", format = 'newline_delimited')";
                manifest = "SELECT CAST(" + v + " AS BIGINT) AS version, \"add\", \"remove\", \"metaData\", \"protocol\" FROM "
                        + source;
                sidecarQuery = "SELECT DISTINCT sidecar.path FROM " + source + " WHERE sidecar IS NOT NULL";
            } else {
                String source = parquet(checkpoint.files());
                Set<String> columns = topLevelColumns(duckdb, source);
                manifest = "SELECT CAST(" + v + " AS BIGINT) AS version, " + castOrNull(columns, "add", ActionSchema.ADD)
                        + ", " + castOrNull(columns, "remove", ActionSchema.REMOVE) + ", "
                        + castOrNull(columns, "metaData", ActionSchema.METADATA) + ", "
                        + castOrNull(columns, "protocol", ActionSchema.PROTOCOL) + " FROM " + source;
                sidecarQuery = columns.contains("sidecar")
                        ? "SELECT DISTINCT sidecar.path FROM " + source + " WHERE sidecar IS NOT NULL"
                        : null;
            }
            List<String> sidecars = new ArrayList<>();
            if (sidecarQuery != null) {
                try (Statement st = duckdb.createStatement(); ResultSet rs = st.executeQuery(sidecarQuery)) {
                    while (rs.next()) {
                        sidecars.add(TablePaths.resolve(TablePaths.logDir(table) + "/_sidecars", rs.getString(1)));
                    }
                }
            }
            if (sidecars.isEmpty()) {
                return manifest;
            }
            String sidecarSource = parquet(sidecars);
            Set<String> sidecarColumns;
            try {
                sidecarColumns = topLevelColumns(duckdb, sidecarSource);
            } catch (SQLException e) {
                throw new CorruptLogException(table, first, "cannot read the sidecar files of checkpoint " + sidecars
                        + " (" + e.getMessage() + ")", e);
            }
            return manifest + " UNION ALL SELECT CAST(" + v + " AS BIGINT), "
                    + castOrNull(sidecarColumns, "add", ActionSchema.ADD) + ", "
                    + castOrNull(sidecarColumns, "remove", ActionSchema.REMOVE) + ", CAST(NULL AS " + ActionSchema.METADATA
                    + "), CAST(NULL AS " + ActionSchema.PROTOCOL + ") FROM " + sidecarSource;
        } catch (SQLException e) {
            throw new CorruptLogException(table, first, "cannot read checkpoint (" + e.getMessage() + ")", e);
        }
    }

    private static String parquet(List<String> files) {
        return "read_parquet(" + SqlText.list(files) + ", union_by_name = true, hive_partitioning = false)";
    }

    private static Set<String> topLevelColumns(Connection duckdb, String source) throws SQLException {
        Set<String> columns = new HashSet<>();
        try (Statement st = duckdb.createStatement(); ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM " + source)) {
            while (rs.next()) {
                columns.add(rs.getString(1));
            }
        }
        return columns;
    }

    private static String castOrNull(Set<String> columns, String column, String type) {
        String id = SqlText.ident(column);
        return (columns.contains(column) ? "CAST(" + id + " AS " + type + ")" : "CAST(NULL AS " + type + ")") + " AS " + id;
    }
}
