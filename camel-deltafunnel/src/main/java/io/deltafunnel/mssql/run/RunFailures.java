package io.deltafunnel.mssql.run;

import java.util.Objects;

import io.deltafunnel.handoff.HandoffException;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.SqlServerErrors;

/**
 * What a failed run turns into: a retry decision (by {@link SqlServerErrors} only), a replay request, a final
 * failure, or the refusal of further batches of a failed run. Stateless helpers plus the {@link Failed} record.
 */
public final class RunFailures {

    private RunFailures() {
    }

    /**
     * True when {@code failure} may be retried: SQL Server reported a transient error number or the connection
     * failed, and no commit is in doubt.
     */
    public static boolean retryable(BulkLoadException failure) {
        return failure.retryable();
    }

    /**
     * For a run that is replayed as a whole (transaction=run, replace, merge) and failed in 1-based {@code attempt}:
     * a {@link RunReplayException} when the failure is retryable and the policy allows another attempt; a
     * {@link RetriesExhaustedException} when it is retryable but attempts are used up; else {@code failure} itself.
     */
    public static BulkLoadException replayOrFinal(BulkLoadException failure, int attempt, RetryPolicy policy) {
        if (!retryable(failure)) {
            return failure;
        }
        if (policy.allowsRetryAfter(attempt)) {
            return new RunReplayException(failure, attempt + 1, policy.delayBeforeRetry(attempt));
        }
        return exhausted(failure, attempt);
    }

    /** {@code failure} as the last of {@code attempts} attempts: wrapped when there was more than one. */
    public static BulkLoadException exhausted(BulkLoadException failure, int attempts) {
        return attempts > 1 ? new RetriesExhaustedException(failure, attempts) : failure;
    }

    /** The last run that failed in a producer: its later batches of the same (or an older) attempt are refused. */
    public record Failed(String runId, int attempt, HandoffException failure) {

        public Failed {
            Objects.requireNonNull(runId, "runId");
            Objects.requireNonNull(failure, "failure");
        }

        /**
         * @throws RunRefusedException when the batch belongs to this failed run and is not a newer attempt of it
         */
        public void refuseIfSameAttempt(String batchRunId, int batchAttempt, int batchIndex) {
            if (runId.equals(batchRunId) && batchAttempt <= attempt) {
                throw new RunRefusedException("run " + runId + " attempt " + attempt + " has already failed; batch "
                        + (batchIndex < 0 ? "?" : Integer.toString(batchIndex)) + " of attempt " + batchAttempt
                        + " refused (the route went on after the failure)", failure);
            }
        }
    }
}
