package io.deltafunnel.query;

import java.sql.Connection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 *
 * <p><b>Replay.</b> A run can be opened again under the same {@linkplain #runId() run id} with the
 * {@linkplain #pinnedVersions() pins} its first attempt collected from its {@link PinningPreparer}s, so that the
 * replay reads exactly the same data (for Delta tables: the same versions).
 */
public final class QueryRun implements AutoCloseable {

    private final String runId;
    private final Connection connection;
    private final ArrowBatchStream stream;
    private final Map<String, Long> pinnedVersions;

    private QueryRun(String runId, Connection connection, ArrowBatchStream stream, Map<String, Long> pinnedVersions) {
        this.runId = runId;
        this.connection = connection;
        this.stream = stream;
        this.pinnedVersions = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(pinnedVersions));
    }

    /** Opens a new run with a fresh run id and no pins: see {@link #open(String, DuckDbSettings, List, String, int, BufferAllocator, String, Map)}. */
    public static QueryRun open(String description, DuckDbSettings settings, List<ConnectionPreparer> preparers,
            String sql, int batchSize, BufferAllocator allocator) {
        return open(description, settings, preparers, sql, batchSize, allocator, UUID.randomUUID().toString(),
                Map.of());
    }

    /**
     * Opens a connection, runs the preparers in order, and starts the query.
     *
     * @param description names the source in error messages
     * @param runId         the run's id: a new one for a first attempt, the earlier attempt's for a replay
     * @param pinned        for a replay, the earlier attempt's {@link #pinnedVersions()}; empty for a first attempt
     * @throws QuerySetupException when any of these steps fails; nothing stays open in that case
     */
    public static QueryRun open(String description, DuckDbSettings settings, List<ConnectionPreparer> preparers,
            String sql, int batchSize, BufferAllocator allocator, String runId, Map<String, Long> pinned) {
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(runId, "runId");
        Objects.requireNonNull(pinned, "pinned");
        Connection connection;
        try {
            connection = DuckDbConnections.open(settings);
        } catch (Exception e) {
            throw new QuerySetupException(description + ": DuckDB connection failed: " + e.getMessage(), e);
        }
        try {
            Map<String, Long> chosen = new LinkedHashMap<>();
            for (ConnectionPreparer preparer : preparers) {
                if (preparer instanceof PinningPreparer pinning) {
                    chosen.putAll(Objects.requireNonNull(pinning.prepare(connection, pinned),
                            "a PinningPreparer returned null pins"));
                } else {
                    preparer.prepare(connection);
                }
            }
            ArrowBatchStream stream = ArrowBatchStream.open(description, connection, sql, batchSize, allocator);
            return new QueryRun(runId, connection, stream, chosen);
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

    /**
     * What this run's {@link PinningPreparer}s chose (for Delta tables: view name to version), to be handed back
     * unchanged when the run is replayed. Empty when there are no pinning preparers. Immutable.
     */
    public Map<String, Long> pinnedVersions() {
        return pinnedVersions;
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
