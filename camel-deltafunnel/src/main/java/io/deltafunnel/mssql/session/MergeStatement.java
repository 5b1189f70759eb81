package io.deltafunnel.mssql.session;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import io.deltafunnel.mssql.BulkLoadSettings.Merge;
import io.deltafunnel.mssql.BulkLoadSettings.MergeStrategy;
import io.deltafunnel.mssql.SqlIdentifiers;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.BoundColumn;

/**
 * The statements that apply a staging table to its target on the key columns, as {@code mergeStrategy} and
 * {@code deleteMode} say ({@link #statements}); {@link #sql} is the default strategy's single statement.
 *
 * <p>The {@code MERGE} that applies a staging table to its target on the key columns: plain rows update or insert;
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
        return statements(target, staging, dataColumns, allColumns, keyColumns, changeRows, Merge.DEFAULT, null)
                .get(0).sql();
    }

    /**
     * A statement of a merge, run in order in the run's final transaction.
     *
     * @param sql     the statement (identifiers quoted, no values)
     * @param counted its row count is part of the rows the merge wrote (a delete-insert's DELETE is not)
     */
    public record Step(String sql, boolean counted) {
    }

    /**
     * The soft-delete column of a {@code deleteMode=soft} merge, as the target has it.
     *
     * @param name      the target column
     * @param timestamp {@code datetime2} (set to the delete's {@code _commit_timestamp}); else {@code bit} (set to 1)
     */
    public record SoftColumn(String name, boolean timestamp) {

        /** What a written row that is not a delete gets: 0, or NULL. */
        String cleared() {
            return timestamp ? "NULL" : "0";
        }

        /** What a deleted row gets, from the change row aliased {@code alias}: 1, or its commit timestamp. */
        String flag(String alias) {
            return timestamp ? alias + "." + SqlIdentifiers.quote(CHANGE_COLUMNS.get(2)) : "1";
        }
    }

    /**
     * The statements of a merge with {@code merge}'s strategy, in order; empty when the strategy has nothing to do
     * (updateOnly with key columns only, plain rows, hard deletes).
     * <ul>
     *   <li>upsert: one {@code MERGE} (delete / update / insert);</li>
     *   <li>insertOnly: one {@code MERGE} with only {@code WHEN NOT MATCHED ... THEN INSERT};</li>
     *   <li>updateOnly: one {@code MERGE} without {@code WHEN NOT MATCHED};</li>
     *   <li>deleteInsert: {@code DELETE} of every key a staging row has ({@code WHERE EXISTS}), then
     *       {@code INSERT ... SELECT} of the (ranked) rows that are not deletes. With soft deletes: first an
     *       {@code UPDATE ... FROM ... JOIN} that marks the keys whose last change is a delete, then the
     *       {@code DELETE} of the keys whose last change is not, then the {@code INSERT}.</li>
     * </ul>
     * With soft deletes a change-feed delete sets {@code soft} (1 or its {@code _commit_timestamp}) and leaves the
     * row's other columns as they are; every other written row gets it cleared (0 or NULL), so a re-insert clears it.
     *
     * @param soft the soft-delete column, or null for hard deletes
     */
    public static List<Step> statements(TableName target, TableName staging, List<BoundColumn> dataColumns,
            List<BoundColumn> allColumns, List<String> keyColumns, boolean changeRows, Merge merge,
            SoftColumn soft) {
        List<String> keys = dataColumns.stream().map(c -> c.target().name())
                .filter(n -> keyColumns.stream().anyMatch(k -> k.equalsIgnoreCase(n))).toList();
        List<String> others = dataColumns.stream().map(c -> c.target().name())
                .filter(n -> keyColumns.stream().noneMatch(k -> k.equalsIgnoreCase(n))).toList();
        List<String> all = dataColumns.stream().map(c -> c.target().name()).toList();
        boolean hasVersion = allColumns.stream().anyMatch(c -> c.sourceName().equalsIgnoreCase(CHANGE_COLUMNS.get(1)));
        String type = SqlIdentifiers.quote(CHANGE_COLUMNS.get(0));
        String source = changeRows ? changeSource(staging, keys, all, hasVersion, soft != null && soft.timestamp())
                : staging.quoted();
        String insertColumns = all.stream().map(SqlIdentifiers::quote).collect(Collectors.joining(", "))
                + (soft == null ? "" : ", " + SqlIdentifiers.quote(soft.name()));
        String insertValues = all.stream().map(c -> "S." + SqlIdentifiers.quote(c)).collect(Collectors.joining(", "))
                + (soft == null ? "" : ", " + soft.cleared());
        if (merge.strategy() == MergeStrategy.DELETE_INSERT) {
            List<Step> steps = new ArrayList<>();
            String onKeys = on(keys, "T", "S");
            if (soft != null && changeRows) {
                steps.add(new Step("UPDATE T SET " + SqlIdentifiers.quote(soft.name()) + " = " + soft.flag("S")
                        + " FROM " + target.quoted() + " AS T INNER JOIN " + staging.quoted() + " AS S ON " + onKeys
                        + " WHERE S." + type + " = 'delete' AND " + lastChange(staging, keys, hasVersion), true));
                steps.add(new Step("DELETE T FROM " + target.quoted() + " AS T WHERE EXISTS (SELECT 1 FROM " + source
                        + " AS S WHERE " + onKeys + " AND S." + type + " <> 'delete')", false));
            } else {
                steps.add(new Step("DELETE T FROM " + target.quoted() + " AS T WHERE EXISTS (SELECT 1 FROM "
                        + staging.quoted() + " AS S WHERE " + onKeys + ")", false));
            }
            steps.add(new Step("INSERT INTO " + target.quoted() + " (" + insertColumns + ") SELECT " + insertValues
                    + " FROM " + source + " AS S" + (changeRows ? " WHERE S." + type + " <> 'delete'" : ""), true));
            return steps;
        }
        boolean matched = merge.strategy() != MergeStrategy.INSERT_ONLY;
        boolean notMatched = merge.strategy() != MergeStrategy.UPDATE_ONLY;
        StringBuilder when = new StringBuilder();
        if (matched && changeRows && soft == null) {
            when.append(" WHEN MATCHED AND S.").append(type).append(" = 'delete' THEN DELETE");
        }
        List<String> sets = new ArrayList<>();
        for (String c : others) {
            String q = SqlIdentifiers.quote(c);
            sets.add("T." + q + " = " + (soft != null && changeRows
                    ? "CASE WHEN S." + type + " = 'delete' THEN T." + q + " ELSE S." + q + " END" : "S." + q));
        }
        if (soft != null) {
            sets.add("T." + SqlIdentifiers.quote(soft.name()) + " = " + (changeRows ? "CASE WHEN S." + type
                    + " = 'delete' THEN " + soft.flag("S") + " ELSE " + soft.cleared() + " END" : soft.cleared()));
        }
        if (matched && !sets.isEmpty()) {
            when.append(" WHEN MATCHED THEN UPDATE SET ").append(String.join(", ", sets));
        }
        if (notMatched) {
            when.append(" WHEN NOT MATCHED").append(changeRows ? " AND S." + type + " <> 'delete'" : "")
                    .append(" THEN INSERT (").append(insertColumns).append(") VALUES (").append(insertValues)
                    .append(')');
        }
        if (when.length() == 0) {
            return List.of();
        }
        return List.of(new Step("MERGE INTO " + target.quoted() + " AS T USING " + source + " AS S ON ("
                + on(keys, "T", "S") + ')' + when + ';', true));
    }

    private static String on(List<String> keys, String left, String right) {
        return keys.stream().map(k -> left + "." + SqlIdentifiers.quote(k) + " = " + right + "."
                + SqlIdentifiers.quote(k)).collect(Collectors.joining(" AND "));
    }

    /**
     * The staging row aliased {@code S} (a delete) is the last change of its key, as {@link #changeSource} ranks
     * them: no other row of the key (preimages aside) has a higher {@code _commit_version}, or the same version and
     * is not a delete. The ranking as a predicate, for an {@code UPDATE ... FROM ... JOIN} over the staging table.
     */
    private static String lastChange(TableName staging, List<String> keys, boolean hasVersion) {
        String type = SqlIdentifiers.quote(CHANGE_COLUMNS.get(0));
        String version = SqlIdentifiers.quote(CHANGE_COLUMNS.get(1));
        String later = hasVersion ? "(E." + version + " > S." + version + " OR (E." + version + " = S." + version
                + " AND E." + type + " <> 'delete'))" : "E." + type + " <> 'delete'";
        return "NOT EXISTS (SELECT 1 FROM " + staging.quoted() + " AS E WHERE " + on(keys, "E", "S") + " AND E."
                + type + " <> 'update_preimage' AND " + later + ")";
    }

    /**
     * The MERGE source for change rows: the staging table without preimages, reduced to the last change per key
     * (highest {@code _commit_version}; within a version an insert/postimage over a delete); with
     * {@code withTimestamp} its {@code _commit_timestamp} too (a datetime2 soft-delete column's value).
     */
    private static String changeSource(TableName staging, List<String> keys, List<String> all, boolean hasVersion,
            boolean withTimestamp) {
        String q = SqlIdentifiers.quote(CHANGE_COLUMNS.get(0))
                + (withTimestamp ? ", " + SqlIdentifiers.quote(CHANGE_COLUMNS.get(2)) : "");
        String cols = all.stream().map(SqlIdentifiers::quote).collect(Collectors.joining(", "));
        String type = SqlIdentifiers.quote(CHANGE_COLUMNS.get(0));
        String order = (hasVersion ? SqlIdentifiers.quote(CHANGE_COLUMNS.get(1)) + " DESC, " : "")
                + "CASE WHEN " + type + " = 'delete' THEN 1 ELSE 2 END DESC";
        return "(SELECT " + cols + ", " + q + " FROM (SELECT " + cols + ", " + q + ", ROW_NUMBER() OVER (PARTITION BY "
                + keys.stream().map(SqlIdentifiers::quote).collect(Collectors.joining(", ")) + " ORDER BY " + order
                + ") AS [__df_rank] FROM " + staging.quoted() + " WHERE " + type + " <> 'update_preimage') AS D"
                + " WHERE D.[__df_rank] = 1)";
    }

}
