package io.deltafunnel.camel;

import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.deltafunnel.arrow.ArrowIpcException;
import io.deltafunnel.arrow.ArrowTestData;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.camel.Exchange;
import org.apache.camel.TypeConversionException;
import org.apache.camel.builder.NotifyBuilder;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.mock.MockEndpoint;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Arrow body connects to other Camel endpoints: {@code deltafunnel:} to {@code file:} as {@code .arrows}, a
 * folder of Arrow IPC files into {@code deltafunnel-mssql:}, {@code deltafunnel:} through {@code List<Map>} into
 * {@code split}/{@code log}, and the converters' ownership of the roots they make.
 */
class ArrowInteropRouteTest extends EmulatorRouteTestSupport {

    @TempDir
    Path dir;

    /** Test data made outside Camel, from its own allocator. */
    private BufferAllocator testAllocator;

    @BeforeEach
    void testAllocator() {
        testAllocator = new RootAllocator();
    }

    @AfterEach
    void closeTestAllocator() {
        assertEquals(0, testAllocator.getAllocatedMemory(), "test data not released");
        testAllocator.close();
    }

    @Test
    void deltafunnelToFileWritesArrowsFilesThatArrowReadersOpen() throws Exception {
        NotifyBuilder done = new NotifyBuilder(context).whenDone(3).create();
        String source = source(ArrowTestData.sql(0, 2500), 1000);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(source).to("file:" + dir + "?fileName=batch-${exchangeProperty.CamelBatchIndex}.arrows");
            }
        });
        assertTrue(done.matches(60, TimeUnit.SECONDS));
        for (int i = 0; i < 3; i++) {
            byte[] bytes = Files.readAllBytes(dir.resolve("batch-" + i + ".arrows"));
            // by bytes: 0xFFFFFFFF + schema message, one record batch message, 0xFFFFFFFF 0x00000000
            assertEquals(List.of(MessageHeader.Schema, MessageHeader.RecordBatch), ArrowTestData.messageTypes(bytes));
            // and with Arrow Java's reader: exactly the query's rows of that batch
            try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(bytes), testAllocator);
                 VectorSchemaRoot expected = ArrowTestData.query(testAllocator,
                         ArrowTestData.sql(i * 1000L, Math.min(2500, i * 1000L + 1000)))) {
                assertTrue(reader.loadNextBatch());
                assertTrue(expected.equals(reader.getVectorSchemaRoot()), "batch " + i + " differs");
                assertFalse(reader.loadNextBatch());
            }
        }
        assertConversionsReleased();
        stopAndAssertNoArrowLeak();
    }

    @Test
    void folderOfArrowIpcFilesLoadsIntoMssqlExactly() throws Exception {
        Path in = Files.createDirectories(dir.resolve("in"));
        List<VectorSchemaRoot> first = List.of(scalars(0, 1000), scalars(1000, 1700), scalars(1700, 1703));
        List<VectorSchemaRoot> second = List.of(scalars(1703, 2500), scalars(2500, 3000));
        try {
            Files.write(in.resolve("a.arrows"), ArrowTestData.stream(testAllocator, first)); // IPC stream format
            ArrowTestData.file(testAllocator, second, in.resolve("b.arrow"));                 // IPC file format
        } finally {
            first.forEach(VectorSchemaRoot::close);
            second.forEach(VectorSchemaRoot::close);
        }
        MockEndpoint out = getMockEndpoint("mock:out");
        out.expectedMessageCount(2);
        String target = mssql("createTable=true");
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("file:" + in + "?noop=true&initialDelay=0&delay=100&sortBy=file:name&include=.*\\.arrows?")
                        .to(target).to("mock:out");
            }
        });
        out.assertIsSatisfied(60_000);
        // one write per record batch, each file its own committed run; the headers count what SQL Server accepted
        Exchange a = out.getReceivedExchanges().get(0);
        assertEquals("a.arrows", a.getIn().getHeader(Exchange.FILE_NAME));
        assertEquals(3L, a.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_BATCHES, Long.class));
        assertEquals(1703L, a.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_ROWS, Long.class));
        Exchange b = out.getReceivedExchanges().get(1);
        assertEquals(2L, b.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_BATCHES, Long.class));
        assertEquals(1297L, b.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_ROWS, Long.class));
        assertTableHoldsExactly(0, 3000);
        assertConversionsReleased();
    }

    @Test
    void ipcBodiesAsBytesAndStreamsAreWrittenWholeOrNotAtAll() throws Exception {
        List<VectorSchemaRoot> batches = List.of(scalars(0, 1000), scalars(1000, 1700), scalars(1700, 1703));
        byte[] stream;
        try {
            stream = ArrowTestData.stream(testAllocator, batches);
        } finally {
            batches.forEach(VectorSchemaRoot::close);
        }
        String target = mssql("createTable=true");
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:load").to(target);
            }
        });
        // broken inside its last record batch: the batches written before are rolled back with the run
        byte[] truncated = Arrays.copyOf(stream, stream.length - 100);
        Exchange broken = template.send("direct:load", e -> e.getIn().setBody(truncated));
        ArrowIpcException failure = assertInstanceOf(ArrowIpcException.class, broken.getException());
        assertEquals(2, failure.batchesRead(), failure.getMessage());
        assertEquals(0, countIfExists());

        Exchange bytes = template.send("direct:load", e -> e.getIn().setBody(stream));
        assertEquals(null, bytes.getException());
        assertEquals(3L, bytes.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_BATCHES, Long.class));
        assertEquals(1703L, bytes.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_ROWS, Long.class));
        Exchange input = template.send("direct:load", e -> e.getIn().setBody(new ByteArrayInputStream(stream)));
        assertEquals(null, input.getException());
        assertEquals(1703L, input.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_ROWS, Long.class));
        assertEquals(2 * 1703L, count(table));
        assertConversionsReleased();
    }

    @Test
    void aBodyThatIsNoArrowIsRefusedBeforeArrowAllocatesWhatItsFirstBytesDeclare() throws Exception {
        String target = mssql("createTable=true");
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:load").to(target);
            }
        });
        // a text file: Arrow Java reads "this" as a metadata length of 1,936,287,860 bytes and allocates it
        Path text = Files.writeString(dir.resolve("broken.arrows"), "this is not Arrow IPC");
        // 0xFFFFFFFF and a length of 2^31 - 16: more than a 2 GB heap holds (an OutOfMemoryError in Arrow's reader)
        byte[] huge = java.nio.ByteBuffer.allocate(12).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(-1)
                .putInt(Integer.MAX_VALUE - 15).putInt(0).array();
        byte[] textBytes = Files.readAllBytes(text);
        List<Object> bodies = List.of(huge, new ByteArrayInputStream(huge), text, text.toFile(), textBytes,
                new ByteArrayInputStream(textBytes));
        for (Object body : bodies) {
            Exchange refused = template.send("direct:load", e -> e.getIn().setBody(body));
            ArrowIpcException failure = assertInstanceOf(ArrowIpcException.class, refused.getException(),
                    body.getClass().getSimpleName() + ": " + refused.getException());
            assertTrue(failure.getMessage().contains("not a readable Arrow IPC stream or file: its first message would"
                    + " declare "), failure.getMessage());
            assertEquals(0, failure.batchesRead());
        }
        Exchange file = template.send("direct:load", e -> e.getIn().setBody(text));
        String message = file.getException().getMessage();
        assertTrue(message.contains(text.toString()), "the file is named: " + message);
        assertTrue(message.contains("declare 1,936,287,860 bytes of metadata, but the input holds only 21 bytes"),
                message);
        assertTrue(message.contains("starts with 74 68 69 73 20 69 73 20 (\"this is \")"), message);
        assertEquals(0, countIfExists());
        assertConversionsReleased();
    }

    @Test
    void jsonLinesBodyIsWrittenOnlyWhenDeclaredAsJson() throws Exception {
        String target = mssql("createTable=true");
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:json").to(target);
            }
        });
        String lines = "{\"id\":1,\"name\":\"a\",\"amount\":1.25}\n{\"id\":2,\"name\":null,\"amount\":3}\n";
        Exchange undeclared = template.send("direct:json", e -> e.getIn().setBody(lines));
        assertInstanceOf(org.apache.camel.InvalidPayloadException.class, undeclared.getException());
        Exchange json = template.send("direct:json", e -> {
            e.getIn().setBody(lines);
            e.getIn().setHeader(Exchange.CONTENT_TYPE, "application/json");
        });
        assertEquals(null, json.getException());
        assertEquals(2L, json.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_ROWS, Long.class));
        List<List<Object>> rows = query("SELECT id, name, amount FROM [dbo].[" + table + "] ORDER BY id");
        assertEquals(List.of(List.of(1L, "a", new BigDecimal("1.25"))), rows.subList(0, 1));
        assertEquals(Arrays.asList(2L, null, new BigDecimal("3.00")), rows.get(1));
        assertConversionsReleased();
    }

    @Test
    void deltafunnelToSplitAndLogThroughListOfMaps() throws Exception {
        MockEndpoint rows = getMockEndpoint("mock:rows");
        rows.expectedMessageCount(25);
        String source = source(ArrowTestData.sql(0, 25), 10);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(source).convertBodyTo(List.class).split(body())
                        .to("log:io.deltafunnel.rows?level=DEBUG").to("mock:rows");
            }
        });
        rows.assertIsSatisfied(60_000);
        for (int i = 0; i < 25; i++) {
            Map<?, ?> row = rows.getReceivedExchanges().get(i).getIn().getBody(Map.class);
            assertEquals((long) i, row.get("id"));
            assertEquals("name " + i, row.get("name"));
            assertEquals(BigDecimal.valueOf(i * 125L, 2), row.get("amount"));
            assertEquals(LocalDate.of(2024, 1, 1).plusDays(i), row.get("day"));
            assertEquals("[" + i + "," + (i + 1) + "]", row.get("list"));
        }
        stopAndAssertNoArrowLeak();
    }

    @Test
    void convertedRootsAreOwnedByTheExchangeAndReleasedWhenItCompletes() throws Exception {
        List<VectorSchemaRoot> batches = List.of(ArrowTestData.query(testAllocator, ArrowTestData.sql(0, 40)),
                ArrowTestData.query(testAllocator, ArrowTestData.sql(40, 50)));
        byte[] stream;
        String expectedJson;
        try (VectorSchemaRoot whole = ArrowTestData.query(testAllocator, ArrowTestData.sql(0, 50))) {
            stream = ArrowTestData.stream(testAllocator, batches);
            expectedJson = io.deltafunnel.arrow.ArrowJsonLines.toJsonLines(whole);
        } finally {
            batches.forEach(VectorSchemaRoot::close);
        }
        assertNotNull(context.getTypeConverterRegistry().lookup(VectorSchemaRoot.class, byte[].class),
                "the generated TypeConverterLoader did not register the converters");
        List<Long> inUse = new ArrayList<>();
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:convert").convertBodyTo(VectorSchemaRoot.class)
                        .process(e -> inUse.add(ArrowConversionMemory.allocator(e.getContext()).getAllocatedMemory()))
                        .convertBodyTo(String.class).to("mock:json");
            }
        });
        MockEndpoint json = getMockEndpoint("mock:json");
        json.expectedBodiesReceived(expectedJson);
        template.sendBody("direct:convert", stream);
        json.assertIsSatisfied();
        assertTrue(inUse.get(0) > 0, "the converted root should have been allocated from the conversion memory");
        assertConversionsReleased();

        TypeConversionException noExchange = assertThrows(TypeConversionException.class,
                () -> context.getTypeConverter().mandatoryConvertTo(VectorSchemaRoot.class, stream));
        assertTrue(String.valueOf(noExchange.getCause()).contains("needs an exchange"), noExchange.toString());
    }

    private VectorSchemaRoot scalars(long from, long to) {
        return ArrowTestData.query(testAllocator, ArrowTestData.scalarSql(from, to));
    }

    private long countIfExists() throws Exception {
        return query("SELECT OBJECT_ID('dbo." + table + "')").get(0).get(0) == null ? 0 : count(table);
    }

    private void assertConversionsReleased() {
        assertEquals(0, ArrowConversionMemory.allocator(context).getAllocatedMemory(),
                "converted Arrow memory outstanding");
    }

    private void assertTableHoldsExactly(long from, long to) throws Exception {
        List<List<Object>> rows = query("SELECT id, name, amount, day, flag, ratio FROM [dbo].[" + table
                + "] ORDER BY id");
        assertEquals(to - from, rows.size());
        for (int r = 0; r < rows.size(); r++) {
            long i = from + r;
            List<Object> row = rows.get(r);
            assertEquals(i, ((Number) row.get(0)).longValue());
            assertEquals("name " + i, row.get(1));
            assertEquals(BigDecimal.valueOf(i * 125, 2), row.get(2));
            assertEquals(LocalDate.of(2024, 1, 1).plusDays(i), ((java.sql.Date) row.get(3)).toLocalDate());
            assertEquals(i % 3 == 0, row.get(4));
            assertEquals(i % 5 == 0 ? null : i / 4.0, row.get(5));
        }
    }
}
