package io.deltafunnel.arrow;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Measures what each conversion costs per row (bytes and time) on a batch shaped like the project's sample orders
 * table plus one list column. Prints a table; asserts nothing. Run from the module directory after
 * {@code mvn -o -pl camel-deltafunnel -am test-compile}:
 * <pre>java --add-opens=java.base/java.nio=ALL-UNNAMED -cp target/test-classes:target/classes:$(cat cp.txt)
 *   io.deltafunnel.arrow.ConversionCost [rows] [repetitions]</pre>
 * Heap figures for {@code List<Map>} are the growth of the used heap after a full GC, so they are approximate.
 */
public final class ConversionCost {

    static final String SQL = "SELECT i AS order_id, (hash(i) % 50000)::INTEGER AS customer_id,"
            + " ['NEW','PAID','SHIPPED','DELIVERED','RETURNED'][1 + (i % 5)::INTEGER] AS status,"
            + " ((hash(i * 7) % 10000000) / 100.0)::DECIMAL(12,2) AS amount, (i % 17) / 100.0 AS discount,"
            + " (1 + i % 40)::SMALLINT AS quantity, (i % 11 = 0) AS priority,"
            + " DATE '2020-01-01' + (i % 2000)::INTEGER AS order_date,"
            + " TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_microseconds(i * 1234567) AS updated_at,"
            + " CASE WHEN i % 7 = 0 THEN NULL ELSE TIMESTAMP '2024-01-01 00:00:00' + to_microseconds(i * 7654321)"
            + " END AS shipped_at,"
            + " CASE WHEN i % 13 = 0 THEN NULL ELSE 'customer note ' || i || ' ' || repeat('x', (i % 60)::INTEGER)"
            + " || ' été ✓' END AS note, [i % 10, i % 7] AS tags"
            + " FROM range(ROWS) t(i)";

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 65536;
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        try (BufferAllocator allocator = new RootAllocator();
             VectorSchemaRoot root = ArrowTestData.query(allocator, SQL.replace("ROWS", Integer.toString(rows)))) {
            long arrowBytes = allocator.getAllocatedMemory();
            byte[] ipc = ArrowIpc.toStreamBytes(root);
            String json = ArrowJsonLines.toJsonLines(root);
            System.out.printf("batch: %d rows, %d columns; Arrow buffers of the batch: %.1f bytes/row%n", rows,
                    root.getFieldVectors().size(), arrowBytes / (double) rows);
            System.out.printf("%-32s %14s %12s%n", "conversion", "bytes/row", "ns/row");
            report("root -> IPC stream byte[]", ipc.length / (double) rows,
                    time(rows, reps, () -> ArrowIpc.toStreamBytes(root)));
            report("root -> JSON lines String", json.getBytes(java.nio.charset.StandardCharsets.UTF_8).length
                    / (double) rows, time(rows, reps, () -> ArrowJsonLines.toJsonLines(root)));
            report("root -> List<Map> (heap)", heapPerRow(rows, () -> ArrowRows.toRows(root)),
                    time(rows, reps, () -> ArrowRows.toRows(root)));
            long before = allocator.getAllocatedMemory();
            try (RecordBatches batches = ArrowIpc.read(ipc, allocator);
                 VectorSchemaRoot back = ArrowIpc.readAll(batches, allocator)) {
                report("IPC byte[] -> root (Arrow)", (allocator.getAllocatedMemory() - before) / (double) rows,
                        time(rows, reps, () -> {
                            try (RecordBatches b = ArrowIpc.read(ipc, allocator)) {
                                ArrowIpc.readAll(b, allocator).close();
                            }
                            return null;
                        }));
            }
            try (VectorSchemaRoot back = ArrowJsonLines.fromJsonLines(json, allocator)) {
                report("JSON lines -> root (Arrow)", (allocator.getAllocatedMemory() - before) / (double) rows,
                        time(rows, reps, () -> {
                            ArrowJsonLines.fromJsonLines(json, allocator).close();
                            return null;
                        }));
            }
        }
    }

    private static void report(String what, double bytesPerRow, double nsPerRow) {
        System.out.printf("%-32s %14.1f %12.0f%n", what, bytesPerRow, nsPerRow);
    }

    /** Mean nanoseconds per row over {@code reps} runs after as many warm-up runs. */
    private static double time(int rows, int reps, Supplier<Object> work) {
        Object sink = null;
        for (int i = 0; i < reps; i++) {
            sink = work.get();
        }
        long start = System.nanoTime();
        for (int i = 0; i < reps; i++) {
            sink = work.get();
        }
        long elapsed = System.nanoTime() - start;
        if (sink == Boolean.FALSE) {
            System.out.println();
        }
        return elapsed / (double) reps / rows;
    }

    private static double heapPerRow(int rows, Supplier<List<Map<String, Object>>> work) throws InterruptedException {
        Runtime rt = Runtime.getRuntime();
        gc();
        long before = rt.totalMemory() - rt.freeMemory();
        List<Map<String, Object>> kept = work.get();
        gc();
        long after = rt.totalMemory() - rt.freeMemory();
        if (kept.size() != rows) {
            throw new IllegalStateException();
        }
        return (after - before) / (double) rows;
    }

    private static void gc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
    }

    private ConversionCost() {
    }
}
