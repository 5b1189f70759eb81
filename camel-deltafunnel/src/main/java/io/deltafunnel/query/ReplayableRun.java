package io.deltafunnel.query;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

import io.deltafunnel.handoff.DownstreamException;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.handoff.ReplayRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replay state machine of one run (no Camel here): the run's id, its current attempt and the {@link QueryRun} of
 * that attempt. A first attempt is opened with a fresh run id and no pins; {@link #replay} obeys a
 * {@link ReplayRequest}: it closes the attempt, waits the requested delay (a {@link Pause} that a stop cuts short)
 * and re-opens the run under the same id with the pins the first attempt chose ({@link QueryRun#pinnedVersions()}),
 * so that the replay reads exactly what the first attempt read, from batch 0.
 *
 * <p>Owns the open {@link QueryRun} and closes it in {@link #close()} (and before a replay). Not thread-safe: one
 * poller drives it.
 */
public final class ReplayableRun implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ReplayableRun.class);

    /** Opens one attempt of the run; the only place a {@link QueryRun} is opened. */
    @FunctionalInterface
    public interface Opener {
        /**
         * @param runId  the run's id (the same for every attempt)
         * @param pinned what the first attempt's pinning preparers chose; empty for the first attempt
         */
        QueryRun open(String runId, Map<String, Long> pinned);
    }

    /** The wait before a replay. */
    @FunctionalInterface
    public interface Pause {
        /** Waits {@code delay}; false when the wait was cut short by a stop. */
        boolean await(Duration delay);
    }

    private final String description;
    private final Opener opener;
    private final String runId;
    private QueryRun current;
    private int attempt;

    private ReplayableRun(String description, Opener opener, String runId) {
        this.description = description;
        this.opener = opener;
        this.runId = runId;
    }

    /**
     * Opens the first attempt of a new run (a fresh run id, no pins).
     *
     * @throws io.deltafunnel.handoff.QuerySetupException (from the opener) when the run cannot be opened
     */
    public static ReplayableRun start(String description, Opener opener) {
        ReplayableRun run = new ReplayableRun(description, Objects.requireNonNull(opener, "opener"),
                UUID.randomUUID().toString());
        run.open(1, Map.of());
        return run;
    }

    private void open(int attemptNumber, Map<String, Long> pinned) {
        current = Objects.requireNonNull(opener.open(runId, pinned), "the opener returned no run");
        attempt = attemptNumber;
        LOG.debug("{}: run {} attempt {} started", description, runId, attemptNumber);
    }

    public String runId() {
        return runId;
    }

    /** The 1-based attempt: 1, or the attempt of the {@link ReplayRequest} that re-opened the run. */
    public int attempt() {
        return attempt;
    }

    /** The current attempt's query run; null once closed. */
    public QueryRun current() {
        return current;
    }

    /** See {@link QueryRun#next()}. */
    public ArrowBatch next() {
        return current.next();
    }

    /** The current attempt's input counters. */
    public HandoffStats stats() {
        return current.stats();
    }

    /** What the first attempt's pinning preparers chose (view to Delta version); the same for every attempt. */
    public Map<String, Long> pinnedVersions() {
        return current.pinnedVersions();
    }

    /**
     * Obeys {@code request}: closes the current attempt, waits its delay and re-opens the run from batch 0 under the
     * same id and pins, as attempt {@link ReplayRequest#attempt()}.
     *
     * @param failedBatch the index of the batch whose failure asked for the replay (for the log)
     * @param failure     that failure, the cause of the exception when the replay is cut short
     * @throws DownstreamException when the pause was cut short by a stop; the run is then closed
     */
    public void replay(ReplayRequest request, long failedBatch, Exception failure, Pause pause) {
        QueryRun failed = current;
        HandoffStats delivered = failed.stats();
        Map<String, Long> pinned = failed.pinnedVersions();
        close();
        LOG.info("{}: run {} attempt {} failed on batch {} ({}); replaying as attempt {} in {} ms", description, runId,
                attempt, failedBatch, delivered, request.attempt(), request.delay().toMillis());
        if (!pause.await(request.delay())) {
            throw new DownstreamException(description + ": stopped while waiting to replay run " + runId
                    + " as attempt " + request.attempt(), delivered, failure);
        }
        open(request.attempt(), pinned);
    }

    /** Closes the current attempt (idempotent). */
    @Override
    public void close() {
        if (current != null) {
            QueryRun closing = current;
            current = null;
            closing.close();
        }
    }
}
