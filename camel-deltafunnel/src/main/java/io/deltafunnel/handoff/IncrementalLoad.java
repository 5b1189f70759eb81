package io.deltafunnel.handoff;

import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * What an incremental run loads, travelling with every exchange of the run (header
 * {@code CamelDeltaFunnelIncremental}) from the {@code deltafunnel:} consumer to the {@code deltafunnel-mssql:}
 * producer, which records it in the state table <b>in the same transaction as the data</b>.
 *
 * @param stateTable the state table, {@code [schema.]table}, in the target database
 * @param stateKey   the key of the route's rows in the state table (the consumer's {@code stateKey}, by default the
 *                   route id)
 * @param mode       {@code snapshot} or {@code changes}
 * @param sources    one entry per Delta table of the run
 */
public record IncrementalLoad(String stateTable, String stateKey, String mode, List<Source> sources) {

    /**
     * One Delta table of the run.
     *
     * @param view          the DuckDB view name
     * @param source        the table path, the state row's {@code source}
     * @param storedVersion the version the state table held when the run was planned (null: no row); the producer
     *                      refuses to record the run when the row no longer holds it (the run was already applied,
     *                      or another writer moved it)
     * @param fromVersion   the exclusive lower bound of the changes read (null: a full snapshot)
     * @param toVersion     the version loaded, written into the state row
     * @param changes       true when the view holds the changes {@code (fromVersion, toVersion]} (or, without
     *                      {@code fromVersion}, the snapshot as inserts) with the change columns; false for a plain
     *                      snapshot at {@code toVersion}
     */
    public record Source(String view, String source, Long storedVersion, Long fromVersion, long toVersion,
            boolean changes) {
        public Source {
            Objects.requireNonNull(view, "view");
            Objects.requireNonNull(source, "source");
        }
    }

    public IncrementalLoad {
        Objects.requireNonNull(stateTable, "stateTable");
        Objects.requireNonNull(stateKey, "stateKey");
        Objects.requireNonNull(mode, "mode");
        sources = List.copyOf(sources);
    }

    /** One line for logs and the {@code CamelDeltaFunnelState} header, e.g. {@code key=r1 mode=changes orders: 3 -> 5}. */
    public String describe() {
        StringJoiner j = new StringJoiner(", ", "key=" + stateKey + " mode=" + mode + " ", "");
        for (Source s : sources) {
            j.add(s.view() + ": " + (s.fromVersion() == null ? "full" : Long.toString(s.fromVersion())) + " -> "
                    + s.toVersion() + (s.changes() ? "" : " (snapshot)"));
        }
        return j.toString();
    }
}
