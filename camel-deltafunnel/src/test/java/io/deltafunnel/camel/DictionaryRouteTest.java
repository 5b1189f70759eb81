package io.deltafunnel.camel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.deltafunnel.arrow.read.UnsupportedArrowTypeException;
import io.deltafunnel.mssql.bind.ColumnMappingException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Dictionary-encoded columns load as their values: DuckDB {@code ENUM}s (a {@code CREATE TYPE} enum with NULLs, an
 * inline {@code ENUM(...)}, a list of enums) from {@code deltafunnel:} into {@code nvarchar}/{@code varchar} targets
 * and with {@code createTable} (their value type, {@code nvarchar(max)}); through the IPC type converter; and Arrow IPC
 * bodies with dictionary columns written by pyarrow (replacement dictionaries in the stream). A root made elsewhere
 * that still has a dictionary-encoded column (so no dictionary) is refused before anything is written.
 * {@link DictionaryDirectRouteTest} runs the same with {@code bulkEncoder=direct}.
 */
class DictionaryRouteTest extends EmulatorRouteTestSupport {

    private static final List<String> MOODS = List.of("sad", "ok", "happy");
    private static final String CREATE_TYPE = "CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')";
    /** Ten rows; mood is NULL where i % 4 == 3. */
    private static final String ENUMS = "SELECT i::BIGINT AS id,"
            + " CASE WHEN i % 4 = 3 THEN NULL ELSE (['sad','ok','happy'])[i % 3 + 1] END::mood AS mood,"
            + " ('x' || (i % 2))::ENUM('x0','x1') AS code,"
            + " [(['sad','ok','happy'])[(i + 1) % 3 + 1]::mood] AS moods"
            + " FROM range(10) t(i) ORDER BY i";

    private String enumSource(int batchSize) {
        return source(ENUMS, batchSize) + "&initSql=RAW(" + CREATE_TYPE + ")";
    }

    private static String mood(long i) {
        return i % 4 == 3 ? null : MOODS.get((int) (i % 3));
    }

    private void assertEnumRows() throws Exception {
        List<List<Object>> rows = query("SELECT [id], [mood], [code], [moods] FROM [dbo].[" + table + "] ORDER BY [id]");
        assertEquals(10, rows.size());
        for (List<Object> row : rows) {
            long i = ((Number) row.get(0)).longValue();
            assertEquals(mood(i), row.get(1), "mood of id " + i);
            assertEquals("x" + (i % 2), row.get(2), "code of id " + i);
            assertEquals("[\"" + MOODS.get((int) ((i + 1) % 3)) + "\"]", row.get(3), "moods of id " + i);
        }
    }

    /** DATA_TYPE and CHARACTER_MAXIMUM_LENGTH of each column of the test's table. */
    private Map<String, List<Object>> columnTypes() throws Exception {
        Map<String, List<Object>> types = new TreeMap<>();
        for (List<Object> r : query("SELECT COLUMN_NAME, DATA_TYPE, CHARACTER_MAXIMUM_LENGTH"
                + " FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = '" + table + "'")) {
            Object length = r.get(2) instanceof Number n ? n.intValue() : r.get(2);
            List<Object> type = new ArrayList<>();
            type.add(r.get(1));
            type.add(length);
            types.put((String) r.get(0), type);
        }
        return types;
    }

    @Test
    void enumColumnsLoadIntoNvarcharAndVarcharTargets() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] (id bigint NOT NULL, mood nvarchar(10) NULL, code varchar(2) NOT NULL,"
                + " moods nvarchar(max) NULL)");
        runRoute(enumSource(4), mssql(""), 3, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEnumRows();
        stopAndAssertNoArrowLeak();
    }

    @Test
    void enumColumnsWithCreateTableGetTheirValueType() throws Exception {
        runRoute(enumSource(3), mssql("createTable=true"), 4, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        Map<String, List<Object>> types = columnTypes();
        assertEquals(List.of("nvarchar", -1), types.get("mood"));
        assertEquals(List.of("nvarchar", -1), types.get("code"));
        assertEquals(List.of("nvarchar", -1), types.get("moods"));
        assertEnumRows();
        stopAndAssertNoArrowLeak();
    }

    @Test
    void enumBatchesPassTheIpcTypeConverterOnTheWay() throws Exception {
        // deltafunnel: -> IPC stream bytes (the byte[] converter) -> deltafunnel-mssql: reads them back
        String source = enumSource(4);
        String target = mssql("createTable=true");
        org.apache.camel.builder.NotifyBuilder done = new org.apache.camel.builder.NotifyBuilder(context)
                .whenDone(3).create();
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(source).convertBodyTo(byte[].class).to(target);
            }
        });
        assertTrue(done.matches(60, java.util.concurrent.TimeUnit.SECONDS));
        assertEnumRows();
        assertEquals(0, ArrowConversionMemory.allocator(context).getAllocatedMemory());
        stopAndAssertNoArrowLeak();
    }

    @Test
    void ipcBodiesWithDictionaryColumnsFromPyarrowLoadTheirValues() throws Exception {
        // make_pyarrow_dictionary_fixtures.py: mood dictionary<int8, string> (a replacement dictionary in every batch
        // of the stream), tags list<dictionary<int16, string>>; 9 rows, mood NULL where id % 4 == 3
        Path stream = Path.of(getClass().getResource("/arrow/pyarrow-dictionary-stream.arrows").toURI());
        Path file = Path.of(getClass().getResource("/arrow/pyarrow-dictionary-file.arrow").toURI());
        String target = mssql("createTable=true");
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:load").to(target);
            }
        });
        Exchange bytes = template.send("direct:load", e -> e.getIn().setBody(Files.readAllBytes(stream)));
        assertNull(bytes.getException());
        assertEquals(3L, bytes.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_BATCHES, Long.class));
        Exchange path = template.send("direct:load", e -> e.getIn().setBody(file));
        assertNull(path.getException());
        List<String> moods = List.of("sad", "ok", "happy", "meh");
        List<String> tags = List.of("red", "green", "blue");
        List<List<Object>> rows = query("SELECT [id], [mood], [tags] FROM [dbo].[" + table + "] ORDER BY [id]");
        assertEquals(18, rows.size());
        for (int r = 0; r < rows.size(); r++) {
            List<Object> row = rows.get(r);
            long id = ((Number) row.get(0)).longValue();
            assertEquals(r / 2, id);
            assertEquals(id % 4 == 3 ? null : moods.get((int) (id % 4)), row.get(1), "mood of id " + id);
            assertEquals("[\"" + tags.get((int) (id % 3)) + "\",\"" + tags.get((int) ((id + 1) % 3)) + "\"]",
                    row.get(2));
        }
        assertEquals(List.of("nvarchar", -1), columnTypes().get("mood"));
        assertEquals(0, ArrowConversionMemory.allocator(context).getAllocatedMemory());
    }

    @Test
    void aRootThatStillHasADictionaryColumnIsRefusedBeforeAnythingIsWritten() throws Exception {
        String target = mssql("createTable=true");
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:load").to(target);
            }
        });
        try (BufferAllocator allocator = new RootAllocator();
             VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(new Field("mood",
                     new FieldType(true, new ArrowType.Int(8, false),
                             new DictionaryEncoding(0, false, new ArrowType.Int(8, false))), null))), allocator)) {
            UInt1Vector indices = (UInt1Vector) root.getVector(0);
            indices.allocateNew(1);
            indices.set(0, 1);
            root.setRowCount(1);
            Exchange sent = template.send("direct:load", e -> e.getIn().setBody(root));
            ColumnMappingException failure = assertInstanceOf(ColumnMappingException.class, sent.getException());
            UnsupportedArrowTypeException cause = assertInstanceOf(UnsupportedArrowTypeException.class,
                    failure.getCause());
            assertEquals("mood", cause.column());
            assertTrue(cause.getMessage().contains("does not carry its dictionary"), cause.getMessage());
            assertNotNull(query("SELECT 1"));
            assertNull(query("SELECT OBJECT_ID('dbo." + table + "')").get(0).get(0), "nothing may be created");
        }
    }
}
