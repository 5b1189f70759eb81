package io.deltafunnel.delta;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.stream.Collectors;

/**
 * Test-side generator of small Delta tables: data files written by DuckDB {@code COPY ... TO}, JSON commits written
 * here, checkpoints and sidecars written by DuckDB from JSON rows with the checkpoint struct columns.
 */
final class DeltaTableWriter {

    static final String CHECKPOINT_COLUMNS = "{add: " + SqlText.literal(ActionSchema.ADD) + ", remove: "
            + SqlText.literal(ActionSchema.REMOVE) + ", metaData: " + SqlText.literal(ActionSchema.METADATA)
            + ", protocol: " + SqlText.literal(ActionSchema.PROTOCOL) + "}";
    static final String V2_CHECKPOINT_COLUMNS = "{add: " + SqlText.literal(ActionSchema.ADD) + ", remove: "
            + SqlText.literal(ActionSchema.REMOVE) + ", metaData: " + SqlText.literal(ActionSchema.METADATA)
            + ", protocol: " + SqlText.literal(ActionSchema.PROTOCOL)
            + ", checkpointMetadata: 'STRUCT(version BIGINT)', sidecar: 'STRUCT(path VARCHAR, sizeInBytes BIGINT, modificationTime BIGINT)'}";
    static final String SIDECAR_COLUMNS = "{add: " + SqlText.literal(ActionSchema.ADD) + ", remove: "
            + SqlText.literal(ActionSchema.REMOVE) + "}";

    final Path root;
    final Path log;
    private final Connection conn;

    DeltaTableWriter(Connection conn, Path root) {
        this.conn = conn;
        this.root = root;
        this.log = root.resolve("_delta_log");
        try {
            Files.createDirectories(log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes {@code select} as a Parquet file at {@code relative} (a plain, unencoded relative path). Returns its size. */
    long dataFile(String relative, String select) {
        return dataFile(relative, select, null);
    }

    long dataFile(String relative, String select, String fieldIds) {
        Path target = root.resolve(relative);
        try {
            Files.createDirectories(target.getParent());
            sql("COPY (" + select + ") TO " + SqlText.literal(target.toString()) + " (FORMAT parquet"
                    + (fieldIds == null ? "" : ", FIELD_IDS " + fieldIds) + ")");
            return Files.size(target);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void commit(long version, String... actions) {
        write(log.resolve(String.format("%020d.json", version)), String.join("\n", actions) + "\n");
    }

    void write(Path file, String content) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes JSON action rows as a Parquet file with the given {@code read_ndjson} columns (checkpoint, sidecar). */
    void parquetFromJson(Path target, String columns, String... rows) {
        try {
            Files.createDirectories(target.getParent());
            Path json = Files.createTempFile(root.getParent(), "rows", ".json");
            Files.writeString(json, String.join("\n", rows) + "\n", StandardCharsets.UTF_8);
            sql("COPY (SELECT * FROM read_ndjson(" + SqlText.literal(json.toString()) + ", columns = " + columns
                    + ")) TO " + SqlText.literal(target.toString()) + " (FORMAT parquet)");
            Files.delete(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void classicCheckpoint(long version, String... rows) {
        parquetFromJson(log.resolve(String.format("%020d.checkpoint.parquet", version)), CHECKPOINT_COLUMNS, rows);
    }

    void sql(String sql) {
        try (Statement st = conn.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + ": " + e.getMessage(), e);
        }
    }

    // ---- action JSON ----

    static String protocol(int reader, int writer, String... readerFeatures) {
        if (reader < 3) {
            return "{\"protocol\":{\"minReaderVersion\":" + reader + ",\"minWriterVersion\":" + writer + "}}";
        }
        String features = Arrays.stream(readerFeatures).map(DeltaTableWriter::str).collect(Collectors.joining(","));
        return "{\"protocol\":{\"minReaderVersion\":" + reader + ",\"minWriterVersion\":" + writer + ",\"readerFeatures\":["
                + features + "],\"writerFeatures\":[" + features + "]}}";
    }

    static String metadata(String schemaJson, List<String> partitionColumns, Map<String, String> configuration) {
        return "{\"metaData\":{\"id\":\"test-table\",\"format\":{\"provider\":\"parquet\",\"options\":{}},\"schemaString\":"
                + str(schemaJson) + ",\"partitionColumns\":["
                + partitionColumns.stream().map(DeltaTableWriter::str).collect(Collectors.joining(",")) + "],\"configuration\":"
                + map(configuration) + ",\"createdTime\":1700000000000}}";
    }

    static String metadata(String schemaJson) {
        return metadata(schemaJson, List.of(), Map.of());
    }

    static String add(String uriPath, Map<String, String> partitionValues, String deletionVectorJson) {
        return "{\"add\":{\"path\":" + str(uriPath) + ",\"partitionValues\":" + map(partitionValues)
                + ",\"size\":1,\"modificationTime\":1700000000000,\"dataChange\":true"
                + (deletionVectorJson == null ? "" : ",\"deletionVector\":" + deletionVectorJson) + "}}";
    }

    static String add(String uriPath) {
        return add(uriPath, Map.of(), null);
    }

    static String remove(String uriPath) {
        return "{\"remove\":{\"path\":" + str(uriPath) + ",\"deletionTimestamp\":1700000000000,\"dataChange\":true}}";
    }

    static String commitInfo(Long inCommitTimestamp) {
        return "{\"commitInfo\":{\"timestamp\":1700000000000" + (inCommitTimestamp == null ? ""
                : ",\"inCommitTimestamp\":" + inCommitTimestamp) + ",\"operation\":\"WRITE\"}}";
    }

    static String dv(String storageType, String pathOrInline, Integer offset, int size, long cardinality) {
        return "{\"storageType\":" + str(storageType) + ",\"pathOrInlineDv\":" + str(pathOrInline)
                + (offset == null ? "" : ",\"offset\":" + offset) + ",\"sizeInBytes\":" + size + ",\"cardinality\":"
                + cardinality + "}";
    }

    // ---- schema JSON ----

    static String schema(String... fields) {
        return "{\"type\":\"struct\",\"fields\":[" + String.join(",", fields) + "]}";
    }

    static String field(String name, String typeJson) {
        return field(name, typeJson, Map.of());
    }

    /** {@code typeJson} is either a quoted primitive ("\"long\"") or a nested type object. */
    static String field(String name, String typeJson, Map<String, Object> metadata) {
        StringJoiner meta = new StringJoiner(",", "{", "}");
        for (Map.Entry<String, Object> e : metadata.entrySet()) {
            meta.add(str(e.getKey()) + ":" + (e.getValue() instanceof String s ? str(s)
                    : e.getValue() instanceof RawJson raw ? raw.json() : String.valueOf(e.getValue())));
        }
        return "{\"name\":" + str(name) + ",\"type\":" + typeJson + ",\"nullable\":true,\"metadata\":" + meta + "}";
    }

    /** A metadata value written as raw JSON (arrays, objects). */
    record RawJson(String json) {
    }

    static String prim(String name) {
        return str(name);
    }

    static Map<String, Object> mapped(int id, String physical) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(SchemaParser.FIELD_ID, id);
        m.put(SchemaParser.PHYSICAL_NAME, physical);
        return m;
    }

    static String map(Map<String, String> values) {
        StringJoiner j = new StringJoiner(",", "{", "}");
        for (Map.Entry<String, String> e : values.entrySet()) {
            j.add(str(e.getKey()) + ":" + (e.getValue() == null ? "null" : str(e.getValue())));
        }
        return j.toString();
    }

    static Map<String, String> pv(String... keyValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    /** A JSON string literal. */
    static String str(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }

    static List<String> list(String... values) {
        return new ArrayList<>(Arrays.asList(values));
    }
}
