package io.deltafunnel.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import io.deltafunnel.arrow.read.JsonWriter;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** JSON lines and rows of a root: exact values, the producer's nested rendering, the root left intact. */
class ArrowTextConversionsTest {

    private BufferAllocator allocator;
    private VectorSchemaRoot root;

    @BeforeEach
    void open() {
        allocator = new RootAllocator();
        root = ArrowTestData.query(allocator, ArrowTestData.sql(4, 7));
    }

    @AfterEach
    void close() {
        root.close();
        assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory outstanding");
        allocator.close();
    }

    @Test
    void jsonLinesHaveOneObjectPerRowInSchemaOrder() {
        String lines = ArrowJsonLines.toJsonLines(root);
        assertEquals("""
                {"id":4,"name":"name 4","amount":5.00,"day":"2024-01-05","flag":false,"ratio":1.0,"list":[4,5],"st":{"a":4,"b":"x4"}}
                {"id":5,"name":"name 5","amount":6.25,"day":"2024-01-06","flag":false,"ratio":null,"list":[5,6],"st":{"a":5,"b":"x5"}}
                {"id":6,"name":"name 6","amount":7.50,"day":"2024-01-07","flag":true,"ratio":1.5,"list":[6,7],"st":{"a":6,"b":"x6"}}
                """, lines);
        assertEquals(3, root.getRowCount());
    }

    @Test
    void nestedValuesAreRenderedExactlyAsTheSqlServerWriterRendersThem() {
        String[] lines = ArrowJsonLines.toJsonLines(root).split("\n");
        List<Map<String, Object>> rows = ArrowRows.toRows(root);
        for (String column : List.of("list", "st")) {
            JsonWriter writer = JsonWriter.forVector(root.getVector(column));
            for (int row = 0; row < root.getRowCount(); row++) {
                String expected = writer.write(row);
                assertEquals(expected, rows.get(row).get(column), column + " row " + row);
                assertEquals(true, lines[row].contains("\"" + column + "\":" + expected), lines[row]);
            }
        }
    }

    @Test
    void rowsHoldPlainJavaValuesAndNulls() {
        List<Map<String, Object>> rows = ArrowRows.toRows(root);
        assertEquals(3, rows.size());
        Map<String, Object> row = rows.get(1);
        assertArrayEquals(new Object[] {"id", "name", "amount", "day", "flag", "ratio", "list", "st"},
                row.keySet().toArray());
        assertEquals(5L, row.get("id"));
        assertEquals("name 5", row.get("name"));
        assertEquals(new BigDecimal("6.25"), row.get("amount"));
        assertEquals(LocalDate.of(2024, 1, 6), row.get("day"));
        assertEquals(false, row.get("flag"));
        assertNull(row.get("ratio"));
        assertEquals(1.5, rows.get(2).get("ratio"));
        assertEquals("[5,6]", row.get("list"));
        assertEquals("{\"a\":5,\"b\":\"x5\"}", row.get("st"));
    }

    @Test
    void jsonLinesReadBackWithInferredTypes() {
        String lines = ArrowJsonLines.toJsonLines(root);
        try (VectorSchemaRoot back = ArrowJsonLines.fromJsonLines(lines, allocator)) {
            assertEquals(3, back.getRowCount());
            assertEquals("Schema<id: Int(64, true), name: Utf8, amount: Decimal(3, 2, 128), day: Utf8, flag: Bool,"
                    + " ratio: Decimal(2, 1, 128), list: Utf8, st: Utf8>", back.getSchema().toString());
            // nested values come back as their JSON text, everything else renders as before
            assertEquals("""
                    {"id":4,"name":"name 4","amount":5.00,"day":"2024-01-05","flag":false,"ratio":1.0,\
                    "list":"[4,5]","st":"{\\"a\\":4,\\"b\\":\\"x4\\"}"}""",
                    ArrowJsonLines.toJsonLines(back).split("\n")[0]);
            List<Map<String, Object>> rows = ArrowRows.toRows(back);
            assertEquals(new BigDecimal("6.25"), rows.get(1).get("amount"));
            assertEquals("2024-01-06", rows.get(1).get("day"));
            assertEquals("{\"a\":5,\"b\":\"x5\"}", rows.get(1).get("st"));
            assertNull(rows.get(1).get("ratio"));
        }
    }

    @Test
    void jsonLinesThatAreNotObjectsOrMixTypesFailNamingLineAndColumn() {
        JsonLinesException notJson = org.junit.jupiter.api.Assertions.assertThrows(JsonLinesException.class,
                () -> ArrowJsonLines.fromJsonLines("{\"a\":1}\n\nnot json\n", allocator));
        assertEquals(3, notJson.line());
        JsonLinesException mixed = org.junit.jupiter.api.Assertions.assertThrows(JsonLinesException.class,
                () -> ArrowJsonLines.fromJsonLines("{\"a\":1}\n{\"a\":\"one\"}\n", allocator));
        assertEquals(2, mixed.line());
        assertEquals("a", mixed.column());
        try (VectorSchemaRoot widened = ArrowJsonLines.fromJsonLines("{\"a\":1}\n{\"b\":true,\"a\":2.5}\n", allocator)) {
            assertEquals("Schema<a: Decimal(2, 1, 128), b: Bool>", widened.getSchema().toString());
            assertEquals("{\"a\":1.0,\"b\":null}\n{\"a\":2.5,\"b\":true}\n", ArrowJsonLines.toJsonLines(widened));
        }
    }
}
