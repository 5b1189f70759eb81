package io.deltafunnel.mssql;

import io.deltafunnel.handoff.DownstreamException;
import io.deltafunnel.handoff.HandoffStats;

/**
 * A run of the SQL Server bulk load failed.
 *
 * <p>It carries the run's statistics (the output counters count only batches SQL Server accepted), what became of
 * that accepted work ({@link #outcome()}), the target table, and when known the column, the row (its index in the
 * batch and in the run) and the SQL Server error number. Messages never contain credentials.
 */
public class BulkLoadException extends DownstreamException {

    private final String table;
    private final String column;
    private final long rowInBatch;
    private final long rowInRun;
    private final Integer errorNumber;
    private final WorkOutcome outcome;
    private final String detail;
    private final Context context;

    public BulkLoadException(String message, Context context, Throwable cause) {
        super(context.describe(message), context.stats(), cause);
        this.detail = message;
        this.context = context;
        this.table = context.table();
        this.column = context.column();
        this.rowInBatch = context.rowInBatch();
        this.rowInRun = context.rowInRun();
        this.errorNumber = context.errorNumber();
        this.outcome = context.outcome();
    }

    /** The target table as written in the endpoint ({@code schema.table}); null when not yet known. */
    public String table() {
        return table;
    }

    /** The column concerned (the source column name, or the target's when there is no source); null when unknown. */
    public String column() {
        return column;
    }

    /** Zero-based index of the offending row in its batch, or -1 when the failure is not about one row. */
    public long rowInBatch() {
        return rowInBatch;
    }

    /** Zero-based index of the offending row in the run, or -1 when the failure is not about one row. */
    public long rowInRun() {
        return rowInRun;
    }

    /** The SQL Server error number, or null when the failure did not come from SQL Server. */
    public Integer errorNumber() {
        return errorNumber;
    }

    /** What became of the work counted in {@link #stats()}. */
    public WorkOutcome outcome() {
        return outcome;
    }

    /**
     * The one retry rule: true when SQL Server reported a transient error number (or the connection failed) and no
     * commit is in doubt. Decided by error number ({@link SqlServerErrors}), never by message text.
     */
    public final boolean retryable() {
        return outcome != WorkOutcome.IN_DOUBT && SqlServerErrors.isTransient(this);
    }

    /** Permanent unless {@link #retryable()}. */
    @Override
    public boolean permanent() {
        return !retryable();
    }

    /** The message without the table/column/row/outcome decoration. */
    public String detail() {
        return detail;
    }

    /** Where the failure happened (to build a follow-up failure about the same place). */
    public Context context() {
        return context;
    }

    /**
     * Where a failure happened.
     *
     * @param rowInBatch -1 when not about a row
     * @param rowInRun   -1 when not about a row
     */
    public record Context(String table, String column, long rowInBatch, long rowInRun, Integer errorNumber,
            WorkOutcome outcome, HandoffStats stats) {

        /** A failure of a whole run on {@code table}, not about a column or row. */
        public static Context of(String table, WorkOutcome outcome, HandoffStats stats) {
            return new Context(table, null, -1, -1, null, outcome, stats);
        }

        public Context withColumn(String name) {
            return new Context(table, name, rowInBatch, rowInRun, errorNumber, outcome, stats);
        }

        public Context withRow(long inBatch, long inRun) {
            return new Context(table, column, inBatch, inRun, errorNumber, outcome, stats);
        }

        public Context withErrorNumber(Integer number) {
            return new Context(table, column, rowInBatch, rowInRun, number, outcome, stats);
        }

        String describe(String message) {
            StringBuilder sb = new StringBuilder();
            if (table != null) {
                sb.append("table ").append(table).append(": ");
            }
            if (column != null) {
                sb.append("column ").append(column).append(": ");
            }
            if (rowInBatch >= 0) {
                sb.append("row ").append(rowInBatch).append(" of the batch (row ").append(rowInRun)
                        .append(" of the run): ");
            }
            sb.append(message);
            if (errorNumber != null) {
                sb.append(" (SQL Server error ").append(errorNumber).append(')');
            }
            if (outcome != null) {
                sb.append("; accepted work ").append(outcome.name());
            }
            return sb.toString();
        }
    }
}
