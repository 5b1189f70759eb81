package io.deltafunnel.routes;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Locale;

import io.deltafunnel.camel.DeltaFunnelMssqlEndpoint;import io.deltafunnel.handoff.ShardAssignment;

import static io.deltafunnel.routes.RunPrinter.fmt;
import static io.deltafunnel.routes.RunPrinter.rate;

/** The text of the progress line and of the summary line of a {@code deltafunnel:} run. */
final class RunLines {

    private RunLines() {
    }

    /**
     * e.g. {@code load-table: writing 120,000 of 300,000 rows (40%), 35,210 rows/s, ETA 5 s, 12.4 s}; before the first
     * batch is written {@code load-table: opening target, first batch, 0.8 s}. The total is
     * {@link RouteRun#knownTotal()}: for a shard, its share's rows.
     */
    static String progressLine(RouteRun route, long now) {
        double seconds = (now - route.start) / 1e9;
        long rows = route.rowsOut;
        Long known = route.knownTotal();
        StringBuilder sb = new StringBuilder(route.routeId).append(": ").append(route.phase.label);
        if (route.phase == RouteRun.Phase.REPLAY_WAIT) {
            sb.append(" as attempt ").append(route.attempt);
        } else if (route.attempt > 1) {
            sb.append(" (attempt ").append(route.attempt).append(')');
        }
        switch (route.phase) {
            case READING -> sb.append(" (Delta log, query start)");
            case OPENING -> sb.append(", first batch");
            case WRITING -> {
                sb.append(' ').append(fmt(rows));
                if (known != null && known > 0) {
                    sb.append(" of ").append(fmt(known));
                }
                sb.append(" rows");
                if (known != null && known > 0) {
                    sb.append(String.format(Locale.ROOT, " (%d%%)", Math.min(99, rows * 100 / known)));
                }
                double rate = rate(rows, now - route.start);
                sb.append(", ").append(fmt((long) rate)).append(" rows/s");
                if (known != null && known > rows && rate > 0) {
                    sb.append(", ETA ").append(Math.round((known - rows) / rate)).append(" s");
                }
            }
            case COMMITTING, SWAP, MERGE -> sb.append(" (last batch handed over after ").append(fmt(rows))
                    .append(" rows; ").append(String.format(Locale.ROOT, "%.1f s", (now - route.phaseStart) / 1e9))
                    .append(" in this phase)");
            case REPLAY_WAIT -> sb.append(" after a transient failure");
            default -> {
            }
        }
        sb.append(String.format(Locale.ROOT, ", %.1f s", seconds));
        return sb.toString();
    }

    /** The route as a summary names it: its id, and the shard it carried with the producer's outcome. */
    static String name(String routeId, ShardAssignment shard, String loadStatus) {
        return routeId + (shard == null ? "" : " [" + shard.describe() + (loadStatus == null ? "" : ": " + loadStatus)
                + "]");
    }

    /** {@code DeltaFunnel run FAILED on route … after 1.2 s: …}, with the target's row count when read back. */
    static String failed(String name, boolean stopped, long nanos, String failure, String target, Long count) {
        String line = String.format(Locale.ROOT, "DeltaFunnel run %s on route %s after %.3f s: %s",
                stopped ? "STOPPED" : "FAILED", name, nanos / 1e9, failure);
        if (count != null) {
            line += String.format(Locale.ROOT, "; target %s holds %s rows", target, fmt(count));
        }
        return line;
    }

    /** {@code DeltaFunnel run complete on route …: N rows in B batches, …}, with the target's row count read back. */
    static String complete(String name, long rows, long batches, long nanos, String target, Long count,
            String countProblem) {
        String line = String.format(Locale.ROOT, "DeltaFunnel run complete on route %s: %s rows in %d batches, %.3f s,"
                + " %s rows/s", name, fmt(rows), batches, nanos / 1e9, fmt((long) rate(rows, nanos)));
        if (count != null) {
            line += String.format(Locale.ROOT, "; target %s holds %s rows (read back)", target, fmt(count));
        } else if (target != null) {
            line += "; target " + target + " (row count not read back: " + countProblem + ")";
        }
        return line;
    }

    /**
     * What a complete run's summary line adds when the run set rows aside ({@code maxRejectedRows}):
     * {@code ; 3 rows rejected into dbo.rejects}; empty when none.
     */
    static String rejected(long rows, String rejectTable) {
        if (rows <= 0) {
            return "";
        }
        return "; " + fmt(rows) + (rows == 1 ? " row" : " rows") + " rejected"
                + (rejectTable == null || rejectTable.isBlank() ? "" : " into " + rejectTable.trim());
    }

    static String nothingToLoad(String name) {
        return "DeltaFunnel route " + name + ": nothing to load";
    }

    /** The target's row count, read back for the summary line. */
    static long countRows(DeltaFunnelMssqlEndpoint target) throws Exception {
        try (Connection c = target.connectionProvider().open();
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT_BIG(*) FROM " + target.settings().table().quoted())) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
