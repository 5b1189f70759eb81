package io.deltafunnel.query;

import java.io.IOException;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;

import io.deltafunnel.handoff.QuerySetupException;
import io.deltafunnel.handoff.UpstreamException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ArrowBatchStreamTest {

    private BufferAllocator allocator;
    private Connection connection;

    @BeforeEach
    void open() throws Exception {
        allocator = new RootAllocator();
        connection = DuckDbConnections.open(DuckDbSettings.inMemory());
    }

    @AfterEach
    void close() throws Exception {
        connection.close();
        assertEquals(0, allocator.getAllocatedMemory(), "every batch must have been released");
        allocator.close();
    }

    @Test
    void batchesHaveBatchSizeRowsAndTheRestLastWithExactStats() {
        List<Integer> sizes = new ArrayList<>();
        long sum = 0;
        try (ArrowBatchStream stream = ArrowBatchStream.open("t", connection,
                "SELECT i FROM range(1000000) t(i)", 65536, allocator)) {
            for (ArrowBatch next = stream.next(); next != null; next = stream.next()) {
                try (ArrowBatch batch = next) {
                    sizes.add(batch.rowCount());
                    BigIntVector v = (BigIntVector) batch.root().getVector("i");
                    for (int r = 0; r < batch.rowCount(); r++) {
                        sum += v.get(r);
                    }
                    assertEquals(sizes.size() - 1, batch.index());
                    assertEquals(sizes.size() == 16, batch.last());
                    assertEquals(sizes.size(), stream.stats().inputBatches());
                }
            }
            assertEquals(1000000, stream.stats().inputRows());
            assertEquals(0, stream.stats().outputRows());
        }
        assertEquals(16, sizes.size());
        for (int i = 0; i < 15; i++) {
            assertEquals(65536, sizes.get(i));
        }
        assertEquals(16960, sizes.get(15));
        assertEquals(999999L * 1000000L / 2, sum);
    }

    @Test
    void emptyResultYieldsOneEmptyBatchWithTheSchema() {
        try (ArrowBatchStream stream = ArrowBatchStream.open("t", connection,
                "SELECT i::INTEGER AS a, 'x' AS b FROM range(10) t(i) WHERE i < 0", 1024, allocator)) {
            try (ArrowBatch batch = stream.next()) {
                assertEquals(0, batch.rowCount());
                assertTrue(batch.last());
                assertEquals(List.of("a", "b"),
                        batch.root().getSchema().getFields().stream().map(Field::getName).toList());
            }
            assertNull(stream.next());
            assertEquals(1, stream.stats().inputBatches());
            assertEquals(0, stream.stats().inputRows());
        }
    }

    @Test
    void enumColumnsLeaveTheStreamAsTheirValuesBatchByBatch() throws Exception {
        try (java.sql.Statement s = connection.createStatement()) {
            s.execute("CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy')");
        }
        List<String> moods = new ArrayList<>();
        List<String> lists = new ArrayList<>();
        try (ArrowBatchStream stream = ArrowBatchStream.open("t", connection,
                "SELECT CASE WHEN i % 4 = 3 THEN NULL ELSE (['sad','ok','happy'])[i % 3 + 1] END::mood AS m,"
                        + " [(['sad','ok','happy'])[(i + 1) % 3 + 1]::mood] AS l FROM range(10) t(i) ORDER BY i",
                3, allocator)) {
            for (ArrowBatch next = stream.next(); next != null; next = stream.next()) {
                try (ArrowBatch batch = next) {
                    // a plain Utf8 column: no dictionary left that the batch's consumer would need
                    Field m = batch.root().getSchema().findField("m");
                    assertEquals(ArrowType.Utf8.INSTANCE, m.getType());
                    assertNull(m.getDictionary());
                    for (java.util.Map<String, Object> row : io.deltafunnel.arrow.ArrowRows.toRows(batch.root())) {
                        moods.add((String) row.get("m"));
                        lists.add((String) row.get("l"));
                    }
                }
            }
        }
        List<String> expected = new ArrayList<>();
        List<String> expectedLists = new ArrayList<>();
        List<String> values = List.of("sad", "ok", "happy");
        for (int i = 0; i < 10; i++) {
            expected.add(i % 4 == 3 ? null : values.get(i % 3));
            expectedLists.add("[\"" + values.get((i + 1) % 3) + "\"]");
        }
        assertEquals(expected, moods);
        assertEquals(expectedLists, lists);
        // an empty result carries the decoded schema too
        try (ArrowBatchStream stream = ArrowBatchStream.open("t", connection,
                "SELECT 'ok'::mood AS m FROM range(3) WHERE false", 3, allocator);
             ArrowBatch batch = stream.next()) {
            assertEquals(0, batch.rowCount());
            assertEquals(ArrowType.Utf8.INSTANCE, batch.root().getSchema().findField("m").getType());
            assertNull(batch.root().getSchema().findField("m").getDictionary());
        }
    }

    @Test
    void badSqlFailsAtSetupWithDuckDbsMessage() {
        QuerySetupException e = assertThrows(QuerySetupException.class,
                () -> ArrowBatchStream.open("deltafunnel:x", connection, "SELEC nonsense", 1024, allocator));
        assertTrue(e.getMessage().contains("deltafunnel:x"), e.getMessage());
        assertTrue(e.getMessage().toLowerCase().contains("syntax"), e.getMessage());
    }

    @Test
    void missingFileFailsAtSetupNamingTheFile() {
        QuerySetupException e = assertThrows(QuerySetupException.class, () -> ArrowBatchStream.open("t", connection,
                "SELECT * FROM read_parquet('/nonexistent/dir/missing.parquet')", 1024, allocator));
        assertTrue(e.getMessage().contains("missing.parquet"), e.getMessage());
    }

    @Test
    void missingExtensionFailsFastWithoutNetwork() {
        QuerySetupException e = assertThrows(QuerySetupException.class, () -> ArrowBatchStream.open("t", connection,
                "SELECT * FROM delta_scan('/tmp/none')", 1024, allocator));
        assertTrue(e.getMessage().contains("delta"), e.getMessage());
    }

    @Test
    void pullsAtMostOneBatchAheadOfTheCaller() {
        CountingReader reader = new CountingReader(allocator, new int[] {3, 0, 4, 5});
        try (ArrowBatchStream stream = new ArrowBatchStream("fake", allocator, reader)) {
            assertEquals(0, reader.loads, "opening pulls nothing");
            ArrowBatch first = stream.next();
            assertEquals(2, reader.loads, "the batch handed out plus one look-ahead");
            assertEquals(2, stream.batchesLoaded());
            first.close();
            List<Integer> sizes = new ArrayList<>();
            sizes.add(first.rowCount());
            for (ArrowBatch next = stream.next(); next != null; next = stream.next()) {
                try (ArrowBatch b = next) {
                    sizes.add(b.rowCount());
                    assertTrue(reader.loads <= sizes.size() + 1);
                    assertEquals(sizes.size() == 4, b.last());
                }
            }
            assertEquals(List.of(3, 0, 4, 5), sizes, "empty batches in the middle are forwarded");
            assertEquals(4, stream.stats().inputBatches());
            assertEquals(12, stream.stats().inputRows());
        }
        assertTrue(reader.closed);
    }

    @Test
    void midStreamFailureCarriesTheStatsOfDeliveredBatches() {
        CountingReader reader = new CountingReader(allocator, new int[] {3, 4, 5});
        reader.failAtLoad = 3;
        try (ArrowBatchStream stream = new ArrowBatchStream("fake", allocator, reader)) {
            stream.next().close();
            UpstreamException e = assertThrows(UpstreamException.class, stream::next);
            assertEquals(1, e.stats().inputBatches());
            assertEquals(3, e.stats().inputRows());
            assertTrue(e.getMessage().contains("broken batch"), e.getMessage());
            assertNull(stream.next(), "a failed stream is finished");
        }
    }

    @Test
    void duckDbCastErrorInALaterBatchCarriesStats() {
        // Results are streamed, so a conversion error far into the result surfaces after earlier batches.
        String sql = "SELECT (CASE WHEN i < 2000000 THEN i::VARCHAR ELSE 'not a number' END)::BIGINT AS v"
                     + " FROM range(3000000) t(i)";
        try (ArrowBatchStream stream = ArrowBatchStream.open("t", connection, sql, 65536, allocator)) {
            long delivered = 0;
            long rows = 0;
            UpstreamException failure = null;
            try {
                for (ArrowBatch next = stream.next(); next != null; next = stream.next()) {
                    try (ArrowBatch b = next) {
                        delivered++;
                        rows += b.rowCount();
                    }
                }
            } catch (UpstreamException e) {
                failure = e;
            }
            assertTrue(failure != null, "the cast error must surface");
            assertTrue(delivered > 0, "batches before the failure are delivered");
            assertEquals(delivered, failure.stats().inputBatches());
            assertEquals(rows, failure.stats().inputRows());
            assertTrue(failure.getMessage().contains("not a number"), failure.getMessage());
        }
    }

    /** An in-memory Arrow reader that counts loads, for observing the stream's pull behaviour. */
    static final class CountingReader extends ArrowReader {
        private final int[] sizes;
        int loads;
        int failAtLoad = -1;
        boolean closed;

        CountingReader(BufferAllocator allocator, int[] sizes) {
            super(allocator);
            this.sizes = sizes;
        }

        @Override
        public boolean loadNextBatch() throws IOException {
            if (loads >= sizes.length) {
                return false;
            }
            loads++;
            if (loads == failAtLoad) {
                throw new IOException("broken batch " + loads);
            }
            VectorSchemaRoot root = getVectorSchemaRoot();
            IntVector v = (IntVector) root.getVector(0);
            int n = sizes[loads - 1];
            v.allocateNew(n);
            for (int i = 0; i < n; i++) {
                v.set(i, i);
            }
            v.setValueCount(n);
            root.setRowCount(n);
            return true;
        }

        @Override
        public long bytesRead() {
            return 0;
        }

        @Override
        protected void closeReadSource() {
            closed = true;
        }

        @Override
        protected Schema readSchema() {
            return new Schema(List.of(new Field("v", FieldType.nullable(new ArrowType.Int(32, true)), null)));
        }
    }

    @Test
    void readerIsNotLoadedAfterTheLastBatch() {
        CountingReader reader = new CountingReader(allocator, new int[] {2});
        try (ArrowBatchStream stream = new ArrowBatchStream("fake", allocator, reader)) {
            try (ArrowBatch only = stream.next()) {
                assertTrue(only.last());
            }
            assertNull(stream.next());
            assertFalse(reader.loads > 1);
        }
    }
}
