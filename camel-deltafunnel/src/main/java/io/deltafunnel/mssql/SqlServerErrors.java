package io.deltafunnel.mssql;

import java.sql.SQLException;
import java.util.Set;

/**
 * Classifies SQL Server failures. Decides by error number and SQLState only, never by message text.
 */
public final class SqlServerErrors {

    /**
     * Error numbers worth retrying: deadlock victim (1205), lock timeout (1222), Azure SQL transient errors (40197,
     * 40501, 40613, 49918, 49919, 49920, 10928, 10929), database not available yet (4060).
     */
    public static final Set<Integer> TRANSIENT_ERROR_NUMBERS =
            Set.of(1205, 1222, 40197, 40501, 40613, 49918, 49919, 49920, 4060, 10928, 10929);

    /**
     * Error numbers that mean "this row's data" for a bulk statement, the ones a run with {@code maxRejectedRows}
     * sets the offending rows aside for (by splitting the refused batch): 2627 duplicate key (constraint), 2601
     * duplicate key (unique index), 547 FOREIGN KEY/CHECK conflict (with {@code checkConstraints=true}), 8115
     * arithmetic overflow, 2628 string or binary truncated, 515 NULL into a NOT NULL column. Each ends only the
     * statement, never the transaction (without {@code XACT_ABORT}).
     */
    public static final Set<Integer> ROW_DATA_ERROR_NUMBERS = Set.of(2627, 2601, 547, 8115, 2628, 515);

    /** Duplicate source keys of a MERGE (8672): the same target row would be changed twice. */
    public static final int MERGE_DUPLICATE_SOURCE_KEY = 8672;

    private SqlServerErrors() {
    }

    /**
     * True when {@code e} is a row-data error ({@link #ROW_DATA_ERROR_NUMBERS}) that is neither transient nor a
     * connection failure: the statement failed for the data of some of its rows, and the session goes on.
     */
    public static boolean isRowDataError(SQLException e) {
        Integer number = errorNumber(e);
        return number != null && ROW_DATA_ERROR_NUMBERS.contains(number) && !isTransient(e);
    }

    /**
     * True when {@code e}, any exception chained to it ({@link SQLException#getNextException()}) or any of its
     * causes carries a transient error number, or signals a connection-level failure (SQLState class 08, or a
     * {@link java.sql.SQLTransientConnectionException}/{@link java.sql.SQLRecoverableException}).
     */
    public static boolean isTransient(SQLException e) {
        return scan(e, 0);
    }

    /**
     * True when any {@link SQLException} in {@code failure}'s cause chain is transient (see
     * {@link #isTransient(SQLException)}). A failure without any SQLException in its chain (a value that does not fit,
     * a missing column) is permanent.
     */
    public static boolean isTransient(Throwable failure) {
        return scan(failure, 0);
    }

    /** The SQL Server error number of {@code e} or the first chained/cause SQLException with one; null if none. */
    public static Integer errorNumber(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SQLException sql) {
                for (SQLException s = sql; s != null; s = s.getNextException()) {
                    if (s.getErrorCode() != 0) {
                        return s.getErrorCode();
                    }
                }
            }
        }
        return null;
    }

    private static boolean scan(Throwable t, int depth) {
        if (t == null || depth > 20) {
            return false;
        }
        if (t instanceof SQLException sql) {
            for (SQLException s = sql; s != null; s = s.getNextException()) {
                if (TRANSIENT_ERROR_NUMBERS.contains(s.getErrorCode()) || isConnectionFailure(s)) {
                    return true;
                }
                if (s != sql && scan(s.getCause(), depth + 1)) {
                    return true;
                }
            }
        }
        return t.getCause() != t && scan(t.getCause(), depth + 1);
    }

    /** SQLState class 08 (connection exception) or a JDBC connection-failure exception type. */
    public static boolean isConnectionFailure(SQLException e) {
        String state = e.getSQLState();
        return (state != null && state.startsWith("08")) || e instanceof java.sql.SQLTransientConnectionException
                || e instanceof java.sql.SQLRecoverableException
                || e instanceof java.sql.SQLNonTransientConnectionException;
    }
}
