package io.deltafunnel.emulator;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/** Fault injection for tests: failing or dropping a bulk load, failing a statement. Thread-safe. */
public final class Faults {
    /** What to do when a bulk load reaches a given row. */
    static final class BulkFault {
        final long targetLoad;
        final long afterRows;
        final int errorNumber;
        final boolean dropConnection;

        BulkFault(long targetLoad, long afterRows, int errorNumber, boolean dropConnection) {
            this.targetLoad = targetLoad;
            this.afterRows = afterRows;
            this.errorNumber = errorNumber;
            this.dropConnection = dropConnection;
        }
    }

    private static final class StatementFault {
        final String substring;
        final int errorNumber;

        StatementFault(String substring, int errorNumber) {
            this.substring = substring;
            this.errorNumber = errorNumber;
        }
    }

    private final List<BulkFault> bulkFaults = new ArrayList<>();
    private final List<StatementFault> statementFaults = new ArrayList<>();
    private long bulkLoadsSeen;

    Faults() {
    }

    /**
     * The {@code nthBulkLoad}-th BULK_LOAD message from now (1-based) fails with an ERROR carrying
     * {@code errorNumber} once {@code afterRows} rows of it were decoded; the round is rolled back.
     */
    public synchronized void failBulkLoad(int nthBulkLoad, long afterRows, int errorNumber) {
        bulkFaults.add(new BulkFault(bulkLoadsSeen + nthBulkLoad, afterRows, errorNumber, false));
    }

    /** The {@code nthBulkLoad}-th BULK_LOAD from now makes the server close the socket after {@code afterRows}. */
    public synchronized void dropConnectionDuringBulkLoad(int nthBulkLoad, long afterRows) {
        bulkFaults.add(new BulkFault(bulkLoadsSeen + nthBulkLoad, afterRows, 0, true));
    }

    /** The next SQL batch or RPC whose SQL text contains {@code sqlSubstring} fails once with that error. */
    public synchronized void failStatement(String sqlSubstring, int errorNumber) {
        statementFaults.add(new StatementFault(sqlSubstring, errorNumber));
    }

    public synchronized void clear() {
        bulkFaults.clear();
        statementFaults.clear();
    }

    /** Registers the start of a BULK_LOAD and returns the fault armed for it, if any. */
    synchronized BulkFault startBulkLoad() {
        bulkLoadsSeen++;
        for (Iterator<BulkFault> it = bulkFaults.iterator(); it.hasNext();) {
            BulkFault f = it.next();
            if (f.targetLoad == bulkLoadsSeen) {
                it.remove();
                return f;
            }
        }
        return null;
    }

    /** Returns and disarms the error number armed for this SQL text, or 0. */
    synchronized int takeStatementFault(String sql) {
        for (Iterator<StatementFault> it = statementFaults.iterator(); it.hasNext();) {
            StatementFault f = it.next();
            if (sql.contains(f.substring)) {
                it.remove();
                return f.errorNumber;
            }
        }
        return 0;
    }
}
