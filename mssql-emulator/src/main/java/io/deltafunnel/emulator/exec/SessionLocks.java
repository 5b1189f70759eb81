package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.semantics.AttentionException;
import io.deltafunnel.emulator.semantics.LockManager;
import io.deltafunnel.emulator.semantics.LockPlanner;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.TableDef;
import io.deltafunnel.emulator.wire.ConnectionHandler;
import java.io.IOException;
import java.util.List;

/**
 * One session's side of the {@link LockManager}: its lock owner, its SET LOCK_TIMEOUT, and the waits for table and
 * application locks (a wait stops at ATTENTION, LOCK_TIMEOUT 1222 or as deadlock victim 1205). The session decides
 * when locks end (statement, transaction, disconnect); this class releases them.
 */
public final class SessionLocks {
    private final LockManager manager;
    private final ConnectionHandler connection;
    /** This session's lock owner in the emulator's {@link LockManager}. */
    public final LockManager.Owner owner;
    /** SET LOCK_TIMEOUT in milliseconds; -1 (the default) waits forever. */
    public long timeout = -1;

    SessionLocks(LockManager manager, ConnectionHandler connection) {
        this.manager = manager;
        this.connection = connection;
        this.owner = manager.newOwner(connection == null ? 0 : connection.spid());
    }

    /** Takes the planned locks, waiting as SQL Server would (LOCK_TIMEOUT, ATTENTION, deadlock victim). */
    void lock(List<LockPlanner.Lock> locks) throws SqlServerError, IOException {
        for (LockPlanner.Lock l : locks) {
            lock(l.table(), l.mode(), l.duration(), l.nowait());
        }
    }

    void lock(TableDef table, LockManager.Mode mode, LockManager.Duration duration, boolean nowait)
            throws SqlServerError, IOException {
        manager.acquire(owner, table.objectId(), mode, duration, nowait ? 0 : timeout, () -> {
            if (connection != null && connection.attentionArrived()) {
                throw new AttentionException();
            }
        });
    }

    /**
     * A lock for a BULK_LOAD: the request's own packets are still arriving, so the wait does not look for
     * ATTENTION (the client sends it only after its message).
     */
    void forBulkLoad(TableDef table, LockManager.Mode mode) throws SqlServerError, IOException {
        manager.acquire(owner, table.objectId(), mode, LockManager.Duration.TRANSACTION, timeout, () -> {
        });
    }

    /**
     * An application lock ({@code sp_getapplock}): waits as a table lock does (ATTENTION, deadlock detection);
     * {@code timeoutMillis} -1 waits forever.
     *
     * @return true when granted at once, false after waiting
     */
    public boolean appLock(int resource, LockManager.Mode mode, LockManager.Duration duration, long timeoutMillis)
            throws SqlServerError, IOException {
        return manager.acquireApp(owner, resource, mode, duration, timeoutMillis, () -> {
            if (connection != null && connection.attentionArrived()) {
                throw new AttentionException();
            }
        });
    }

    /** A statement ended: its statement-duration locks go; outside a transaction every lock goes. */
    void statementEnded(boolean inTransaction) {
        if (inTransaction) {
            manager.endStatement(owner);
        } else {
            manager.releaseAll(owner);
        }
    }

    /** The transaction ended: its locks go (session-owned application locks stay). */
    void releaseAll() {
        manager.releaseAll(owner);
    }

    /** Disconnect or connection reset: every lock goes, session-owned application locks too. */
    void releaseSession() {
        manager.releaseSession(owner);
    }

    /** sp_reset_connection: LOCK_TIMEOUT and DEADLOCK_PRIORITY back to their defaults. */
    void reset() {
        timeout = -1;
        owner.deadlockPriority = 0;
    }
}
