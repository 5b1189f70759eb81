package io.deltafunnel.emulator.fidelity;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.Future;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * READ COMMITTED with the database option READ_COMMITTED_SNAPSHOT ON (Azure SQL Database's default), as SQL Server
 * documents it: a READ COMMITTED reader (no hint, or the READCOMMITTED hint) takes no shared locks, never waits for
 * a writer and reads the last committed version as of the start of its statement (not of its transaction);
 * READCOMMITTEDLOCK brings the locking read back; UPDLOCK, HOLDLOCK, REPEATABLE READ, SERIALIZABLE and writers still
 * lock. {@code ALTER DATABASE ... SET READ_COMMITTED_SNAPSHOT} switches the option, {@code sys.databases} shows it.
 *
 * <p>{@link #server()} is a database whose option is ON. No timing assertions: a reader that does not wait is
 * shown by a read that succeeds under {@code SET LOCK_TIMEOUT 0}; a wait by 1222 under a short LOCK_TIMEOUT, or by a
 * statement in another thread that has not finished while the writer is open and finishes after it.
 */
abstract class ReadCommittedSnapshotScenarios extends ConcurrentScenarios {

    @BeforeEach
    void createTable() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY, [v] int NOT NULL)");
        exec("INSERT INTO " + t() + " ([id], [v]) VALUES (1, 10), (2, 20)");
    }

    @AfterEach
    void closeOthers() throws SQLException {
        closeSessions();
        exec("IF @@TRANCOUNT > 0 ROLLBACK");
        exec("SET LOCK_TIMEOUT -1");
        exec("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
        dropIfExists(table);
    }

    @Override
    protected boolean readCommittedSnapshot() {
        return true;
    }

    private String t() {
        return "[dbo].[" + table + "]";
    }

    /** A session whose open transaction changed row 1 to 11 and inserted row 3 (X locks held). */
    private Connection uncommittedWriter() throws SQLException {
        Connection w = session();
        exec(w, "BEGIN TRAN");
        exec(w, "UPDATE " + t() + " SET [v] = 11 WHERE [id] = 1");
        exec(w, "INSERT INTO " + t() + " ([id], [v]) VALUES (3, 30)");
        return w;
    }

    /** {@code sql} on {@code c} under SET LOCK_TIMEOUT {@value #SHORT_TIMEOUT_MS} ends in 1222. */
    private static void assertLockTimeout(Connection c, String sql) throws SQLException {
        exec(c, "SET LOCK_TIMEOUT " + SHORT_TIMEOUT_MS);
        assertError(1222, c, sql);
        exec(c, "SET LOCK_TIMEOUT -1");
    }

    /** {@code sql} on {@code conn} succeeds under SET LOCK_TIMEOUT 0 (it does not wait) and returns its rows. */
    private List<List<Object>> withoutWaiting(String sql) throws SQLException {
        exec("SET LOCK_TIMEOUT 0");
        try {
            return rows(sql);
        } finally {
            exec("SET LOCK_TIMEOUT -1");
        }
    }

    private boolean optionOn() throws SQLException {
        Object v = scalar("SELECT [is_read_committed_snapshot_on] FROM sys.databases WHERE [name] = DB_NAME()");
        return Boolean.TRUE.equals(v);
    }

    // ---- readers ---------------------------------------------------------------------------------------------------

    @Test
    void aReaderDoesNotWaitForAWriterAndSeesTheLastCommittedVersion() throws Exception {
        Connection w = uncommittedWriter();
        assertEquals(List.of(List.of(1, 10), List.of(2, 20)),
                withoutWaiting("SELECT [id], [v] FROM " + t() + " ORDER BY [id]"));
        assertEquals(List.of(List.of(2)), withoutWaiting("SELECT COUNT(*) FROM " + t()));
        exec(w, "COMMIT");
        assertEquals(List.of(List.of(1, 11), List.of(2, 20), List.of(3, 30)),
                withoutWaiting("SELECT [id], [v] FROM " + t() + " ORDER BY [id]"));
    }

    @Test
    void aReaderSeesNeitherAnUncommittedDeleteNorAnUncommittedBulkLoad() throws Exception {
        Connection w = session();
        w.setAutoCommit(false);
        exec(w, "DELETE FROM " + t() + " WHERE [id] = 2");
        try (SQLServerBulkCopy bc = new SQLServerBulkCopy(w)) {
            bc.setDestinationTableName(t());
            bc.writeToServer(new IntRows(100, 150));
        }
        assertEquals(List.of(List.of(2, 3)), withoutWaiting("SELECT COUNT(*), SUM([id]) FROM " + t()));
        w.commit();
        assertEquals(List.of(List.of(51)), withoutWaiting("SELECT COUNT(*) FROM " + t()));
    }

    @Test
    void theReadCommittedHintReadsTheCommittedVersionToo() throws Exception {
        uncommittedWriter();
        assertEquals(List.of(List.of(10)),
                withoutWaiting("SELECT [v] FROM " + t() + " WITH (READCOMMITTED) WHERE [id] = 1"));
    }

    @Test
    void eachStatementOfATransactionSeesWhatWasCommittedWhenItStarted() throws Exception {
        exec("BEGIN TRAN");
        assertEquals(List.of(List.of(10)), withoutWaiting("SELECT [v] FROM " + t() + " WHERE [id] = 1"));
        Connection w = session();
        exec(w, "UPDATE " + t() + " SET [v] = 12 WHERE [id] = 1"); // auto-commit
        assertEquals(List.of(List.of(12)), withoutWaiting("SELECT [v] FROM " + t() + " WHERE [id] = 1"),
                "statement-level, not transaction-level, consistency");
        exec("COMMIT");
    }

    @Test
    void aReaderDoesNotBlockAWriter() throws Exception {
        exec("BEGIN TRAN");
        assertEquals(List.of(List.of(2)), withoutWaiting("SELECT COUNT(*) FROM " + t()));
        Connection w = session();
        exec(w, "SET LOCK_TIMEOUT 0");
        exec(w, "UPDATE " + t() + " SET [v] = 13 WHERE [id] = 2");
        exec("COMMIT");
        assertEquals(13, intScalar(conn, "SELECT [v] FROM " + t() + " WHERE [id] = 2"));
    }

    @Test
    void readCommittedLockBringsTheLockingReadBack() throws Exception {
        Connection w = uncommittedWriter();
        assertLockTimeout(conn, "SELECT [v] FROM " + t() + " WITH (READCOMMITTEDLOCK) WHERE [id] = 1");
        Future<Integer> read = inThread(() -> intScalar(conn, "SELECT [v] FROM " + t()
                + " WITH (READCOMMITTEDLOCK) WHERE [id] = 1"));
        assertStillWaiting(read);
        exec(w, "COMMIT");
        assertEquals(11, finished(read), "the locking read sees the committed change");
    }

    @Test
    void updlockAndHoldlockReadsStillWaitForAWriter() throws Exception {
        Connection w = uncommittedWriter();
        exec("BEGIN TRAN");
        assertLockTimeout(conn, "SELECT [v] FROM " + t() + " WITH (UPDLOCK) WHERE [id] = 1");
        assertLockTimeout(conn, "SELECT [v] FROM " + t() + " WITH (UPDLOCK, HOLDLOCK) WHERE [id] = 1");
        assertLockTimeout(conn, "SELECT [v] FROM " + t() + " WITH (HOLDLOCK) WHERE [id] = 1");
        exec("ROLLBACK");
        Future<Integer> read = inThread(() -> {
            exec(conn, "BEGIN TRAN");
            int v = intScalar(conn, "SELECT [v] FROM " + t() + " WITH (UPDLOCK, HOLDLOCK) WHERE [id] = 1");
            exec(conn, "COMMIT");
            return v;
        });
        assertStillWaiting(read);
        exec(w, "COMMIT");
        assertEquals(11, finished(read));
    }

    @Test
    void anUpdlockHoldlockReaderStillBlocksAnotherOnTheSameRow() throws Exception {
        Connection holder = session();
        exec(holder, "BEGIN TRAN");
        assertEquals(10, intScalar(holder, "SELECT [v] FROM " + t() + " WITH (UPDLOCK, HOLDLOCK) WHERE [id] = 1"));
        exec("BEGIN TRAN");
        assertLockTimeout(conn, "SELECT [v] FROM " + t() + " WITH (UPDLOCK, HOLDLOCK) WHERE [id] = 1");
        assertLockTimeout(conn, "UPDATE " + t() + " SET [v] = 14 WHERE [id] = 1");
        assertEquals(List.of(List.of(10)), withoutWaiting("SELECT [v] FROM " + t() + " WHERE [id] = 1"),
                "a plain reader still reads");
        exec("ROLLBACK");
        exec(holder, "COMMIT");
    }

    @Test
    void repeatableReadAndSerializableStillLock() throws Exception {
        Connection w = uncommittedWriter();
        exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
        assertLockTimeout(conn, "SELECT [v] FROM " + t() + " WHERE [id] = 1");
        exec("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE");
        assertLockTimeout(conn, "SELECT [v] FROM " + t() + " WHERE [id] = 1");
        exec("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
        assertEquals(List.of(List.of(10)), withoutWaiting("SELECT [v] FROM " + t() + " WHERE [id] = 1"));
        exec(w, "ROLLBACK");
    }

    @Test
    void aTruncateInAnOpenTransactionStillMakesReadersWait() throws Exception {
        Connection w = session();
        exec(w, "BEGIN TRAN");
        exec(w, "TRUNCATE TABLE " + t()); // Sch-M to the end of the transaction; a versioned read still needs Sch-S
        assertLockTimeout(conn, "SELECT COUNT(*) FROM " + t());
        Future<Integer> count = inThread(() -> intScalar(conn, "SELECT COUNT(*) FROM " + t()));
        assertStillWaiting(count);
        exec(w, "COMMIT");
        assertEquals(0, finished(count));
    }

    @Test
    void aWriterStillWaitsForAnotherWriter() throws Exception {
        Connection w = uncommittedWriter();
        assertLockTimeout(conn, "UPDATE " + t() + " SET [v] = 15 WHERE [id] = 1");
        Future<Integer> update = inThread(() -> {
            exec(conn, "UPDATE " + t() + " SET [v] = [v] + 100 WHERE [id] = 1");
            return 0;
        });
        assertStillWaiting(update);
        exec(w, "COMMIT");
        finished(update);
        assertEquals(111, intScalar(conn, "SELECT [v] FROM " + t() + " WHERE [id] = 1"),
                "the update applied to the committed value");
    }

    // ---- ALTER DATABASE ----------------------------------------------------------------------------------------------

    @Test
    void alterDatabaseSwitchesTheOptionOffAndOnAgain() throws Exception {
        try {
            exec("ALTER DATABASE CURRENT SET READ_COMMITTED_SNAPSHOT OFF WITH ROLLBACK IMMEDIATE");
            assertEquals(false, optionOn());
            Connection w = uncommittedWriter();
            assertLockTimeout(conn, "SELECT [v] FROM " + t() + " WHERE [id] = 1"); // the locking read again
            exec(w, "ROLLBACK");
        } finally {
            exec("ALTER DATABASE CURRENT SET READ_COMMITTED_SNAPSHOT ON WITH ROLLBACK IMMEDIATE");
        }
        assertEquals(true, optionOn());
        uncommittedWriter();
        assertEquals(List.of(List.of(10)), withoutWaiting("SELECT [v] FROM " + t() + " WHERE [id] = 1"));
    }

    @Test
    void rollbackImmediateEndsTheOtherSessionsAndRollsTheirWorkBack() throws Exception {
        // no idle-connection resiliency: the ended session must not come back as a new one
        try (Connection w = server().connect(";connectRetryCount=0")) {
            exec(w, "BEGIN TRAN");
            exec(w, "UPDATE " + t() + " SET [v] = 11 WHERE [id] = 1");
            exec("ALTER DATABASE CURRENT SET READ_COMMITTED_SNAPSHOT ON WITH ROLLBACK IMMEDIATE");
            assertThrows(SQLException.class, () -> exec(w, "SELECT 1"), "the other session was ended");
        }
        assertEquals(List.of(List.of(1, 10), List.of(2, 20)), rows("SELECT [id], [v] FROM " + t() + " ORDER BY [id]"));
        assertEquals(true, optionOn());
    }

    @Test
    void noWaitWithAnotherSessionConnectedIs5070AndChangesNothing() throws Exception {
        Connection other = session();
        exec(other, "SELECT 1");
        assertError(5070, "ALTER DATABASE CURRENT SET READ_COMMITTED_SNAPSHOT OFF WITH NO_WAIT");
        assertEquals(true, optionOn());
    }

    @Test
    void alterDatabaseInsideATransactionIs226() throws Exception {
        exec("BEGIN TRAN");
        assertError(226, "ALTER DATABASE CURRENT SET READ_COMMITTED_SNAPSHOT OFF WITH ROLLBACK IMMEDIATE");
        exec("IF @@TRANCOUNT > 0 ROLLBACK");
        assertEquals(true, optionOn());
    }

    @Test
    void theOptionCannotBeSetInMaster() {
        assertError(5058, "ALTER DATABASE [master] SET READ_COMMITTED_SNAPSHOT ON WITH ROLLBACK IMMEDIATE");
    }
}
