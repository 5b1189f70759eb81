package io.deltafunnel.camel;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Test-side writer of a Delta table whose schema changes between versions, commit by commit as Delta writers do it:
 * a {@code metaData} action with the new schema string in the commit that changes it (mergeSchema adds columns;
 * typeWidening records {@code delta.typeChanges} in the widened field's metadata and the {@code typeWidening} table
 * feature in the protocol), data files written by DuckDB with the physical types of their version (older files keep
 * the narrower type and lack the added columns).
 */
final class SchemaEvolvingDeltaTable {

    private final Connection duck;
    private final Path root;
    private final String id = UUID.randomUUID().toString();
    private long next;
    private int files;
    private boolean changeDataFeed;

    SchemaEvolvingDeltaTable(Connection duck, Path root) throws IOException {
        this.duck = duck;
        this.root = root;
        Files.createDirectories(root.resolve("_delta_log"));
    }

    /** Every metaData written from now on has {@code delta.enableChangeDataFeed=true}. */
    SchemaEvolvingDeltaTable withChangeDataFeed() {
        changeDataFeed = true;
        return this;
    }

    Path path() {
        return root;
    }

    /** A Delta field JSON: {@code field("id", "integer")}; {@code typeChanges} the raw JSON array, or null. */
    static String field(String name, String type, String typeChanges) {
        return "{\"name\":\"" + name + "\",\"type\":\"" + type + "\",\"nullable\":true,\"metadata\":{"
                + (typeChanges == null ? "" : "\"delta.typeChanges\":" + typeChanges) + "}}";
    }

    static String field(String name, String type) {
        return field(name, type, null);
    }

    /**
     * Commits the next version: the protocol and schema when {@code fields} is not null (a schema change), and one
     * data file of {@code select} (DuckDB SQL giving the physical columns of this version). Returns the version.
     */
    long commit(String protocolFeatures, List<String> fields, String select) throws Exception {
        List<String> actions = new ArrayList<>();
        if (fields != null) {
            actions.add(protocolFeatures == null ? "{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":2}}"
                    : "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,\"readerFeatures\":["
                    + protocolFeatures + "],\"writerFeatures\":[" + protocolFeatures + "]}}");
            String schema = "{\"type\":\"struct\",\"fields\":[" + String.join(",", fields) + "]}";
            actions.add("{\"metaData\":{\"id\":\"" + id + "\",\"format\":{\"provider\":\"parquet\",\"options\":{}},"
                    + "\"schemaString\":" + quote(schema) + ",\"partitionColumns\":[],\"configuration\":{"
                    + (changeDataFeed ? "\"delta.enableChangeDataFeed\":\"true\"" : "") + "},"
                    + "\"createdTime\":1}}");
        }
        String file = "part-" + (files++) + ".parquet";
        try (Statement st = duck.createStatement()) {
            st.execute("COPY (" + select + ") TO '" + root.resolve(file).toString().replace("'", "''")
                    + "' (FORMAT parquet)");
        }
        actions.add("{\"add\":{\"path\":\"" + file + "\",\"partitionValues\":{},\"size\":"
                + Files.size(root.resolve(file)) + ",\"modificationTime\":1,\"dataChange\":true}}");
        actions.add("{\"commitInfo\":{\"timestamp\":" + (1_700_000_000_000L + next) + ",\"operation\":\"WRITE\"}}");
        Files.writeString(root.resolve("_delta_log").resolve(String.format("%020d.json", next)),
                String.join("\n", actions) + "\n", StandardCharsets.UTF_8);
        return next++;
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
