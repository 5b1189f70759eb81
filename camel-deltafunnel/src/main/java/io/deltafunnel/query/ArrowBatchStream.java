package io.deltafunnel.query;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.deltafunnel.arrow.DictionaryColumns;
import io.deltafunnel.handoff.BatchSizes;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.handoff.QuerySetupException;
import io.deltafunnel.handoff.UpstreamException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;
import org.duckdb.DuckDBResultSet;

/**
 * A DuckDB query's result as a pull-driven stream of Arrow batches, read through DuckDB's Arrow export.
 *
 * <p><b>Pull, not push.</b> Nothing runs in the background: a batch is loaded from DuckDB only inside
 * {@link #next()}. To mark the final batch the stream looks exactly one batch ahead, so at most two
 * batches are held (the one handed out and the one looked ahead), whatever the result size.
 *
 * <p><b>Ownership.</b> The stream owns the statement, the result set and the Arrow reader, and closes
 * them in {@link #close()}. It does not own the connection or the allocator, which the caller supplies
 * and closes after the stream. Each {@link ArrowBatch} returned by {@link #next()} is owned by the
 * caller, allocated from the caller's allocator, and survives the stream's close.
 *
 * <p><b>Variants.</b> Delta {@code variant} values, which a Delta view hands over as raw binary parts, leave the
 * stream as JSON text ({@link VariantColumns}); a batch without one is passed through untouched.
 *
 * <p><b>Dictionaries.</b> Dictionary-encoded columns (DuckDB {@code ENUM}s) leave the stream as plain columns of their
 * value type ({@link DictionaryColumns}, decoded with the reader's dictionaries while they are the batch's): a root
 * carries no dictionaries, and DuckDB sends each batch's with it, so the indices would mean nothing once the batch has
 * left the reader. Whether the result has one is decided once per stream, from its schema; without one, nothing is
 * copied.
 *
 * <p><b>Input statistics.</b> {@link #stats()} counts the batches handed out (input side only).
 *
 * <p>An empty result yields exactly one empty batch that carries the result schema, marked last.
 * Empty batches in the middle of a stream are forwarded like any other.
 */
public final class ArrowBatchStream implements AutoCloseable {

    private final String description;
    private final BufferAllocator allocator;
    private final ArrowReader reader;
    private final AutoCloseable[] sourceResources;

    /** Whether the result schema has a dictionary-encoded field; null until the schema is known. */
    private Boolean dictionaries;
    private VectorSchemaRoot lookAhead;
    private boolean sourceExhausted;
    private boolean finished;
    private long nextIndex;
    private volatile long batchesLoaded;
    private HandoffStats stats = HandoffStats.ZERO;

    /**
     * Wraps an already open Arrow reader. The stream takes ownership of the reader and of
     * {@code sourceResources} (closed after the reader, in order).
     */
    ArrowBatchStream(String description, BufferAllocator allocator, ArrowReader reader,
            AutoCloseable... sourceResources) {
        this.description = description;
        this.allocator = allocator;
        this.reader = reader;
        this.sourceResources = sourceResources;
    }

    /**
     * Executes {@code sql} on {@code connection} and opens its Arrow stream.
     *
     * @param description names the source in error messages (for example the endpoint URI)
     * @param batchSize   rows per Arrow batch, at least 1
     * @throws QuerySetupException when the query cannot be started, carrying DuckDB's message
     */
    public static ArrowBatchStream open(String description, Connection connection, String sql, int batchSize,
            BufferAllocator allocator) {
        BatchSizes.requirePositive("batchSize", batchSize);
        Statement statement = null;
        ResultSet resultSet = null;
        try {
            // A fresh statement per query: DuckDB closes a statement whose execute failed.
            statement = connection.createStatement();
            resultSet = statement.executeQuery(sql);
            ArrowReader reader = (ArrowReader) resultSet.unwrap(DuckDBResultSet.class)
                    .arrowExportStream(allocator, batchSize);
            return new ArrowBatchStream(description, allocator, reader, resultSet, statement);
        } catch (SQLException | RuntimeException e) {
            QuerySetupException failure = new QuerySetupException(
                    description + ": query could not be started: " + e.getMessage(), e);
            closeQuietlyInto(failure, resultSet, statement);
            throw failure;
        }
    }

    /**
     * Returns the next batch, or {@code null} after the last one. The returned batch is the caller's to close.
     *
     * @throws UpstreamException when DuckDB fails to produce a batch; it carries the statistics of the
     *                           batches handed out before the failure
     */
    public ArrowBatch next() {
        if (finished) {
            return null;
        }
        try {
            VectorSchemaRoot current = lookAhead != null ? lookAhead : loadOwned();
            lookAhead = null;
            if (current == null) {
                // Nothing at all: one empty batch that still carries the result schema.
                Schema schema = DictionaryColumns.decodedSchema(reader.getVectorSchemaRoot().getSchema(), reader);
                current = VectorSchemaRoot.create(VariantColumns.decodedSchema(schema), allocator);
                current.setRowCount(0);
                finished = true;
            } else {
                try {
                    lookAhead = loadOwned();
                } catch (IOException | RuntimeException e) {
                    current.close();
                    throw e;
                }
                finished = lookAhead == null;
            }
            ArrowBatch batch = new ArrowBatch(current, nextIndex++, finished);
            stats = stats.withInputBatch(current.getRowCount());
            return batch;
        } catch (IOException | RuntimeException e) {
            finished = true;
            throw new UpstreamException(description + ": reading batch " + nextIndex + " failed: " + rootMessage(e),
                    stats, e);
        }
    }

    /** Input-side counters of the batches handed out so far. */
    public HandoffStats stats() {
        return stats;
    }

    /**
     * How many batches have been pulled from DuckDB so far: at most one more than were handed out (the
     * look-ahead). Exposed so that backpressure can be observed.
     */
    public long batchesLoaded() {
        return batchesLoaded;
    }

    /** Loads the next non-exhausted batch from DuckDB and transfers it into a root the stream owns. */
    private VectorSchemaRoot loadOwned() throws IOException {
        if (sourceExhausted) {
            return null;
        }
        if (!reader.loadNextBatch()) {
            sourceExhausted = true;
            return null;
        }
        batchesLoaded++;
        VectorSchemaRoot shared = reader.getVectorSchemaRoot();
        VectorSchemaRoot owned = VectorSchemaRoot.create(shared.getSchema(), allocator);
        try {
            for (int i = 0; i < shared.getFieldVectors().size(); i++) {
                TransferPair pair = shared.getVector(i).makeTransferPair(owned.getVector(i));
                pair.transfer();
            }
            owned.setRowCount(shared.getRowCount());
        } catch (RuntimeException e) {
            owned.close();
            throw e;
        }
        if (dictionaries == null) {
            dictionaries = DictionaryColumns.present(owned.getSchema());
        }
        if (dictionaries) {
            // ENUMs become their values now, while the reader holds this batch's dictionaries (the next
            // loadNextBatch may replace them); decode takes ownership of `owned`
            owned = DictionaryColumns.decode(owned, reader, allocator);
        }
        // Delta variants (VariantStruct) become JSON text here, before the batch leaves the reader; decode takes
        // ownership of `owned` (returned unchanged when the batch has no variant).
        return VariantColumns.decode(owned, allocator);
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + t.getMessage() + ")";
    }

    @Override
    public void close() {
        finished = true;
        if (lookAhead != null) {
            lookAhead.close();
            lookAhead = null;
        }
        // Close everything, in order, even when an earlier close fails; report the first failure with the
        // later ones suppressed.
        RuntimeException failure = null;
        List<AutoCloseable> resources = new ArrayList<>();
        resources.add(reader);
        resources.addAll(Arrays.asList(sourceResources));
        for (AutoCloseable resource : resources) {
            if (resource == null) {
                continue;
            }
            try {
                resource.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException(description + ": closing the query failed", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Closes the resources in order (a null one skipped), adding any failure to {@code into} as suppressed. */
    static void closeQuietlyInto(Throwable into, AutoCloseable... resources) {
        for (AutoCloseable r : resources) {
            if (r == null) {
                continue;
            }
            try {
                r.close();
            } catch (Exception e) {
                into.addSuppressed(e);
            }
        }
    }
}
