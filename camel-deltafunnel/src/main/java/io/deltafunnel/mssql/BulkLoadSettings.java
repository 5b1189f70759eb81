package io.deltafunnel.mssql;

import io.deltafunnel.mssql.bind.TypeSettings;

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
 * @param typeSettings  the types createTable gives nested and float-list columns (jsonColumns, vectorColumns);
 *                      {@link TypeSettings#DEFAULT} (text) when null
 */
public record BulkLoadSettings(TableName table, WriteMode writeMode, TransactionMode transactionMode,
        boolean createTable, List<String> keyColumns, Map<String, String> columnMapping, boolean tableLock,
        boolean checkConstraints, boolean fireTriggers, boolean keepNulls, boolean keepIdentity, int bulkBatchSize,
        int timeoutSeconds, ReplaceStrategy replaceStrategy, SchemaEvolution schemaEvolution,
        TypeSettings typeSettings) {

    public BulkLoadSettings {
        typeSettings = typeSettings == null ? TypeSettings.DEFAULT : typeSettings;
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

    /**
     * As the canonical constructor with {@link ReplaceStrategy#AUTO}, {@link SchemaEvolution#NONE} and
     * {@link TypeSettings#DEFAULT}.
     */
    public BulkLoadSettings(TableName table, WriteMode writeMode, TransactionMode transactionMode,
            boolean createTable, List<String> keyColumns, Map<String, String> columnMapping, boolean tableLock,
            boolean checkConstraints, boolean fireTriggers, boolean keepNulls, boolean keepIdentity, int bulkBatchSize,
            int timeoutSeconds) {
        this(table, writeMode, transactionMode, createTable, keyColumns, columnMapping, tableLock, checkConstraints,
                fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, ReplaceStrategy.AUTO,
                SchemaEvolution.NONE, null);
    }

    /** Defaults: append, transaction per run, no createTable, by-name mapping, no bulk hints. */
    public static BulkLoadSettings defaults(TableName table) {
        return new BulkLoadSettings(table, WriteMode.APPEND, TransactionMode.RUN, false, List.of(), Map.of(), false,
                false, false, false, false, 0, 0);
    }

    public BulkLoadSettings withWriteMode(WriteMode mode, List<String> keys) {
        return new BulkLoadSettings(table, mode, transactionMode, createTable, keys, columnMapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                schemaEvolution, typeSettings);
    }

    public BulkLoadSettings withTransactionMode(TransactionMode mode) {
        return new BulkLoadSettings(table, writeMode, mode, createTable, keyColumns, columnMapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                schemaEvolution, typeSettings);
    }

    public BulkLoadSettings withCreateTable(boolean create) {
        return new BulkLoadSettings(table, writeMode, transactionMode, create, keyColumns, columnMapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                schemaEvolution, typeSettings);
    }

    public BulkLoadSettings withColumnMapping(Map<String, String> mapping) {
        return new BulkLoadSettings(table, writeMode, transactionMode, createTable, keyColumns, mapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                schemaEvolution, typeSettings);
    }

    public BulkLoadSettings withReplaceStrategy(ReplaceStrategy strategy) {
        return new BulkLoadSettings(table, writeMode, transactionMode, createTable, keyColumns, columnMapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, strategy,
                schemaEvolution, typeSettings);
    }

    public BulkLoadSettings withTableLock(boolean lock) {
        return new BulkLoadSettings(table, writeMode, transactionMode, createTable, keyColumns, columnMapping, lock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                schemaEvolution, typeSettings);
    }

    public BulkLoadSettings withSchemaEvolution(SchemaEvolution evolution) {
        return new BulkLoadSettings(table, writeMode, transactionMode, createTable, keyColumns, columnMapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                evolution, typeSettings);
    }

    public BulkLoadSettings withTypeSettings(TypeSettings types) {
        return new BulkLoadSettings(table, writeMode, transactionMode, createTable, keyColumns, columnMapping, tableLock,
                checkConstraints, fireTriggers, keepNulls, keepIdentity, bulkBatchSize, timeoutSeconds, replaceStrategy,
                schemaEvolution, types);
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
}
