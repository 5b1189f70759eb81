package io.deltafunnel.delta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.apache.arrow.memory.RootAllocator;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.duckdb.DuckDBResultSet;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Reads every table (and every version) of the shared Delta corpus through {@link DeltaViews} and DuckDB's Arrow
 * export, and compares row counts and fingerprints with the reference reader's results. Skipped when the corpus is
 * not present (system property {@code deltafunnel.corpus}, env {@code DELTAFUNNEL_CORPUS}, default
 * {@code ../shared/delta-corpus}).
 */
public class DeltaConformanceTest {

    /** An expectation line as plain values, integers as {@link Long}. */
    private static final JsonMapper EXPECTATIONS = JsonMapper.builder()
            .enable(DeserializationFeature.USE_LONG_FOR_INTS).build();

    /** Where the corpus is: -Ddeltafunnel.corpus, then $DELTAFUNNEL_CORPUS, then ../shared/delta-corpus. */
    public static Path corpus() {
        String location = System.getProperty("deltafunnel.corpus");
        if (location == null || location.isBlank()) {
            location = System.getenv("DELTAFUNNEL_CORPUS");
        }
        if (location == null || location.isBlank()) {
            location = "../shared/delta-corpus";
        }
        return Path.of(location).toAbsolutePath().normalize();
    }

    @TestFactory
    Stream<DynamicTest> latestVersions() throws Exception {
        return tests("expected.jsonl");
    }

    @TestFactory
    Stream<DynamicTest> timeTravel() throws Exception {
        return tests("expected-versions.jsonl");
    }

    private Stream<DynamicTest> tests(String file) throws Exception {
        Path root = corpus();
        Path expectations = root.resolve(file);
        Assumptions.assumeTrue(Files.isRegularFile(expectations),
                "Delta corpus not found at " + root + " (set -Ddeltafunnel.corpus or DELTAFUNNEL_CORPUS); skipping conformance");
        List<DynamicTest> tests = new ArrayList<>();
        for (String line : Files.readAllLines(expectations, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, Object> expected = EXPECTATIONS.readValue(line, new TypeReference<Map<String, Object>>() { });
            String table = (String) expected.get("table");
            Long requested = (Long) expected.get("requested_version");
            String name = requested == null ? table : table + "@v" + requested;
            tests.add(DynamicTest.dynamicTest(name, () -> check(root.resolve("tables").resolve(table), requested, expected)));
        }
        return tests.stream();
    }

    @SuppressWarnings("unchecked")
    private static void check(Path table, Long requested, Map<String, Object> expected) throws Exception {
        DeltaTableSpec spec = new DeltaTableSpec("t", table.toString(), requested, null);
        try (Connection conn = DriverManager.getConnection("jdbc:duckdb:")) {
            if (expected.containsKey("error")) {
                if (Boolean.TRUE.equals(expected.get("lenient"))) {
                    try {
                        DeltaViews.register(conn, List.of(spec));
                        try (Statement st = conn.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM t")) {
                            rs.next();
                        }
                    } catch (DeltaException | java.sql.SQLException refused) {
                        assertTrue(refused.getMessage() != null && !refused.getMessage().isBlank());
                    }
                    return;
                }
                DeltaException e = assertThrows(DeltaException.class, () -> DeltaViews.register(conn, List.of(spec)));
                assertTrue(e.getMessage().contains(table.toString()), "message names the table: " + e.getMessage());
                return;
            }
            DeltaSnapshot snapshot = DeltaViews.register(conn, List.of(spec)).get(0);
            assertEquals(((Long) expected.get("version")).longValue(), snapshot.version(), "version");
            List<String> names = new ArrayList<>();
            List<String> types = new ArrayList<>();
            for (Map<String, Object> c : (List<Map<String, Object>>) expected.get("columns")) {
                names.add((String) c.get("name"));
                types.add((String) c.get("type"));
            }
            assertEquals(names, snapshot.schema().stream().map(DeltaColumn::name).toList(), "column names");
            assertEquals(types, snapshot.schema().stream().map(c -> c.type().simpleString()).toList(), "column types");
            List<String> skipped = expected.containsKey("skipped_columns")
                    ? (List<String>) expected.get("skipped_columns") : List.of();
            // the corpus fingerprints leave variant columns out; this reader decodes them (checked against the
            // generating tests' values in VariantCorpusTest), so only the other skipped columns must be skipped here
            List<String> variantColumns = snapshot.schema().stream().filter(c -> c.type().containsVariant())
                    .map(DeltaColumn::name).toList();
            assertEquals(skipped.stream().filter(c -> !variantColumns.contains(c)).toList(), snapshot.skippedColumns(),
                    "skipped columns");
            try (RootAllocator allocator = new RootAllocator();
                    Statement st = conn.createStatement();
                    ResultSet rs = st.executeQuery("SELECT * FROM t");
                    ArrowReader reader = (ArrowReader) rs.unwrap(DuckDBResultSet.class).arrowExportStream(allocator, 1024)) {
                ArrowFingerprint fp = ArrowFingerprint.of(skipped, reader);
                assertEquals(((Long) expected.get("rows")).longValue(), fp.rowCount(), "rows");
                assertEquals(expected.get("fingerprint"), fp.hex(), "fingerprint");
            }
        }
    }
}
