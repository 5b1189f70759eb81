package io.deltafunnel.arrow;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.ByteArrayReadableSeekableByteChannel;
import org.apache.arrow.vector.util.TransferPair;
import org.apache.arrow.vector.util.VectorSchemaRootAppender;

/**
 * Arrow IPC in both directions, without Camel.
 *
 * <p><b>Writing</b> produces the IPC <em>stream</em> format (what {@code pyarrow.ipc.open_stream} reads, media type
 * {@code application/vnd.apache.arrow.stream}, file suffix {@code .arrows}): the schema message, one record batch
 * message, the end-of-stream marker. It copies the root's buffers; the root is left untouched and stays owned by the
 * caller.
 *
 * <p><b>Reading</b> accepts the stream format and the IPC <em>file</em> format ({@code .arrow}, "Feather v2",
 * recognised by its {@code ARROW1} magic), from a {@code byte[]}, an {@link InputStream} or a {@link Path}. A file
 * from a path is read through a seekable channel; a file-format {@code InputStream} is first read into memory (the
 * format's footer is at its end). The returned {@link RecordBatches} allocates from the caller's allocator and is
 * closed by the caller. Dictionary-encoded columns (pyarrow's {@code dictionary<...>}, DuckDB's enums) are decoded
 * to plain columns of their value type as each batch is read ({@link DictionaryColumns}), with the dictionaries the
 * input carries, so the batches hold values, not indices.
 *
 * <p>A root to be <em>written</em> that still has a dictionary-encoded column is refused with an
 * {@link ArrowIpcException} naming the column: a {@link VectorSchemaRoot} does not carry the dictionaries (its
 * reader's {@link DictionaryProvider} does), so there is nothing to write them from. Roots made here and by the
 * {@code deltafunnel:} consumer never have one.
 */
public final class ArrowIpc {

    private static final byte[] FILE_MAGIC = "ARROW1".getBytes(StandardCharsets.US_ASCII);

    private ArrowIpc() {
    }

    /** The IPC stream bytes of {@code root} (schema, one record batch, end-of-stream). A copy. */
    public static byte[] toStreamBytes(VectorSchemaRoot root) {
        long size = 1024;
        for (FieldVector v : root.getFieldVectors()) {
            size += v.getBufferSize() + 64L * (v.getField().getChildren().size() + 1);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(size, Integer.MAX_VALUE - 8));
        writeStream(root, out);
        return out.toByteArray();
    }

    /**
     * Writes {@code root} to {@code out} as an IPC stream (schema, one record batch, end-of-stream) and closes
     * {@code out}.
     */
    public static void writeStream(VectorSchemaRoot root, OutputStream out) {
        refuseDictionaries("VectorSchemaRoot", root.getSchema());
        try (ArrowStreamWriter writer = new ArrowStreamWriter(root, new DictionaryProvider.MapDictionaryProvider(),
                Channels.newChannel(out))) {
            writer.start();
            writer.writeBatch();
            writer.end();
        } catch (IOException e) {
            throw new UncheckedIOException("writing an Arrow IPC stream of " + root.getRowCount() + " rows failed", e);
        }
    }

    /** The record batches of an IPC stream or file held in {@code bytes}. */
    public static RecordBatches read(byte[] bytes, BufferAllocator allocator) {
        String source = "byte[" + bytes.length + "]";
        if (isFileFormat(bytes)) {
            return open(source, new ArrowFileReader(new ByteArrayReadableSeekableByteChannel(bytes), allocator),
                    allocator);
        }
        return open(source, new ArrowStreamReader(new ByteArrayInputStream(bytes), allocator), allocator);
    }

    /**
     * The record batches of an IPC stream or file read from {@code in}; closing the result closes {@code in}. A
     * stream is read incrementally (one batch ahead); a file-format input is read into memory first.
     */
    public static RecordBatches read(InputStream in, BufferAllocator allocator) {
        BufferedInputStream buffered = new BufferedInputStream(in, 64 * 1024);
        byte[] head = new byte[FILE_MAGIC.length];
        int n;
        try {
            buffered.mark(FILE_MAGIC.length);
            n = buffered.readNBytes(head, 0, head.length);
            buffered.reset();
        } catch (IOException e) {
            closeQuietly(buffered, e);
            throw new ArrowIpcException("InputStream", 0, "cannot read the first bytes", e);
        }
        if (n == FILE_MAGIC.length && Arrays.equals(head, FILE_MAGIC)) {
            byte[] all;
            try (buffered) {
                all = buffered.readAllBytes();
            } catch (IOException e) {
                throw new ArrowIpcException("InputStream", 0, "cannot read the IPC file into memory", e);
            }
            return read(all, allocator);
        }
        return open("InputStream", new ArrowStreamReader(buffered, allocator), allocator);
    }

    /** The record batches of the IPC stream ({@code .arrows}) or file ({@code .arrow}) at {@code path}. */
    public static RecordBatches read(Path path, BufferAllocator allocator) {
        String source = path.toString();
        FileChannel channel;
        boolean file;
        try {
            channel = FileChannel.open(path, StandardOpenOption.READ);
        } catch (IOException e) {
            throw new ArrowIpcException(source, 0, "cannot open the file", e);
        }
        try {
            ByteBuffer head = ByteBuffer.allocate(FILE_MAGIC.length);
            while (head.hasRemaining() && channel.read(head) >= 0) {
                // read the magic, or as much as the file has
            }
            file = !head.hasRemaining() && Arrays.equals(head.array(), FILE_MAGIC);
            channel.position(0);
        } catch (IOException e) {
            closeQuietly(channel, e);
            throw new ArrowIpcException(source, 0, "cannot read the first bytes", e);
        }
        ArrowReader reader = file ? new ArrowFileReader(channel, allocator) : new ArrowStreamReader(channel, allocator);
        return open(source, reader, allocator);
    }

    /**
     * All record batches of {@code batches} in one new root allocated from {@code allocator}: the first batch is moved
     * (no copy), the following ones are appended (copied). The caller owns the returned root; {@code batches} is
     * consumed but stays the caller's to close.
     */
    public static VectorSchemaRoot readAll(RecordBatches batches, BufferAllocator allocator) {
        VectorSchemaRoot first = batches.next();
        if (first == null) {
            throw new IllegalStateException("the record batch sequence was already consumed");
        }
        VectorSchemaRoot all = transfer(first, allocator);
        try {
            VectorSchemaRoot next;
            while ((next = batches.next()) != null) {
                VectorSchemaRootAppender.append(false, all, next);
            }
            return all;
        } catch (RuntimeException e) {
            all.close();
            throw e;
        }
    }

    /**
     * Moves the buffers of {@code source} into a new root allocated from {@code allocator} (no copy; the source's
     * vectors are left empty). The caller owns the result.
     */
    public static VectorSchemaRoot transfer(VectorSchemaRoot source, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>(source.getFieldVectors().size());
        try {
            for (FieldVector vector : source.getFieldVectors()) {
                TransferPair pair = vector.getTransferPair(allocator);
                pair.transfer();
                vectors.add((FieldVector) pair.getTo());
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new VectorSchemaRoot(source.getSchema(), vectors, source.getRowCount());
    }

    private static RecordBatches open(String source, ArrowReader reader, BufferAllocator allocator) {
        try {
            return new IpcRecordBatches(source, reader, allocator);
        } catch (RuntimeException e) {
            try {
                reader.close();
            } catch (IOException | RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    static void refuseDictionaries(String source, Schema schema) {
        for (Field field : schema.getFields()) {
            refuseDictionaries(source, field, field.getName());
        }
    }

    private static void refuseDictionaries(String source, Field field, String path) {
        if (field.getDictionary() != null) {
            throw new ArrowIpcException(source, 0, "column " + path + " is dictionary-encoded and a VectorSchemaRoot"
                    + " does not carry its dictionary; decode it first (io.deltafunnel.arrow.DictionaryColumns.decode"
                    + " with the reader that loaded it, or Arrow's DictionaryEncoder.decode)", null);
        }
        for (Field child : field.getChildren()) {
            refuseDictionaries(source, child, path + "." + child.getName());
        }
    }

    private static boolean isFileFormat(byte[] bytes) {
        return bytes.length >= FILE_MAGIC.length
                && Arrays.equals(bytes, 0, FILE_MAGIC.length, FILE_MAGIC, 0, FILE_MAGIC.length);
    }

    private static void closeQuietly(AutoCloseable closeable, Exception failure) {
        try {
            closeable.close();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }
}
