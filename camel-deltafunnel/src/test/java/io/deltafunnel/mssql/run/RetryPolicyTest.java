package io.deltafunnel.mssql.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;

import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.handoff.ReplayRequest;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.WorkOutcome;

import org.junit.jupiter.api.Test;

class RetryPolicyTest {

    private final RetryPolicy policy = new RetryPolicy(4, Duration.ofMillis(100), 2.0, Duration.ofMillis(500));

    @Test
    void backoffIsExponentialAndCapped() {
        assertEquals(Duration.ofMillis(100), policy.delayBeforeRetry(1));
        assertEquals(Duration.ofMillis(200), policy.delayBeforeRetry(2));
        assertEquals(Duration.ofMillis(400), policy.delayBeforeRetry(3));
        assertEquals(Duration.ofMillis(500), policy.delayBeforeRetry(4));
        assertEquals(Duration.ofMillis(500), policy.delayBeforeRetry(60));
    }

    @Test
    void retriesAreBounded() {
        assertTrue(policy.allowsRetryAfter(1));
        assertTrue(policy.allowsRetryAfter(4));
        assertFalse(policy.allowsRetryAfter(5));
        assertFalse(RetryPolicy.NONE.allowsRetryAfter(1));
    }

    @Test
    void invalidSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(-1, Duration.ZERO, 2, Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(1, Duration.ZERO, 0.5, Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(1, Duration.ofMillis(-1), 2, Duration.ZERO));
    }

    private static BulkLoadException failure(SQLException cause, WorkOutcome outcome) {
        return new BulkLoadException("boom", BulkLoadException.Context.of("dbo.t", outcome, HandoffStats.ZERO)
                .withErrorNumber(cause == null ? null : cause.getErrorCode()), cause);
    }

    @Test
    void transientFailuresBecomeReplayRequestsUntilAttemptsRunOut() {
        BulkLoadException deadlock = failure(new SQLException("whatever the text", "40001", 1205),
                WorkOutcome.ROLLED_BACK);
        BulkLoadException replay = RunFailures.replayOrFinal(deadlock, 1, policy);
        ReplayRequest request = ReplayRequest.find(new RuntimeException("wrapped", replay));
        assertEquals(2, request.attempt());
        assertEquals(Duration.ofMillis(100), request.delay());
        assertEquals(1205, replay.errorNumber());
        RetriesExhaustedException last = assertInstanceOf(RetriesExhaustedException.class,
                RunFailures.replayOrFinal(deadlock, 5, policy));
        assertEquals(5, last.attempts());
        assertNull(ReplayRequest.find(last));
    }

    @Test
    void decisionsAreByNumberNotText() {
        BulkLoadException permanent = failure(new SQLException("deadlock victim, rerun the transaction", "23000", 2627),
                WorkOutcome.ROLLED_BACK);
        assertSame(permanent, RunFailures.replayOrFinal(permanent, 1, policy));
        BulkLoadException dropped = failure(new SQLTransientConnectionException("reset", "08S01"),
                WorkOutcome.ROLLED_BACK);
        assertTrue(RunFailures.retryable(dropped));
        BulkLoadException noSql = failure(null, WorkOutcome.ROLLED_BACK);
        assertFalse(RunFailures.retryable(noSql));
    }

    @Test
    void aCommitInDoubtIsNeverRetried() {
        BulkLoadException doubt = failure(new SQLTransientConnectionException("reset", "08S01"), WorkOutcome.IN_DOUBT);
        assertFalse(RunFailures.retryable(doubt));
        assertSame(doubt, RunFailures.replayOrFinal(doubt, 1, policy));
    }
}
