package io.deltafunnel.emulator.fidelity;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.Future;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import com.microsoft.sqlserver.jdbc.SQLServerBulkCopyOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client lost with a big open transaction (a killed shard process): SQL Server ends the session and rolls the
 * transaction back; the session's locks, its session-owned application lock and its bulk load's BU lock are held
 * until that rollback has finished, then released. Only the eventual release is deterministic on a real server
 * (how long the rollback takes, and when the server notices the lost socket, is not), so these scenarios wait for
 * the lock with a timeout and accept "granted at once" (0) and "granted after waiting" (1). The held-while-rolling-
 * back state itself is asserted deterministically against the emulator only ({@code DisconnectRollbackTest}, with a
 * held rollback); {@code DisconnectTest} runs these scenarios with a per-row rollback time, so the waits are real.
 */
abstract class DisconnectScenarios extends ConcurrentScenarios {
    /** Rows of the killed session's transaction. */
    static final int ROWS = 5_000;

    private String lock() {
        return "N'" + table + "-claim'";
    }

    @BeforeEach
    void createHeap() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [v] int NOT NULL)"); // a heap: TABLOCK is BU
    }

    @AfterEach
    void dropHeap() throws SQLException {
        closeSessions();
        dropIfExists(table);
    }

    private String t() {
        return "[dbo].[" + table + "]";
    }

    private int getAppLock(Connection c, int timeoutMs) throws SQLException {
        return intScalar(c, "DECLARE @r int; EXEC @r = sp_getapplock @Resource = " + lock()
                + ", @LockMode = N'Exclusive', @LockOwner = N'Session', @LockTimeout = " + timeoutMs + "; SELECT @r");
    }

    /** A shard-like session: claims the app lock, bulk-loads {@link #ROWS} rows WITH TABLOCK, does not commit. */
    private Connection bigOpenTransaction() throws SQLException {
        Connection c = session();
        assertEquals(0, getAppLock(c, 0));
        c.setAutoCommit(false);
        try (SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
            SQLServerBulkCopyOptions o = new SQLServerBulkCopyOptions();
            o.setTableLock(true);
            bc.setBulkCopyOptions(o);
            bc.setDestinationTableName(t());
            bc.writeToServer(new IntRows(0, ROWS));
        }
        exec(c, "UPDATE " + t() + " SET [v] = [v] + 1");
        return c;
    }

    @Test
    void aKilledSessionsAppLockAndTableLocksGoOnceItsRollbackHasFinished() throws Exception {
        Connection killed = bigOpenTransaction();
        killed.abort(Runnable::run); // the socket goes, as when the client process is killed
        Connection rerun = session();
        Future<Integer> claim = inThread(() -> getAppLock(rerun, 120_000));
        int status = finished(claim);
        assertTrue(status == 0 || status == 1, "the re-run gets the application lock once the rollback ended: "
                + status);
        // the killed transaction left nothing, and its table lock is gone too
        assertEquals(0, intScalar(rerun, "SELECT COUNT(*) FROM " + t()));
        exec(rerun, "SET LOCK_TIMEOUT 0");
        exec(rerun, "INSERT INTO " + t() + " WITH (TABLOCK) ([id], [v]) VALUES (1, 1)");
        assertEquals(1, intScalar(rerun, "SELECT COUNT(*) FROM " + t()));
    }

    @Test
    void aReaderWaitingForAKilledSessionsTableSeesNoneOfItsRows() throws Exception {
        Connection killed = bigOpenTransaction();
        Future<Integer> count = inThread(() -> intScalar(conn, "SELECT COUNT(*) FROM " + t()));
        assertStillWaiting(count);
        killed.abort(Runnable::run);
        assertEquals(0, finished(count));
    }
}
