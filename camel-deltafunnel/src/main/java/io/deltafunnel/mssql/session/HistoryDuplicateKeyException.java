package io.deltafunnel.mssql.session;

import java.util.List;

import io.deltafunnel.mssql.BulkLoadException;

/**
 * {@code writeMode=history} from a snapshot (plain rows, not a change feed) whose rows repeat a key: which of them is
 * the current version is not known. Raised in the final step before the target is touched (the run's transaction
 * rolls back: the target and the state as before); names the table, the key columns and the first duplicate key
 * value. Permanent. With {@code maxRejectedRows} the rows of such keys are set aside instead (as a merge's).
 */
public class HistoryDuplicateKeyException extends BulkLoadException {
    private final List<String> keyColumns;
    private final List<Object> key;

    public HistoryDuplicateKeyException(String message, List<String> keyColumns, List<Object> key, Context context) {
        super(message, context, null);
        this.keyColumns = List.copyOf(keyColumns);
        this.key = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(key));
    }

    /** The key columns ({@code keyColumns}). */
    public List<String> keyColumns() {
        return keyColumns;
    }

    /** The first duplicate key's values, in key column order. */
    public List<Object> key() {
        return key;
    }
}
