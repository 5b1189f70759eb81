package io.deltafunnel.mssql;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import io.deltafunnel.handoff.RejectSettings;

/**
 * Everything a {@code BulkLoadSession} needs to know about the target and how to write it.
 *
 * <p>Built with {@link #builder(TableName)} (or {@link #defaults} and the {@code withX} copies); an option added here
 * is one record component, one {@link Builder} field and setter, and its check in the compact constructor.
 *
 * @param columnMapping explicit source→target column names (others map by name, case-insensitively); empty map for
 *                      by-name only
 * @param keyColumns    target key columns for {@link WriteMode#MERGE} and {@link WriteMode#HISTORY}
 * @param bulkBatchSize rows per bulk-copy round trip inside one Arrow batch; 0 = the whole batch at once
 * @param timeoutSeconds bulk copy and statement timeout; 0 = none
 * @param replaceStrategy how {@link WriteMode#REPLACE} puts the staging table in place (switch or copy)
 * @param schemaEvolution what a run does when the source's columns and the target's no longer agree
 * @param hooks         the SQL the producer runs around the load ({@code preSql}, {@code postSql}); {@link Hooks#NONE}
 *                      when null
 * @param history       the history columns of {@link WriteMode#HISTORY} (defaults when null)
 * @param rejects       how many bad rows a run sets aside instead of failing, and where ({@link RejectSettings#NONE}
 *                      when null: any bad row fails the run)
 * @param typeSettings  the types createTable gives nested and float-list columns (jsonColumns, vectorColumns);
 *                      {@link TypeSettings#DEFAULT} (text) when null
 * @param merge         how {@link WriteMode#MERGE} applies the staging table ({@code mergeStrategy},
 *                      {@code deleteMode}, {@code softDeleteColumn}); {@link Merge#DEFAULT} when null
 * @param asciiAsVarchar the direct encoder sends an nvarchar column whose batch is all ASCII as varchar in the
 *                      column's collation (default true; the driver path ignores it)
 */
public record BulkLoadSettings(TableName table, WriteMode writeMode, TransactionMode transactionMode,
        boolean createTable, List<String> keyColumns, Map<String, String> columnMapping, boolean tableLock,
        boolean checkConstraints, boolean fireTriggers, boolean keepNulls, boolean keepIdentity, int bulkBatchSize,
        int timeoutSeconds, ReplaceStrategy replaceStrategy, SchemaEvolution schemaEvolution, Hooks hooks,
        HistorySettings history, RejectSettings rejects,
        TypeSettings typeSettings,
        Merge merge, boolean asciiAsVarchar) {

    /**
     * The statements a run executes around its load, as T-SQL text (a {@code resource:} reference is resolved by the
     * Camel layer before it gets here); null or blank for none. How and where they run: {@code mssql.session.SqlHooks}.
     */
    public record Hooks(String preSql, String postSql) {

        /** No hooks. */
        public static final Hooks NONE = new Hooks(null, null);

        public Hooks {
            preSql = preSql == null || preSql.isBlank() ? null : preSql;
            postSql = postSql == null || postSql.isBlank() ? null : postSql;
        }

        /** True when neither hook is set. */
        public boolean none() {
            return preSql == null && postSql == null;
        }
    }

    public BulkLoadSettings {
        merge = merge == null ? Merge.DEFAULT : merge;
        typeSettings = typeSettings == null ? TypeSettings.DEFAULT : typeSettings;
        rejects = rejects == null ? RejectSettings.NONE : rejects;
        replaceStrategy = replaceStrategy == null ? ReplaceStrategy.AUTO : replaceStrategy;
        schemaEvolution = schemaEvolution == null ? SchemaEvolution.NONE : schemaEvolution;
        hooks = hooks == null ? Hooks.NONE : hooks;
        history = history == null ? HistorySettings.DEFAULTS : history;
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(writeMode, "writeMode");
        Objects.requireNonNull(transactionMode, "transactionMode");
        keyColumns = List.copyOf(keyColumns == null ? List.of() : keyColumns);
        columnMapping = Map.copyOf(columnMapping == null ? Map.of() : columnMapping);
        if (writeMode == WriteMode.MERGE && keyColumns.isEmpty()) {
            throw new IllegalArgumentException("writeMode=merge needs keyColumns");
        }
        if (writeMode == WriteMode.HISTORY && keyColumns.isEmpty()) {
            throw new IllegalArgumentException("writeMode=history needs keyColumns (the columns that identify a row"
                    + " across its versions)");
        }
        if (writeMode == WriteMode.HISTORY) {
            for (String key : keyColumns) {
                if (history.isHistoryColumn(key)) {
                    throw new IllegalArgumentException("writeMode=history: key column '" + key + "' is one of the"
                            + " history columns " + history.columns());
                }
            }
        }
        if (writeMode != WriteMode.MERGE && !merge.equals(Merge.DEFAULT)) {
            throw new IllegalArgumentException("mergeStrategy, deleteMode and softDeleteColumn apply to"
                    + " writeMode=merge only, not " + writeMode + " (got " + merge + ")");
        }
        if (bulkBatchSize < 0) {
            throw new IllegalArgumentException("bulkBatchSize must be 0 or more, got " + bulkBatchSize);
        }
        if (timeoutSeconds < 0) {
            throw new IllegalArgumentException("timeout must be 0 or more, got " + timeoutSeconds);
        }
    }

    /** Defaults: append, transaction per run, no createTable, by-name mapping, no bulk hints. */
    public static BulkLoadSettings defaults(TableName table) {
        return builder(table).build();
    }

    /** A builder with the {@link #defaults} of {@code table}. */
    public static Builder builder(TableName table) {
        return new Builder(table);
    }

    /** A builder holding these settings. */
    public Builder toBuilder() {
        Builder b = new Builder(table);
        b.writeMode = writeMode;
        b.transactionMode = transactionMode;
        b.createTable = createTable;
        b.keyColumns = keyColumns;
        b.columnMapping = columnMapping;
        b.tableLock = tableLock;
        b.checkConstraints = checkConstraints;
        b.fireTriggers = fireTriggers;
        b.keepNulls = keepNulls;
        b.keepIdentity = keepIdentity;
        b.bulkBatchSize = bulkBatchSize;
        b.timeoutSeconds = timeoutSeconds;
        b.replaceStrategy = replaceStrategy;
        b.schemaEvolution = schemaEvolution;
        b.hooks = hooks;
        b.history = history;
        b.rejects = rejects;
        b.typeSettings = typeSettings;
        b.merge = merge;
        b.asciiAsVarchar = asciiAsVarchar;
        return b;
    }

    public BulkLoadSettings withWriteMode(WriteMode mode, List<String> keys) {
        return toBuilder().writeMode(mode).keyColumns(keys).build();
    }

    public BulkLoadSettings withTransactionMode(TransactionMode mode) {
        return toBuilder().transactionMode(mode).build();
    }

    public BulkLoadSettings withCreateTable(boolean create) {
        return toBuilder().createTable(create).build();
    }

    public BulkLoadSettings withColumnMapping(Map<String, String> mapping) {
        return toBuilder().columnMapping(mapping).build();
    }

    public BulkLoadSettings withReplaceStrategy(ReplaceStrategy strategy) {
        return toBuilder().replaceStrategy(strategy).build();
    }

    public BulkLoadSettings withTableLock(boolean lock) {
        return toBuilder().tableLock(lock).build();
    }

    public BulkLoadSettings withSchemaEvolution(SchemaEvolution evolution) {
        return toBuilder().schemaEvolution(evolution).build();
    }

    public BulkLoadSettings withHooks(Hooks newHooks) {
        return toBuilder().hooks(newHooks).build();
    }

    public BulkLoadSettings withHistory(HistorySettings columns) {
        return toBuilder().history(columns).build();
    }

    public BulkLoadSettings withRejects(RejectSettings v) {
        return toBuilder().rejects(v).build();
    }

    public BulkLoadSettings withTypeSettings(TypeSettings v) {
        return toBuilder().typeSettings(v).build();
    }

    public BulkLoadSettings withMerge(Merge v) {
        return toBuilder().merge(v).build();
    }

    /** Mutable settings before {@link #build}, which checks them; not thread-safe. */
    public static final class Builder {
        private final TableName table;
        private WriteMode writeMode = WriteMode.APPEND;
        private TransactionMode transactionMode = TransactionMode.RUN;
        private boolean createTable;
        private List<String> keyColumns = List.of();
        private Map<String, String> columnMapping = Map.of();
        private boolean tableLock;
        private boolean checkConstraints;
        private boolean fireTriggers;
        private boolean keepNulls;
        private boolean keepIdentity;
        private int bulkBatchSize;
        private int timeoutSeconds;
        private ReplaceStrategy replaceStrategy = ReplaceStrategy.AUTO;
        private SchemaEvolution schemaEvolution = SchemaEvolution.NONE;
        private Hooks hooks = Hooks.NONE;
        private HistorySettings history = HistorySettings.DEFAULTS;
        private RejectSettings rejects = RejectSettings.NONE;
        private TypeSettings typeSettings = TypeSettings.DEFAULT;
        private Merge merge = Merge.DEFAULT;
        private boolean asciiAsVarchar = true;

        private Builder(TableName table) {
            this.table = table;
        }

        public Builder writeMode(WriteMode v) {
            writeMode = v;
            return this;
        }

        public Builder transactionMode(TransactionMode v) {
            transactionMode = v;
            return this;
        }

        public Builder createTable(boolean v) {
            createTable = v;
            return this;
        }

        public Builder keyColumns(List<String> v) {
            keyColumns = v;
            return this;
        }

        public Builder columnMapping(Map<String, String> v) {
            columnMapping = v;
            return this;
        }

        public Builder tableLock(boolean v) {
            tableLock = v;
            return this;
        }

        public Builder checkConstraints(boolean v) {
            checkConstraints = v;
            return this;
        }

        public Builder fireTriggers(boolean v) {
            fireTriggers = v;
            return this;
        }

        public Builder keepNulls(boolean v) {
            keepNulls = v;
            return this;
        }

        public Builder keepIdentity(boolean v) {
            keepIdentity = v;
            return this;
        }

        public Builder bulkBatchSize(int v) {
            bulkBatchSize = v;
            return this;
        }

        public Builder timeoutSeconds(int v) {
            timeoutSeconds = v;
            return this;
        }

        public Builder replaceStrategy(ReplaceStrategy v) {
            replaceStrategy = v;
            return this;
        }

        public Builder schemaEvolution(SchemaEvolution v) {
            schemaEvolution = v;
            return this;
        }

        public Builder hooks(Hooks v) {
            hooks = v;
            return this;
        }

        public Builder history(HistorySettings v) {
            history = v;
            return this;
        }

        public Builder rejects(RejectSettings v) {
            rejects = v;
            return this;
        }

        public Builder typeSettings(TypeSettings v) {
            typeSettings = v;
            return this;
        }

        public Builder merge(Merge v) {
            merge = v;
            return this;
        }

        public Builder asciiAsVarchar(boolean v) {
            asciiAsVarchar = v;
            return this;
        }

        /** The settings; {@link IllegalArgumentException} when they do not go together. */
        public BulkLoadSettings build() {
            return new BulkLoadSettings(table, writeMode, transactionMode, createTable, keyColumns, columnMapping,
                    tableLock, checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds,
                    replaceStrategy, schemaEvolution, hooks, history, rejects, typeSettings, merge, asciiAsVarchar);
        }
    }

    /** Parses {@code a,b , c} into trimmed non-empty names. */
    public static List<String> parseList(String text) {
        if (text == null || text.isBlank()) {
            return List.of();
        }
        return java.util.Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /**
     * Parses {@code src1:dst1,src2:dst2}.
     *
     * @throws IllegalArgumentException on a malformed pair or a source listed twice
     */
    public static Map<String, String> parseMapping(String text) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : parseList(text)) {
            int colon = pair.indexOf(':');
            if (colon <= 0 || colon == pair.length() - 1) {
                throw new IllegalArgumentException("columnMapping entries must be source:target, got '" + pair + "'");
            }
            String src = pair.substring(0, colon).trim();
            String dst = pair.substring(colon + 1).trim();
            if (out.keySet().stream().anyMatch(k -> k.toLowerCase(Locale.ROOT).equals(src.toLowerCase(Locale.ROOT)))) {
                throw new IllegalArgumentException("columnMapping lists source column '" + src + "' twice");
            }
            out.put(src, dst);
        }
        return out;
    }

    /**
     * The history columns of {@link WriteMode#HISTORY}: each version of a row is one target row, valid from
     * {@code validFromColumn} ({@code datetime2}, the {@code _commit_timestamp} of the change that created it, or the
     * run's time for a snapshot load) to {@code validToColumn} ({@code datetime2}, NULL while current), with
     * {@code currentColumn} ({@code bit}, 1 for the current version). A record of its own (not in a role package):
     * the mssql root refers to none of them.
     */
    public record HistorySettings(String validFromColumn, String validToColumn, String currentColumn) {

        /** {@code valid_from}, {@code valid_to}, {@code is_current}. */
        public static final HistorySettings DEFAULTS = new HistorySettings(null, null, null);

        public HistorySettings {
            validFromColumn = orDefault(validFromColumn, "valid_from");
            validToColumn = orDefault(validToColumn, "valid_to");
            currentColumn = orDefault(currentColumn, "is_current");
            List<String> names = List.of(validFromColumn, validToColumn, currentColumn);
            if (names.stream().map(n -> n.toLowerCase(Locale.ROOT)).distinct().count() != 3) {
                throw new IllegalArgumentException("validFromColumn, validToColumn and currentColumn must be three"
                        + " different columns, got " + names);
            }
            for (String n : names) {
                if (n.length() > SqlIdentifiers.MAX_LENGTH) {
                    throw new IllegalArgumentException("history column name '" + n + "' is longer than "
                            + SqlIdentifiers.MAX_LENGTH + " characters");
                }
            }
        }

        private static String orDefault(String name, String fallback) {
            return name == null || name.isBlank() ? fallback : name.trim();
        }

        /** The three column names: valid from, valid to, current. */
        public List<String> columns() {
            return List.of(validFromColumn, validToColumn, currentColumn);
        }

        /** Whether {@code name} is one of the three history columns (case-insensitive). */
        public boolean isHistoryColumn(String name) {
            return columns().stream().anyMatch(c -> c.equalsIgnoreCase(name));
        }
    }

    /**
     * The column types {@code createTable} gives Arrow columns that SQL Server 2025 has native types for: options
     * {@code jsonColumns} and {@code vectorColumns}, each {@code text} (the default, so that older servers keep
     * working)
     * or {@code native}.
     *
     * @param nativeJson   jsonColumns=native: List, Struct and Map columns become {@code json} (text: nvarchar(max)
     *                     holding their JSON)
     * @param nativeVector vectorColumns=native: FixedSizeList&lt;Float32|Float64&gt;(n) columns become
     *                     {@code vector(n)} (text: nvarchar(max) holding the JSON array); a List of floats has no
     *                     length in its schema and stays text
     */
    public record TypeSettings(boolean nativeJson, boolean nativeVector) {

        /** Both text. */
        public static final TypeSettings DEFAULT = new TypeSettings(false, false);

        /**
         * The settings of the option values {@code text} or {@code native} (case-insensitive; null is text).
         *
         * @throws IllegalArgumentException for any other value, naming the option
         */
        public static TypeSettings parse(String jsonColumns, String vectorColumns) {
            return new TypeSettings(isNative("jsonColumns", jsonColumns), isNative("vectorColumns", vectorColumns));
        }

        private static boolean isNative(String option, String value) {
            if (value == null) {
                return false;
            }
            return switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "text" -> false;
                case "native" -> true;
                default -> throw new IllegalArgumentException(option + " must be text or native, got '" + value + "'");
            };
        }
    }

    /** How {@link WriteMode#MERGE} applies a run's rows to the target on the key columns ({@code mergeStrategy}). */
    public enum MergeStrategy {
        /** One {@code MERGE}: update the keys present, insert the others (change rows: deletes applied). */
        UPSERT("upsert"),
        /**
         * {@code DELETE} every key the run's rows touch, then {@code INSERT} the rows that are not deletes: no
         * {@code MERGE} (its deadlocks and temporal/filtered-index problems avoided).
         */
        DELETE_INSERT("deleteInsert"),
        /** New keys only: existing rows are never updated (nor deleted by change rows). */
        INSERT_ONLY("insertOnly"),
        /** Existing keys only: never inserts (change rows: deletes of existing keys applied). */
        UPDATE_ONLY("updateOnly");

        private final String option;

        MergeStrategy(String option) {
            this.option = option;
        }

        /** The option value, e.g. {@code deleteInsert}. */
        public String option() {
            return option;
        }

        /** {@code upsert}, {@code deleteInsert}, {@code insertOnly} or {@code updateOnly} (case-insensitive). */
        public static MergeStrategy parse(String text) {
            for (MergeStrategy s : values()) {
                if (s.option.equalsIgnoreCase(text == null ? "" : text.trim())) {
                    return s;
                }
            }
            throw new IllegalArgumentException("mergeStrategy must be upsert, deleteInsert, insertOnly or updateOnly,"
                    + " got '" + text + "'");
        }
    }

    /** What a change-feed {@code delete} does to the target's row ({@code deleteMode}). */
    public enum DeleteMode {
        /** The row is deleted. The default. */
        HARD,
        /** The row stays; {@link Merge#softDeleteColumn} is set (bit 1, or the delete's {@code _commit_timestamp}). */
        SOFT;

        /** {@code hard} or {@code soft} (case-insensitive). */
        public static DeleteMode parse(String text) {
            try {
                return valueOf(text.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new IllegalArgumentException("deleteMode must be hard or soft, got '" + text + "'", e);
            }
        }
    }

    /**
     * The merge options of a {@link WriteMode#MERGE} run (docs/producer.md, "Merge strategies").
     *
     * @param strategy          how the rows are applied
     * @param deleteMode        what a change-feed delete does
     * @param softDeleteColumn  with {@link DeleteMode#SOFT}: the target column that marks a deleted row; else null
     * @param softDeleteType    {@code bit} or {@code datetime2}: the type the column is created with when it is
     *                          missing (null: bit); an existing column must have it when it is given
     */
    public record Merge(MergeStrategy strategy, DeleteMode deleteMode, String softDeleteColumn,
            String softDeleteType) {

        /** {@code upsert}, hard deletes. */
        public static final Merge DEFAULT = new Merge(MergeStrategy.UPSERT, DeleteMode.HARD, null, null);

        public Merge {
            strategy = strategy == null ? MergeStrategy.UPSERT : strategy;
            deleteMode = deleteMode == null ? DeleteMode.HARD : deleteMode;
            softDeleteColumn = softDeleteColumn == null || softDeleteColumn.isBlank() ? null : softDeleteColumn.trim();
            softDeleteType = softDeleteType == null || softDeleteType.isBlank() ? null
                    : softDeleteType.trim().toLowerCase(Locale.ROOT);
            if (deleteMode == DeleteMode.SOFT && softDeleteColumn == null) {
                throw new IllegalArgumentException("deleteMode=soft needs softDeleteColumn (the bit or datetime2"
                        + " column that marks a deleted row)");
            }
            if (deleteMode == DeleteMode.HARD && softDeleteColumn != null) {
                throw new IllegalArgumentException("softDeleteColumn '" + softDeleteColumn + "' is used with"
                        + " deleteMode=soft only (deleteMode is hard)");
            }
            if (softDeleteType != null && !softDeleteType.equals("bit") && !softDeleteType.equals("datetime2")) {
                throw new IllegalArgumentException("softDeleteColumn's type must be bit or datetime2, got '"
                        + softDeleteType + "'");
            }
            if (deleteMode == DeleteMode.SOFT && strategy == MergeStrategy.INSERT_ONLY) {
                throw new IllegalArgumentException("deleteMode=soft cannot be used with mergeStrategy=insertOnly:"
                        + " insertOnly never changes an existing row, so it would neither set nor clear "
                        + softDeleteColumn);
            }
        }

        /**
         * The options as written on the endpoint: {@code softDeleteColumn} is {@code name} or
         * {@code name:bit} / {@code name:datetime2}; nulls take the defaults.
         */
        public static Merge parse(String strategy, String deleteMode, String softDeleteColumn) {
            String column = softDeleteColumn;
            String type = null;
            if (softDeleteColumn != null) {
                int colon = softDeleteColumn.lastIndexOf(':');
                if (colon >= 0) {
                    column = softDeleteColumn.substring(0, colon);
                    type = softDeleteColumn.substring(colon + 1);
                    if (column.isBlank() || type.isBlank()) {
                        throw new IllegalArgumentException("softDeleteColumn must be name or name:bit or"
                                + " name:datetime2, got '" + softDeleteColumn + "'");
                    }
                }
            }
            return new Merge(strategy == null ? null : MergeStrategy.parse(strategy),
                    deleteMode == null ? null : DeleteMode.parse(deleteMode), column, type);
        }

        /** Whether change-feed deletes only mark the row ({@link DeleteMode#SOFT}). */
        public boolean soft() {
            return deleteMode == DeleteMode.SOFT;
        }
    }
}
