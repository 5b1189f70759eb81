package io.deltafunnel.camel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.bind.Rejection;
import io.deltafunnel.mssql.bind.ValueOutOfRangeException;
import microsoft.sql.Vector;
import org.junit.jupiter.api.Test;

/**
 * SQL Server 2025 targets through {@code deltafunnel-mssql} into the emulator: a 768-dimension embedding
 * (DuckDB {@code FLOAT[768]}, Arrow FixedSizeList&lt;Float32&gt;(768)) round-trips exactly into {@code vector(768)}
 * and reads back as {@link Vector}; a list of doubles goes into a vector too; nested structs and JSON text load into
 * {@code json} columns. Bad input is refused before anything is written: a list of the wrong length, a non-JSON
 * string. {@link ModernTypesDirectRouteTest} runs the same with {@code bulkEncoder=direct}.
 */
class ModernTypesRouteTest extends EmulatorRouteTestSupport {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Element x of row i: exact in float32 and in DuckDB's arithmetic (a multiple of 1/64). */
    private static float element(int i, int x) {
        return (((i * 31 + x) % 1000) - 500) / 64f;
    }

    private static final String EMBEDDINGS = "SELECT i::INT AS id, list_transform(range(768),"
            + " lambda x: ((((i * 31 + x) % 1000) - 500) / 64)::FLOAT)::FLOAT[768] AS emb FROM range(5) t(i) ORDER BY i";

    private Float[][] vectors(String column, int rows) throws Exception {
        Float[][] out = new Float[rows][];
        try (Connection c = jdbc(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT [" + column + "] FROM [dbo].[" + table + "] ORDER BY [id]")) {
            for (int r = 0; r < rows; r++) {
                assertTrue(rs.next());
                Vector v = rs.getObject(1, Vector.class);
                assertEquals(Vector.VectorDimensionType.FLOAT32, v.getVectorDimensionType());
                Object[] data = v.getData();
                out[r] = new Float[data.length];
                for (int k = 0; k < data.length; k++) {
                    out[r][k] = (Float) data[k];
                }
            }
        }
        return out;
    }

    @Test
    void anEmbeddingRoundTripsExactlyIntoVector768() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [emb] vector(768) NULL)");
        runRoute(source(EMBEDDINGS, 2), mssql(""), 3, null);
        assertTrue(failures.isEmpty(), failures::toString);
        Float[][] got = vectors("emb", 5);
        for (int i = 0; i < 5; i++) {
            Float[] expected = new Float[768];
            for (int x = 0; x < 768; x++) {
                expected[x] = element(i, x);
            }
            assertArrayEquals(expected, got[i], "row " + i);
        }
        stopAndAssertNoArrowLeak();
    }

    @Test
    void listsOfDoublesGoIntoAVector() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [v] vector(3) NULL)");
        runRoute(source("SELECT 1 AS id, [0.5, -2.25, 1e10]::DOUBLE[] AS v UNION ALL SELECT 2, NULL ORDER BY id", 10),
                mssql(""), 1, null);
        assertTrue(failures.isEmpty(), failures::toString);
        assertArrayEquals(new Float[] {0.5f, -2.25f, 1e10f}, vectors("v", 1)[0]);
        assertEquals(List.of(List.of(1)), query("SELECT COUNT(*) FROM [dbo].[" + table + "] WHERE [v] IS NULL"));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void nestedStructsAndJsonTextLoadIntoJsonColumns() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [doc] json NULL, [txt] json NULL)");
        runRoute(source("SELECT 1 AS id, {'a': 1, 'b': [1, 2], 'c': {'d': 'x\u00e9'}, 'm': MAP {'k': 2.5}} AS doc,"
                + " '{\"k\": [true, null]}' AS txt UNION ALL SELECT 2, NULL, NULL ORDER BY id", 10), mssql(""), 1, null);
        assertTrue(failures.isEmpty(), failures::toString);
        List<List<Object>> rows = query("SELECT [doc], [txt] FROM [dbo].[" + table + "] ORDER BY [id]");
        assertEquals(JSON.readTree("{\"a\":1,\"b\":[1,2],\"c\":{\"d\":\"x\u00e9\"},\"m\":{\"k\":2.5}}"),
                JSON.readTree((String) rows.get(0).get(0)));
        assertEquals("{\"k\": [true, null]}", rows.get(0).get(1));
        assertEquals(java.util.Arrays.asList(null, null), rows.get(1));
        stopAndAssertNoArrowLeak();
    }

    private void assertRejected(String check, String... words) throws Exception {
        assertEquals(1, failures.size(), failures::toString);
        BulkLoadException f = failures.get(0);
        ValueOutOfRangeException e = assertInstanceOf(ValueOutOfRangeException.class, f);
        assertEquals(check, e.rejection().check());
        for (String w : words) {
            assertTrue(e.getMessage().contains(w), () -> "'" + w + "' not in: " + e.getMessage());
        }
        assertEquals(List.of(List.of(1000)), query("SELECT [id] FROM [dbo].[" + table + "]"), "the target changed");
    }

    @Test
    void aListOfTheWrongLengthIsRefusedBeforeAnythingIsWritten() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [emb] vector(768) NULL)",
                "INSERT INTO [dbo].[" + table + "] ([id]) VALUES (1000)");
        runRoute(source("SELECT i::INT AS id, list_transform(range(CASE WHEN i = 3 THEN 767 ELSE 768 END),"
                + " lambda x: x::FLOAT) AS emb FROM range(5) t(i) ORDER BY i", 10), mssql(""), 1, null);
        assertRejected(Rejection.VECTOR_LENGTH, "emb", "767", "vector(768)");
        stopAndAssertNoArrowLeak();
    }

    @Test
    void aNullElementIsRefused() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [v] vector(2) NULL)",
                "INSERT INTO [dbo].[" + table + "] ([id]) VALUES (1000)");
        runRoute(source("SELECT 1 AS id, [1.0, NULL]::FLOAT[] AS v", 10), mssql(""), 1, null);
        assertRejected(Rejection.NULL_ELEMENT, "element 1");
        stopAndAssertNoArrowLeak();
    }

    @Test
    void aStringThatIsNotJsonIsRefusedBeforeAnythingIsWritten() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [doc] json NULL)",
                "INSERT INTO [dbo].[" + table + "] ([id]) VALUES (1000)");
        runRoute(source("SELECT 1 AS id, '{\"a\": 1}' AS doc UNION ALL SELECT 2, '{\"a\": }' ORDER BY id", 10),
                mssql(""), 1, null);
        assertRejected(Rejection.NOT_JSON, "doc", "not JSON");
        stopAndAssertNoArrowLeak();
    }

    private List<Object> dataTypes() throws Exception {
        List<Object> out = new java.util.ArrayList<>();
        for (List<Object> r : query("SELECT DATA_TYPE FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = '" + table
                + "' ORDER BY ORDINAL_POSITION")) {
            out.add(r.get(0));
        }
        return out;
    }

    private static final String NESTED = "SELECT 1 AS id, [0.5, 1.5, -2]::FLOAT[3] AS emb, {'a': [1, 2]} AS doc,"
            + " [1.0, 2.0]::FLOAT[] AS floats";

    @Test
    void createTableWithNativeTypesMakesJsonAndVectorColumns() throws Exception {
        runRoute(source(NESTED, 10), mssql("createTable=true&jsonColumns=native&vectorColumns=NATIVE"), 1, null);
        assertTrue(failures.isEmpty(), failures::toString);
        // a List of floats has no length in its schema: json (it is a nested column) rather than vector
        assertEquals(List.of("int", "vector", "json", "json"), dataTypes());
        assertEquals(List.of(List.of(3)), query("SELECT vector_dimensions FROM sys.columns WHERE object_id ="
                + " OBJECT_ID('dbo." + table + "') AND name = 'emb'"));
        assertArrayEquals(new Float[] {0.5f, 1.5f, -2f}, vectors("emb", 1)[0]);
        assertEquals(JSON.readTree("{\"a\":[1,2]}"), JSON.readTree((String) query("SELECT [doc] FROM [dbo].["
                + table + "]").get(0).get(0)));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void createTableByDefaultKeepsTextColumns() throws Exception {
        runRoute(source(NESTED, 10), mssql("createTable=true"), 1, null);
        assertTrue(failures.isEmpty(), failures::toString);
        assertEquals(List.of("int", "nvarchar", "nvarchar", "nvarchar"), dataTypes());
        assertEquals(JSON.readTree("[0.5,1.5,-2.0]"), JSON.readTree((String) query("SELECT [emb] FROM [dbo].["
                + table + "]").get(0).get(0)));
        stopAndAssertNoArrowLeak();
    }
}
