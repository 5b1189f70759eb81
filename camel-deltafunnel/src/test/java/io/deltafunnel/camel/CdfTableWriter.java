package io.deltafunnel.camel;

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
 * Test-side Delta writer for change-data-feed tables with columns {@code id INTEGER, name VARCHAR, amount DOUBLE}:
 * inserts (add actions only, as Spark writes them), updates and deletes as copy-on-write rewrites (remove of each
 * touched file, add of its rewritten rows) with or without a {@code _change_data/} file holding the
 * {@code update_preimage}/{@code update_postimage}/{@code delete} rows, and {@code delta.enableChangeDataFeed} in the
 * metaData configuration. Every action as the protocol defines it (dataChange=true on add/remove, false on cdc).
 */
final class CdfTableWriter {

    private static final String SCHEMA = "{\"type\":\"struct\",\"fields\":["
            + "{\"name\":\"id\",\"type\":\"integer\",\"nullable\":true,\"metadata\":{}},"
            + "{\"name\":\"name\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}},"
            + "{\"name\":\"amount\",\"type\":\"double\",\"nullable\":true,\"metadata\":{}}]}";

    private final Connection duck;
    private final Path root;
    private final List<String> live = new ArrayList<>();
    private long next;

    CdfTableWriter(Connection duck, Path root, boolean changeDataFeed) throws IOException {
        this.duck = duck;
        this.root = root;
        Files.createDirectories(root.resolve("_delta_log"));
        commit(List.of("{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":4}}",
                "{\"metaData\":{\"id\":\"" + UUID.randomUUID() + "\",\"format\":{\"provider\":\"parquet\",\"options\":{}},"
                        + "\"schemaString\":" + quote(SCHEMA) + ",\"partitionColumns\":[],\"configuration\":{"
                        + "\"delta.enableChangeDataFeed\":\"" + changeDataFeed + "\"},\"createdTime\":1}}"),
                "CREATE TABLE");
    }

    Path path() {
        return root;
    }

    long version() {
        return next - 1;
    }

    /** Appends {@code VALUES}-style rows, e.g. {@code (1,'a',1.5),(2,'b',2.5)}; returns the version. */
    long insert(String values) throws Exception {
        String file = dataFile("SELECT * FROM (VALUES " + values + ") AS v(id, name, amount)", "");
        live.add(file);
        return commit(List.of(add(file)), "WRITE");
    }

    /** UPDATE ... SET {@code set} WHERE {@code where}; with {@code cdc} a change file with pre/postimages. */
    long update(String set, String where, boolean cdc) throws Exception {
        return rewrite(where, "SELECT id, name, amount FROM (SELECT * REPLACE (" + set + ") FROM __touched)", cdc, "UPDATE");
    }

    /** DELETE WHERE {@code where}; with {@code cdc} a change file with the deleted rows. */
    long delete(String where, boolean cdc) throws Exception {
        return rewrite(where, null, cdc, "DELETE");
    }

    private long rewrite(String where, String updatedSelect, boolean cdc, String operation) throws Exception {
        List<String> actions = new ArrayList<>();
        List<String> touched = new ArrayList<>();
        for (String f : live) {
            if (scalar("SELECT count(*) FROM read_parquet('" + root.resolve(f) + "') WHERE " + where) > 0) {
                touched.add(f);
            }
        }
        if (touched.isEmpty()) {
            throw new IllegalStateException("nothing matches " + where);
        }
        List<String> added = new ArrayList<>();
        for (String f : touched) {
            String all = "SELECT id, name, amount FROM read_parquet('" + root.resolve(f) + "')";
            exec("CREATE OR REPLACE TEMP TABLE __touched AS " + all + " WHERE " + where);
            String kept = all + " WHERE NOT (" + where + ")";
            String rewritten = updatedSelect == null ? kept : kept + " UNION ALL " + updatedSelect;
            actions.add("{\"remove\":{\"path\":" + quote(f) + ",\"deletionTimestamp\":1,\"dataChange\":true,"
                    + "\"extendedFileMetadata\":true,\"partitionValues\":{},\"size\":" + Files.size(root.resolve(f)) + "}}");
            if (scalar("SELECT count(*) FROM (" + rewritten + ")") > 0) {
                String nf = dataFile(rewritten, "");
                added.add(nf);
                actions.add(add(nf));
            }
            if (cdc) {
                String changes = updatedSelect == null
                        ? "SELECT *, 'delete' AS _change_type FROM __touched"
                        : "SELECT *, 'update_preimage' AS _change_type FROM __touched UNION ALL SELECT *,"
                                + " 'update_postimage' FROM (" + updatedSelect + ")";
                String cf = dataFile(changes, "_change_data/");
                actions.add("{\"cdc\":{\"path\":" + quote(cf) + ",\"partitionValues\":{},\"size\":"
                        + Files.size(root.resolve(cf)) + ",\"dataChange\":false}}");
            }
        }
        live.removeAll(touched);
        live.addAll(added);
        return commit(actions, operation);
    }

    private String add(String file) throws IOException {
        return "{\"add\":{\"path\":" + quote(file) + ",\"partitionValues\":{},\"size\":" + Files.size(root.resolve(file))
                + ",\"modificationTime\":1,\"dataChange\":true}}";
    }

    private String dataFile(String select, String dir) throws SQLException, IOException {
        String name = dir + String.format(Locale.ROOT, "part-%05d-%s.parquet", next, UUID.randomUUID());
        Files.createDirectories(root.resolve(name).getParent());
        exec("COPY (" + select + ") TO '" + root.resolve(name) + "' (FORMAT parquet)");
        return name;
    }

    private long commit(List<String> actions, String operation) throws IOException {
        List<String> all = new ArrayList<>(actions);
        all.add("{\"commitInfo\":{\"timestamp\":" + (1_700_000_000_000L + next * 1000) + ",\"operation\":\""
                + operation + "\"}}");
        Files.writeString(root.resolve("_delta_log").resolve(String.format(Locale.ROOT, "%020d.json", next)),
                String.join("\n", all) + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW);
        return next++;
    }

    private void exec(String sql) throws SQLException {
        try (Statement st = duck.createStatement()) {
            st.execute(sql);
        }
    }

    private long scalar(String sql) throws SQLException {
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
