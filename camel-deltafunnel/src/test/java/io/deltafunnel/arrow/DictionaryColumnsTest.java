package io.deltafunnel.arrow;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.duckdb.DuckDBResultSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DictionaryColumns} over DuckDB's own Arrow export of {@code ENUM} columns (top level, in a list, a struct and
 * a map, each with its own dictionary, NULLs included), and over hand-made dictionary vectors for the failures.
 */
class DictionaryColumnsTest {

    private static final List<String> MOODS = List.of("sad", "ok", "happy");

    /** Ten rows: an enum (NULL where i % 4 == 3), an inline enum, and enums nested in a list, a struct and a map. */
    static final String ENUMS = "SELECT i::BIGINT AS id,"
            + " CASE WHEN i % 4 = 3 THEN NULL ELSE (['sad','ok','happy'])[i % 3 + 1] END::mood AS mood,"
            + " ('x' || (i % 2))::ENUM('x0','x1') AS code,"
            + " [(['sad','ok','happy'])[i % 3 + 1]::mood, NULL::mood] AS moods,"
            + " {'m': 'ok'::mood, 'n': i} AS st,"
            + " MAP {'k': (['sad','ok','happy'])[(i + 1) % 3 + 1]::mood} AS mp"
            + " FROM range(10) t(i) ORDER BY i";

    private BufferAllocator allocator;
    private Connection duckdb;

    @BeforeEach
    void open() throws Exception {
        allocator = new RootAllocator();
        duckdb = DuckDbConnections.open(DuckDbSettings.inMemory());
        try (Statement s = duckdb.createStatement()) {
            s.execute("CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')");
        }
    }

    @AfterEach
    void close() throws Exception {
        duckdb.close();
        assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory outstanding");
        allocator.close();
    }

    static String mood(long i) {
        return i % 4 == 3 ? null : MOODS.get((int) (i % 3));
    }

    @Test
    void duckDbEnumsAtTopLevelAndNestedDecodeToTheirValuesBatchByBatch() throws Exception {
        List<Map<String, Object>> rows = new ArrayList<>();
        try (Statement s = duckdb.createStatement(); ResultSet rs = s.executeQuery(ENUMS);
             ArrowReader reader = (ArrowReader) rs.unwrap(DuckDBResultSet.class).arrowExportStream(allocator, 4)) {
            Schema encoded = reader.getVectorSchemaRoot().getSchema();
            assertTrue(DictionaryColumns.present(encoded), encoded.toString());
            assertTrue(encoded.findField("mood").getDictionary() != null, "DuckDB exports ENUM dictionary-encoded");
            while (reader.loadNextBatch()) {
                VectorSchemaRoot owned = ArrowIpc.transfer(reader.getVectorSchemaRoot(), allocator);
                try (VectorSchemaRoot decoded = DictionaryColumns.decode(owned, reader, allocator)) {
                    assertFalse(DictionaryColumns.present(decoded.getSchema()), decoded.getSchema().toString());
                    assertEquals(DictionaryColumns.decodedSchema(encoded, reader), decoded.getSchema());
                    assertEquals(ArrowType.Utf8.INSTANCE, decoded.getSchema().findField("mood").getType());
                    assertTrue(decoded.getSchema().findField("mood").isNullable());
                    assertEquals(ArrowType.Utf8.INSTANCE, decoded.getSchema().findField("moods").getChildren().get(0)
                            .getType());
                    rows.addAll(ArrowRows.toRows(decoded));
                }
            }
        }
        assertEquals(10, rows.size());
        for (Map<String, Object> row : rows) {
            long i = (Long) row.get("id");
            assertEquals(mood(i), row.get("mood"), "mood of " + i);
            assertEquals("x" + (i % 2), row.get("code"));
            assertEquals("[\"" + MOODS.get((int) (i % 3)) + "\",null]", row.get("moods"));
            assertEquals("{\"m\":\"ok\",\"n\":" + i + "}", row.get("st"));
            assertEquals("{\"k\":\"" + MOODS.get((int) ((i + 1) % 3)) + "\"}", row.get("mp"));
        }
    }

    @Test
    void aBatchWithoutADictionaryIsReturnedAsIsWithoutACopy() {
        VectorSchemaRoot root = ArrowTestData.query(allocator, ArrowTestData.sql(0, 100));
        List<FieldVector> vectors = new ArrayList<>(root.getFieldVectors());
        long allocated = allocator.getAllocatedMemory();
        VectorSchemaRoot same = DictionaryColumns.decode(root, null, allocator);
        try (same) {
            assertSame(root, same);
            assertEquals(vectors, same.getFieldVectors());
            assertEquals(allocated, allocator.getAllocatedMemory());
            assertSame(root.getSchema(), DictionaryColumns.decodedSchema(root.getSchema(), null));
        }
    }

    @Test
    void anIndexOutsideItsDictionaryFailsNamingColumnAndRowAndReleasesBothRoots() {
        try (VarCharVector values = dictionaryValues("a", "b")) {
            DictionaryProvider.MapDictionaryProvider provider = new DictionaryProvider.MapDictionaryProvider();
            provider.put(new Dictionary(values, encoding()));
            VectorSchemaRoot root = encodedRoot(0, null, 1, 5);
            DictionaryDecodeException e = assertThrows(DictionaryDecodeException.class,
                    () -> DictionaryColumns.decode(root, provider, allocator));
            assertEquals("e", e.column());
            assertEquals(3, e.row());
            assertTrue(e.getMessage().contains("index 5 is outside its dictionary of 2 values"), e.getMessage());
        }
        // the given root and the half-built one were closed by decode
    }

    @Test
    void aHandMadeDictionaryRootDecodesWithItsProviderIncludingNullIndices() {
        try (VarCharVector values = dictionaryValues("a", "b")) {
            DictionaryProvider.MapDictionaryProvider provider = new DictionaryProvider.MapDictionaryProvider();
            provider.put(new Dictionary(values, encoding()));
            try (VectorSchemaRoot decoded = DictionaryColumns.decode(encodedRoot(1, null, 0), provider, allocator)) {
                VarCharVector e = (VarCharVector) decoded.getVector("e");
                assertEquals("b", new String(e.get(0), UTF_8));
                assertTrue(e.isNull(1));
                assertEquals("a", new String(e.get(2), UTF_8));
                assertEquals(List.of(7L, 8L, 9L), Arrays.asList(((BigIntVector) decoded.getVector("n")).getObject(0),
                        ((BigIntVector) decoded.getVector("n")).getObject(1),
                        ((BigIntVector) decoded.getVector("n")).getObject(2)));
            }
        }
    }

    @Test
    void aRootWithoutItsDictionaryFailsNamingTheColumn() {
        VectorSchemaRoot root = encodedRoot(0);
        DictionaryDecodeException e = assertThrows(DictionaryDecodeException.class,
                () -> DictionaryColumns.decode(root, new DictionaryProvider.MapDictionaryProvider(), allocator));
        assertEquals("e", e.column());
        assertEquals(-1, e.row());
        assertTrue(e.getMessage().contains("dictionary (id 7) is not available"), e.getMessage());
        // and the IPC writer, which has no dictionary to write either, refuses it naming the column
        try (VectorSchemaRoot again = encodedRoot(0)) {
            ArrowIpcException ipc = assertThrows(ArrowIpcException.class, () -> ArrowIpc.toStreamBytes(again));
            assertTrue(ipc.getMessage().contains("column e is dictionary-encoded"), ipc.getMessage());
        }
    }

    private static DictionaryEncoding encoding() {
        return new DictionaryEncoding(7, false, new ArrowType.Int(8, false));
    }

    private VarCharVector dictionaryValues(String... values) {
        VarCharVector v = new VarCharVector("values", allocator);
        v.allocateNew();
        for (int i = 0; i < values.length; i++) {
            v.setSafe(i, values[i].getBytes(UTF_8));
        }
        v.setValueCount(values.length);
        return v;
    }

    /** A root of a dictionary-encoded column {@code e} (UInt1 indices, dictionary id 7) and a bigint {@code n}. */
    private VectorSchemaRoot encodedRoot(Integer... indices) {
        Field e = new Field("e", new FieldType(true, new ArrowType.Int(8, false), encoding()), null);
        Field n = new Field("n", FieldType.nullable(new ArrowType.Int(64, true)), null);
        VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(e, n)), allocator);
        UInt1Vector ev = (UInt1Vector) root.getVector("e");
        BigIntVector nv = (BigIntVector) root.getVector("n");
        ev.allocateNew(indices.length);
        nv.allocateNew(indices.length);
        for (int r = 0; r < indices.length; r++) {
            if (indices[r] == null) {
                ev.setNull(r);
            } else {
                ev.set(r, indices[r]);
            }
            nv.set(r, 7 + r);
        }
        root.setRowCount(indices.length);
        assertNull(root.getSchema().findField("n").getDictionary());
        return root;
    }
}
