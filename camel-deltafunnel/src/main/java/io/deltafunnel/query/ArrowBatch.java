package io.deltafunnel.query;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One Arrow batch of a run, owned by whoever received it from {@link ArrowBatchStream#next()}.
 *
 * <p>The receiver must {@link #close()} it (which releases the root's buffers). The root stays valid
 * until then; code that keeps data longer must copy it.
 *
 * @param root  the batch; its row count is {@code root.getRowCount()}
 * @param index zero-based position of the batch in its run
 * @param last  true exactly on the run's final batch
 */
public record ArrowBatch(VectorSchemaRoot root, long index, boolean last) implements AutoCloseable {

    /** Rows in this batch. */
    public int rowCount() {
        return root.getRowCount();
    }

    @Override
    public void close() {
        root.close();
    }
}
