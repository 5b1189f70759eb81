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
 * @param history       the history columns of {@link WriteMode#HISTORY} (defaults when null)
 */
public record BulkLoadSettings(TableName table, WriteMode writeMode, TransactionMode transactionMode,
        boolean createTable, List<String> keyColumns, Map<String, String> columnMapping, boolean tableLock,
        boolean checkConstraints, boolean fireTriggers, boolean keepNulls, boolean keepIdentity, int bulkBatchSize,
        int timeoutSeconds, ReplaceStrategy replaceStrategy, SchemaEvolution schemaEvolution,
        HistorySettings history) {

    public BulkLoadSettings {
        history = history == null ? HistorySettings.DEFAULTS : history;
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
        if (bulkBatchSize < 0) {
            throw new IllegalArgumentException("bulkBatchSize must be 0 or more, got " + bulkBatchSize);
        }
        if (timeoutSeconds < 0) {
            throw new IllegalArgumentException("timeout must be 0 or more, got " + timeoutSeconds);
        }
    }

    /** As the canonical constructor with the default {@link HistorySettings}. */
    public BulkLoadSettings(TableName table, WriteMode writeMode, TransactionMode transactionMode,
            boolean createTable, List<String> keyColumns, Map<String, String> columnMapping, boolean tableLock,
            boolean checkConstraints, boolean fireTriggers, boolean keepNulls, boolean keepIdentity, int bulkBatchSize,
            int timeoutSeconds, ReplaceStrategy replaceStrategy, SchemaEvolution schemaEvolution) {
        this(table, writeMode, transactionMode, createTable, keyColumns, columnMapping, tableLock, checkConstraints,
                fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy, schemaEvolution,
                null);
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
                schemaEvolution, history);
    }

    public BulkLoadSettings withTransactionMode(TransactionMode mode) {
        return new BulkLoadSettings(table, writeMode, mode, createTable, keyColumns, columnMapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                schemaEvolution, history);
    }

    public BulkLoadSettings withCreateTable(boolean create) {
        return new BulkLoadSettings(table, writeMode, transactionMode, create, keyColumns, columnMapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                schemaEvolution, history);
    }

    public BulkLoadSettings withColumnMapping(Map<String, String> mapping) {
        return new BulkLoadSettings(table, writeMode, transactionMode, createTable, keyColumns, mapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                schemaEvolution, history);
    }

    public BulkLoadSettings withReplaceStrategy(ReplaceStrategy strategy) {
        return new BulkLoadSettings(table, writeMode, transactionMode, createTable, keyColumns, columnMapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, strategy,
                schemaEvolution, history);
    }

    public BulkLoadSettings withTableLock(boolean lock) {
        return new BulkLoadSettings(table, writeMode, transactionMode, createTable, keyColumns, columnMapping, lock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                schemaEvolution, history);
    }

    public BulkLoadSettings withSchemaEvolution(SchemaEvolution evolution) {
        return new BulkLoadSettings(table, writeMode, transactionMode, createTable, keyColumns, columnMapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                evolution, history);
    }

    public BulkLoadSettings withHistory(HistorySettings columns) {
        return new BulkLoadSettings(table, writeMode, transactionMode, createTable, keyColumns, columnMapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                schemaEvolution, columns);
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
}
