package io.deltafunnel.handoff;

/**
 * How many rows a run may set aside instead of failing, and where they go (the producer's {@code maxRejectedRows},
 * {@code rejectTable} and {@code rejectEndpoint}). A plain value without SQL Server types, so that the settings of
 * the SQL Server side ({@code mssql.BulkLoadSettings}) can carry it; {@code io.deltafunnel.mssql.reject} does the
 * work (the reject table, the set-aside rows, finding a server-refused row).
 *
 * @param maxRejectedRows at most this many rows per run (per load for a sharded load) are set aside; one more fails
 *                        the run. 0 (the default): any bad row fails the run, nothing is set aside
 * @param rejectTable     {@code schema.table} (or {@code table}) receiving the set-aside rows in the transaction of
 *                        the loaded rows; required when {@code maxRejectedRows > 0}
 * @param rejectEndpoint  a Camel endpoint URI that gets the run's rejected rows as JSON lines after the run commits,
 *                        or null
 */
public record RejectSettings(int maxRejectedRows, String rejectTable, String rejectEndpoint) {

    /** Nothing is set aside: any bad row fails the run. */
    public static final RejectSettings NONE = new RejectSettings(0, null, null);

    public RejectSettings {
        if (maxRejectedRows < 0) {
            throw new IllegalArgumentException("maxRejectedRows must be 0 or more, got " + maxRejectedRows);
        }
        rejectTable = rejectTable == null || rejectTable.isBlank() ? null : rejectTable.trim();
        rejectEndpoint = rejectEndpoint == null || rejectEndpoint.isBlank() ? null : rejectEndpoint.trim();
        if (maxRejectedRows > 0 && rejectTable == null) {
            throw new IllegalArgumentException("maxRejectedRows=" + maxRejectedRows + " needs rejectTable"
                    + " (schema.table): the rejected rows are written there in the run's transaction");
        }
    }

    /** Whether rows are set aside at all ({@code maxRejectedRows > 0}). */
    public boolean enabled() {
        return maxRejectedRows > 0;
    }
}
