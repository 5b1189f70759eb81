package io.deltafunnel.arrow;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A sequence of Arrow record batches read one at a time, with a one-batch look-ahead so that the last batch is known
 * as such ({@link #isLast()}) before it is processed.
 *
 * <p><b>Ownership.</b> The sequence owns the roots it returns unless it was made with {@link #borrowing}: a root
 * returned by {@link #next()} is valid until the following {@link #next()} or {@link #close()}, which release it.
 * Whoever opened the sequence closes it. Memory held at any time: at most two batches (the current and the
 * look-ahead).
 */
public interface RecordBatches extends AutoCloseable {

    /**
     * The next batch, or null at the end. A source holding no record batch at all (an IPC stream with only its
     * schema) yields one empty batch with the schema, so that every sequence has a last batch.
     *
     * @throws ArrowIpcException when the source cannot be read
     */
    VectorSchemaRoot next();

    /** Whether the batch returned by the last {@link #next()} is the final one. */
    boolean isLast();

    /** Zero-based index of the batch returned by the last {@link #next()}, -1 before the first. */
    long index();

    /** Releases the current and the look-ahead batch and the underlying source. Idempotent. */
    @Override
    void close();

    /** A one-batch sequence over {@code root}, which stays owned by the caller: closing the sequence leaves it open. */
    static RecordBatches borrowing(VectorSchemaRoot root) {
        return single(root, false);
    }

    /** A one-batch sequence that owns {@code root}: closing the sequence closes it. */
    static RecordBatches owning(VectorSchemaRoot root) {
        return single(root, true);
    }

    private static RecordBatches single(VectorSchemaRoot root, boolean owned) {
        return new RecordBatches() {
            private long index = -1;
            private boolean closed;

            @Override
            public VectorSchemaRoot next() {
                if (index >= 0) {
                    return null;
                }
                index = 0;
                return root;
            }

            @Override
            public boolean isLast() {
                return index == 0;
            }

            @Override
            public long index() {
                return index;
            }

            @Override
            public void close() {
                if (owned && !closed) {
                    root.close();
                }
                closed = true;
            }
        };
    }
}
