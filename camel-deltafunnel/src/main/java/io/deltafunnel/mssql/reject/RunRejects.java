package io.deltafunnel.mssql.reject;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.deltafunnel.arrow.ArrowJsonLines;
import io.deltafunnel.handoff.RejectSettings;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.SqlServerErrors;
import io.deltafunnel.mssql.SqlStatements;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.Rejection;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The rows one run (one session of it) sets aside, with the limit ({@code maxRejectedRows}): rows found by the
 * client-side check ({@link #clientSide}) and rows SQL Server refused ({@link #serverSide}, found by
 * {@link RowBisection}). A row is set aside once, whatever number of its values fail. One row more than the limit
 * fails the run with {@link TooManyRejectedRowsException}.
 *
 * <p>The rows wait ({@link #pending()}) until the transaction that commits the loaded rows: the session writes them
 * into the reject table just before it commits ({@link #flush}) and then marks them committed
 * ({@link #committed()}); a failed run drops them with its transaction. Owned by one session; not thread-safe.
 */
public final class RunRejects {
    /** The check name of a history snapshot's row whose key other source rows share ({@link #duplicateKey}). */
    public static final String DUPLICATE_KEY = "duplicate-key";

    private final RejectSettings settings;
    private final RejectTable table;
    private final String runId;
    private final String routeKey;
    private final long before;
    private String target;
    private final List<RejectedRow> pending = new ArrayList<>();
    private final List<RejectedRow> committed = new ArrayList<>();

    /**
     * @param before the run's rejected rows committed before this session (a resumed {@code transaction=batch} run,
     *               or the other shares of a sharded load), counted against the limit
     */
    public RunRejects(RejectSettings settings, String runId, String routeKey, long before) {
        if (!settings.enabled()) {
            throw new IllegalArgumentException("maxRejectedRows is 0: nothing is set aside");
        }
        this.settings = settings;
        this.table = new RejectTable(TableName.parse(settings.rejectTable()));
        this.runId = runId;
        this.routeKey = routeKey;
        this.before = before;
    }

    public RejectTable table() {
        return table;
    }

    /** The target table the rows were meant for (set once the run has resolved it). */
    public void target(TableName resolved) {
        this.target = resolved.toString();
    }

    /** The run's rejected rows so far: before this session, committed and pending. */
    public long count() {
        return before + committed.size() + pending.size();
    }

    /**
     * Sets aside every row the client-side check refused ({@link io.deltafunnel.mssql.bind.BatchCheck#all}): one
     * reject row per source row, naming its first refused column and every reason.
     *
     * @return the rows of {@code root} to send (ascending)
     * @throws TooManyRejectedRowsException when the run's rejected rows go beyond the limit
     */
    public int[] clientSide(VectorSchemaRoot root, List<Rejection> found, long batchIndex,
            BulkLoadException.Context ctx) {
        Map<Integer, List<Rejection>> byRow = new LinkedHashMap<>();
        for (Rejection r : found) {
            byRow.computeIfAbsent(r.row(), k -> new ArrayList<>()).add(r);
        }
        Instant now = Instant.now();
        for (Map.Entry<Integer, List<Rejection>> e : byRow.entrySet().stream()
                .sorted(Map.Entry.comparingByKey()).toList()) {
            Rejection first = e.getValue().get(0);
            String message = String.join("; ", e.getValue().stream()
                    .map(r -> "column " + r.targetColumn() + " " + r.targetType() + ": " + r.reason()).toList());
            add(new RejectedRow(runId, routeKey, target, batchIndex, e.getKey(), ArrowJsonLines.row(root, e.getKey()),
                    first.targetColumn(), null, first.check(), message, now), ctx);
        }
        int[] keep = new int[root.getRowCount() - byRow.size()];
        for (int r = 0, k = 0; r < root.getRowCount(); r++) {
            if (!byRow.containsKey(r)) {
                keep[k++] = r;
            }
        }
        return keep;
    }

    /**
     * Sets aside row {@code rootRow} of {@code root}, which SQL Server refused alone with {@code cause} (a
     * {@linkplain SqlServerErrors#isRowDataError row-data error}).
     *
     * @throws TooManyRejectedRowsException when the run's rejected rows go beyond the limit
     */
    public void serverSide(VectorSchemaRoot root, int rootRow, long batchIndex, SQLException cause,
            BulkLoadException.Context ctx) {
        add(new RejectedRow(runId, routeKey, target, batchIndex, rootRow, ArrowJsonLines.row(root, rootRow), null,
                SqlServerErrors.errorNumber(cause), null, cause.getMessage(), Instant.now()), ctx);
    }

    /**
     * Sets aside one row of a run's staging table whose key other rows share, rendered as {@code sourceRow}: a merge's
     * (SQL Server's {@code errorNumber}: 8672, 2627, 2601) or a history snapshot's (the client-side {@code check}
     * {@link #DUPLICATE_KEY}, no error number); its row index is -1.
     */
    public void duplicateKey(String sourceRow, String keyColumns, long batchIndex, Integer errorNumber, String check,
            String message, BulkLoadException.Context ctx) {
        add(new RejectedRow(runId, routeKey, target, batchIndex, -1, sourceRow, keyColumns, errorNumber, check,
                message, Instant.now()), ctx);
    }

    private void add(RejectedRow row, BulkLoadException.Context ctx) {
        if (count() + 1 > settings.maxRejectedRows()) {
            throw new TooManyRejectedRowsException("more than maxRejectedRows=" + settings.maxRejectedRows()
                    + " bad rows in run " + runId + ": row " + row.rowIndex() + " of batch " + row.batchIndex()
                    + " is bad too (" + (row.check() != null ? row.check() : "SQL Server error "
                    + row.errorNumber()) + ": " + row.message() + "); nothing of the run is kept",
                    settings.maxRejectedRows(), row.column() == null ? ctx : ctx.withColumn(row.column()));
        }
        pending.add(row);
    }

    /** The rows set aside and not yet committed. */
    public List<RejectedRow> pending() {
        return List.copyOf(pending);
    }

    /** Writes the pending rows into the reject table, in the caller's transaction (just before it commits). */
    public void flush(SqlStatements c) throws SQLException {
        if (!pending.isEmpty()) {
            table.insert(c, pending);
        }
    }

    /** The transaction that holds the pending rows committed: they count as committed. */
    public void committed() {
        committed.addAll(pending);
        pending.clear();
    }

    /** The rows committed by this session, in the order they were found. */
    public List<RejectedRow> committedRows() {
        return List.copyOf(committed);
    }
}
