package io.deltafunnel.arrow;

import java.io.IOException;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;

/**
 * {@link RecordBatches} over an Arrow {@link ArrowReader}: each loaded batch is moved out of the reader's root into a
 * root of its own, so that the next batch can be loaded as the look-ahead while the current one is in use.
 * Dictionary-encoded columns are decoded to their values in that step ({@link DictionaryColumns}, with the reader's
 * dictionaries, before the next batch may replace them); a stream without one is only moved.
 */
final class IpcRecordBatches implements RecordBatches {

    private final String source;
    private final ArrowReader reader;
    private final BufferAllocator allocator;
    /** The batch handed out by the last next(), owned here. */
    private VectorSchemaRoot current;
    /** The reader's root holds a loaded batch not yet handed out. */
    private boolean ahead;
    private boolean ended;
    private boolean closed;
    private long index = -1;
    private boolean last;
    /** The schema has a dictionary-encoded field (decided once, from the schema). */
    private final boolean dictionaries;

    IpcRecordBatches(String source, ArrowReader reader, BufferAllocator allocator) {
        this.source = source;
        this.reader = reader;
        this.allocator = allocator;
        try {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            dictionaries = DictionaryColumns.present(root.getSchema());
            if (dictionaries) {
                // every dictionary is declared by the schema: one that cannot be decoded fails here, before any batch
                DictionaryColumns.decodedSchema(root.getSchema(), reader);
            }
            ahead = reader.loadNextBatch();
        } catch (IOException | RuntimeException e) {
            if (e instanceof ArrowIpcException ipc) {
                throw ipc;
            }
            if (e instanceof DictionaryDecodeException dictionary) {
                throw new ArrowIpcException(source, 0, dictionary.getMessage(), dictionary);
            }
            throw new ArrowIpcException(source, 0, "not a readable Arrow IPC stream or file: " + e.getMessage(), e);
        }
    }

    @Override
    public VectorSchemaRoot next() {
        if (closed) {
            throw new IllegalStateException("Arrow IPC " + source + ": the batch sequence is closed");
        }
        release();
        if (ended) {
            return null;
        }
        VectorSchemaRoot readerRoot;
        try {
            readerRoot = reader.getVectorSchemaRoot();
        } catch (IOException e) {
            throw new ArrowIpcException(source, index + 1, "cannot read the schema", e);
        }
        if (!ahead) {
            ended = true;
            if (index >= 0) {
                return null;
            }
            // a stream with a schema and no record batch: one empty batch
            index = 0;
            last = true;
            current = VectorSchemaRoot.create(DictionaryColumns.decodedSchema(readerRoot.getSchema(), reader),
                    allocator);
            current.setRowCount(0);
            return current;
        }
        current = ArrowIpc.transfer(readerRoot, allocator);
        index++;
        if (dictionaries) {
            try {
                current = DictionaryColumns.decode(current, reader, allocator);
            } catch (RuntimeException e) {
                current = null; // closed by decode
                ended = true;
                throw new ArrowIpcException(source, index, "cannot decode record batch " + index + ": "
                        + e.getMessage(), e);
            }
        }
        try {
            ahead = reader.loadNextBatch();
        } catch (IOException | RuntimeException e) {
            release();
            ended = true;
            throw new ArrowIpcException(source, index + 1, "cannot read record batch " + (index + 1) + ": "
                    + e.getMessage(), e);
        }
        last = !ahead;
        ended = last;
        return current;
    }

    @Override
    public boolean isLast() {
        return last;
    }

    @Override
    public long index() {
        return index;
    }

    private void release() {
        if (current != null) {
            current.close();
            current = null;
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        release();
        try {
            reader.close();
        } catch (IOException e) {
            throw new ArrowIpcException(source, Math.max(index + 1, 0), "closing the reader failed", e);
        }
    }
}
