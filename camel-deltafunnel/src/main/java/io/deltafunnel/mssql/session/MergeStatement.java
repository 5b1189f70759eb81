package io.deltafunnel.mssql.session;

import java.util.List;
import java.util.stream.Collectors;

import io.deltafunnel.mssql.SqlIdentifiers;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.BoundColumn;

/**
 * The {@code MERGE} that applies a staging table to its target on the key columns: plain rows update or insert;
 * change rows ({@code _change_type}) are first reduced to the last change per key across the whole staging table
 * (highest {@code _commit_version}; within a version an insert/postimage over a delete; preimages ignored), then
 * delete, update or insert. Builds SQL text only (identifiers quoted, no values).
 */
public final class MergeStatement {

    /** Column names that mark change rows; excluded from the target's columns. */
    public static final List<String> CHANGE_COLUMNS = List.of("_change_type", "_commit_version", "_commit_timestamp");

    private MergeStatement() {
    }

    /** Whether {@code name} is one of {@link #CHANGE_COLUMNS} (case-insensitive). */
    public static boolean isChangeColumn(String name) {
        return CHANGE_COLUMNS.stream().anyMatch(c -> c.equalsIgnoreCase(name));
    }

    /**
     * @param dataColumns the bound columns that go into the target (no change columns)
     * @param allColumns  every bound column written into staging (the change columns included when present)
     * @param changeRows  whether staging holds change rows
     */
    public static String sql(TableName target, TableName staging, List<BoundColumn> dataColumns,
            List<BoundColumn> allColumns, List<String> keyColumns, boolean changeRows) {
        List<String> keys = dataColumns.stream().map(c -> c.target().name())
                .filter(n -> keyColumns.stream().anyMatch(k -> k.equalsIgnoreCase(n))).toList();
        List<String> others = dataColumns.stream().map(c -> c.target().name())
                .filter(n -> keyColumns.stream().noneMatch(k -> k.equalsIgnoreCase(n))).toList();
        List<String> all = dataColumns.stream().map(c -> c.target().name()).toList();
        boolean hasVersion = allColumns.stream().anyMatch(c -> c.sourceName().equalsIgnoreCase(CHANGE_COLUMNS.get(1)));
        StringBuilder sql = new StringBuilder("MERGE INTO ").append(target.quoted()).append(" AS T USING ")
                .append(changeRows ? changeSource(staging, keys, all, hasVersion) : staging.quoted())
                .append(" AS S ON (");
        sql.append(keys.stream().map(k -> "T." + SqlIdentifiers.quote(k) + " = S." + SqlIdentifiers.quote(k))
                .collect(Collectors.joining(" AND ")));
        sql.append(')');
        String type = changeRows ? "S." + SqlIdentifiers.quote(CHANGE_COLUMNS.get(0)) : null;
        if (changeRows) {
            sql.append(" WHEN MATCHED AND ").append(type).append(" = 'delete' THEN DELETE");
        }
        if (!others.isEmpty()) {
            sql.append(" WHEN MATCHED THEN UPDATE SET ").append(others.stream()
                    .map(c -> "T." + SqlIdentifiers.quote(c) + " = S." + SqlIdentifiers.quote(c))
                    .collect(Collectors.joining(", ")));
        }
        sql.append(changeRows ? " WHEN NOT MATCHED AND " + type + " <> 'delete' THEN INSERT ("
                        : " WHEN NOT MATCHED THEN INSERT (")
                .append(all.stream().map(SqlIdentifiers::quote).collect(Collectors.joining(", ")))
                .append(") VALUES (")
                .append(all.stream().map(c -> "S." + SqlIdentifiers.quote(c)).collect(Collectors.joining(", ")))
                .append(");");
        return sql.toString();
    }

    /**
     * The MERGE source for change rows: the staging table without preimages, reduced to the last change per key
     * (highest {@code _commit_version}; within a version an insert/postimage over a delete).
     */
    private static String changeSource(TableName staging, List<String> keys, List<String> all, boolean hasVersion) {
        String q = SqlIdentifiers.quote(CHANGE_COLUMNS.get(0));
        String cols = all.stream().map(SqlIdentifiers::quote).collect(Collectors.joining(", "));
        String order = (hasVersion ? SqlIdentifiers.quote(CHANGE_COLUMNS.get(1)) + " DESC, " : "")
                + "CASE WHEN " + q + " = 'delete' THEN 1 ELSE 2 END DESC";
        return "(SELECT " + cols + ", " + q + " FROM (SELECT " + cols + ", " + q + ", ROW_NUMBER() OVER (PARTITION BY "
                + keys.stream().map(SqlIdentifiers::quote).collect(Collectors.joining(", ")) + " ORDER BY " + order
                + ") AS [__df_rank] FROM " + staging.quoted() + " WHERE " + q + " <> 'update_preimage') AS D"
                + " WHERE D.[__df_rank] = 1)";
    }
}
