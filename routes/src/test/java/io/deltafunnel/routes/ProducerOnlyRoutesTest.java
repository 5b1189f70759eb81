package io.deltafunnel.routes;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.deltafunnel.emulator.MssqlEmulator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One-shot mode for routes without a {@code deltafunnel:} consumer: the job ends when the routes have been idle for
 * {@code deltafunnel.idle-exit} with nothing in flight, prints one summary line per target and exits 0, or 1 when a
 * run failed (at once when sending the input again cannot cure the failure).
 */
class ProducerOnlyRoutesTest {

    private final PrintStream originalOut = System.out;
    private final List<String> properties = new ArrayList<>();

    @TempDir
    Path work;

    @AfterEach
    void restore() {
        System.setOut(originalOut);
        properties.forEach(System::clearProperty);
    }

    record Run(int status, String output) {
    }

    private Run runApp(Map<String, String> props) throws Exception {
        props.forEach((k, v) -> {
            System.setProperty(k, v);
            properties.add(k);
        });
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        int status;
        try {
            status = new DeltaFunnelApplication().run(new String[0]);
        } finally {
            System.setOut(originalOut);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        originalOut.println(out);
        return new Run(status, out);
    }

    /** An Arrow IPC stream file of {@code batches} record batches of {@code rows} ids each. */
    private static void arrowFile(Path file, int batches, int rows) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             BigIntVector id = new BigIntVector("id", allocator);
             VectorSchemaRoot root = VectorSchemaRoot.of(id);
             OutputStream out = Files.newOutputStream(file);
             ArrowStreamWriter writer = new ArrowStreamWriter(root, null, out)) {
            writer.start();
            for (int b = 0; b < batches; b++) {
                id.allocateNew(rows);
                for (int i = 0; i < rows; i++) {
                    id.set(i, (long) b * rows + i);
                }
                root.setRowCount(rows);
                writer.writeBatch();
            }
            writer.end();
        }
    }

    private Path route(String name, String yaml) throws Exception {
        return Files.writeString(work.resolve(name), yaml);
    }

    private static String fileToSqlServer(Path in, String table) {
        return """
                - route:
                    from:
                      uri: "file:%s"
                      parameters:
                        include: ".*\\\\.arrows"
                      steps:
                        - to:
                            uri: deltafunnel-mssql:%s
                            parameters:
                              dataSource: "#sqlServer"
                              createTable: true
                """.formatted(in, table);
    }

    @Test
    void aFolderOfArrowFilesLoadsAndTheJobEndsWhenIdleWithOneLinePerTarget() throws Exception {
        Path in = Files.createDirectories(work.resolve("in"));
        arrowFile(in.resolve("a.arrows"), 3, 1000);
        arrowFile(in.resolve("b.arrows"), 2, 500);
        try (MssqlEmulator target = TestTargets.startEmulator()) {
            Run r = runApp(Map.of("deltafunnel.routes", route("load.yaml", fileToSqlServer(in, "dbo.ids")).toString(),
                    "deltafunnel.idle-exit", "3s", "deltafunnel.mssql.url", target.jdbcUrl(),
                    "deltafunnel.mssql.password", target.password()));
            assertEquals(0, r.status(), r.output());
            assertFalse(r.output().contains("no route consumes from deltafunnel:"), r.output());
            assertEquals(1, r.output().lines().filter(l -> l.startsWith("DeltaFunnel target dbo.ids: 2 runs, 4,000 rows;"
                    + " target holds 4,000 rows (read back)")).count(), r.output());
            assertTrue(r.output().contains("(2 exchanges completed, 0 failed): one-shot job done"), r.output());
            assertEquals(4000, TestTargets.count(target, "[dbo].[ids]"));
        }
    }

    @Test
    void aRouteWithoutAnyDeltaFunnelEndpointAlsoEndsWhenIdle() throws Exception {
        Path in = Files.createDirectories(work.resolve("in"));
        Files.writeString(in.resolve("hello.txt"), "hello");
        Run r = runApp(Map.of("deltafunnel.routes", route("log.yaml", """
                - route:
                    from:
                      uri: "file:%s"
                      steps:
                        - to: "log:seen"
                """.formatted(in)).toString(), "deltafunnel.idle-exit", "2s",
                "deltafunnel.sample.dir", work.resolve("sample").toString()));
        assertEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("(1 exchanges completed, 0 failed): one-shot job done"), r.output());
        // none of the built-in route's baggage: no embedded endpoint (nor its password), no sample table, and the
        // start line names the own routes, not the built-in route's source and target
        assertFalse(r.output().contains("embedded SQL Server endpoint"), r.output());
        assertFalse(r.output().contains("password"), r.output());
        assertFalse(Files.exists(work.resolve("sample")), "the sample table was generated for a route that does not read it");
        assertFalse(r.output().contains("target=dbo.sample_orders"), r.output());
        assertTrue(r.output().contains("DeltaFunnel starting: AppSettings[routes=["), r.output());
    }

    /**
     * Text in an {@code .arrows} file: its first bytes {@code this} read as an IPC length declare 1,936,287,860 bytes
     * of metadata, which Arrow Java's reader used to allocate on the heap at once; with a fuller heap (the whole
     * suite) that was an OutOfMemoryError, the file stayed marked in progress and the job waited forever. The producer
     * now refuses such a body before Arrow reads it.
     */
    @Test
    void aFileThatIsNoArrowEndsTheJobAtOnceWithStatusOne() throws Exception {
        Path in = Files.createDirectories(work.resolve("in"));
        Files.writeString(in.resolve("broken.arrows"), "this is not Arrow IPC");
        try (MssqlEmulator target = TestTargets.startEmulator()) {
            Run r = runApp(Map.of("deltafunnel.routes", route("load.yaml", fileToSqlServer(in, "dbo.broken")).toString(),
                    // long: the failure, not the idle time, ends the job
                    "deltafunnel.idle-exit", "10m", "deltafunnel.mssql.url", target.jdbcUrl(),
                    "deltafunnel.mssql.password", target.password()));
            assertEquals(1, r.status(), r.output());
            assertTrue(r.output().lines().anyMatch(l -> l.startsWith("DeltaFunnel target dbo.broken: 0 runs, 0 rows,"
                    + " 1 run FAILED (last: ") && l.contains("broken.arrows")
                    && l.contains("its first message would declare 1,936,287,860 bytes of metadata")), r.output());
            assertTrue(r.output().contains("ending the job at once"), r.output());
        }
    }
}
