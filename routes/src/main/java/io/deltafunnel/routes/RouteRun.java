package io.deltafunnel.routes;

import io.deltafunnel.camel.DeltaFunnelEndpoint;
import io.deltafunnel.camel.DeltaFunnelMssqlEndpoint;
import io.deltafunnel.handoff.ShardAssignment;
import io.deltafunnel.mssql.WriteMode;

/**
 * The state of one {@code deltafunnel:} route as {@link RunReporter} tracks it: the run in progress (phase, rows,
 * attempt, target, shard) and how many runs finished. Written by Camel's threads (poll strategy, exchange events),
 * read by the progress thread: every field is volatile.
 */
final class RouteRun {

    /** What the run in progress is doing, as the progress line names it. */
    enum Phase {
        READING("reading"), OPENING("opening target"), FIRST_BATCH("first batch"), WRITING("writing"),
        COMMITTING("committing"), SWAP("swap"), MERGE("merge"), REPLAY_WAIT("waiting to replay");

        final String label;

        Phase(String label) {
            this.label = label;
        }

        /** The phase after the last batch was handed over: what the producer's write mode does at the end. */
        static Phase finalOf(WriteMode mode) {
            return switch (mode) {
                case REPLACE -> SWAP;
                case MERGE -> MERGE;
                default -> COMMITTING;
            };
        }
    }

    final String routeId;
    final DeltaFunnelEndpoint source;
    volatile int runsFinished;
    volatile boolean done;
    // the run in progress
    volatile boolean active;
    volatile long start;
    volatile long phaseStart;
    volatile Phase phase = Phase.READING;
    volatile String runId;
    volatile int attempt = 1;
    volatile long rowsOut;
    volatile long batchesOut;
    /** Rows the producer set aside in this run (maxRejectedRows), from CamelDeltaFunnelRejectedRows. */
    volatile long rejectedRows;
    volatile long lastLog;
    volatile DeltaFunnelMssqlEndpoint target;
    volatile RunTotals.Total total;
    /** The rows the consumer says the run will deliver (header CamelDeltaFunnelExpectedRows); null when unknown. */
    volatile Long expectedRows;
    volatile ShardAssignment shard;
    volatile String loadStatus;

    RouteRun(String routeId, DeltaFunnelEndpoint source) {
        this.routeId = routeId;
        this.source = source;
    }

    /** How many runs a one-shot job makes on this route: {@code repeatCount}, once when it is 0. */
    long expectedRuns() {
        long repeat = source.getRepeatCount();
        return repeat > 0 ? repeat : 1;
    }

    void begin() {
        long now = System.nanoTime();
        start = now;
        phaseStart = now;
        lastLog = now;
        phase = Phase.READING;
        runId = null;
        attempt = 1;
        rowsOut = 0;
        batchesOut = 0;
        rejectedRows = 0;
        shard = null;
        loadStatus = null;
        expectedRows = null;
        total = RunTotals.start(source);
        active = true;
    }

    /**
     * The run's total rows, when known: the application's own count of a whole-table read ({@link RunTotals}), else
     * what the consumer said up front (a shard's share, from the Delta log's statistics); null when neither knows.
     */
    Long knownTotal() {
        RunTotals.Total counted = total;
        Long rows = counted == null ? null : counted.rows();
        return rows != null ? rows : expectedRows;
    }

    void phase(Phase next) {
        if (phase != next) {
            phase = next;
            phaseStart = System.nanoTime();
        }
    }
}
