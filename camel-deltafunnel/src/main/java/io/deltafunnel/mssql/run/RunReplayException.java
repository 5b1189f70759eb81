package io.deltafunnel.mssql.run;

import java.time.Duration;

import io.deltafunnel.handoff.ReplayRequest;
import io.deltafunnel.mssql.BulkLoadException;

/**
 * A run failed transiently, was rolled back (the target holds nothing of it, the staging table is dropped), and
 * the producer asks the source to replay it from its first batch as attempt {@link #attempt()} after
 * {@link #delay()}. Thrown only with {@code transaction=run} or {@code writeMode=replace/merge}, and only while the
 * retry policy has attempts left. A source that cannot replay treats it as an ordinary, rolled-back failure.
 */
public class RunReplayException extends BulkLoadException implements ReplayRequest {

    private final Duration delay;
    private final int attempt;

    RunReplayException(BulkLoadException failure, int attempt, Duration delay) {
        super("transient failure, run rolled back; replay requested as attempt " + attempt + " in " + delay.toMillis()
                + " ms: " + failure.detail(), failure.context(), failure);
        this.delay = delay;
        this.attempt = attempt;
    }

    @Override
    public Duration delay() {
        return delay;
    }

    @Override
    public int attempt() {
        return attempt;
    }
}
