package io.deltafunnel.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.deltafunnel.delta.ChangeFeed;
import io.deltafunnel.delta.DeltaTableSpec;
import io.deltafunnel.delta.DeltaViews;
import io.deltafunnel.handoff.IncrementalLoad;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.WriteMode;
import io.deltafunnel.mssql.session.BulkLoadSession;
import io.deltafunnel.query.ArrowBatch;
import io.deltafunnel.query.DuckDbSettings;
import io.deltafunnel.query.PinningPreparer;
import io.deltafunnel.query.QueryRun;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The corpus's change-feed tables through change mode into the emulator: for every pair of readable versions
 * {@code a < b} listed in {@code expected-versions.jsonl}, load the snapshot at {@code a} (change mode's initial load,
 * all rows as inserts), apply the changes {@code (a, b]} with the change merge on the table's key, read the target
 * back and compare its fingerprint (FINGERPRINT.md, rendered from the JDBC values) with the expected fingerprint of
 * {@code b}. Skipped with a message when the corpus is absent.
 *
 * <p>Keys, chosen per table (a change merge needs a key that is unique in every version and never updated):
 * {@code id} for {@code cdf-table}, {@code cdf-table-with-cdc-and-dvs}, {@code simple_table_with_cdc};
 * {@code (id, name)} for {@code cdf-table-non-partitioned}, whose version 4 appends two rows with ids that already
 * exist ({@code id} alone is not unique there); {@code name} for {@code cdc_ict_table} (no id column) and for
 * {@code checkpoint-cdf-table}, whose version 5 is an UPDATE of {@code id} itself ({@code id = id + 1}), so {@code id}
 * cannot identify a row across versions there. The uniqueness of the key in every version is checked first.
 */
class ChangeFeedCorpusConsistencyTest extends EmulatorRouteTestSupport {

    private static final Map<String, String> KEYS = new LinkedHashMap<>();

    static {
        KEYS.put("cdc_ict_table", "name");
        KEYS.put("cdf-table", "id");
        KEYS.put("cdf-table-non-partitioned", "id,name");
        KEYS.put("cdf-table-with-cdc-and-dvs", "id");
        KEYS.put("checkpoint-cdf-table", "name");
        KEYS.put("simple_table_with_cdc", "id");
    }

    static Path corpus() {
        String location = System.getProperty("deltafunnel.corpus");
        if (location == null || location.isBlank()) {
            location = System.getenv("DELTAFUNNEL_CORPUS");
        }
        if (location == null || location.isBlank()) {
            location = "../shared/delta-corpus";
        }
        return Path.of(location).toAbsolutePath().normalize();
    }

    record Expected(long version, List<String[]> columns, String fingerprint) {
    }

    @Test
    void everyVersionPairOfEveryChangeFeedTable() throws Exception {
        Path root = corpus();
        Path expectations = root.resolve("expected-versions.jsonl");
        if (!Files.isRegularFile(expectations)) {
            System.out.println("SKIPPED ChangeFeedCorpusConsistencyTest: Delta corpus not found at " + root
                    + " (set -Ddeltafunnel.corpus or DELTAFUNNEL_CORPUS)");
            Assumptions.abort("Delta corpus not found at " + root);
        }
        Map<String, TreeMap<Long, Expected>> byTable = new LinkedHashMap<>();
        for (String line : Files.readAllLines(expectations, StandardCharsets.UTF_8)) {
            Map<String, Object> o = JsonLite.parse(line);
            String name = (String) o.get("table");
            if (!KEYS.containsKey(name) || o.containsKey("error")) {
                continue; // unreadable versions (checkpoint-cdf-table 0-2) are not listed as loadable
            }
            List<String[]> cols = new ArrayList<>();
            for (Object c : (List<?>) o.get("columns")) {
                Map<?, ?> m = (Map<?, ?>) c;
                cols.add(new String[] {(String) m.get("name"), (String) m.get("type")});
            }
            byTable.computeIfAbsent(name, k -> new TreeMap<>()).put(((Number) o.get("version")).longValue(),
                    new Expected(((Number) o.get("version")).longValue(), cols, (String) o.get("fingerprint")));
        }
        int pairs = 0;
        List<String> failuresSeen = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator();
             Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            for (Map.Entry<String, TreeMap<Long, Expected>> e : byTable.entrySet()) {
                String name = e.getKey();
                String path = root.resolve("tables").resolve(name).toString();
                String key = KEYS.get(name);
                for (long v : e.getValue().keySet()) {
                    assertKeyUnique(duck, path, v, key, name);
                }
                List<Long> versions = new ArrayList<>(e.getValue().keySet());
                for (int i = 0; i < versions.size(); i++) {
                    for (int j = i + 1; j < versions.size(); j++) {
                        long a = versions.get(i);
                        long b = versions.get(j);
                        Expected exp = e.getValue().get(b);
                        String target = "cdf_corpus";
                        dropIfExists(target);
                        String stateKey = name + "@" + a + ".." + b;
                        load(allocator, path, null, a, target, key, stateKey, null);
                        load(allocator, path, a, b, target, key, stateKey, a);
                        String got = fingerprint(target, exp.columns());
                        pairs++;
                        if (!got.equals(exp.fingerprint())) {
                            failuresSeen.add(name + " " + a + " -> " + b);
                        }
                    }
                }
                System.out.println("change-feed consistency: " + name + " (key " + key + "): "
                        + versions.size() * (versions.size() - 1) / 2 + " version pairs checked");
            }
        }
        assertTrue(pairs > 300, "pairs checked: " + pairs);
        assertEquals(List.of(), failuresSeen, "pairs whose target fingerprint differs from the expected one");
    }

    private void assertKeyUnique(Connection duck, String path, long version, String key, String table) throws Exception {
        DeltaViews.register(duck, List.of(new DeltaTableSpec("k", path, version, null)));
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(*) - count(DISTINCT (" + quoted(key) + ")), count(*) FILTER"
                     + " (WHERE " + String.join(" IS NULL OR ", quotedList(key)) + " IS NULL) FROM k")) {
            rs.next();
            assertEquals(0, rs.getLong(1) + rs.getLong(2), table + " v" + version + ": key " + key
                    + " is not unique/non-null");
        }
    }

    private static List<String> quotedList(String key) {
        return Arrays.stream(key.split(",")).map(k -> "\"" + k + "\"").toList();
    }

    private static String quoted(String key) {
        return String.join(", ", quotedList(key));
    }

    /** One change-mode run into {@code target}: changes (from, to], or the snapshot at {@code to} as inserts. */
    private void load(BufferAllocator allocator, String path, Long from, long to, String target, String key,
            String stateKey, Long stored) throws Exception {
        PinningPreparer preparer = (c, pinned) -> {
            ChangeFeed.register(c, "t", path, from, to);
            return Map.of("t", to);
        };
        BulkLoadSettings settings = BulkLoadSettings.defaults(new TableName("dbo", target))
                .withWriteMode(WriteMode.MERGE, BulkLoadSettings.parseList(key)).withCreateTable(true);
        IncrementalLoad record = new IncrementalLoad("dbo.deltafunnel_state", stateKey, "changes",
                List.of(new IncrementalLoad.Source("t", path, stored, from, to, true)));
        try (QueryRun run = QueryRun.open("corpus", new DuckDbSettings(null, List.of(), false), List.of(preparer),
                "SELECT * FROM t", 1000, allocator);
             BulkLoadSession session = BulkLoadSession.start(run.runId(), settings, this::jdbc).recording(record)) {
            ArrowBatch batch;
            while ((batch = run.next()) != null) {
                try (ArrowBatch b = batch) {
                    session.write(b.root(), b.last());
                }
                if (batch.last()) {
                    break;
                }
            }
            assertEquals(BulkLoadSession.State.COMMITTED, session.state(), path + " " + from + " -> " + to);
        }
    }

    /** FINGERPRINT.md over the target's rows, rendered from JDBC values by the expected Delta types. */
    private String fingerprint(String target, List<String[]> columns) throws Exception {
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < columns.size(); i++) {
            select.append(i > 0 ? ", " : "").append('[').append(columns.get(i)[0]).append(']');
        }
        select.append(" FROM [dbo].[").append(target).append(']');
        List<byte[]> rows = new ArrayList<>();
        try (Connection c = jdbc(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(select.toString())) {
            while (rs.next()) {
                StringBuilder row = new StringBuilder();
                for (int i = 0; i < columns.size(); i++) {
                    if (i > 0) {
                        row.append('\u0001');
                    }
                    Object v = rs.getObject(i + 1);
                    row.append(v == null ? "\\N" : render(columns.get(i)[1], rs, i + 1));
                }
                rows.add(row.toString().getBytes(StandardCharsets.UTF_8));
            }
        }
        rows.sort(Arrays::compareUnsigned);
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        for (byte[] r : rows) {
            sha.update(r);
            sha.update((byte) '\n');
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static String render(String type, ResultSet rs, int i) throws Exception {
        return switch (type) {
            case "byte", "short", "integer", "long" -> Long.toString(rs.getLong(i));
            case "boolean" -> Boolean.toString(rs.getBoolean(i));
            case "double" -> Double.toString(rs.getDouble(i));
            case "float" -> Float.toString(rs.getFloat(i));
            case "string" -> rs.getString(i);
            case "date" -> rs.getDate(i).toLocalDate().toString();
            default -> {
                if (type.startsWith("decimal")) {
                    int scale = Integer.parseInt(type.substring(type.indexOf(',') + 1, type.indexOf(')')));
                    yield rs.getBigDecimal(i).setScale(scale).toPlainString();
                }
                throw new IllegalArgumentException("no rendering for " + type);
            }
        };
    }

    /** The smallest JSON reader this test needs (objects, arrays, strings, numbers, booleans, null). */
    static final class JsonLite {
        private final String s;
        private int p;

        private JsonLite(String s) {
            this.s = s;
        }

        @SuppressWarnings("unchecked")
        static Map<String, Object> parse(String text) {
            return (Map<String, Object>) new JsonLite(text).value();
        }

        private Object value() {
            ws();
            char c = s.charAt(p);
            if (c == '{') {
                Map<String, Object> m = new LinkedHashMap<>();
                p++;
                ws();
                if (s.charAt(p) == '}') {
                    p++;
                    return m;
                }
                while (true) {
                    ws();
                    String k = string();
                    ws();
                    p++; // :
                    m.put(k, value());
                    ws();
                    if (s.charAt(p++) == '}') {
                        return m;
                    }
                }
            }
            if (c == '[') {
                List<Object> l = new ArrayList<>();
                p++;
                ws();
                if (s.charAt(p) == ']') {
                    p++;
                    return l;
                }
                while (true) {
                    l.add(value());
                    ws();
                    if (s.charAt(p++) == ']') {
                        return l;
                    }
                }
            }
            if (c == '"') {
                return string();
            }
            if (s.startsWith("true", p)) {
                p += 4;
                return true;
            }
            if (s.startsWith("false", p)) {
                p += 5;
                return false;
            }
            if (s.startsWith("null", p)) {
                p += 4;
                return null;
            }
            int start = p;
            while (p < s.length() && "+-0123456789.eE".indexOf(s.charAt(p)) >= 0) {
                p++;
            }
            return new BigDecimal(s.substring(start, p));
        }

        private String string() {
            StringBuilder sb = new StringBuilder();
            p++;
            while (true) {
                char c = s.charAt(p++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c == '\\') {
                    char e = s.charAt(p++);
                    switch (e) {
                        case 'n' -> sb.append('\n');
                        case 't' -> sb.append('\t');
                        case 'r' -> sb.append('\r');
                        case 'b' -> sb.append('\b');
                        case 'f' -> sb.append('\f');
                        case 'u' -> {
                            sb.append((char) Integer.parseInt(s.substring(p, p + 4), 16));
                            p += 4;
                        }
                        default -> sb.append(e);
                    }
                } else {
                    sb.append(c);
                }
            }
        }

        private void ws() {
            while (p < s.length() && Character.isWhitespace(s.charAt(p))) {
                p++;
            }
        }
    }
}
