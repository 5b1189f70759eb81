package io.deltafunnel.routes;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.stream.Stream;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reads Arrow IPC stream files with Arrow Java (no DeltaFunnel code) and compares them with the sample table's rows,
 * which are a pure function of the row number ({@link SampleTable#select}).
 */
final class SampleArrowFiles {

    private static final String[] STATUS = {"NEW", "PAID", "SHIPPED", "DELIVERED", "RETURNED"};

    private SampleArrowFiles() {
    }

    /** Every {@code *.arrows} file of {@code dir} together holds the sample's rows 0 .. rows-1, each once. */
    static void assertSampleRows(Path dir, int rows) throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(f -> f.getFileName().toString().endsWith(".arrows")).sorted().toList();
        }
        assertFalse(files.isEmpty(), "no .arrows file in " + dir);
        BitSet seen = new BitSet(rows);
        try (BufferAllocator allocator = new RootAllocator()) {
            for (Path file : files) {
                try (InputStream in = Files.newInputStream(file);
                     ArrowStreamReader reader = new ArrowStreamReader(in, allocator)) {
                    VectorSchemaRoot root = reader.getVectorSchemaRoot();
                    while (reader.loadNextBatch()) {
                        BigIntVector id = (BigIntVector) root.getVector("order_id");
                        VarCharVector status = (VarCharVector) root.getVector("status");
                        BitVector priority = (BitVector) root.getVector("priority");
                        VarCharVector note = (VarCharVector) root.getVector("note");
                        for (int r = 0; r < root.getRowCount(); r++) {
                            long i = id.get(r);
                            assertTrue(i >= 0 && i < rows, file + ": order_id " + i);
                            assertFalse(seen.get((int) i), file + ": order_id " + i + " twice");
                            seen.set((int) i);
                            assertEquals(STATUS[(int) (i % 5)], new String(status.get(r), StandardCharsets.UTF_8));
                            assertEquals(i % 11 == 0, priority.get(r) == 1, "priority of " + i);
                            if (i % 13 == 0) {
                                assertNull(note.getObject(r), "note of " + i);
                            } else {
                                assertEquals("customer note " + i + " " + "x".repeat((int) (i % 60)) + " été ✓",
                                        new String(note.get(r), StandardCharsets.UTF_8), "note of " + i);
                            }
                        }
                    }
                }
            }
            assertEquals(0, allocator.getAllocatedMemory());
        }
        assertEquals(rows, seen.cardinality(), "rows in " + files);
    }
}
