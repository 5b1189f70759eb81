package io.deltafunnel.arrow.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;

import io.deltafunnel.query.ArrowBatch;
import io.deltafunnel.query.ArrowBatchStream;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The JSON text of nested values (lists, structs, maps) as the producer writes them into nvarchar(max). */
class JsonWriterTest {
    private BufferAllocator allocator;
    private Connection duckdb;

    @BeforeEach
    void open() throws Exception {
        allocator = new RootAllocator();
        duckdb = DuckDbConnections.open(DuckDbSettings.inMemory());
    }

    @AfterEach
    void close() throws Exception {
        duckdb.close();
        assertEquals(0, allocator.getAllocatedMemory());
        allocator.close();
    }

    /** Each row's JSON of the query's single column. */
    private List<String> json(String select) {
        List<String> out = new ArrayList<>();
        try (ArrowBatchStream stream = ArrowBatchStream.open("t", duckdb, select, 1024, allocator)) {
            for (ArrowBatch next = stream.next(); next != null; next = stream.next()) {
                try (ArrowBatch batch = next) {
                    FieldVector v = batch.root().getFieldVectors().get(0);
                    JsonWriter w = JsonWriter.forVector(v);
                    for (int r = 0; r < batch.rowCount(); r++) {
                        out.add(v.isNull(r) ? null : w.write(r));
                    }
                }
            }
        }
        return out;
    }

    @Test
    void listsKeepNullsAndOrder() {
        assertEquals(List.of("[1,null,3]", "[]"), json("SELECT * FROM (VALUES ([1, NULL, 3]), ([]::INTEGER[])) t(l)"));
    }

    @Test
    void structsAreObjectsWithEscapedStrings() throws Exception {
        List<String> rows = json("SELECT {'a': 1, 'b': 'say \"hi\"' || chr(10) || 'tab' || chr(9), 'c': NULL::VARCHAR} AS s");
        assertEquals("{\"a\":1,\"b\":\"say \\\"hi\\\"\\ntab\\t\",\"c\":null}", rows.get(0));
        JsonNode parsed = new ObjectMapper().readTree(rows.get(0));
        assertEquals("say \"hi\"\ntab\t", parsed.get("b").asText(), "valid JSON that reads back the same text");
    }

    @Test
    void decimalsArePlainFloatsAreNumbersNonFiniteAreStrings() {
        assertEquals(List.of("[12345678901234567890.1200000,0.0000001]"), // plain notation, the list's scale
                json("SELECT [12345678901234567890.12::DECIMAL(22,2), 0.0000001::DECIMAL(22,7)] AS l"));
        assertEquals(List.of("[1.5,\"NaN\",\"Infinity\"]"),
                json("SELECT ['1.5'::DOUBLE, 'NaN'::DOUBLE, 'Infinity'::DOUBLE] AS l"));
    }

    @Test
    void mapsAreObjectsKeyedByTheKeysText() throws Exception {
        String row = json("SELECT MAP {'k1': 10, 'k2': 20} AS m").get(0);
        JsonNode parsed = new ObjectMapper().readTree(row);
        assertEquals(10, parsed.get("k1").asInt());
        assertEquals(20, parsed.get("k2").asInt());
    }
}
