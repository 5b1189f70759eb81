package io.deltafunnel.mssql.reject;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.deltafunnel.arrow.read.JsonWriter;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.SqlIdentifiers;
import io.deltafunnel.mssql.SqlServerErrors;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.channel.SqlChannel;

/**
 * A merge run with {@code maxRejectedRows}: when SQL Server refuses the MERGE because several source rows have the
 * same key (8672 when the key is in the target: the same target row would be changed twice; 2627/2601 when it is
 * not: both would be inserted into a unique key), every row of each such key is set aside (which of them should win
 * is not known) and the MERGE runs again. A 2627/2601 without a duplicate source key is thrown as it is. Under a savepoint in the run's final transaction: the
 * refused MERGE changed nothing, the rows are deleted from the run's staging table, the reject rows name the key
 * columns and error 8672. Their batch and row index are -1 (the staging table does not keep them); their source row
 * is rendered from the staging table's values.
 */
public final class MergeDuplicates {

    private MergeDuplicates() {
    }

    /** Runs {@code merge}; on 8672 sets the rows of every duplicate key aside and runs it again, once. */
    public static void run(SqlChannel c, TableName staging, List<String> keyColumns, List<String> columns,
            RunRejects rejects, long batchIndex, SqlStep merge, BulkLoadException.Context ctx) throws SQLException {
        boolean saved = ((Number) c.query("SELECT @@TRANCOUNT").get(0)[0]).intValue() > 0;
        if (saved) {
            c.execute("SAVE TRAN " + RowBisection.SAVEPOINT);
        }
        try {
            merge.run();
            return;
        } catch (SQLException e) {
            Integer number = SqlServerErrors.errorNumber(e);
            if (!saved || c.isClosed() || number == null || !(number == SqlServerErrors.MERGE_DUPLICATE_SOURCE_KEY
                    || number == 2627 || number == 2601)) {
                throw e;
            }
            c.execute("ROLLBACK TRAN " + RowBisection.SAVEPOINT);
            if (setAside(c, staging, keyColumns, columns, rejects, batchIndex, e, ctx) == 0) {
                throw e; // no duplicate source key: the conflict is another one
            }
        }
        merge.run();
    }

    private static int setAside(SqlChannel c, TableName staging, List<String> keyColumns, List<String> columns,
            RunRejects rejects, long batchIndex, SQLException cause, BulkLoadException.Context ctx)
            throws SQLException {
        Integer number = SqlServerErrors.errorNumber(cause);
        int n = setAside(c, staging, keyColumns, columns, rejects, batchIndex, number, null,
                "is on several source rows: " + cause.getMessage(), ctx);
        if (n < 0) {
            throw cause; // a key of another type: the duplicate cannot be matched exactly, the run fails as before
        }
        return n;
    }

    /** Every key of {@code staging} that is on more than one row: the key columns' values, in key order. */
    public static List<Object[]> duplicateKeys(SqlChannel c, TableName staging, List<String> keyColumns)
            throws SQLException {
        String keys = String.join(", ", keyColumns.stream().map(SqlIdentifiers::quote).toList());
        return c.query("SELECT " + keys + " FROM " + staging.quoted() + " GROUP BY " + keys + " HAVING COUNT(*) > 1"
                + " ORDER BY " + keys);
    }

    /** {@code (k1, k2) = (v1, v2)} for messages. */
    public static String describe(List<String> keyColumns, Object[] key) {
        return "(" + String.join(", ", keyColumns) + ") = (" + String.join(", ",
                java.util.Arrays.stream(key).map(String::valueOf).toList()) + ")";
    }

    /**
     * Sets every row of each duplicate key of {@code staging} aside (a reject row: the key columns as its column,
     * {@code errorNumber} or the client-side {@code check}, the message "the key (k) = (v) " + {@code why}) and deletes
     * them from staging.
     *
     * @return the number of duplicate keys (0: none), or -1 when a key's type cannot be matched exactly (nothing was
     *         set aside then)
     */
    public static int setAside(SqlChannel c, TableName staging, List<String> keyColumns, List<String> columns,
            RunRejects rejects, long batchIndex, Integer errorNumber, String check, String why,
            BulkLoadException.Context ctx) throws SQLException {
        String match = String.join(" AND ", keyColumns.stream().map(k -> SqlIdentifiers.quote(k) + " = ?").toList());
        String select = String.join(", ", columns.stream().map(SqlIdentifiers::quote).toList());
        List<Object[]> duplicates = duplicateKeys(c, staging, keyColumns);
        List<Object[]> bound = new ArrayList<>();
        for (Object[] key : duplicates) {
            Object[] params = new Object[key.length];
            for (int i = 0; i < key.length; i++) {
                params[i] = parameter(key[i]);
                if (params[i] == null) {
                    return -1;
                }
            }
            bound.add(params);
        }
        for (int k = 0; k < duplicates.size(); k++) {
            Object[] params = bound.get(k);
            for (Object[] row : c.query("SELECT " + select + " FROM " + staging.quoted() + " WHERE " + match,
                    params)) {
                rejects.duplicateKey(json(columns, row), String.join(",", keyColumns), batchIndex, errorNumber,
                        check, "the key " + describe(keyColumns, duplicates.get(k)) + " " + why, ctx);
            }
            c.update("DELETE FROM " + staging.quoted() + " WHERE " + match, params);
        }
        return duplicates.size();
    }

    /** A key value as a bound parameter (String, Long, Integer), or null for another type. */
    private static Object parameter(Object v) {
        if (v instanceof Long || v instanceof Integer || v instanceof String) {
            return v;
        }
        if (v instanceof Short || v instanceof Byte) {
            return ((Number) v).intValue();
        }
        return null;
    }

    private static String json(List<String> columns, Object[] row) {
        StringBuilder out = new StringBuilder("{");
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            StringBuilder p = new StringBuilder();
            JsonWriter.appendString(p, columns.get(i));
            p.append(':');
            Object v = row[i];
            if (v == null) {
                p.append("null");
            } else if (v instanceof Number || v instanceof Boolean) {
                p.append(v);
            } else {
                JsonWriter.appendString(p, v.toString());
            }
            parts.add(p.toString());
        }
        return out.append(String.join(",", parts)).append('}').toString();
    }

    /** A statement that may fail with a {@link SQLException}. */
    @FunctionalInterface
    public interface SqlStep {
        void run() throws SQLException;
    }
}
