package io.deltafunnel.sample;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * A small, append-only Delta Lake writer for local tables: it writes Parquet data files with DuckDB and
 * commits them with a JSON log entry. It exists to build sample and benchmark tables reproducibly with the
 * project's own code; it is not a general-purpose Delta writer (no partitions, no concurrent writers, no
 * checkpoints). Each {@code add} carries {@code stats} with {@code numRecords} only (no column statistics).
 *
 * <p>The caller owns the DuckDB connection.
 */
public final class SampleDeltaWriter {

    private final Connection duckdb;
    private final Path table;

    public SampleDeltaWriter(Connection duckdb, Path table) {
        this.duckdb = duckdb;
        this.table = table;
    }

    /**
     * Writes the rows of {@code select} as {@code files} Parquet files and commits them as the next version.
     * The first commit also writes the protocol and the table metadata, with the schema taken from the query.
     * Rows are split over the files by {@code row_number() % files}, in the order of the query.
     *
     * @return the committed version
     */
    public long append(String select, int files) throws SQLException, IOException {
        if (files < 1) {
            throw new IllegalArgumentException("files must be at least 1");
        }
        Path log = table.resolve("_delta_log");
        Files.createDirectories(log);
        long version = nextVersion(log);
        List<String> actions = new ArrayList<>();
        if (version == 0) {
            String schema = schemaString(select);
            // timestamp_ntz needs the table feature of that name (reader 3 / writer 7).
            actions.add(schema.contains("\"timestamp_ntz\"")
                    ? "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,"
                      + "\"readerFeatures\":[\"timestampNtz\"],\"writerFeatures\":[\"timestampNtz\"]}}"
                    : "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}");
            actions.add("{\"metaData\":{\"id\":\"" + UUID.randomUUID() + "\",\"format\":{\"provider\":\"parquet\","
                        + "\"options\":{}},\"schemaString\":" + jsonString(schema)
                        + ",\"partitionColumns\":[],\"configuration\":{},\"createdTime\":"
                        + System.currentTimeMillis() + "}}");
        }
        long now = System.currentTimeMillis();
        try (Statement st = duckdb.createStatement()) {
            st.execute("CREATE OR REPLACE TEMP TABLE __deltafunnel_write AS SELECT *, (row_number() OVER () - 1) % "
                       + files + " AS __part FROM (" + select + ")");
            for (int f = 0; f < files; f++) {
                String name = String.format(Locale.ROOT, "part-%05d-%s-c000.snappy.parquet", f, UUID.randomUUID());
                Path file = table.resolve(name);
                st.execute("COPY (SELECT * EXCLUDE (__part) FROM __deltafunnel_write WHERE __part = " + f
                           + ") TO " + sqlString(file.toString()) + " (FORMAT parquet, COMPRESSION snappy)");
                long rows;
                try (ResultSet rs = st.executeQuery("SELECT count(*) FROM __deltafunnel_write WHERE __part = " + f)) {
                    rs.next();
                    rows = rs.getLong(1);
                }
                // stats.numRecords, as Delta writers record it: readers can tell the rows without opening the file
                actions.add("{\"add\":{\"path\":" + jsonString(name) + ",\"partitionValues\":{},\"size\":"
                            + Files.size(file) + ",\"modificationTime\":" + now + ",\"dataChange\":true,"
                            + "\"stats\":" + jsonString("{\"numRecords\":" + rows + "}") + "}}");
            }
            st.execute("DROP TABLE __deltafunnel_write");
        }
        actions.add("{\"commitInfo\":{\"timestamp\":" + now + ",\"operation\":\"WRITE\",\"engineInfo\":"
                    + "\"deltafunnel-sample-writer\"}}");
        Path commit = log.resolve(String.format(Locale.ROOT, "%020d.json", version));
        Files.writeString(commit, String.join("\n", actions) + "\n", StandardCharsets.UTF_8,
                StandardOpenOption.CREATE_NEW);
        return version;
    }

    private static long nextVersion(Path log) throws IOException {
        long next = 0;
        try (var entries = Files.list(log)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                String n = p.getFileName().toString();
                if (n.matches("\\d{20}\\.json")) {
                    next = Math.max(next, Long.parseLong(n.substring(0, 20)) + 1);
                }
            }
        }
        return next;
    }

    /** The Delta schema (as JSON) of a query's result, from DuckDB's DESCRIBE. */
    String schemaString(String select) throws SQLException {
        StringBuilder fields = new StringBuilder();
        try (Statement st = duckdb.createStatement();
             ResultSet rs = st.executeQuery("DESCRIBE " + select)) {
            while (rs.next()) {
                if (fields.length() > 0) {
                    fields.append(',');
                }
                fields.append("{\"name\":").append(jsonString(rs.getString("column_name")))
                        .append(",\"type\":").append(deltaType(rs.getString("column_type")))
                        .append(",\"nullable\":true,\"metadata\":{}}");
            }
        }
        return "{\"type\":\"struct\",\"fields\":[" + fields + "]}";
    }

    /** Maps a DuckDB column type to a Delta type (as JSON). Nested types are not supported here. */
    static String deltaType(String duckType) {
        String t = duckType.toUpperCase(Locale.ROOT).trim();
        if (t.startsWith("DECIMAL")) {
            return jsonString(t.toLowerCase(Locale.ROOT).replace(" ", ""));
        }
        String delta = switch (t) {
            case "BOOLEAN" -> "boolean";
            case "TINYINT" -> "byte";
            case "SMALLINT" -> "short";
            case "INTEGER" -> "integer";
            case "BIGINT" -> "long";
            case "FLOAT" -> "float";
            case "DOUBLE" -> "double";
            case "VARCHAR" -> "string";
            case "BLOB" -> "binary";
            case "DATE" -> "date";
            case "TIMESTAMP WITH TIME ZONE" -> "timestamp";
            case "TIMESTAMP" -> "timestamp_ntz";
            default -> throw new IllegalArgumentException("no Delta type for DuckDB type " + duckType);
        };
        return jsonString(delta);
    }

    private static String sqlString(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    static String jsonString(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
