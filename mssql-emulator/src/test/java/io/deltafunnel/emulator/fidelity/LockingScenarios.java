package io.deltafunnel.emulator.fidelity;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import com.microsoft.sqlserver.jdbc.SQLServerBulkCopyOptions;
import com.microsoft.sqlserver.jdbc.SQLServerException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Locking at the default isolation level (READ COMMITTED, read-committed snapshot off), as SQL Server documents it:
 * readers wait for uncommitted writers, NOLOCK / READ UNCOMMITTED readers do not, UPDLOCK and HOLDLOCK hold their
 * locks to the end of the transaction, LOCK_TIMEOUT turns a wait into 1222, a deadlock gives 1205 to the victim
 * (whose transaction is rolled back), TABLOCK bulk loads into a heap share the table, and a disconnect releases
 * every lock.
 *
 * <p>No timing assertions: a wait is shown by error 1222 under a short LOCK_TIMEOUT, or by a statement in another
 * thread that has not finished while the blocking transaction is open and finishes after it ends (the bounded waits
 * are failure guards only).
 */
abstract class LockingScenarios extends ConcurrentScenarios {


    @BeforeEach
    void createTable() throws SQLException {
        dropIfExists(table);
        dropIfExists(table + "_b");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL PRIMARY KEY, [v] int NOT NULL)");
        exec("INSERT INTO [dbo].[" + table + "] ([id], [v]) VALUES (1, 10), (2, 20)");
    }

    @AfterEach
    void closeOthers() throws SQLException {
        closeSessions();
        exec("IF @@TRANCOUNT > 0 ROLLBACK");
        exec("SET LOCK_TIMEOUT -1");
        exec("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
        dropIfExists(table);
        dropIfExists(table + "_b");
    }

    /** A session with an open transaction (BEGIN TRAN). */
    private Connection inTransaction() throws SQLException {
        Connection c = session();
        exec(c, "BEGIN TRAN");
        return c;
    }

    private String t() {
        return "[dbo].[" + table + "]";
    }

    private String tb() {
        return "[dbo].[" + table + "_b]";
    }

    private static int tranCount(Connection c) throws SQLException {
        return intScalar(c, "SELECT @@TRANCOUNT");
    }

    /** Runs {@code sql} on {@code c} with SET LOCK_TIMEOUT {@value #SHORT_TIMEOUT_MS} and expects 1222. */
    private static SQLException assertLockTimeout(Connection c, String sql) throws SQLException {
        exec(c, "SET LOCK_TIMEOUT " + SHORT_TIMEOUT_MS);
        SQLException e = assertError(1222, c, sql);
        exec(c, "SET LOCK_TIMEOUT -1");
        return e;
    }

    private static int severity(SQLException e) {
        return assertInstanceOf(SQLServerException.class, e).getSQLServerError().getErrorSeverity();
    }

    // ---- READ COMMITTED readers and writers ------------------------------------------------------------------------

    @Test
    void readerWaitsForAnUncommittedInsertAndThenSeesTheCommittedRow() throws Exception {
        Connection writer = inTransaction();
        exec(writer, "INSERT INTO " + t() + " ([id], [v]) VALUES (3, 30)");
        Future<Integer> count = inThread(() -> intScalar(conn, "SELECT COUNT(*) FROM " + t()));
        assertStillWaiting(count);
        exec(writer, "COMMIT");
        assertEquals(3, finished(count));
    }

    @Test
    void lockTimeoutTurnsTheWaitInto1222WithoutEndingTheTransaction() throws Exception {
        Connection writer = inTransaction();
        exec(writer, "UPDATE " + t() + " SET [v] = 11 WHERE [id] = 1");
        exec("BEGIN TRAN");
        exec("CREATE TABLE " + tb() + " ([id] int NOT NULL)");
        exec("INSERT INTO " + tb() + " ([id]) VALUES (7)");
        SQLException e = assertLockTimeout(conn, "SELECT [v] FROM " + t() + " WHERE [id] = 1");
        assertEquals("Lock request time out period exceeded.", e.getMessage());
        assertEquals(16, severity(e));
        // the transaction of the timed-out statement is neither rolled back nor ended
        assertEquals(1, tranCount(conn));
        assertEquals(7, intScalar(conn, "SELECT [id] FROM " + tb()));
        exec("COMMIT");
        exec(writer, "ROLLBACK");
        assertEquals(10, intScalar(conn, "SELECT [v] FROM " + t() + " WHERE [id] = 1"));
    }

    @Test
    void lockTimeoutZeroFailsAtOnceAndIsReportedByAtAtLockTimeout() throws Exception {
        assertEquals(-1, intScalar(conn, "SELECT @@LOCK_TIMEOUT"));
        Connection writer = inTransaction();
        exec(writer, "DELETE FROM " + t() + " WHERE [id] = 2");
        exec("SET LOCK_TIMEOUT 0");
        assertEquals(0, intScalar(conn, "SELECT @@LOCK_TIMEOUT"));
        assertError(1222, "SELECT COUNT(*) FROM " + t());
        exec("SET LOCK_TIMEOUT 1500");
        assertEquals(1500, intScalar(conn, "SELECT @@LOCK_TIMEOUT"));
        exec(writer, "COMMIT");
        assertEquals(1, intScalar(conn, "SELECT COUNT(*) FROM " + t()));
    }

    @Test
    void aWriterWaitsForAnotherWritersUncommittedChangeToTheSameRow() throws Exception {
        Connection first = inTransaction();
        exec(first, "UPDATE " + t() + " SET [v] = [v] + 1 WHERE [id] = 1");
        assertLockTimeout(conn, "UPDATE " + t() + " SET [v] = [v] + 100 WHERE [id] = 1");
        Future<Boolean> second = inThread(() -> {
            exec(conn, "UPDATE " + t() + " SET [v] = [v] + 100 WHERE [id] = 1");
            return true;
        });
        assertStillWaiting(second);
        exec(first, "COMMIT");
        assertTrue(finished(second));
        assertEquals(111, intScalar(conn, "SELECT [v] FROM " + t() + " WHERE [id] = 1"));
    }

    @Test
    void readCommittedReadsReleaseTheirLocksAtTheEndOfTheStatement() throws Exception {
        Connection reader = inTransaction();
        assertEquals(2, intScalar(reader, "SELECT COUNT(*) FROM " + t()));
        exec("SET LOCK_TIMEOUT 0");
        exec("UPDATE " + t() + " SET [v] = 12 WHERE [id] = 1"); // no wait: the reader's S locks are gone
        exec(reader, "COMMIT");
    }

    @Test
    void truncateWaitsForAnUncommittedWriter() throws Exception {
        Connection writer = inTransaction();
        exec(writer, "INSERT INTO " + t() + " ([id], [v]) VALUES (3, 30)");
        assertLockTimeout(conn, "TRUNCATE TABLE " + t());
        exec(writer, "ROLLBACK");
        exec("TRUNCATE TABLE " + t());
        assertEquals(0, intScalar(conn, "SELECT COUNT(*) FROM " + t()));
    }

    // ---- NOLOCK / READ UNCOMMITTED, SET TRANSACTION ISOLATION LEVEL ----------------------------------------------

    @Test
    void nolockAndReadUncommittedReadersDoNotWait() throws Exception {
        Connection writer = inTransaction();
        exec(writer, "UPDATE " + t() + " SET [v] = 99 WHERE [id] = 1");
        exec("SET LOCK_TIMEOUT 0");
        // no 1222 although the writer holds its lock (the value read is not asserted: see README, dirty reads)
        intScalar(conn, "SELECT COUNT(*) FROM " + t() + " WITH (NOLOCK)");
        exec("SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED");
        intScalar(conn, "SELECT COUNT(*) FROM " + t());
        exec("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
        assertError(1222, "SELECT COUNT(*) FROM " + t());
        exec(writer, "ROLLBACK");
    }

    @Test
    void repeatableReadHoldsSharedLocksToTheEndOfTheTransaction() throws Exception {
        Connection reader = session();
        exec(reader, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
        exec(reader, "BEGIN TRAN");
        assertEquals(10, intScalar(reader, "SELECT [v] FROM " + t() + " WHERE [id] = 1"));
        assertLockTimeout(conn, "UPDATE " + t() + " SET [v] = 13 WHERE [id] = 1");
        exec(reader, "COMMIT");
        exec("UPDATE " + t() + " SET [v] = 13 WHERE [id] = 1");
        assertEquals(13, intScalar(reader, "SELECT [v] FROM " + t() + " WHERE [id] = 1"));
    }

    @Test
    void serializableScanBlocksInsertsUntilCommit() throws Exception {
        Connection reader = session();
        exec(reader, "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE");
        exec(reader, "BEGIN TRAN");
        assertEquals(2, intScalar(reader, "SELECT COUNT(*) FROM " + t()));
        assertLockTimeout(conn, "INSERT INTO " + t() + " ([id], [v]) VALUES (3, 30)");
        exec(reader, "COMMIT");
        exec("INSERT INTO " + t() + " ([id], [v]) VALUES (3, 30)");
    }

    // ---- UPDLOCK, HOLDLOCK -----------------------------------------------------------------------------------------

    @Test
    void updlockHoldlockSerializesReadThenWriteButLetsPlainReadersThrough() throws Exception {
        Connection first = inTransaction();
        assertEquals(10, intScalar(first, "SELECT [v] FROM " + t() + " WITH (UPDLOCK, HOLDLOCK) WHERE [id] = 1"));
        // U is compatible with S: a plain reader does not wait
        exec("SET LOCK_TIMEOUT 0");
        assertEquals(10, intScalar(conn, "SELECT [v] FROM " + t() + " WHERE [id] = 1"));
        exec("SET LOCK_TIMEOUT -1");
        // U is not compatible with U: the second read-then-write waits
        Connection second = inTransaction();
        assertLockTimeout(second, "SELECT [v] FROM " + t() + " WITH (UPDLOCK, HOLDLOCK) WHERE [id] = 1");
        Future<Integer> read = inThread(() -> intScalar(second,
                "SELECT [v] FROM " + t() + " WITH (UPDLOCK, HOLDLOCK) WHERE [id] = 1"));
        assertStillWaiting(read);
        exec(first, "UPDATE " + t() + " SET [v] = 11 WHERE [id] = 1");
        exec(first, "COMMIT");
        assertEquals(11, finished(read), "the second sees the first's committed write");
        exec(second, "UPDATE " + t() + " SET [v] = 12 WHERE [id] = 1");
        exec(second, "COMMIT");
        assertEquals(12, intScalar(conn, "SELECT [v] FROM " + t() + " WHERE [id] = 1"));
    }

    @Test
    void holdlockKeepsWritersOutUntilCommit() throws Exception {
        Connection reader = inTransaction();
        assertEquals(2, intScalar(reader, "SELECT COUNT(*) FROM " + t() + " WITH (HOLDLOCK)"));
        assertLockTimeout(conn, "INSERT INTO " + t() + " ([id], [v]) VALUES (3, 30)");
        assertLockTimeout(conn, "DELETE FROM " + t() + " WHERE [id] = 2");
        exec(reader, "COMMIT");
        exec("INSERT INTO " + t() + " ([id], [v]) VALUES (3, 30)");
    }

    // ---- deadlocks -------------------------------------------------------------------------------------------------

    /** Two sessions update the two tables in opposite orders; returns the outcome of each second update. */
    private List<Throwable> deadlock(Connection a, Connection b) throws Exception {
        exec("CREATE TABLE " + tb() + " ([id] int NOT NULL PRIMARY KEY, [v] int NOT NULL)");
        exec("INSERT INTO " + tb() + " ([id], [v]) VALUES (1, 10)");
        exec(a, "BEGIN TRAN");
        exec(b, "BEGIN TRAN");
        exec(a, "UPDATE " + t() + " SET [v] = 1 WHERE [id] = 1");
        exec(b, "UPDATE " + tb() + " SET [v] = 2 WHERE [id] = 1");
        Future<Boolean> aSecond = inThread(() -> {
            exec(a, "UPDATE " + tb() + " SET [v] = 1 WHERE [id] = 1");
            return true;
        });
        assertStillWaiting(aSecond);
        Future<Boolean> bSecond = inThread(() -> {
            exec(b, "UPDATE " + t() + " SET [v] = 2 WHERE [id] = 1");
            return true;
        });
        List<Throwable> out = new ArrayList<>();
        for (Future<Boolean> f : List.of(aSecond, bSecond)) {
            try {
                finished(f);
                out.add(null);
            } catch (SQLException e) {
                out.add(e);
            }
        }
        return out;
    }

    @Test
    void deadlockGives1205ToOneVictimWhoseTransactionIsRolledBack() throws Exception {
        Connection a = session();
        Connection b = session();
        List<Throwable> outcome = deadlock(a, b);
        int victims = 0;
        for (int i = 0; i < 2; i++) {
            Connection self = i == 0 ? a : b;
            if (outcome.get(i) == null) {
                assertEquals(1, tranCount(self), "the survivor's transaction is open");
                exec(self, "COMMIT");
                continue;
            }
            victims++;
            SQLException e = (SQLException) outcome.get(i);
            assertEquals(1205, e.getErrorCode(), e.getMessage());
            assertEquals(13, severity(e));
            assertTrue(e.getMessage().matches("Transaction \\(Process ID \\d+\\) was deadlocked on lock resources with"
                    + " another process and has been chosen as the deadlock victim\\. Rerun the transaction\\."),
                    e.getMessage());
            assertEquals(0, tranCount(self), "the victim's transaction is rolled back");
        }
        assertEquals(1, victims, "exactly one victim: " + outcome);
        // the survivor's two updates are committed, nothing of the victim's is left
        int v1 = intScalar(conn, "SELECT [v] FROM " + t() + " WHERE [id] = 1");
        int v2 = intScalar(conn, "SELECT [v] FROM " + tb() + " WHERE [id] = 1");
        assertEquals(v1, v2, "both rows hold the survivor's value");
    }

    @Test
    void deadlockPriorityLowMakesTheSessionTheVictim() throws Exception {
        Connection a = session();
        Connection b = session();
        exec(a, "SET DEADLOCK_PRIORITY LOW");
        List<Throwable> outcome = deadlock(a, b);
        SQLException e = assertInstanceOf(SQLException.class, outcome.get(0), "the LOW priority session is the victim");
        assertEquals(1205, e.getErrorCode());
        assertEquals(null, outcome.get(1));
        exec(b, "COMMIT");
        assertEquals(2, intScalar(conn, "SELECT [v] FROM " + t() + " WHERE [id] = 1"));
        assertEquals(2, intScalar(conn, "SELECT [v] FROM " + tb() + " WHERE [id] = 1"));
    }

    @Test
    void twoSessionsConvertingSharedLocksDeadlock() throws Exception {
        Connection a = inTransaction();
        Connection b = inTransaction();
        assertEquals(10, intScalar(a, "SELECT [v] FROM " + t() + " WITH (HOLDLOCK) WHERE [id] = 1"));
        assertEquals(10, intScalar(b, "SELECT [v] FROM " + t() + " WITH (HOLDLOCK) WHERE [id] = 1"));
        Future<Boolean> aWrite = inThread(() -> {
            exec(a, "UPDATE " + t() + " SET [v] = 1 WHERE [id] = 1");
            return true;
        });
        assertStillWaiting(aWrite);
        Future<Boolean> bWrite = inThread(() -> {
            exec(b, "UPDATE " + t() + " SET [v] = 2 WHERE [id] = 1");
            return true;
        });
        int victims = 0;
        for (Future<Boolean> f : List.of(aWrite, bWrite)) {
            try {
                finished(f);
            } catch (SQLException e) {
                assertEquals(1205, e.getErrorCode(), e.getMessage());
                victims++;
            }
        }
        assertEquals(1, victims);
        assertEquals(1, tranCount(a) + tranCount(b), "only the survivor's transaction is open");
        exec(tranCount(a) == 1 ? a : b, "COMMIT");
    }

    // ---- bulk loads ------------------------------------------------------------------------------------------------

    /** Bulk-copies ids {@code from..to-1} (v = id) into {@code target} on {@code c}, in c's transaction. */
    private static void bulk(Connection c, String target, int from, int to, boolean tablock) throws SQLException {
        try (SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
            SQLServerBulkCopyOptions o = new SQLServerBulkCopyOptions();
            o.setTableLock(tablock);
            bc.setBulkCopyOptions(o);
            bc.setDestinationTableName(target);
            bc.writeToServer(new IntRows(from, to));
        }
    }

    @Test
    void readersWaitForAnUncommittedBulkLoad() throws Exception {
        Connection loader = session();
        loader.setAutoCommit(false);
        bulk(loader, t(), 10, 60, false);
        assertLockTimeout(conn, "SELECT COUNT(*) FROM " + t());
        Future<Integer> count = inThread(() -> intScalar(conn, "SELECT COUNT(*) FROM " + t()));
        assertStillWaiting(count);
        loader.commit();
        assertEquals(52, finished(count));
    }

    @Test
    void tablockBulkLoadsIntoAHeapShareTheTableButNotWithReaders() throws Exception {
        exec("CREATE TABLE " + tb() + " ([id] int NOT NULL, [v] int NOT NULL)"); // a heap
        Connection first = session();
        Connection second = session();
        first.setAutoCommit(false);
        second.setAutoCommit(false);
        bulk(first, tb(), 0, 100, true);
        exec(second, "SET LOCK_TIMEOUT 0");
        bulk(second, tb(), 100, 200, true); // BU is compatible with BU: no wait
        assertLockTimeout(conn, "SELECT COUNT(*) FROM " + tb());
        first.commit();
        assertLockTimeout(conn, "SELECT COUNT(*) FROM " + tb());
        second.commit();
        assertEquals(200, intScalar(conn, "SELECT COUNT(*) FROM " + tb()));
    }

    @Test
    void tablockBulkLoadIntoAHeapWithANonclusteredIndexIsExclusive() throws Exception {
        // an index on the heap (what a staging table built like its target has) takes BU away: loads serialise
        exec("CREATE TABLE " + tb() + " ([id] int NOT NULL, [v] int NOT NULL)");
        exec("CREATE INDEX [ix_" + table + "_b] ON " + tb() + " ([v])");
        Connection first = session();
        Connection second = session();
        first.setAutoCommit(false);
        second.setAutoCommit(false);
        bulk(first, tb(), 0, 10, true);
        exec(second, "SET LOCK_TIMEOUT " + SHORT_TIMEOUT_MS);
        SQLException e = assertThrows(SQLException.class, () -> bulk(second, tb(), 100, 110, true));
        assertEquals(1222, e.getErrorCode(), e.getMessage());
        first.commit();
        second.rollback();
        assertEquals(10, intScalar(conn, "SELECT COUNT(*) FROM " + tb()));
    }

    @Test
    void tablockBulkLoadIntoAClusteredTableIsExclusive() throws Exception {
        Connection first = session();
        Connection second = session();
        first.setAutoCommit(false);
        second.setAutoCommit(false);
        bulk(first, t(), 100, 110, true);
        exec(second, "SET LOCK_TIMEOUT " + SHORT_TIMEOUT_MS);
        SQLException e = assertThrows(SQLException.class, () -> bulk(second, t(), 200, 210, true));
        assertEquals(1222, e.getErrorCode(), e.getMessage());
        first.commit();
        second.rollback();
        assertEquals(12, intScalar(conn, "SELECT COUNT(*) FROM " + t()));
    }

    // ---- INSERT ... WITH (TABLOCK) ------------------------------------------------------------------------------
    // SQL Server's INSERT documentation: TABLOCK on the target of an INSERT has the same effect as TABLOCKX, an
    // exclusive table lock held to the end of the transaction. DeltaFunnel's append final step is exactly
    // INSERT INTO target WITH (TABLOCK) SELECT ... FROM staging.

    /** Runs the append final step's form: {@code INSERT INTO target WITH (TABLOCK) SELECT ... FROM source}. */
    private static void insertSelectWithTablock(Connection c, String target, String source, int offset)
            throws SQLException {
        exec(c, "INSERT INTO " + target + " WITH (TABLOCK) ([id], [v]) SELECT [id] + " + offset + ", [v] FROM "
                + source);
    }

    @Test
    void insertSelectWithTablockIsExclusiveUntilCommit() throws Exception {
        exec("CREATE TABLE " + tb() + " ([id] int NOT NULL, [v] int NOT NULL)");
        exec("INSERT INTO " + tb() + " ([id], [v]) VALUES (1, 1), (2, 2)");
        Connection first = inTransaction();
        insertSelectWithTablock(first, t(), tb(), 100);
        // a second TABLOCK insert waits (it would not if TABLOCK took only an intent lock), so does a plain one
        Connection second = inTransaction();
        assertLockTimeout(second, "INSERT INTO " + t() + " WITH (TABLOCK) ([id], [v]) VALUES (300, 3)");
        assertLockTimeout(second, "INSERT INTO " + t() + " ([id], [v]) VALUES (301, 3)");
        // a reader of the target waits
        Future<Integer> count = inThread(() -> intScalar(conn, "SELECT COUNT(*) FROM " + t()));
        assertStillWaiting(count);
        Future<Void> secondAppend = inThread(() -> {
            insertSelectWithTablock(second, t(), tb(), 200);
            return null;
        });
        assertStillWaiting(secondAppend);
        exec(first, "COMMIT");
        assertEquals(4, finished(count));
        finished(secondAppend);
        exec(second, "COMMIT");
        assertEquals(6, intScalar(conn, "SELECT COUNT(*) FROM " + t()));
    }

    @Test
    void insertSelectWithTablockIntoAHeapIsExclusiveToo() throws Exception {
        exec("CREATE TABLE " + tb() + " ([id] int NOT NULL, [v] int NOT NULL)"); // a heap
        Connection first = inTransaction();
        insertSelectWithTablock(first, tb(), t(), 0);
        Connection second = inTransaction();
        assertLockTimeout(second, "INSERT INTO " + tb() + " WITH (TABLOCK) ([id], [v]) SELECT [id], [v] FROM " + t());
        assertLockTimeout(conn, "SELECT COUNT(*) FROM " + tb());
        exec(first, "COMMIT");
        insertSelectWithTablock(second, tb(), t(), 10);
        exec(second, "COMMIT");
        assertEquals(4, intScalar(conn, "SELECT COUNT(*) FROM " + tb()));
    }

    @Test
    void insertsWithoutTablockShareTheTable() throws Exception {
        Connection first = inTransaction();
        exec(first, "INSERT INTO " + t() + " ([id], [v]) VALUES (3, 30)");
        Connection second = inTransaction();
        exec(second, "SET LOCK_TIMEOUT 0");
        exec(second, "INSERT INTO " + t() + " ([id], [v]) VALUES (4, 40)"); // row locks: no wait
        exec(first, "COMMIT");
        exec(second, "COMMIT");
        assertEquals(4, intScalar(conn, "SELECT COUNT(*) FROM " + t()));
    }

    // ---- ending a wait ---------------------------------------------------------------------------------------------

    @Test
    void aDisconnectReleasesTheSessionsLocks() throws Exception {
        Connection writer = inTransaction();
        exec(writer, "INSERT INTO " + t() + " ([id], [v]) VALUES (3, 30)");
        Future<Integer> count = inThread(() -> intScalar(conn, "SELECT COUNT(*) FROM " + t()));
        assertStillWaiting(count);
        writer.close();
        assertEquals(2, finished(count), "the closed session's insert is rolled back and its lock released");
    }

    @Test
    void aQueryTimeoutCancelsALockWait() throws Exception {
        Connection writer = inTransaction();
        exec(writer, "UPDATE " + t() + " SET [v] = 0");
        try (Statement st = conn.createStatement()) {
            st.setQueryTimeout(1);
            SQLException e = assertThrows(SQLException.class, () -> st.executeQuery("SELECT COUNT(*) FROM " + t()));
            assertTrue(e instanceof SQLTimeoutException || e.getMessage().contains("timed out"), e.toString());
        }
        exec(writer, "ROLLBACK");
        assertEquals(30, intScalar(conn, "SELECT SUM([v]) FROM " + t()));
        assertFalse(conn.isClosed());
    }

}
