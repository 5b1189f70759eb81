package io.deltafunnel.emulator;

import io.deltafunnel.emulator.semantics.LockManager;
import io.deltafunnel.emulator.semantics.SqlServerError;
import java.util.List;

import org.junit.jupiter.api.Test;

import static io.deltafunnel.emulator.semantics.LockManager.Mode.BU;
import static io.deltafunnel.emulator.semantics.LockManager.Mode.S;
import static io.deltafunnel.emulator.semantics.LockManager.Mode.SCH_M;
import static io.deltafunnel.emulator.semantics.LockManager.Mode.SCH_S;
import static io.deltafunnel.emulator.semantics.LockManager.Mode.U;
import static io.deltafunnel.emulator.semantics.LockManager.Mode.X;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The lock manager alone: SQL Server's compatibility matrix (requested mode against granted mode, as in "Lock
 * compatibility" of the SQL Server transaction locking guide), FIFO queueing and lock release.
 */
class LockManagerTest {
    private static final LockManager.Mode[] ORDER = {SCH_S, S, U, X, BU, SCH_M};
    /** Rows: requested; columns: granted (Sch-S, S, U, X, BU, Sch-M). */
    private static final boolean[][] MATRIX = {
        {true, true, true, true, true, false},       // Sch-S
        {true, true, true, false, false, false},     // S
        {true, true, false, false, false, false},    // U
        {true, false, false, false, false, false},   // X
        {true, false, false, false, true, false},    // BU
        {false, false, false, false, false, false},  // Sch-M
    };

    @Test
    void compatibilityIsSqlServers() {
        for (int r = 0; r < ORDER.length; r++) {
            for (int g = 0; g < ORDER.length; g++) {
                assertEquals(MATRIX[r][g], ORDER[r].compatibleWith(ORDER[g]),
                        ORDER[r].label + " requested, " + ORDER[g].label + " granted");
            }
        }
    }

    @Test
    void aNewRequestQueuesBehindAnEarlierIncompatibleWaiter() throws Exception {
        LockManager m = new LockManager();
        LockManager.Owner a = m.newOwner(1);
        LockManager.Owner b = m.newOwner(2);
        LockManager.Owner c = m.newOwner(3);
        m.acquire(a, 7, S, LockManager.Duration.TRANSACTION, -1, () -> { });
        Thread waiter = new Thread(() -> {
            try {
                m.acquire(b, 7, X, LockManager.Duration.TRANSACTION, -1, () -> { });
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        waiter.start();
        while (waiter.getState() != Thread.State.TIMED_WAITING) {
            Thread.onSpinWait();
        }
        // S is compatible with the granted S, but not with the waiting X ahead of it: no starvation of writers
        SqlServerError e = assertThrows(SqlServerError.class,
                () -> m.acquire(c, 7, S, LockManager.Duration.STATEMENT, 0, () -> { }));
        assertEquals(1222, e.number());
        m.releaseAll(a);
        waiter.join(60_000);
        assertEquals(List.of(X), m.held(b).get(7));
        m.releaseAll(b);
        m.acquire(c, 7, S, LockManager.Duration.STATEMENT, 0, () -> { });
        m.endStatement(c);
        assertEquals(null, m.held(c).get(7));
    }

    /** Application-lock modes (IS, S, U, IX, X): requested against granted, the documented matrix. */
    @Test
    void applicationLockModesFollowTheMatrix() {
        LockManager.Mode[] order = {LockManager.Mode.IS, S, U, LockManager.Mode.IX, X};
        boolean[][] matrix = {
            {true, true, true, true, false},     // IS
            {true, true, true, false, false},    // S
            {true, true, false, false, false},   // U
            {true, false, false, true, false},   // IX
            {false, false, false, false, false}, // X
        };
        for (int r = 0; r < order.length; r++) {
            for (int g = 0; g < order.length; g++) {
                assertEquals(matrix[r][g], order[r].compatibleWith(order[g]),
                        order[r].label + " requested, " + order[g].label + " granted");
            }
        }
    }

    @Test
    void sessionOwnedApplicationLocksOutliveTheTransactionAndCountTheirGrants() throws Exception {
        LockManager m = new LockManager();
        LockManager.Owner a = m.newOwner(1);
        LockManager.Owner b = m.newOwner(2);
        int session = m.appResource("public", "r");
        int tx = m.appResource("public", "t");
        assertEquals(session, m.appResource("public", "r"));
        assertEquals(true, session < 0 && tx < 0 && session != tx && m.appResource("public", "R") != session);
        assertEquals(true, m.acquireApp(a, session, X, LockManager.Duration.SESSION, 0, () -> { }));
        assertEquals(true, m.acquireApp(a, session, S, LockManager.Duration.SESSION, 0, () -> { }));
        assertEquals(true, m.acquireApp(a, tx, X, LockManager.Duration.TRANSACTION, 0, () -> { }));
        m.releaseAll(a); // the transaction ended
        assertEquals(List.of(), m.appModes(a, tx, LockManager.Duration.TRANSACTION));
        assertEquals(true, m.appModes(a, session, LockManager.Duration.SESSION).contains(X), "X and the covered S");
        assertEquals(true, m.releaseApp(a, session, LockManager.Duration.SESSION));
        assertEquals(1222, assertThrows(SqlServerError.class,
                () -> m.acquireApp(b, session, S, LockManager.Duration.SESSION, 0, () -> { })).number(),
                "one grant is still held");
        assertEquals(false, m.releaseApp(a, session, LockManager.Duration.TRANSACTION), "not held by that owner");
        m.acquireApp(a, session, U, LockManager.Duration.SESSION, 0, () -> { });
        m.releaseSession(a); // the session ended
        assertEquals(false, m.releaseApp(a, session, LockManager.Duration.SESSION));
        assertEquals(true, m.acquireApp(b, session, X, LockManager.Duration.SESSION, 0, () -> { }));
    }
}
