package io.deltafunnel.delta;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.deltafunnel.query.ArrowBatch;
import io.deltafunnel.query.ArrowBatchStream;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The corpus' two Spark-written variant tables, decoded, against the values of the public tests that generated them
 * in delta-io/delta: the golden table {@code spark-variant-checkpoint} (and {@code spark-shredded-variant-preview-delta},
 * written the same way with {@code delta.enableVariantShredding}) is 100 rows of
 * {@code parse_json(format_string('{"key": %s}', id))} for id 0..99 plus two appended rows (ids 0 and 1), with
 * <pre>
 * v                           = parse_json(json)
 * array_of_variants           = array(v, null, v, null, v)
 * struct_of_variants          = named_struct('v', v)
 * map_of_variants             = map(cast(id as string), v, 'nullKey', null)
 * array_of_struct_of_variants = array(named_struct('v', v), named_struct('v', null), null, named_struct('v', v), null,
 *                                     named_struct('v', v))
 * struct_of_array_of_variants = named_struct('v', array(null, v))
 * </pre>
 * as asserted by delta-io/delta's kernel-spark test {@code testVariantTypeTable} (102 rows, {@code variant_get(...,
 * '$.key', 'long') = id} for every variant, and the NULLs at the positions above) and the kernel-defaults
 * {@code ScanSuite} test "read scan files with variant"; the generating query is the one of the golden-table script
 * that writes "the SAME table structure as spark-variant-checkpoint". Spark's {@code to_json} of
 * {@code parse_json('{"key": 7}')} is {@code {"key":7}}. Skipped when the corpus is absent.
 */
class VariantCorpusTest {

    @ParameterizedTest
    @ValueSource(strings = {"spark-variant-checkpoint", "spark-shredded-variant-preview-delta"})
    void sparkVariantTablesDecodeToTheGeneratingTestsValues(String name) throws Exception {
        Path table = DeltaConformanceTest.corpus().resolve("tables").resolve(name);
        Assumptions.assumeTrue(Files.isDirectory(table), "Delta corpus table " + table + " not found; skipping");
        List<Map<String, Object>> rows = new ArrayList<>();
        try (Connection conn = DriverManager.getConnection("jdbc:duckdb:"); RootAllocator allocator = new RootAllocator()) {
            DeltaSnapshot s = DeltaViews.register(conn, List.of(DeltaTableSpec.latest("t", table.toString()))).get(0);
            assertEquals(List.of(), s.skippedColumns());
            try (ArrowBatchStream stream = ArrowBatchStream.open(name, conn, "SELECT * FROM t ORDER BY id", 40, allocator)) {
                for (ArrowBatch next = stream.next(); next != null; next = stream.next()) {
                    try (ArrowBatch b = next) {
                        for (int i = 0; i < b.rowCount(); i++) {
                            Map<String, Object> row = new LinkedHashMap<>();
                            for (FieldVector v : b.root().getFieldVectors()) {
                                row.put(v.getName(), DeltaVariantTest.plain(v.getObject(i)));
                            }
                            rows.add(row);
                        }
                    }
                }
            }
            assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory outstanding");
        }
        assertEquals(102, rows.size());
        List<Long> ids = new ArrayList<>();
        for (Map<String, Object> row : rows) {
            long id = (Long) row.get("id");
            ids.add(id);
            String v = "{\"key\":" + id + "}";
            assertEquals(v, row.get("v"), "v, id " + id);
            assertEquals(Arrays.asList(v, null, v, null, v), row.get("array_of_variants"), "array_of_variants, id " + id);
            assertEquals(Map.of("v", v), row.get("struct_of_variants"), "struct_of_variants, id " + id);
            assertEquals(List.of(Map.of("key", Long.toString(id), "value", v), Map.of("key", "nullKey")),
                    row.get("map_of_variants"), "map_of_variants, id " + id);
            assertEquals(Arrays.asList(Map.of("v", v), Map.of(), null, Map.of("v", v), null, Map.of("v", v)),
                    row.get("array_of_struct_of_variants"), "array_of_struct_of_variants, id " + id);
            assertEquals(Map.of("v", Arrays.asList(null, v)), row.get("struct_of_array_of_variants"),
                    "struct_of_array_of_variants, id " + id);
        }
        List<Long> expectedIds = new ArrayList<>(List.of(0L, 0L, 1L, 1L));
        for (long id = 2; id < 100; id++) {
            expectedIds.add(id);
        }
        assertEquals(expectedIds, ids);
    }
}
