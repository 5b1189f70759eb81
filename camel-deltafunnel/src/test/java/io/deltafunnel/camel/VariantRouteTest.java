package io.deltafunnel.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.deltafunnel.delta.DeltaConformanceTest;
import io.deltafunnel.delta.VariantTables;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delta tables with variant columns loaded through {@code deltafunnel:} into the emulator with {@code createTable}:
 * every variant arrives as its JSON text in an {@code nvarchar(max)} column (a variant nested in a struct, array or
 * map as a JSON string inside the container's JSON text). Generated unshredded and shredded tables
 * ({@link VariantTables}) and the corpus' {@code spark-variant-checkpoint}. {@link VariantDirectRouteTest} runs the
 * same with {@code bulkEncoder=direct}.
 */
class VariantRouteTest extends EmulatorRouteTestSupport {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private String deltaSource(Path delta, String sql, int batchSize) {
        return "deltafunnel:" + table + "?delta.t=" + delta + "&query=RAW(" + sql + ")&batchSize=" + batchSize
                + "&repeatCount=1&initialDelay=0";
    }

    private List<String> column(String name) throws Exception {
        List<String> values = new ArrayList<>();
        for (List<Object> row : query("SELECT [" + name + "] FROM [dbo].[" + table + "] ORDER BY [id]")) {
            values.add((String) row.get(0));
        }
        return values;
    }

    @Test
    void generatedUnshreddedVariantsLoadAsJsonText() throws Exception {
        VariantTables.Generated g;
        try (Connection duckdb = DuckDbConnections.open(DuckDbSettings.inMemory())) {
            g = VariantTables.writeUnshredded(duckdb, dir.resolve("unshredded"));
        }
        int rows = g.expected().size();
        runRoute(deltaSource(g.root(), "SELECT * FROM t ORDER BY id", 10), mssql("createTable=true"),
                (rows + 9) / 10, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        List<Object> types = new ArrayList<>();
        for (List<Object> r : query("SELECT DATA_TYPE, CHARACTER_MAXIMUM_LENGTH FROM INFORMATION_SCHEMA.COLUMNS "
                + "WHERE TABLE_NAME = '" + table + "' AND COLUMN_NAME = 'v'")) {
            types.addAll(r);
        }
        assertEquals(List.of("nvarchar", -1), types.stream().map(o -> o instanceof Number n ? n.intValue() : o).toList());
        assertEquals(new ArrayList<>(g.expected().values()), column("v"));
        List<String> s = column("s");
        List<String> a = column("a");
        List<String> m = column("m");
        int i = 0;
        for (Map.Entry<Long, String> e : g.expected().entrySet()) {
            String json = e.getValue();
            JsonNode struct = JSON.readTree(s.get(i));
            assertEquals(e.getKey().longValue(), struct.get("n").asLong());
            JsonNode array = JSON.readTree(a.get(i));
            JsonNode map = JSON.readTree(m.get(i));
            if (json == null) {
                assertTrue(struct.get("v") == null || struct.get("v").isNull(), s.get(i));
                assertTrue(array.get(0).isNull(), a.get(i));
            } else {
                assertEquals(json, struct.get("v").asText(), "s.v of id " + e.getKey());
                assertEquals(json, array.get(0).asText(), "a[0] of id " + e.getKey());
                assertTrue(array.get(1).isNull(), a.get(i));
                assertEquals(json, map.get("k").asText(), "m.k of id " + e.getKey());
            }
            i++;
        }
        stopAndAssertNoArrowLeak();
    }

    @Test
    void generatedShreddedVariantsLoadAsJsonText() throws Exception {
        Path root = dir.resolve("shredded");
        Map<String, List<String>> expected;
        try (Connection duckdb = DuckDbConnections.open(DuckDbSettings.inMemory())) {
            expected = VariantTables.writeShredded(duckdb, root);
        }
        runRoute(deltaSource(root, "SELECT * FROM t", 100), mssql("createTable=true"), 1, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        for (Map.Entry<String, List<String>> e : expected.entrySet()) {
            assertEquals(e.getValue(), column(e.getKey()), "column " + e.getKey());
        }
        stopAndAssertNoArrowLeak();
    }

    @Test
    void theCorpusSparkVariantTableLoads() throws Exception {
        Path corpus = DeltaConformanceTest.corpus().resolve("tables").resolve("spark-variant-checkpoint");
        Assumptions.assumeTrue(Files.isDirectory(corpus), "Delta corpus table " + corpus + " not found; skipping");
        runRoute(deltaSource(corpus, "SELECT id, v, array_of_variants FROM t", 1000), mssql("createTable=true"), 1, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(102, count(table));
        List<List<Object>> rows = query("SELECT [id], [v], [array_of_variants] FROM [dbo].[" + table + "] ORDER BY [id]");
        for (List<Object> row : rows) {
            long id = ((Number) row.get(0)).longValue();
            String v = "{\"key\":" + id + "}";
            assertEquals(v, row.get(1), "v of id " + id);
            JsonNode array = JSON.readTree((String) row.get(2));
            assertEquals(v, array.get(0).asText());
            assertTrue(array.get(1).isNull());
        }
        stopAndAssertNoArrowLeak();
    }
}
