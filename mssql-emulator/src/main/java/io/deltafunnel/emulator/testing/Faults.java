package io.deltafunnel.emulator.testing;

import io.deltafunnel.emulator.exec.RequestInterceptor;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Fault injection for tests: failing or dropping a bulk load, failing a statement, holding a bulk load's reply
 * (a stall). Thread-safe.
 */
public final class Faults implements RequestInterceptor {
    /** What to do when a bulk load reaches a given row. */
    public static final class BulkFault implements RequestInterceptor.BulkLoadFault {
        final long targetLoad;
        public final long afterRows;
        public final int errorNumber;
        public final boolean dropConnection;
        /** Not a failure: the reply to this load is held until {@link #releaseStalls()}. */
        public final boolean stall;

        BulkFault(long targetLoad, long afterRows, int errorNumber, boolean dropConnection) {
            this(targetLoad, afterRows, errorNumber, dropConnection, false);
        }

        BulkFault(long targetLoad, long afterRows, int errorNumber, boolean dropConnection, boolean stall) {
            this.targetLoad = targetLoad;
            this.afterRows = afterRows;
            this.errorNumber = errorNumber;
            this.dropConnection = dropConnection;
            this.stall = stall;
        }

        @Override
        public long afterRows() {
            return afterRows;
        }

        @Override
        public int errorNumber() {
            return errorNumber;
        }

        @Override
        public boolean dropConnection() {
            return dropConnection;
        }

        @Override
        public boolean stall() {
            return stall;
        }
    }

    private static final class StatementFault {
        final String substring;
        public final int errorNumber;

        StatementFault(String substring, int errorNumber) {
            this.substring = substring;
            this.errorNumber = errorNumber;
        }
    }

    private final List<BulkFault> bulkFaults = new ArrayList<>();
    private final List<StatementFault> statementFaults = new ArrayList<>();
    private final List<Long> stallTargets = new ArrayList<>();
    private final List<Long> rollbackStallTargets = new ArrayList<>();
    private long disconnectRollbacksSeen;
    private long bulkLoadsSeen;
    /** Bulk loads held right now, and how many were held since the start (a stall counts once it begins). */
    private int stalledNow;
    private long stallsBegun;
    /** Incremented by {@link #releaseStalls()}: a held reply waits until this moves past its own value. */
    private long releases;
    /** Set by {@link #shutdown()}: no stall begins or lasts any more. */
    private boolean shutDown;

    public Faults() {
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

    /**
     * The {@code nthBulkLoad}-th BULK_LOAD message from now (1-based) is decoded and applied as usual, but its reply
     * is held back until {@link #releaseStalls()}: the client waits inside its bulk load (its rows are in the open
     * round or transaction), so a test can act at that point — for example kill the client's process — without
     * racing it. A stall replaces a {@link #failBulkLoad} or {@link #dropConnectionDuringBulkLoad} armed for the same
     * load. {@link MssqlEmulator#close()} releases every stall.
     */
    public synchronized void stallBulkLoad(int nthBulkLoad) {
        stallTargets.add(bulkLoadsSeen + nthBulkLoad);
    }

    /**
     * The {@code nthRollback}-th rollback from now (1-based) of a lost session's open transaction (the client
     * disconnected, cleanly or not, with a transaction open) is held, with every lock of the session (table locks,
     * application locks, a bulk load's BU lock) still granted, until {@link #releaseStalls()}: SQL Server keeps a
     * killed session's locks until its rollback has finished, and this makes that moment last for a test. It counts
     * as a stall ({@link #awaitStalls}, {@link #stalledNow()}). {@link MssqlEmulator#close()} releases it.
     */
    public synchronized void stallDisconnectRollback(int nthRollback) {
        rollbackStallTargets.add(disconnectRollbacksSeen + nthRollback);
    }

    /**
     * Waits until {@code count} stalls have begun since the start (see {@link #stallBulkLoad}); false when
     * {@code timeoutMillis} passed first.
     */
    public synchronized boolean awaitStalls(long count, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (stallsBegun < count) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }

    /** Lets every held reply go (the client may be gone by then: the reply then ends its connection). */
    public synchronized void releaseStalls() {
        releases++;
        notifyAll();
    }

    /** The emulator is closing: every held stall goes, and none begins any more. */
    public synchronized void shutdown() {
        shutDown = true;
        releases++;
        notifyAll();
    }

    /** How many stalls (bulk load replies, lost sessions' rollbacks) are held right now. */
    public synchronized int stalledNow() {
        return stalledNow;
    }

    public synchronized void clear() {
        bulkFaults.clear();
        statementFaults.clear();
        stallTargets.clear();
        rollbackStallTargets.clear();
    }

    /** Registers the start of a lost session's rollback; true when a stall is armed for it. */
    public synchronized boolean startDisconnectRollback() {
        disconnectRollbacksSeen++;
        return rollbackStallTargets.remove(Long.valueOf(disconnectRollbacksSeen));
    }

    /** Registers the start of a BULK_LOAD and returns the fault armed for it, if any. */
    @Override
    public synchronized BulkFault startBulkLoad() {
        bulkLoadsSeen++;
        if (stallTargets.remove(Long.valueOf(bulkLoadsSeen))) {
            bulkFaults.removeIf(f -> f.targetLoad == bulkLoadsSeen);
            return new BulkFault(bulkLoadsSeen, Long.MAX_VALUE, 0, false, true);
        }
        for (Iterator<BulkFault> it = bulkFaults.iterator(); it.hasNext();) {
            BulkFault f = it.next();
            if (f.targetLoad == bulkLoadsSeen) {
                it.remove();
                return f;
            }
        }
        return null;
    }

    /** A batch containing an armed substring fails with its number (and disarms it). */
    @Override
    public SqlServerError beforeBatch(String sql) {
        int number = takeStatementFault(sql);
        return number == 0 ? null
                : ErrorCatalog.injected(number, 16, "mssql-emulator injected failure (error " + number + ")");
    }

    /** Returns and disarms the error number armed for this SQL text, or 0. */
    public synchronized int takeStatementFault(String sql) {
        for (Iterator<StatementFault> it = statementFaults.iterator(); it.hasNext();) {
            StatementFault f = it.next();
            if (sql.contains(f.substring)) {
                it.remove();
                return f.errorNumber;
            }
        }
        return 0;
    }

    /**
     * Holds the reply of a stalled bulk load (its rows are applied) until {@link #releaseStalls()}; an interrupt
     * (emulator shutdown) ends the wait too.
     */
    @Override
    public void stallReply(BulkLoadFault fault, String table, int spid) {
        stall("bulk load " + ((BulkFault) fault).targetLoad + " into " + table + " (connection " + spid
                + ") before its reply");
    }

    /** Holds the calling session's work ({@code what}) until {@link #releaseStalls()} or an interrupt. */
    public void stall(String what) {
        synchronized (this) {
            if (shutDown) {
                return;
            }
            long seen = releases;
            stalledNow++;
            stallsBegun++;
            notifyAll();
            java.util.logging.Logger.getLogger(Faults.class.getName()).info(what + " stalled until released");
            try {
                while (releases == seen) {
                    wait();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                stalledNow--;
            }
        }
    }
}
