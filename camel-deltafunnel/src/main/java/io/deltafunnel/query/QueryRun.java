package io.deltafunnel.query;

import java.sql.Connection;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.handoff.QuerySetupException;
import org.apache.arrow.memory.BufferAllocator;

/**
 * One run: a DuckDB connection of its own, prepared, with the query's {@link ArrowBatchStream} open on it.
 *
 * <p>The run owns its connection and stream and closes both in {@link #close()}. It does not own the
 * allocator. Batches taken from {@link #next()} belong to the caller.
 */
public final class QueryRun implements AutoCloseable {

    private final String runId;
    private final Connection connection;
    private final ArrowBatchStream stream;

    private QueryRun(String runId, Connection connection, ArrowBatchStream stream) {
        this.runId = runId;
        this.connection = connection;
        this.stream = stream;
    }

    /**
     * Opens a connection, runs the preparers in order, and starts the query.
     *
     * @param description names the source in error messages
     * @throws QuerySetupException when any of these steps fails; nothing stays open in that case
     */
    public static QueryRun open(String description, DuckDbSettings settings, List<ConnectionPreparer> preparers,
            String sql, int batchSize, BufferAllocator allocator) {
        Objects.requireNonNull(sql, "sql");
        Connection connection;
        try {
            connection = DuckDbConnections.open(settings);
        } catch (Exception e) {
            throw new QuerySetupException(description + ": DuckDB connection failed: " + e.getMessage(), e);
        }
        try {
            for (ConnectionPreparer preparer : preparers) {
                preparer.prepare(connection);
            }
            ArrowBatchStream stream = ArrowBatchStream.open(description, connection, sql, batchSize, allocator);
            return new QueryRun(UUID.randomUUID().toString(), connection, stream);
        } catch (Exception e) {
            QuerySetupException failure = e instanceof QuerySetupException qse ? qse
                    : new QuerySetupException(description + ": " + e.getMessage(), e);
            try {
                connection.close();
            } catch (Exception closeFailure) {
                failure.addSuppressed(closeFailure);
            }
            throw failure;
        }
    }

    /** The run's unique identifier. */
    public String runId() {
        return runId;
    }

    /** See {@link ArrowBatchStream#next()}. */
    public ArrowBatch next() {
        return stream.next();
    }

    /** Input-side counters of the batches handed out so far. */
    public HandoffStats stats() {
        return stream.stats();
    }

    /** See {@link ArrowBatchStream#batchesLoaded()}. */
    public long batchesLoaded() {
        return stream.batchesLoaded();
    }

    @Override
    public void close() {
        try {
            stream.close();
        } finally {
            try {
                connection.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the DuckDB connection of run " + runId + " failed", e);
            }
        }
    }
}
