package io.deltafunnel.mssql.run;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.deltafunnel.handoff.HandoffException;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.session.BulkLoadSession;
import io.deltafunnel.mssql.session.RunSession;

/**
 * The runs a producer has open: one {@link RunSession} per run id, at most {@code maxOpenRuns} at a time, so that
 * runs arriving concurrently (for example through {@code seda:} with several consumers) each keep their own session
 * instead of aborting each other. Thread-safe; each {@link Run} is written under its own monitor by its caller
 * ({@code synchronized (run)}), and this registry never waits for a run's monitor while holding its own.
 *
 * <ul>
 *   <li>A batch of a run that is open continues it; a batch of a newer attempt of an open run aborts the older attempt
 *       (the source is replaying it) and opens the new one.</li>
 *   <li>A batch of a new run when {@code maxOpenRuns} runs are open is refused with a {@link TooManyOpenRunsException}
 *       naming the open runs and the option; nothing is aborted.</li>
 *   <li>After a run failed, the same batch again (a Camel redelivery) gets the same failure again, at once, and the
 *       run's further batches of the same (or an older) attempt are refused ({@link RunRefusedException}); the last
 *       {@value #REMEMBERED_FAILURES} failed runs are remembered.</li>
 * </ul>
 *
 * The sessions are owned by this registry: {@link #abortAll} (producer stop) discards every open one.
 */
public final class OpenRuns {

    static final int REMEMBERED_FAILURES = 64;

    /** One open run: its current session (replaced when a batch-mode run resumes after a failure) and attempt. */
    public static final class Run {
        private final String runId;
        private final int attempt;
        private RunSession session;

        Run(String runId, int attempt, RunSession session) {
            this.runId = runId;
            this.attempt = attempt;
            this.session = session;
        }

        public String runId() {
            return runId;
        }

        public int attempt() {
            return attempt;
        }

        public RunSession session() {
            return session;
        }

        /** Replaces the session (a resumed or fresh session of the same run). */
        public void session(RunSession next) {
            this.session = next;
        }
    }

    private final String table;
    private final int maxOpenRuns;
    private final Map<String, Run> open = new LinkedHashMap<>();
    private record FailedBatch(RunFailures.Failed run, int batchIndex) {
    }

    private final Map<String, FailedBatch> failed = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, FailedBatch> eldest) {
            return size() > REMEMBERED_FAILURES;
        }
    };

    /**
     * @param table       the target, for messages
     * @param maxOpenRuns how many runs may be open at once; at least 1
     */
    public OpenRuns(String table, int maxOpenRuns) {
        if (maxOpenRuns < 1) {
            throw new IllegalArgumentException("maxOpenRuns must be at least 1, got " + maxOpenRuns);
        }
        this.table = table;
        this.maxOpenRuns = maxOpenRuns;
    }

    /**
     * The open run a batch of {@code runId}/{@code attempt} belongs to, opened with {@code opener} when needed.
     *
     * @throws BulkLoadException        the run's failure itself when this is the batch that failed, sent again (a
     *                                   Camel redelivery)
     * @throws RunRefusedException       when that attempt of the run has already failed here
     * @throws TooManyOpenRunsException when it is a new run and {@code maxOpenRuns} runs are open
     */
    public synchronized Run runFor(String runId, int attempt, int batchIndex, Supplier<? extends RunSession> opener) {
        FailedBatch lastFailure = failed.get(runId);
        if (lastFailure != null) {
            if (lastFailure.run().attempt() == attempt && lastFailure.batchIndex() == batchIndex && batchIndex >= 0) {
                throw lastFailure.run().failure();
            }
            lastFailure.run().refuseIfSameAttempt(runId, attempt, batchIndex);
            failed.remove(runId);
        }
        Run run = open.get(runId);
        if (run != null && run.session.state() != BulkLoadSession.State.OPEN) {
            open.remove(runId);
            run = null;
        }
        if (run != null && run.attempt != attempt) {
            run.session.abort("run " + runId + " attempt " + attempt + " started before attempt " + run.attempt
                    + " completed");
            open.remove(runId);
            run = null;
        }
        if (run == null) {
            dropFinished();
            if (open.size() >= maxOpenRuns) {
                throw new TooManyOpenRunsException(table, runId, maxOpenRuns, new ArrayList<>(open.keySet()));
            }
            run = new Run(runId, attempt, opener.get());
            open.put(runId, run);
        }
        return run;
    }

    /** Forgets {@code run} once its session is no longer open (committed, failed or aborted). */
    public synchronized void release(Run run) {
        if (run.session.state() != BulkLoadSession.State.OPEN && open.get(run.runId) == run) {
            open.remove(run.runId);
        }
    }

    /**
     * Records that {@code attempt} of {@code runId} failed with {@code failure} on batch {@code batchIndex} (-1 when
     * unknown): that batch sent again gets the same failure, the run's further batches are refused.
     */
    public synchronized void failed(String runId, int attempt, int batchIndex, HandoffException failure) {
        failed.put(runId, new FailedBatch(new RunFailures.Failed(runId, attempt, failure), batchIndex));
    }

    /**
     * Discards {@code runId} if it is still open (the exchange failed after this producer accepted its batch, so the
     * source stops the run).
     *
     * @return the statistics of the discarded run, or null when it was not open
     */
    public HandoffStats abort(String runId, int attempt, String reason) {
        Run run;
        synchronized (this) {
            run = open.get(runId);
            if (run == null || run.attempt != attempt) {
                return null;
            }
            open.remove(runId);
        }
        synchronized (run) { // after a write in progress on another thread
            if (run.session.state() != BulkLoadSession.State.OPEN) {
                return null;
            }
            HandoffStats stats = run.session.stats();
            run.session.abort(reason);
            return stats;
        }
    }

    /** Discards every open run, each after the write in progress on it (if any) has returned. */
    public void abortAll(String reason) {
        List<Run> all;
        synchronized (this) {
            all = new ArrayList<>(open.values());
            open.clear();
        }
        for (Run run : all) {
            synchronized (run) {
                run.session.abort(reason);
            }
        }
    }

    /** The ids of the runs open now, oldest first. */
    public synchronized List<String> openRunIds() {
        dropFinished();
        return new ArrayList<>(open.keySet());
    }

    private void dropFinished() {
        for (Iterator<Run> it = open.values().iterator(); it.hasNext(); ) {
            if (it.next().session.state() != BulkLoadSession.State.OPEN) {
                it.remove();
            }
        }
    }
}
