package io.deltafunnel.arrow;

import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArrowIpcTest {

    private BufferAllocator allocator;
    private final List<VectorSchemaRoot> batches = new ArrayList<>();

    @TempDir
    Path dir;

    @BeforeEach
    void open() {
        allocator = new RootAllocator();
        batches.add(ArrowTestData.query(allocator, ArrowTestData.sql(0, 1000)));
        batches.add(ArrowTestData.query(allocator, ArrowTestData.sql(1000, 1700)));
        batches.add(ArrowTestData.query(allocator, ArrowTestData.sql(1700, 1703)));
    }

    @AfterEach
    void close() {
        batches.forEach(VectorSchemaRoot::close);
        assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory outstanding");
        allocator.close();
    }

    @Test
    void streamBytesAreSchemaOneBatchAndEndOfStreamAndLeaveTheRootIntact() throws Exception {
        VectorSchemaRoot root = batches.get(0);
        byte[] bytes = ArrowIpc.toStreamBytes(root);
        assertEquals(List.of(MessageHeader.Schema, MessageHeader.RecordBatch), ArrowTestData.messageTypes(bytes));
        assertEquals(1000, root.getRowCount());
        assertEquals(999L, ((BigIntVector) root.getVector("id")).get(999));
        // Arrow Java's own stream reader reads the same values back
        try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(bytes), allocator)) {
            assertTrue(reader.loadNextBatch());
            assertTrue(root.equals(reader.getVectorSchemaRoot()), "read back differs");
            assertFalse(reader.loadNextBatch());
        }
    }

    @Test
    void multiBatchStreamIsReadOneBatchAheadFromBytesStreamAndPath() throws Exception {
        byte[] stream = ArrowTestData.stream(allocator, batches);
        assertEquals(List.of(MessageHeader.Schema, MessageHeader.RecordBatch, MessageHeader.RecordBatch,
                MessageHeader.RecordBatch), ArrowTestData.messageTypes(stream));
        Path file = Files.write(dir.resolve("three.arrows"), stream);
        assertSameBatches(ArrowIpc.read(stream, allocator));
        assertSameBatches(ArrowIpc.read(new ByteArrayInputStream(stream), allocator));
        assertSameBatches(ArrowIpc.read(file, allocator));
    }

    @Test
    void ipcFileFormatIsReadFromPathBytesAndStream() throws Exception {
        Path file = dir.resolve("three.arrow");
        ArrowTestData.file(allocator, batches, file);
        byte[] bytes = Files.readAllBytes(file);
        assertEquals("ARROW1", new String(bytes, 0, 6, java.nio.charset.StandardCharsets.US_ASCII));
        assertSameBatches(ArrowIpc.read(file, allocator));
        assertSameBatches(ArrowIpc.read(bytes, allocator));
        assertSameBatches(ArrowIpc.read(new ByteArrayInputStream(bytes), allocator));
    }

    @Test
    void readAllConcatenatesEveryBatchIntoOneRoot() throws Exception {
        byte[] stream = ArrowTestData.stream(allocator, batches);
        try (RecordBatches sequence = ArrowIpc.read(stream, allocator);
             VectorSchemaRoot all = ArrowIpc.readAll(sequence, allocator);
             VectorSchemaRoot expected = ArrowTestData.query(allocator, ArrowTestData.sql(0, 1703))) {
            assertEquals(1703, all.getRowCount());
            assertTrue(expected.equals(all), "concatenation differs from the whole result");
        }
    }

    @Test
    void schemaOnlyStreamYieldsOneEmptyBatch() throws Exception {
        byte[] stream;
        try (VectorSchemaRoot empty = VectorSchemaRoot.create(batches.get(0).getSchema(), allocator)) {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            try (ArrowStreamWriter writer = new ArrowStreamWriter(empty, null, out)) {
                writer.start();
                writer.end();
            }
            stream = out.toByteArray();
        }
        assertEquals(List.of(MessageHeader.Schema), ArrowTestData.messageTypes(stream));
        try (RecordBatches sequence = ArrowIpc.read(stream, allocator)) {
            VectorSchemaRoot only = sequence.next();
            assertEquals(0, only.getRowCount());
            assertEquals(batches.get(0).getSchema(), only.getSchema());
            assertTrue(sequence.isLast());
            assertNull(sequence.next());
        }
    }

    @Test
    void garbageAndTruncatedStreamsFailNamingTheSourceAndBatchesRead() throws Exception {
        ArrowIpcException garbage = assertThrows(ArrowIpcException.class,
                () -> ArrowIpc.read("{\"not\":\"arrow\"}".getBytes(), allocator).close());
        assertTrue(garbage.getMessage().contains("byte[15]"), garbage.getMessage());

        byte[] stream = ArrowTestData.stream(allocator, batches);
        byte[] truncated = Arrays.copyOf(stream, stream.length - 200); // inside the last record batch
        try (RecordBatches sequence = ArrowIpc.read(truncated, allocator)) {
            assertEquals(1000, sequence.next().getRowCount());
            ArrowIpcException e = assertThrows(ArrowIpcException.class, sequence::next);
            assertEquals(2, e.batchesRead(), e.getMessage());
            assertTrue(e.getMessage().contains("record batch 2"), e.getMessage());
        }

        Path missing = dir.resolve("missing.arrows");
        ArrowIpcException absent = assertThrows(ArrowIpcException.class, () -> ArrowIpc.read(missing, allocator));
        assertTrue(absent.getMessage().contains(missing.toString()), absent.getMessage());
    }

    @Test
    void streamAndFileWrittenByPyarrowAreRead() throws Exception {
        // fixtures written by pyarrow (src/test/resources/arrow/make_pyarrow_fixtures.py)
        for (String name : List.of("pyarrow-stream.arrows", "pyarrow-file.arrow")) {
            Path path = Path.of(getClass().getResource("/arrow/" + name).toURI());
            try (RecordBatches sequence = ArrowIpc.read(path, allocator)) {
                int[] sizes = {10, 5, 1};
                long id = 0;
                for (int b = 0; b < sizes.length; b++) {
                    VectorSchemaRoot batch = sequence.next();
                    assertEquals(sizes[b], batch.getRowCount(), name + " batch " + b);
                    assertEquals(b == 2, sequence.isLast());
                    for (Map<String, Object> row : ArrowRows.toRows(batch)) {
                        assertEquals(id, row.get("id"));
                        assertEquals(id % 4 == 0 ? null : "n" + id, row.get("name"));
                        assertEquals(BigDecimal.valueOf(id * 25, 2), row.get("amount"));
                        assertEquals(LocalDate.of(2024, 1, 1).plusDays(id), row.get("day"));
                        assertEquals("[" + id + "," + (id + 1) + "]", row.get("tags"));
                        assertEquals(OffsetDateTime.of(2024, 1, 1, 0, 0, (int) id, 0, ZoneOffset.UTC), row.get("ts"));
                        id++;
                    }
                }
                assertNull(sequence.next());
            }
        }
    }

    @Test
    void dictionaryColumnsWrittenByPyarrowAreReadAsTheirValuesAndRoundTrip() throws Exception {
        // fixtures written by pyarrow (src/test/resources/arrow/make_pyarrow_dictionary_fixtures.py): the stream
        // replaces the mood dictionary with every batch (other values, other order), the file has one dictionary
        for (String name : List.of("pyarrow-dictionary-stream.arrows", "pyarrow-dictionary-file.arrow")) {
            Path path = Path.of(getClass().getResource("/arrow/" + name).toURI());
            byte[] bytes = Files.readAllBytes(path);
            List<RecordBatches> sources = List.of(ArrowIpc.read(path, allocator), ArrowIpc.read(bytes, allocator),
                    ArrowIpc.read(new ByteArrayInputStream(bytes), allocator));
            for (RecordBatches source : sources) {
                try (RecordBatches sequence = source) {
                    int[] sizes = {4, 3, 2};
                    long id = 0;
                    for (int b = 0; b < sizes.length; b++) {
                        VectorSchemaRoot batch = sequence.next();
                        assertEquals(sizes[b], batch.getRowCount(), name + " batch " + b);
                        Field mood = batch.getSchema().findField("mood");
                        assertEquals(ArrowType.Utf8.INSTANCE, mood.getType(), name);
                        assertNull(mood.getDictionary());
                        Field tag = batch.getSchema().findField("tags").getChildren().get(0);
                        assertEquals(ArrowType.Utf8.INSTANCE, tag.getType(), name);
                        assertNull(tag.getDictionary());
                        for (Map<String, Object> row : ArrowRows.toRows(batch)) {
                            assertEquals(id, row.get("id"));
                            assertEquals(id % 4 == 3 ? null : PYARROW_MOODS.get((int) (id % 4)), row.get("mood"),
                                    name + " id " + id);
                            assertEquals("[\"" + PYARROW_TAGS.get((int) (id % 3)) + "\",\""
                                    + PYARROW_TAGS.get((int) ((id + 1) % 3)) + "\"]", row.get("tags"));
                            id++;
                        }
                        // the decoded batch writes as IPC and reads back the same
                        try (RecordBatches back = ArrowIpc.read(ArrowIpc.toStreamBytes(batch), allocator)) {
                            assertTrue(batch.equals(back.next()), name + " batch " + b + " after a round trip");
                        }
                    }
                    assertNull(sequence.next());
                }
            }
            // and concatenated (what the VectorSchemaRoot type converter does): every batch's own values
            try (RecordBatches sequence = ArrowIpc.read(bytes, allocator);
                 VectorSchemaRoot all = ArrowIpc.readAll(sequence, allocator)) {
                List<Object> moods = new ArrayList<>();
                ArrowRows.toRows(all).forEach(r -> moods.add(r.get("mood")));
                assertEquals(Arrays.asList("sad", "ok", "happy", null, "sad", "ok", "happy", null, "sad"), moods);
            }
        }
    }

    @Test
    void anIndexOutsideItsDictionaryFailsNamingColumnRowAndBatch() throws Exception {
        // written by Arrow Java's own writer, which does not check indices: batch 0 fine, batch 1 points past "b"
        DictionaryEncoding encoding = new DictionaryEncoding(3, false, new ArrowType.Int(8, false));
        Schema schema = new Schema(List.of(new Field("e", new FieldType(true, new ArrowType.Int(8, false), encoding),
                null)));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        try (VarCharVector values = new VarCharVector("values", allocator);
             VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
            values.allocateNew();
            values.setSafe(0, "a".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            values.setSafe(1, "b".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            values.setValueCount(2);
            DictionaryProvider.MapDictionaryProvider provider = new DictionaryProvider.MapDictionaryProvider();
            provider.put(new Dictionary(values, encoding));
            try (ArrowStreamWriter writer = new ArrowStreamWriter(root, provider, java.nio.channels.Channels.newChannel(out))) {
                writer.start();
                UInt1Vector e = (UInt1Vector) root.getVector(0);
                e.allocateNew(2);
                e.set(0, 1);
                e.set(1, 0);
                root.setRowCount(2);
                writer.writeBatch();
                e.set(0, 0);
                e.set(1, 2);
                root.setRowCount(2);
                writer.writeBatch();
                writer.end();
            }
        }
        try (RecordBatches sequence = ArrowIpc.read(out.toByteArray(), allocator)) {
            VectorSchemaRoot first = sequence.next();
            assertEquals(List.of(Map.of("e", "b"), Map.of("e", "a")), ArrowRows.toRows(first));
            ArrowIpcException e = assertThrows(ArrowIpcException.class, sequence::next);
            assertEquals(1, e.batchesRead());
            assertTrue(e.getMessage().contains("column 'e', row 1: index 2 is outside its dictionary of 2 values"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("record batch 1"), e.getMessage());
        }
    }

    /** The mood of id {@code i} in the pyarrow dictionary fixtures: MOODS[i % 4], NULL where i % 4 == 3. */
    private static final List<String> PYARROW_MOODS = List.of("sad", "ok", "happy", "meh");
    private static final List<String> PYARROW_TAGS = List.of("red", "green", "blue");

    private void assertSameBatches(RecordBatches sequence) {
        try (sequence) {
            for (int i = 0; i < batches.size(); i++) {
                VectorSchemaRoot batch = sequence.next();
                assertEquals(i, sequence.index());
                assertEquals(i == batches.size() - 1, sequence.isLast(), "last flag of batch " + i);
                assertTrue(batches.get(i).equals(batch), "batch " + i + " differs");
            }
            assertNull(sequence.next());
        }
    }
}
