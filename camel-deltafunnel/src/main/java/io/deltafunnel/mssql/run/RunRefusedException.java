package io.deltafunnel.mssql.run;

import io.deltafunnel.handoff.HandoffException;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.WorkOutcome;

/**
 * A batch of a run that has already failed in this producer was refused: its earlier batches were rolled back (or,
 * with {@code transaction=batch}, partly committed), so writing the rest would leave a partial run. It happens when
 * the route handles a producer failure and the source keeps sending the run. {@link #stats()} and {@link #outcome()}
 * are those of the failure that ended the run.
 */
public class RunRefusedException extends BulkLoadException {

    RunRefusedException(String message, HandoffException original) {
        super(message, original instanceof BulkLoadException b ? b.context().withErrorNumber(null)
                : Context.of(null, WorkOutcome.ROLLED_BACK, original.stats()), original);
    }
}
