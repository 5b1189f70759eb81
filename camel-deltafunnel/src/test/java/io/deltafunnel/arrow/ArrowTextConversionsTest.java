package io.deltafunnel.arrow;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

import io.deltafunnel.mssql.JsonWriter;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

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
}
