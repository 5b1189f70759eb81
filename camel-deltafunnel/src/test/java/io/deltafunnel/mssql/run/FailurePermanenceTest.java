package io.deltafunnel.mssql.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;

import io.deltafunnel.handoff.DownstreamException;
import io.deltafunnel.handoff.HandoffException;
import io.deltafunnel.handoff.HandoffPhase;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.handoff.QuerySetupException;
import io.deltafunnel.handoff.ShardPlanException;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.WorkOutcome;

import org.junit.jupiter.api.Test;

/**
 * Whether a failure is permanent is typed information of the library ({@link HandoffException#permanent()}), decided
 * by SQL Server error number for the producer's failures, so that an application never matches exception classes.
 */
class FailurePermanenceTest {

    private static final HandoffStats NONE = new HandoffStats(0, 0, 0, 0);

    private static BulkLoadException sqlServer(int errorNumber, WorkOutcome outcome) {
        SQLException cause = new SQLException("from SQL Server", "S0001", errorNumber);
        return new BulkLoadException("the batch failed",
                BulkLoadException.Context.of("dbo.t", outcome, NONE).withErrorNumber(errorNumber), cause);
    }

    @Test
    void aTransientSqlServerErrorIsNotPermanentAPermanentOneIs() {
        assertFalse(sqlServer(1205, WorkOutcome.ROLLED_BACK).permanent(), "deadlock victim: a later run may do better");
        assertTrue(sqlServer(8152, WorkOutcome.ROLLED_BACK).permanent(), "truncation: the same data fails again");
    }

    @Test
    void aTransientErrorWithACommitInDoubtIsPermanent() {
        assertTrue(sqlServer(1205, WorkOutcome.IN_DOUBT).permanent());
    }

    @Test
    void exhaustedRetriesAreNotPermanent() {
        assertFalse(RunFailures.exhausted(sqlServer(1205, WorkOutcome.ROLLED_BACK), 3).permanent());
    }

    @Test
    void aWrapperAnswersForTheProducersFailureInItsChain() {
        DownstreamException wrapped = new DownstreamException("deltafunnel:source: the route failed on batch 0",
                NONE, new IllegalStateException("a step", sqlServer(1205, WorkOutcome.ROLLED_BACK)));
        assertFalse(wrapped.permanent());
        assertFalse(HandoffException.permanent(new RuntimeException(wrapped)));
        assertTrue(HandoffException.permanent(new DownstreamException("x", NONE,
                sqlServer(2627, WorkOutcome.ROLLED_BACK))));
    }

    @Test
    void failuresWithoutAProducerFailureArePermanent() {
        assertTrue(new QuerySetupException("the query could not start", new SQLException("no table")).permanent());
        assertTrue(new ShardPlanException(HandoffPhase.DOWNSTREAM, "refused", "job", 0, NONE, null).permanent());
        assertTrue(HandoffException.permanent(new IllegalStateException("my processor broke")));
    }
}
