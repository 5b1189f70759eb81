package io.deltafunnel.routes;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.deltafunnel.camel.ArrowConversionMemory;
import io.deltafunnel.camel.DeltaFunnelEndpoint;
import io.deltafunnel.emulator.MssqlEmulator;
import org.apache.camel.Endpoint;
import org.apache.camel.spi.CamelEvent;
import org.apache.camel.support.EventNotifierSupport;
import org.apache.camel.support.service.ServiceHelper;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.apache.camel.test.junit5.CamelTestSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pipes over the shipped Kamelets choose a data type as Camel's Kamelets declare them ({@code dataTypes.out.format}
 * of the source, {@code dataTypes.in.format} of the sink): JSON lines into a file sink, Arrow IPC bytes and JSON
 * lines into the SQL Server sink. Every Pipe ends with no Arrow memory outstanding.
 */
class KameletDataTypesTest extends CamelTestSupport {

    private static MssqlEmulator emu;

    @TempDir
    Path dir;

    private final Set<Class<?>> sinkBodies = ConcurrentHashMap.newKeySet();

    @BeforeAll
    static void start() {
        emu = TestTargets.startEmulator();
    }

    @AfterAll
    static void stop() {
        emu.close();
    }

    @Test
    void sourceWithJsonDataTypeIntoAFileSink() throws Exception {
        loadPipe("delta-to-json-files", "deltafunnel:application-json", """
                  sink:
                    uri: "file:%s?fileName=batch-${exchangeProperty.CamelBatchIndex}.jsonl"
                """.formatted(dir));
        await("8 JSON lines files", () -> files().size() == 8);
        TreeSet<Long> ids = new TreeSet<>();
        Pattern id = Pattern.compile("^\\{\"order_id\":(\\d+),\"customer_id\":-?\\d+,\"status\":\"[A-Z]+\",");
        for (Path file : files()) {
            for (String line : Files.readAllLines(file)) {
                Matcher m = id.matcher(line);
                assertTrue(m.find(), line);
                ids.add(Long.parseLong(m.group(1)));
                assertTrue(line.endsWith("}"), line);
            }
        }
        assertEquals(5000, ids.size());
        assertEquals(0L, ids.first());
        assertEquals(4999L, ids.last());
        String first = null;
        for (Path file : files()) {
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith("{\"order_id\":1,")) {
                    first = line;
                }
            }
        }
        assertTrue(first != null && first.contains("\"status\":\"PAID\",") && first.contains("\"quantity\":2,")
                && first.contains("\"priority\":false,") && first.contains("\"order_date\":\"2020-01-02\","), first);
        assertNoArrowMemoryOutstanding();
    }

    @Test
    void arrowStreamDataTypeIntoTheSqlServerSink() throws Exception {
        loadPipe("delta-to-mssql-ipc", "deltafunnel:application-vnd.apache.arrow.stream",
                sink("kamelet_ipc", "deltafunnel:application-vnd.apache.arrow.stream"));
        await("5000 rows in kamelet_ipc", () -> count("[dbo].[kamelet_ipc]") == 5000);
        assertEquals(Set.of(byte[].class), sinkBodies, "the sink must receive Arrow IPC bytes");
        List<List<Object>> row = TestTargets.rows(emu,
                "SELECT status, amount, order_date FROM [dbo].[kamelet_ipc] WHERE order_id = 1");
        assertEquals("PAID", row.get(0).get(0));
        assertEquals("2020-01-02", String.valueOf(row.get(0).get(2)));
        assertNoArrowMemoryOutstanding();
    }

    @Test
    void jsonDataTypeIntoTheSqlServerSink() throws Exception {
        loadPipe("delta-to-mssql-json", "deltafunnel:application-json",
                sink("kamelet_json", "deltafunnel:application-json"));
        await("5000 rows in kamelet_json", () -> count("[dbo].[kamelet_json]") == 5000);
        assertEquals(Set.of(String.class), sinkBodies, "the sink must receive JSON lines");
        List<List<Object>> row = TestTargets.rows(emu,
                "SELECT order_id, status, quantity, priority, order_date FROM [dbo].[kamelet_json] WHERE order_id = 1");
        assertEquals(1L, ((Number) row.get(0).get(0)).longValue());
        assertEquals("PAID", row.get(0).get(1));
        assertEquals(2L, ((Number) row.get(0).get(2)).longValue());
        assertEquals(false, row.get(0).get(3));
        assertEquals("2020-01-02", row.get(0).get(4)); // JSON has no date type: the date arrives as text
        assertNoArrowMemoryOutstanding();
    }

    private String sink(String table, String format) {
        return """
                  sink:
                    ref:
                      kind: Kamelet
                      apiVersion: camel.apache.org/v1
                      name: deltafunnel-mssql-sink
                    properties:
                      table: "dbo.%s"
                      url: "%s"
                      username: "%s"
                      password: "RAW(%s)"
                      createTable: true
                    dataTypes:
                      in:
                        format: "%s"
                """.formatted(table, emu.jdbcUrl(), emu.user(), emu.password(), format);
    }

    private void loadPipe(String name, String sourceFormat, String sink) throws Exception {
        // records the body types arriving at the SQL Server endpoint of the sink Kamelet
        EventNotifierSupport recorder = new EventNotifierSupport() {
            @Override
            public void notify(CamelEvent event) {
                if (event instanceof CamelEvent.ExchangeSendingEvent sending
                        && sending.getEndpoint().getEndpointUri().startsWith("deltafunnel-mssql:")) {
                    sinkBodies.add(sending.getExchange().getIn().getBody().getClass());
                }
            }
        };
        context.getManagementStrategy().addEventNotifier(recorder);
        ServiceHelper.startService(recorder);
        String yaml = """
                apiVersion: camel.apache.org/v1
                kind: Pipe
                metadata:
                  name: %s
                spec:
                  source:
                    ref:
                      kind: Kamelet
                      apiVersion: camel.apache.org/v1
                      name: deltafunnel-source
                    properties:
                      tablePath: "%s"
                      batchSize: 700
                      repeatCount: 1
                      delay: 10
                    dataTypes:
                      out:
                        format: "%s"
                """.formatted(name, TestTargets.smallSample(), sourceFormat) + sink;
        PluginHelper.getRoutesLoader(context).loadRoutes(ResourceHelper.fromString(name + ".yaml", yaml));
    }

    private List<Path> files() {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static long count(String table) {
        try {
            return TestTargets.count(emu, table);
        } catch (Exception notYetCreated) {
            return -1;
        }
    }

    /** Waits (up to a minute) until the routes have done their work; the assertions follow. */
    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "not reached: " + what);
            Thread.sleep(50);
        }
    }

    /** Batches and converted roots are released once the last exchange has completed. */
    private void assertNoArrowMemoryOutstanding() throws InterruptedException {
        List<DeltaFunnelEndpoint> sources = context.getEndpoints().stream()
                .filter(DeltaFunnelEndpoint.class::isInstance).map(DeltaFunnelEndpoint.class::cast).toList();
        assertEquals(1, sources.size(), "deltafunnel: endpoints " + context.getEndpoints().stream()
                .map(Endpoint::getEndpointUri).toList());
        await("all Arrow memory released", () -> sources.get(0).getAllocator().getAllocatedMemory() == 0
                && ArrowConversionMemory.allocator(context).getAllocatedMemory() == 0);
        assertEquals(0, sources.get(0).getAllocator().getAllocatedMemory());
        assertEquals(0, ArrowConversionMemory.allocator(context).getAllocatedMemory());
    }
}
