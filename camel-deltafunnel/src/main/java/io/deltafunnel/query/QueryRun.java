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
 * <p>The run owns its connection and stream and closes both in {@link #close()}, and on a shared instance its
 * {@linkplain DuckDbInstances#streamStarted worker-thread lease}, ended when the stream ends. It does not own the
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
    /** The shared instance's worker-thread lease of the stream; null on an instance of the run's own. */
    private final DuckDbInstances.StreamLease lease;
    private final Map<String, Long> pinnedVersions;

    private QueryRun(String runId, Connection connection, ArrowBatchStream stream, DuckDbInstances.StreamLease lease,
            Map<String, Long> pinnedVersions) {
        this.runId = runId;
        this.connection = connection;
        this.stream = stream;
        this.lease = lease;
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
        DuckDbInstances.StreamLease lease = null;
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
            if (settings.shared() != null) {
                lease = settings.shared().streamStarted(settings);
            }
            ArrowBatchStream stream = ArrowBatchStream.open(description, connection, sql, batchSize, allocator);
            return new QueryRun(runId, connection, stream, lease, chosen);
        } catch (Exception e) {
            QuerySetupException failure = e instanceof QuerySetupException qse ? qse
                    : new QuerySetupException(description + ": " + e.getMessage(), e);
            ArrowBatchStream.closeQuietlyInto(failure, lease, connection);
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

    /**
     * Closes the stream, ends the lease and closes the connection, each even when an earlier one fails; the first
     * failure is thrown with the later ones suppressed.
     */
    @Override
    public void close() {
        RuntimeException failure = null;
        try {
            stream.close();
        } catch (RuntimeException e) {
            failure = e;
        }
        if (lease != null) {
            try {
                lease.close();
            } catch (Exception e) {
                failure = addTo(failure, new IllegalStateException("resizing the shared DuckDB instance's worker"
                        + " threads after run " + runId + " failed", e));
            }
        }
        try {
            connection.close();
        } catch (Exception e) {
            failure = addTo(failure, new IllegalStateException("closing the DuckDB connection of run " + runId
                    + " failed", e));
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static RuntimeException addTo(RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
