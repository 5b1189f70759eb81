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
        String keys = String.join(", ", keyColumns.stream().map(SqlIdentifiers::quote).toList());
        String match = String.join(" AND ", keyColumns.stream().map(k -> SqlIdentifiers.quote(k) + " = ?").toList());
        String select = String.join(", ", columns.stream().map(SqlIdentifiers::quote).toList());
        List<Object[]> duplicates = c.query("SELECT " + keys + " FROM " + staging.quoted() + " GROUP BY " + keys
                + " HAVING COUNT(*) > 1");
        for (Object[] key : duplicates) {
            Object[] params = new Object[key.length];
            for (int i = 0; i < key.length; i++) {
                params[i] = parameter(key[i], cause);
            }
            for (Object[] row : c.query("SELECT " + select + " FROM " + staging.quoted() + " WHERE " + match,
                    params)) {
                rejects.mergeDuplicate(json(columns, row), String.join(",", keyColumns), batchIndex,
                        SqlServerErrors.errorNumber(cause), "the key (" + String.join(", ", keyColumns)
                        + ") = (" + String.join(", ", java.util.Arrays.stream(key).map(String::valueOf).toList())
                        + ") is on several source rows: " + cause.getMessage(), ctx);
            }
            c.update("DELETE FROM " + staging.quoted() + " WHERE " + match, params);
        }
        return duplicates.size();
    }

    /** A key value as a bound parameter (String, Long, Integer); other types keep the MERGE's failure. */
    private static Object parameter(Object v, SQLException cause) throws SQLException {
        if (v instanceof Long || v instanceof Integer || v instanceof String) {
            return v;
        }
        if (v instanceof Short || v instanceof Byte) {
            return ((Number) v).intValue();
        }
        throw cause; // a key of another type: the duplicate cannot be matched exactly, the run fails as before
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
