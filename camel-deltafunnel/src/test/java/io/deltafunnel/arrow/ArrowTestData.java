package io.deltafunnel.arrow;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;

import io.deltafunnel.query.ArrowBatch;
import io.deltafunnel.query.ArrowBatchStream;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.ArrowWriter;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

/** Arrow test data made by DuckDB, and multi-batch IPC streams/files written with Arrow Java's own writers. */
public final class ArrowTestData {

    /** Rows {@code [from, to)} of a table with scalar, null, decimal, date and nested columns. */
    public static String sql(long from, long to) {
        return "SELECT i::BIGINT AS id, 'name ' || i AS name, (i * 1.25)::DECIMAL(12,2) AS amount,"
                + " DATE '2024-01-01' + i::INTEGER AS day, i % 3 = 0 AS flag,"
                + " CASE WHEN i % 5 = 0 THEN NULL ELSE i / 4.0 END::DOUBLE AS ratio,"
                + " [i, i + 1] AS list, {'a': i, 'b': 'x' || i} AS st"
                + " FROM range(" + from + ", " + to + ") t(i) ORDER BY i";
    }

    /** Rows {@code [from, to)} of {@link #sql} without nested columns. */
    public static String scalarSql(long from, long to) {
        return "SELECT id, name, amount, day, flag, ratio FROM (" + sql(from, to) + ")";
    }

    /** One root holding the whole result of {@code sql}, owned by the caller. */
    public static VectorSchemaRoot query(BufferAllocator allocator, String sql) {
        try (Connection connection = DuckDbConnections.open(DuckDbSettings.inMemory());
             ArrowBatchStream stream = ArrowBatchStream.open("test", connection, sql, 1_000_000, allocator);
             ArrowBatch batch = stream.next()) {
            return ArrowIpc.transfer(batch.root(), allocator);
        } catch (Exception e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** An IPC stream holding {@code batches} as consecutive record batches. */
    public static byte[] stream(BufferAllocator allocator, List<VectorSchemaRoot> batches) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (VectorSchemaRoot writerRoot = VectorSchemaRoot.create(batches.get(0).getSchema(), allocator);
             ArrowStreamWriter writer = new ArrowStreamWriter(writerRoot, new DictionaryProvider.MapDictionaryProvider(),
                     Channels.newChannel(out))) {
            write(writer, writerRoot, batches);
        }
        return out.toByteArray();
    }

    /** Writes an IPC file (footer, {@code ARROW1} magic) holding {@code batches} to {@code path}. */
    public static void file(BufferAllocator allocator, List<VectorSchemaRoot> batches, Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
             VectorSchemaRoot writerRoot = VectorSchemaRoot.create(batches.get(0).getSchema(), allocator);
             ArrowFileWriter writer = new ArrowFileWriter(writerRoot, new DictionaryProvider.MapDictionaryProvider(),
                     channel)) {
            write(writer, writerRoot, batches);
        }
    }

    private static void write(ArrowWriter writer, VectorSchemaRoot writerRoot, List<VectorSchemaRoot> batches)
            throws IOException {
        writer.start();
        VectorLoader loader = new VectorLoader(writerRoot);
        for (VectorSchemaRoot batch : batches) {
            try (ArrowRecordBatch recordBatch = new VectorUnloader(batch).getRecordBatch()) {
                loader.load(recordBatch);
            }
            writer.writeBatch();
        }
        writer.end();
    }

    /**
     * Walks {@code bytes} as the Arrow IPC stream format says (each message: the continuation marker 0xFFFFFFFF, the
     * little-endian metadata length, a flatbuffer {@code Message}, its body; then the end-of-stream marker
     * 0xFFFFFFFF 0x00000000 as the last 8 bytes) and returns the header type of each message.
     *
     * @throws AssertionError when the bytes are not such a stream
     */
    public static List<Byte> messageTypes(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        List<Byte> types = new ArrayList<>();
        while (true) {
            if (b.remaining() < 8) {
                throw new AssertionError("stream ends without the end-of-stream marker at " + b.position());
            }
            int marker = b.getInt();
            if (marker != 0xFFFFFFFF) {
                throw new AssertionError("no continuation marker at " + (b.position() - 4) + ": " + marker);
            }
            int length = b.getInt();
            if (length == 0) {
                if (b.hasRemaining()) {
                    throw new AssertionError(b.remaining() + " bytes after the end-of-stream marker");
                }
                return types;
            }
            if (length % 8 != 0) {
                throw new AssertionError("metadata length " + length + " is not a multiple of 8");
            }
            Message message = Message.getRootAsMessage(b.slice(b.position(), length).order(ByteOrder.LITTLE_ENDIAN));
            types.add(message.headerType());
            b.position(b.position() + length + (int) message.bodyLength());
        }
    }

    private ArrowTestData() {
    }
}
