package io.deltafunnel.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import com.microsoft.sqlserver.jdbc.SQLServerBulkCopyOptions;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Emulator-only, deterministic: a session lost with an open transaction keeps its table locks, its application locks
 * and its bulk load's BU lock until its rollback has finished, as in SQL Server; the rollback takes
 * {@code rollbackDelayPerRow} per row written ({@code --rollback-ms-per-row}) and can be held by
 * {@link Faults#stallDisconnectRollback}. The same behaviour against SQL Server, where only the eventual release is
 * deterministic: {@code fidelity.DisconnectScenarios}.
 */
class DisconnectRollbackTest {
    private static final String LOCK = "N'emufidelity-claim'";
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private MssqlEmulator emu;

    @AfterEach
    void stop() {
        pool.shutdownNow();
        if (emu != null) {
            emu.close();
        }
    }

    private static ListBulkData rows(int from, int to) {
        ListBulkData d = new ListBulkData().column("id", Types.INTEGER, 10, 0).column("v", Types.NVARCHAR, 20, 0);
        for (int i = from; i < to; i++) {
            d.row(i, "v" + i);
        }
        return d;
    }

    /** Opens the victim: a session-owned app lock, an open transaction with a TABLOCK bulk load into a heap. */
    private Connection victim(int rows) throws SQLException {
        try (Connection c = TestSupport.connect(emu)) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[heap] ([id] INT NOT NULL, [v] NVARCHAR(20) NULL)");
        }
        Connection v = TestSupport.connect(emu);
        assertEquals(0, ((Number) TestSupport.scalar(v, "DECLARE @r int; EXEC @r = sp_getapplock @Resource = " + LOCK
                + ", @LockMode = N'Exclusive', @LockOwner = N'Session', @LockTimeout = 0; SELECT @r")).intValue());
        v.setAutoCommit(false);
        try (SQLServerBulkCopy bc = new SQLServerBulkCopy(v)) {
            SQLServerBulkCopyOptions o = new SQLServerBulkCopyOptions();
            o.setTableLock(true); // BU on a heap
            bc.setBulkCopyOptions(o);
            bc.setDestinationTableName("[dbo].[heap]");
            bc.writeToServer(rows(0, rows));
        }
        TestSupport.exec(v, "UPDATE [dbo].[heap] SET [v] = N'x' WHERE [id] = 0");
        return v;
    }

    private static int tryAppLock(Connection c, int timeoutMs) throws SQLException {
        return ((Number) TestSupport.scalar(c, "DECLARE @r int; EXEC @r = sp_getapplock @Resource = " + LOCK
                + ", @LockMode = N'Exclusive', @LockOwner = N'Session', @LockTimeout = " + timeoutMs
                + "; SELECT @r")).intValue();
    }

    /** The lost session's locks are all still held. */
    private static void assertStillHeld(Connection other) throws SQLException {
        assertEquals(0, ((Number) TestSupport.scalar(other,
                "SELECT APPLOCK_TEST(N'public', " + LOCK + ", N'Exclusive', N'Session')")).intValue());
        assertEquals(-1, tryAppLock(other, 0), "the application lock is still held by the rolling-back session");
        TestSupport.exec(other, "SET LOCK_TIMEOUT 0");
        SQLException e = assertThrows(SQLException.class,
                () -> TestSupport.scalar(other, "SELECT COUNT(*) FROM [dbo].[heap]"));
        assertEquals(1222, e.getErrorCode(), e.getMessage());
        e = assertThrows(SQLException.class, () -> TestSupport.exec(other,
                "INSERT INTO [dbo].[heap] WITH (TABLOCK) ([id], [v]) VALUES (-1, N'r')"));
        assertEquals(1222, e.getErrorCode(), "the BU lock is still held: " + e.getMessage());
        TestSupport.exec(other, "SET LOCK_TIMEOUT -1");
    }

    @Test
    void aLostSessionKeepsItsLocksAndAppLocksUntilItsRollbackHasFinished() throws Exception {
        emu = MssqlEmulator.builder().start();
        Connection v = victim(500);
        emu.faults().stallDisconnectRollback(1);
        v.abort(Runnable::run); // like a killed client process
        assertTrue(emu.faults().awaitStalls(1, 60_000), "the lost session's rollback did not begin");
        try (Connection other = TestSupport.connect(emu)) {
            assertStillHeld(other);
            Future<Integer> waiter = pool.submit(() -> tryAppLock(other, -1));
            assertThrows(TimeoutException.class, () -> waiter.get(300, TimeUnit.MILLISECONDS));
            emu.faults().releaseStalls();
            assertEquals(1, waiter.get(60, TimeUnit.SECONDS), "granted after waiting for the rollback");
            assertEquals(0L, TestSupport.count(other, "[dbo].[heap]"), "the lost transaction is rolled back");
        }
    }

    @Test
    void theRollbackTakesTheConfiguredTimePerRowWithTheLocksHeld() throws Exception {
        // 500 rows at 1 s each: far longer than the test; close() cuts it short
        emu = MssqlEmulator.builder().rollbackDelayPerRow(Duration.ofSeconds(1)).start();
        assertEquals(Duration.ofSeconds(1), emu.rollbackDelayPerRow());
        Connection v = victim(500);
        v.abort(Runnable::run);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (emu.disconnectRollbacksBegun() < 1 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(1, emu.disconnectRollbacksNow(), "the lost session is rolling back");
        try (Connection other = TestSupport.connect(emu)) {
            assertStillHeld(other);
        }
        emu.close(); // ends the simulated rollback
        assertEquals(0, emu.disconnectRollbacksNow());
    }

    @Test
    void closingTheEmulatorEndsAHeldRollback() throws Exception {
        emu = MssqlEmulator.builder().start();
        Connection v = victim(10);
        emu.faults().stallDisconnectRollback(1);
        v.abort(Runnable::run);
        assertTrue(emu.faults().awaitStalls(1, 60_000), "the lost session's rollback did not begin");
        emu.close();
        assertEquals(0, emu.disconnectRollbacksNow(), "close() ended the held rollback");
        assertEquals(0, emu.faults().stalledNow());
    }

    @Test
    void aShortRollbackEndsByItselfAndReleasesEverything() throws Exception {
        emu = MssqlEmulator.builder().rollbackDelayPerRow(Duration.ofMillis(1)).start();
        Connection v = victim(200);
        v.abort(Runnable::run);
        try (Connection other = TestSupport.connect(emu)) {
            int status = pool.submit(() -> tryAppLock(other, -1)).get(60, TimeUnit.SECONDS);
            assertTrue(status == 0 || status == 1, "granted: " + status);
            assertEquals(0L, TestSupport.count(other, "[dbo].[heap]"));
        }
        assertEquals(1, emu.disconnectRollbacksBegun());
    }

    @Test
    void aCommittedTransactionLeavesNothingToRollBack() throws Exception {
        emu = MssqlEmulator.builder().rollbackDelayPerRow(Duration.ofSeconds(1)).start();
        Connection v = victim(50);
        v.commit();
        v.setAutoCommit(true);
        emu.faults().stallDisconnectRollback(1);
        v.abort(Runnable::run);
        try (Connection other = TestSupport.connect(emu)) {
            // the session-owned lock goes with the session, at once: no transaction was open
            int status = pool.submit(() -> tryAppLock(other, -1)).get(60, TimeUnit.SECONDS);
            assertTrue(status == 0 || status == 1, "granted: " + status);
            assertEquals(50L, TestSupport.count(other, "[dbo].[heap]"));
        }
        assertEquals(0, emu.faults().stalledNow());
    }

    @Test
    void theCommandLineSetsTheRollbackDelay() {
        Main.Options o = Main.parse(new String[] {"--password", "x", "--rollback-ms-per-row", "0.25"});
        assertEquals(Duration.ofNanos(250_000), o.rollbackPerRow);
        assertEquals(Duration.ZERO, Main.parse(new String[] {"--password", "x"}).rollbackPerRow);
        assertThrows(IllegalArgumentException.class,
                () -> Main.parse(new String[] {"--password", "x", "--rollback-ms-per-row", "-1"}));
        assertThrows(IllegalArgumentException.class,
                () -> Main.parse(new String[] {"--password", "x", "--rollback-ms-per-row", "soon"}));
    }
}
