package io.deltafunnel.mssql.session;

import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.BulkLoadSettings.HistorySettings;
import io.deltafunnel.mssql.SqlIdentifiers;
import io.deltafunnel.mssql.SqlStatements;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.ColumnMappingException;
import io.deltafunnel.mssql.bind.SqlType;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.mssql.bind.TargetTable;
import io.deltafunnel.mssql.channel.SqlChannel;
import io.deltafunnel.mssql.reject.MergeDuplicates;

/**
 * The statements of {@code writeMode=history}: type 2 history (a slowly changing dimension) applied from a run's
 * staging table to its target on the key columns, in the run's final transaction. Each version of a row is one target
 * row with the {@link HistorySettings history columns}: valid from, valid to (NULL while current) and current (bit).
 *
 * <p><b>Change rows</b> ({@code _change_type}, {@code _commit_version}, {@code _commit_timestamp}): every change row
 * but the preimages, per key in {@code _commit_version} order (within one version a delete before an insert or
 * postimage), is one event at its {@code _commit_timestamp}. The key's current target row is closed at its first
 * event (valid to = that time, current = 0); every event that is not a delete opens a version valid from its time to
 * the next event's time (NULL and current when it is the key's last event). So an update closes the current version
 * and opens a new one, a delete closes it, a re-insert opens a new one, and several changes to one key within the run
 * give each intermediate version (not the last-change-per-key ranking of {@link MergeStatement}).
 *
 * <p><b>Plain rows</b> (a snapshot load): every current target row whose key is absent from the staging table, or
 * whose mapped non-key values differ from the staged row's (NULL equal to NULL; text compared with the column's
 * collation), is closed at the run's time; every staged row without a current target row for its key (new, or just
 * closed) opens a version valid from the run's time.
 *
 * <p>The run's time is one value for the whole run (the UTC time when its final step starts), bound as a parameter.
 * Builds SQL text only (identifiers quoted, values bound); {@link #apply} runs it on the caller's channel and
 * transaction.
 */
public final class HistoryStatement {

    /** The change row columns ({@link MergeStatement#CHANGE_COLUMNS}): type, version, timestamp. */
    private static final String TYPE = SqlIdentifiers.quote(MergeStatement.CHANGE_COLUMNS.get(0));
    private static final String VERSION = SqlIdentifiers.quote(MergeStatement.CHANGE_COLUMNS.get(1));
    private static final String TIMESTAMP = SqlIdentifiers.quote(MergeStatement.CHANGE_COLUMNS.get(2));

    /** {@code datetime2(7)} text, bound and converted with {@code CAST(? AS datetime2(7))}. */
    private static final DateTimeFormatter RUN_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSSS",
            Locale.ROOT);

    /** One statement and its parameters. */
    public record Step(String sql, List<Object> params) {
        public Step {
            params = List.copyOf(params);
        }
    }

    private HistoryStatement() {
    }

    /** The run's time as bound text: now, UTC. */
    public static String runTime() {
        return LocalDateTime.now(ZoneOffset.UTC).format(RUN_TIME);
    }

    /**
     * The statements, in order: close the current versions, then insert the new ones.
     *
     * @param dataColumns the bound columns that go into the target (no change columns)
     * @param allColumns  every bound column written into staging (the change columns included when present)
     * @param changeRows  whether staging holds change rows
     * @param runTime     the run's time ({@link #runTime()}): valid from/to of a snapshot load, and of change rows
     *                    without a {@code _commit_timestamp}
     */
    public static List<Step> steps(TableName target, TableName staging, List<BoundColumn> dataColumns,
            List<BoundColumn> allColumns, List<String> keyColumns, HistorySettings history, boolean changeRows,
            String runTime) {
        List<String> all = dataColumns.stream().map(c -> c.target().name()).toList();
        List<String> keys = all.stream().filter(n -> keyColumns.stream().anyMatch(k -> k.equalsIgnoreCase(n)))
                .toList();
        List<String> others = all.stream().filter(n -> keyColumns.stream().noneMatch(k -> k.equalsIgnoreCase(n)))
                .toList();
        String from = SqlIdentifiers.quote(history.validFromColumn());
        String to = SqlIdentifiers.quote(history.validToColumn());
        String current = SqlIdentifiers.quote(history.currentColumn());
        String cols = all.stream().map(SqlIdentifiers::quote).collect(Collectors.joining(", "));
        String insertList = cols + ", " + from + ", " + to + ", " + current;
        String keyMatch = keys.stream().map(k -> "T." + SqlIdentifiers.quote(k) + " = S." + SqlIdentifiers.quote(k))
                .collect(Collectors.joining(" AND "));
        List<Step> steps = new ArrayList<>();
        if (changeRows) {
            boolean hasTimestamp = allColumns.stream()
                    .anyMatch(c -> c.sourceName().equalsIgnoreCase(MergeStatement.CHANGE_COLUMNS.get(2)));
            String ts = hasTimestamp
                    ? "COALESCE(CAST(" + TIMESTAMP + " AS datetime2(7)), CAST(? AS datetime2(7)))"
                    : "CAST(? AS datetime2(7))";
            String partition = "PARTITION BY " + keys.stream().map(SqlIdentifiers::quote)
                    .collect(Collectors.joining(", ")) + " ORDER BY " + VERSION + ", CASE WHEN " + TYPE
                    + " = 'delete' THEN 0 ELSE 1 END";
            // Every event of the run, numbered per key, with the time of the key's next event.
            String events = "(SELECT " + cols + ", " + TYPE + ", [__df_ts], ROW_NUMBER() OVER (" + partition
                    + ") AS [__df_seq], LEAD([__df_ts]) OVER (" + partition + ") AS [__df_next] FROM (SELECT " + cols
                    + ", " + TYPE + ", " + VERSION + ", " + ts + " AS [__df_ts] FROM " + staging.quoted() + " WHERE "
                    + TYPE + " <> 'update_preimage') AS C) AS E";
            steps.add(new Step("MERGE INTO " + target.quoted() + " AS T USING (SELECT "
                    + keys.stream().map(SqlIdentifiers::quote).collect(Collectors.joining(", "))
                    + ", [__df_ts] FROM " + events + " WHERE [__df_seq] = 1) AS S ON (" + keyMatch + " AND T."
                    + current + " = 1) WHEN MATCHED THEN UPDATE SET T." + to + " = S.[__df_ts], T." + current
                    + " = 0;", List.of(runTime)));
            steps.add(new Step("INSERT INTO " + target.quoted() + " (" + insertList + ") SELECT " + cols
                    + ", [__df_ts], [__df_next], CASE WHEN [__df_next] IS NULL THEN 1 ELSE 0 END FROM " + events
                    + " WHERE " + TYPE + " <> 'delete'", List.of(runTime)));
        } else {
            String same = others.stream().map(c -> {
                String q = SqlIdentifiers.quote(c);
                return " AND (S." + q + " = T." + q + " OR (S." + q + " IS NULL AND T." + q + " IS NULL))";
            }).collect(Collectors.joining());
            steps.add(new Step("UPDATE T SET T." + to + " = CAST(? AS datetime2(7)), T." + current + " = 0 FROM "
                    + target.quoted() + " AS T WHERE T." + current + " = 1 AND NOT EXISTS (SELECT 1 FROM "
                    + staging.quoted() + " AS S WHERE " + keyMatch + same + ")", List.of(runTime)));
            steps.add(new Step("INSERT INTO " + target.quoted() + " (" + insertList + ") SELECT "
                    + all.stream().map(c -> "S." + SqlIdentifiers.quote(c)).collect(Collectors.joining(", "))
                    + ", CAST(? AS datetime2(7)), NULL, 1 FROM " + staging.quoted() + " AS S WHERE NOT EXISTS"
                    + " (SELECT 1 FROM " + target.quoted() + " AS T WHERE T." + current + " = 1 AND " + keyMatch + ")",
                    List.of(runTime)));
        }
        return steps;
    }

    /**
     * A snapshot load (plain rows) needs one staged row per key: for a key on several rows, which is the current
     * version is not known (SQL Server would not refuse it: the INSERT would open two current versions). Run in the
     * final step before the target is touched.
     *
     * @throws HistoryDuplicateKeyException naming the target, the key columns and the first duplicate key value
     */
    public static void refuseDuplicateKeys(SqlChannel c, TableName target, TableName staging, List<String> keyColumns,
            BulkLoadException.Context ctx) throws SQLException {
        List<Object[]> duplicates = MergeDuplicates.duplicateKeys(c, staging, keyColumns);
        if (!duplicates.isEmpty()) {
            Object[] first = duplicates.get(0);
            throw new HistoryDuplicateKeyException("writeMode=history: the snapshot's rows for " + target
                    + " repeat the key " + MergeDuplicates.describe(keyColumns, first)
                    + (duplicates.size() > 1 ? " (and " + (duplicates.size() - 1) + " other keys)" : "")
                    + "; which row is the current version is not known. Nothing was written to the target:"
                    + " deduplicate the source (e.g. in the consumer's query), or set maxRejectedRows to set every row"
                    + " of such a key aside", keyColumns, java.util.Arrays.asList(first),
                    ctx.withColumn(String.join(",", keyColumns)));
        }
    }

    /** Runs {@code steps} in order on {@code c}; returns the rows they changed (closed plus inserted). */
    public static long apply(SqlStatements c, List<Step> steps) throws SQLException {
        long n = 0;
        for (Step s : steps) {
            n += c.update(s.sql(), s.params().toArray());
        }
        return n;
    }

    /**
     * The target's columns without the history columns: what the run's rows bind to and the staging table holds.
     */
    public static TargetTable dataTable(TargetTable target, HistorySettings history) {
        return new TargetTable(target.name(), target.columns().stream()
                .filter(c -> !history.isHistoryColumn(c.name())).toList());
    }

    /** The history columns' definitions for {@code createTable}: {@code , [from] datetime2(7) NOT NULL, ...}. */
    public static String createColumns(HistorySettings history) {
        return ", " + SqlIdentifiers.quote(history.validFromColumn()) + " datetime2(7) NOT NULL, "
                + SqlIdentifiers.quote(history.validToColumn()) + " datetime2(7) NULL, "
                + SqlIdentifiers.quote(history.currentColumn()) + " bit NOT NULL";
    }

    /**
     * Checks that the target has the history columns with usable types (valid from/to {@code datetime2} or
     * {@code datetime}, valid to nullable, current {@code bit}), that no source column maps to one of them, and that
     * the target is not a system-versioned temporal table; before anything is written.
     *
     * @param temporalType the target's {@code sys.tables.temporal_type} (0 none, 1 history table, 2 system-versioned)
     * @throws ColumnMappingException naming the table and the column
     */
    public static void check(TargetTable target, HistorySettings history, List<String> mappedTargetColumns,
            int temporalType, BulkLoadException.Context ctx) {
        refuseTemporal("history", target.name(), temporalType, ctx);
        for (String mapped : mappedTargetColumns) {
            if (history.isHistoryColumn(mapped)) {
                throw new ColumnMappingException("writeMode=history: a source column maps to history column '"
                        + mapped + "' of " + target.name() + ", which the run fills itself (rename the source"
                        + " column, or choose other validFromColumn/validToColumn/currentColumn)",
                        ctx.withColumn(mapped));
            }
        }
        checkColumn(target, history.validFromColumn(), "validFromColumn", false, ctx);
        checkColumn(target, history.validToColumn(), "validToColumn", true, ctx);
        checkColumn(target, history.currentColumn(), "currentColumn", false, ctx);
    }

    private static void checkColumn(TargetTable target, String name, String option, boolean nullable,
            BulkLoadException.Context ctx) {
        TargetColumn c = target.column(name);
        String wanted = option.equals("currentColumn") ? "bit" : "datetime2 or datetime";
        if (c == null) {
            throw new ColumnMappingException("writeMode=history: target " + target.name() + " has no column '" + name
                    + "' (" + option + ", " + wanted + (nullable ? ", nullable" : "") + "); add it, or set " + option
                    + " to the column that holds it", ctx.withColumn(name));
        }
        boolean typeOk = option.equals("currentColumn") ? c.type() == SqlType.BIT
                : c.type() == SqlType.DATETIME2 || c.type() == SqlType.DATETIME;
        if (!typeOk) {
            throw new ColumnMappingException("writeMode=history: column '" + c.name() + "' of " + target.name() + " ("
                    + option + ") is " + c.typeText() + "; it must be " + wanted, ctx.withColumn(c.name()));
        }
        if (nullable && !c.nullable()) {
            throw new ColumnMappingException("writeMode=history: column '" + c.name() + "' of " + target.name() + " ("
                    + option + ") is NOT NULL; it must be nullable (NULL while a version is current)",
                    ctx.withColumn(c.name()));
        }
    }

    /**
     * Refuses a system-versioned temporal table, or a temporal table's history table, as the target of
     * {@code mode} ({@code sys.tables.temporal_type} 2 or 1), naming the reason.
     */
    public static void refuseTemporal(String mode, TableName target, int temporalType, BulkLoadException.Context ctx) {
        if (temporalType == 2) {
            throw new ColumnMappingException("writeMode=" + mode + " cannot write " + target + ": it is a"
                    + " system-versioned temporal table (sys.tables.temporal_type 2). SQL Server keeps its history"
                    + " itself in its history table; " + ("history".equals(mode) ? "history would version it twice"
                    : "the run's staging table, copied from it, would carry its GENERATED ALWAYS period columns as"
                    + " plain NOT NULL columns") + ". Load a table without SYSTEM_VERSIONING, or use writeMode=append",
                    ctx);
        }
        if (temporalType == 1) {
            throw new ColumnMappingException("writeMode=" + mode + " cannot write " + target + ": it is the history"
                    + " table of a system-versioned temporal table (sys.tables.temporal_type 1), which SQL Server"
                    + " writes itself", ctx);
        }
    }
}
