package io.deltafunnel.mssql.run;

import java.util.List;

import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.WorkOutcome;

/**
 * A batch of a new run reached a producer that already has {@code maxOpenRuns} runs open: the new run is refused
 * before anything of it is written (nothing was accepted, {@link #outcome()} is {@code ROLLED_BACK}), and the open
 * runs go on. Raise the producer's {@code maxOpenRuns} option, or send fewer runs at once.
 */
public class TooManyOpenRunsException extends BulkLoadException {

    private final List<String> openRunIds;

    TooManyOpenRunsException(String table, String runId, int maxOpenRuns, List<String> openRunIds) {
        super("run " + runId + " refused: this producer already has " + openRunIds.size() + " open run(s) "
                + openRunIds + " and maxOpenRuns=" + maxOpenRuns + "; raise maxOpenRuns or send fewer concurrent runs",
                Context.of(table, WorkOutcome.ROLLED_BACK, HandoffStats.ZERO), null);
        this.openRunIds = List.copyOf(openRunIds);
    }

    /** The runs that were open when this one was refused. */
    public List<String> openRunIds() {
        return openRunIds;
    }
}
