package io.deltafunnel.mssql;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Everything a {@code BulkLoadSession} needs to know about the target and how to write it.
 *
 * @param columnMapping explicit source→target column names (others map by name, case-insensitively); empty map for
 *                      by-name only
 * @param keyColumns    target key columns for {@link WriteMode#MERGE}
 * @param bulkBatchSize rows per bulk-copy round trip inside one Arrow batch; 0 = the whole batch at once
 * @param timeoutSeconds bulk copy and statement timeout; 0 = none
 * @param replaceStrategy how {@link WriteMode#REPLACE} puts the staging table in place (switch or copy)
 * @param schemaEvolution what a run does when the source's columns and the target's no longer agree
 * @param merge         how {@link WriteMode#MERGE} applies the staging table ({@code mergeStrategy},
 *                      {@code deleteMode}, {@code softDeleteColumn}); {@link Merge#DEFAULT} when null
 */
public record BulkLoadSettings(TableName table, WriteMode writeMode, TransactionMode transactionMode,
        boolean createTable, List<String> keyColumns, Map<String, String> columnMapping, boolean tableLock,
        boolean checkConstraints, boolean fireTriggers, boolean keepNulls, boolean keepIdentity, int bulkBatchSize,
        int timeoutSeconds, ReplaceStrategy replaceStrategy, SchemaEvolution schemaEvolution, Merge merge) {

    public BulkLoadSettings {
        merge = merge == null ? Merge.DEFAULT : merge;
        if (writeMode != WriteMode.MERGE && writeMode != null && !merge.equals(Merge.DEFAULT)) {
            throw new IllegalArgumentException("mergeStrategy, deleteMode and softDeleteColumn apply to"
                    + " writeMode=merge only, not " + writeMode + " (got " + merge + ")");
        }
        replaceStrategy = replaceStrategy == null ? ReplaceStrategy.AUTO : replaceStrategy;
        schemaEvolution = schemaEvolution == null ? SchemaEvolution.NONE : schemaEvolution;
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(writeMode, "writeMode");
        Objects.requireNonNull(transactionMode, "transactionMode");
        keyColumns = List.copyOf(keyColumns == null ? List.of() : keyColumns);
        columnMapping = Map.copyOf(columnMapping == null ? Map.of() : columnMapping);
        if (writeMode == WriteMode.MERGE && keyColumns.isEmpty()) {
            throw new IllegalArgumentException("writeMode=merge needs keyColumns");
        }
        if (bulkBatchSize < 0) {
            throw new IllegalArgumentException("bulkBatchSize must be 0 or more, got " + bulkBatchSize);
        }
        if (timeoutSeconds < 0) {
            throw new IllegalArgumentException("timeout must be 0 or more, got " + timeoutSeconds);
        }
    }

    /** As the canonical constructor with {@link Merge#DEFAULT}. */
    public BulkLoadSettings(TableName table, WriteMode writeMode, TransactionMode transactionMode,
            boolean createTable, List<String> keyColumns, Map<String, String> columnMapping, boolean tableLock,
            boolean checkConstraints, boolean fireTriggers, boolean keepNulls, boolean keepIdentity, int bulkBatchSize,
            int timeoutSeconds, ReplaceStrategy replaceStrategy, SchemaEvolution schemaEvolution) {
        this(table, writeMode, transactionMode, createTable, keyColumns, columnMapping, tableLock, checkConstraints,
                fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                schemaEvolution, Merge.DEFAULT);
    }

    /** As the canonical constructor with {@link ReplaceStrategy#AUTO} and {@link SchemaEvolution#NONE}. */
    public BulkLoadSettings(TableName table, WriteMode writeMode, TransactionMode transactionMode,
            boolean createTable, List<String> keyColumns, Map<String, String> columnMapping, boolean tableLock,
            boolean checkConstraints, boolean fireTriggers, boolean keepNulls, boolean keepIdentity, int bulkBatchSize,
            int timeoutSeconds) {
        this(table, writeMode, transactionMode, createTable, keyColumns, columnMapping, tableLock, checkConstraints,
                fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, ReplaceStrategy.AUTO,
                SchemaEvolution.NONE);
    }

    /** Defaults: append, transaction per run, no createTable, by-name mapping, no bulk hints. */
    public static BulkLoadSettings defaults(TableName table) {
        return new BulkLoadSettings(table, WriteMode.APPEND, TransactionMode.RUN, false, List.of(), Map.of(), false,
                false, false, false, false, 0, 0);
    }

    public BulkLoadSettings withWriteMode(WriteMode mode, List<String> keys) {
        return new BulkLoadSettings(table, mode, transactionMode, createTable, keys, columnMapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                schemaEvolution, merge);
    }

    public BulkLoadSettings withTransactionMode(TransactionMode mode) {
        return new BulkLoadSettings(table, writeMode, mode, createTable, keyColumns, columnMapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                schemaEvolution, merge);
    }

    public BulkLoadSettings withCreateTable(boolean create) {
        return new BulkLoadSettings(table, writeMode, transactionMode, create, keyColumns, columnMapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                schemaEvolution, merge);
    }

    public BulkLoadSettings withColumnMapping(Map<String, String> mapping) {
        return new BulkLoadSettings(table, writeMode, transactionMode, createTable, keyColumns, mapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                schemaEvolution, merge);
    }

    public BulkLoadSettings withReplaceStrategy(ReplaceStrategy strategy) {
        return new BulkLoadSettings(table, writeMode, transactionMode, createTable, keyColumns, columnMapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, strategy,
                schemaEvolution, merge);
    }

    public BulkLoadSettings withTableLock(boolean lock) {
        return new BulkLoadSettings(table, writeMode, transactionMode, createTable, keyColumns, columnMapping, lock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                schemaEvolution, merge);
    }

    public BulkLoadSettings withSchemaEvolution(SchemaEvolution evolution) {
        return new BulkLoadSettings(table, writeMode, transactionMode, createTable, keyColumns, columnMapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                evolution, merge);
    }

    /** These settings with {@code merge} (null: {@link Merge#DEFAULT}). */
    public BulkLoadSettings withMerge(Merge merge) {
        return new BulkLoadSettings(table, writeMode, transactionMode, createTable, keyColumns, columnMapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                schemaEvolution, merge);
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
