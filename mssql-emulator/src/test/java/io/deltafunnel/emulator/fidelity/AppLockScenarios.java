package io.deltafunnel.emulator.fidelity;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.Future;

import io.deltafunnel.emulator.RawTdsClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Application locks ({@code sp_getapplock}, {@code sp_releaseapplock}, {@code APPLOCK_MODE}) as SQL Server documents
 * them: return codes 0 (granted at once), 1 (granted after waiting), -1 (timed out), -3 (deadlock victim, without a
 * rollback), -999 (parameter or call error, with its message); the lock mode compatibility matrix; owner
 * {@code Transaction} released at commit/rollback, owner {@code Session} by {@code sp_releaseapplock} or the end of
 * the session (also a connection dropped without any goodbye); grants counted; application locks and table locks
 * in one deadlock. The exact statements the sharded loads send (docs/sharding.md, step 3) run through mssql-jdbc
 * {@code PreparedStatement} (first execution sp_executesql, then sp_prepexec).
 *
 * <p>No timing assertions: a wait is shown by a request in another thread that has not finished while the holder
 * keeps its lock and finishes after it lets go (the bounded waits are failure guards only).
 */
abstract class AppLockScenarios extends ConcurrentScenarios {
    /** What DeltaFunnel's producer sends to claim a shard (docs/sharding.md, step 3). */
    static final String CLAIM = "DECLARE @r int; EXEC @r = sp_getapplock @Resource = ?, @LockMode = N'Exclusive',"
            + " @LockOwner = N'Session', @LockTimeout = 0; SELECT @r;";
    /** ... and to give the claim back. */
    static final String UNCLAIM = "DECLARE @r int; EXEC @r = sp_releaseapplock @Resource = ?, @LockOwner = N'Session';"
            + " SELECT @r;";


    @BeforeEach
    void createTable() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL PRIMARY KEY, [v] int NOT NULL)");
        exec("INSERT INTO [dbo].[" + table + "] ([id], [v]) VALUES (1, 10), (2, 20)");
    }

    @AfterEach
    void closeOthers() throws SQLException {
        closeSessions();
        exec("IF @@TRANCOUNT > 0 ROLLBACK");
        dropIfExists(table);
    }

    private String t() {
        return "[dbo].[" + table + "]";
    }

    /** A resource name unique to the test (case matters: resources compare as binary strings). */
    private String res(String suffix) {
        return "deltafunnel:" + table + ":" + suffix;
    }

    private static String lit(String s) {
        return "N'" + s.replace("'", "''") + "'";
    }

    /** sp_getapplock with literal arguments; returns its return code (SELECT @r). */
    private static int get(Connection c, String resource, String mode, String owner, int timeout) throws SQLException {
        return lastInt(c, "DECLARE @r int; EXEC @r = sp_getapplock @Resource = " + lit(resource) + ", @LockMode = "
                + lit(mode) + ", @LockOwner = " + lit(owner) + ", @LockTimeout = " + timeout + "; SELECT @r;");
    }

    private static int release(Connection c, String resource, String owner) throws SQLException {
        return lastInt(c, "DECLARE @r int; EXEC @r = sp_releaseapplock @Resource = " + lit(resource)
                + ", @LockOwner = " + lit(owner) + "; SELECT @r;");
    }

    /** The first column of the batch's first result set's first row. */
    private static int lastInt(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            return firstInt(st, st.execute(sql));
        }
    }

    private static int firstInt(Statement st, boolean isResultSet) throws SQLException {
        boolean rsNow = isResultSet;
        while (true) {
            if (rsNow) {
                try (ResultSet rs = st.getResultSet()) {
                    assertTrue(rs.next(), "a row");
                    return rs.getInt(1);
                }
            }
            if (st.getUpdateCount() == -1) {
                throw new AssertionError("the batch returned no result set");
            }
            rsNow = st.getMoreResults();
        }
    }

    /** The product's parameterised forms ({@link #CLAIM}, {@link #UNCLAIM}). */
    private static int prepared(PreparedStatement ps, String resource) throws SQLException {
        ps.setString(1, resource);
        return firstInt(ps, ps.execute());
    }

    private static String applockMode(Connection c, String resource, String owner) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT APPLOCK_MODE(N'public', ?, " + lit(owner) + ")")) {
            ps.setString(1, resource);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                return rs.getString(1);
            }
        }
    }

    private static boolean hasWarning(SQLWarning w, int number) {
        for (; w != null; w = w.getNextWarning()) {
            if (w.getErrorCode() == number) {
                return true;
            }
        }
        return false;
    }

    // ---- the product's statements ----------------------------------------------------------------------------------

    @Test
    void theShardClaimIsGrantedOnceAndRefusedToASecondSessionUntilReleased() throws Exception {
        String shard = res("0");
        Connection a = session();
        Connection b = session();
        try (PreparedStatement claimA = a.prepareStatement(CLAIM); PreparedStatement claimB = b.prepareStatement(CLAIM);
                PreparedStatement unclaimA = a.prepareStatement(UNCLAIM)) {
            assertEquals(0, prepared(claimA, shard), "granted at once");
            assertEquals("Exclusive", applockMode(a, shard, "Session"));
            assertEquals("NoLock", applockMode(b, shard, "Session"));
            assertEquals(-1, prepared(claimB, shard), "a second runner of the shard is refused (timeout 0)");
            assertEquals(-1, prepared(claimB, shard), "again, through the prepared handle");
            assertEquals(0, prepared(unclaimA, shard), "released");
            assertEquals(0, prepared(claimB, shard), "free again");
            assertEquals(-1, prepared(claimA, shard), "now the first session is refused");
            SQLException e = assertThrows(SQLException.class, () -> prepared(unclaimA, shard), "not held");
            assertEquals(1223, e.getErrorCode(), e.getMessage());
            assertEquals(-1, prepared(claimA, shard), "the session is still usable");
        }
    }

    /** The same statements through every way mssql-jdbc runs a PreparedStatement: sp_prepexec first, sp_prepare. */
    @Test
    void theShardClaimThroughEveryPrepareMethod() throws Exception {
        String shard = res("1");
        try (Connection prepexec = server().connect(";enablePrepareOnFirstPreparedStatementCall=true");
                Connection prepare = server().connect(";prepareMethod=prepare;enablePrepareOnFirstPreparedStatementCall=true");
                PreparedStatement claim1 = prepexec.prepareStatement(CLAIM);
                PreparedStatement unclaim1 = prepexec.prepareStatement(UNCLAIM);
                PreparedStatement claim2 = prepare.prepareStatement(CLAIM);
                PreparedStatement unclaim2 = prepare.prepareStatement(UNCLAIM)) {
            for (int round = 0; round < 2; round++) {
                assertEquals(0, prepared(claim1, shard));
                assertEquals(-1, prepared(claim2, shard));
                assertEquals(0, prepared(unclaim1, shard));
                assertEquals(0, prepared(claim2, shard));
                assertEquals(-1, prepared(claim1, shard));
                assertEquals(0, prepared(unclaim2, shard));
            }
        }
    }

    @Test
    void underXactAbortAnErrorOfTheProcedureEndsTheBatchAndTheTransaction() throws Exception {
        exec("SET XACT_ABORT ON");
        try {
            exec("BEGIN TRAN");
            assertError(1223, "EXEC sp_releaseapplock @Resource = N'" + res("xa") + "', @LockOwner = N'Session'");
            assertEquals(0, scalar("SELECT @@TRANCOUNT"), "the transaction is rolled back");
        } finally {
            exec("SET XACT_ABORT OFF");
        }
    }

    @Test
    void literalVariantsAndExecWithoutAReturnVariable() throws Exception {
        Connection b = session();
        exec("EXEC sp_getapplock @Resource = '" + res("v") + "', @LockMode = 'Exclusive', @LockOwner = 'Session',"
                + " @LockTimeout = 0");
        assertEquals(-1, get(b, res("v"), "Exclusive", "Session", 0));
        assertEquals(0, lastInt(conn, "DECLARE @r int; EXEC @r = sp_releaseapplock @Resource = '" + res("v")
                + "', @LockOwner = 'Session'; SELECT @r;"));
        assertEquals(0, lastInt(b, "DECLARE @r int; EXEC @r = sp_getapplock N'" + res("v")
                + "', N'Exclusive', N'Session', 0; SELECT @r;"), "positional arguments");
        assertEquals("Exclusive", scalarOn(b, "SELECT APPLOCK_MODE(N'public', N'" + res("v") + "', N'Session')"));
        exec(b, "EXEC sp_releaseapplock @Resource = N'" + res("v") + "', @LockOwner = N'Session'");
        assertEquals(0, get(conn, res("v"), "Exclusive", "Session", 0));
    }

    private static Object scalarOn(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getObject(1);
        }
    }

    @Test
    void applockTestTellsWhetherALockWouldBeGrantedWithoutTakingIt() throws Exception {
        Connection b = session();
        String r = lit(res("t"));
        assertEquals(0, get(conn, res("t"), "Exclusive", "Session", 0));
        assertEquals((short) 1, scalar("SELECT APPLOCK_TEST(N'public', " + r + ", N'Exclusive', N'Session')"),
                "its own lock; smallint");
        assertEquals((short) 0, scalarOn(b, "SELECT APPLOCK_TEST(N'public', " + r + ", N'IntentShared', N'Session')"));
        assertEquals((short) 1, scalarOn(b, "SELECT APPLOCK_TEST(N'public', " + lit(res("free")) + ", N'Exclusive',"
                + " N'Session')"));
        assertEquals("NoLock", applockMode(b, res("free"), "Session"), "APPLOCK_TEST takes nothing");
        assertError(1225, b, "SELECT APPLOCK_TEST(N'public', " + r + ", N'Bogus', N'Session')");
    }

    @Test
    void resourceNamesAreCaseSensitive() throws Exception {
        Connection b = session();
        assertEquals(0, get(conn, res("Case"), "Exclusive", "Session", 0));
        assertEquals(0, get(b, res("case"), "Exclusive", "Session", 0), "another resource");
        assertEquals(-1, get(b, res("Case"), "Exclusive", "Session", 0));
    }

    // ---- waiting -----------------------------------------------------------------------------------------------------

    @Test
    void aWaiterIsGrantedWithOneWhenTheHolderReleases() throws Exception {
        Connection b = session();
        assertEquals(0, get(conn, res("w"), "Exclusive", "Session", 0));
        Future<Integer> waiting = inThread(() -> get(b, res("w"), "Exclusive", "Session", -1));
        assertStillWaiting(waiting);
        assertEquals(0, release(conn, res("w"), "Session"));
        assertEquals(1, finished(waiting), "granted after waiting");
        assertEquals(-1, get(conn, res("w"), "Exclusive", "Session", 0));
    }

    @Test
    void aWaiterIsGrantedWhenTheHolderDisconnects() throws Exception {
        Connection holder = session();
        Connection b = session();
        assertEquals(0, get(holder, res("d"), "Exclusive", "Session", 0));
        Future<Integer> waiting = inThread(() -> get(b, res("d"), "Exclusive", "Session", 60000));
        assertStillWaiting(waiting);
        holder.close();
        assertEquals(1, finished(waiting));
    }

    @Test
    void aConnectionDroppedWithoutGoodbyeLosesItsSessionLock() throws Exception {
        RawTdsClient raw = new RawTdsClient(server().host(), server().port(), server().user(), server().password(), true);
        try {
            RawTdsClient.Reply r = raw.sqlBatch("EXEC sp_getapplock @Resource = N'" + res("k")
                    + "', @LockMode = N'Exclusive', @LockOwner = N'Session', @LockTimeout = 0");
            assertEquals(List.of(), r.errors);
            assertEquals(-1, get(conn, res("k"), "Exclusive", "Session", 0), "held by the raw client");
            Future<Integer> waiting = inThread(() -> get(conn, res("k"), "Exclusive", "Session", 60000));
            assertStillWaiting(waiting);
            raw.close(); // the socket goes, nothing is sent
            assertEquals(1, finished(waiting), "the server ended the session and released its lock");
        } finally {
            raw.close();
        }
    }

    @Test
    void anAbortedJdbcConnectionLosesItsSessionLock() throws Exception {
        Connection holder = server().connect();
        try (PreparedStatement claim = holder.prepareStatement(CLAIM)) {
            assertEquals(0, prepared(claim, res("abort")));
        }
        Future<Integer> waiting = inThread(() -> get(conn, res("abort"), "Exclusive", "Session", 60000));
        assertStillWaiting(waiting);
        holder.abort(Runnable::run);
        assertEquals(1, finished(waiting));
    }

    // ---- owners --------------------------------------------------------------------------------------------------

    @Test
    void transactionLocksEndWithTheTransactionSessionLocksDoNot() throws Exception {
        Connection b = session();
        exec("BEGIN TRAN");
        assertEquals(0, get(conn, res("tx"), "Exclusive", "Transaction", 0));
        assertEquals(0, get(conn, res("se"), "Exclusive", "Session", 0));
        assertEquals("Exclusive", scalarOn(conn, "SELECT APPLOCK_MODE(N'public', N'" + res("tx") + "', N'Transaction')"));
        exec("COMMIT");
        assertEquals(0, get(b, res("tx"), "Exclusive", "Session", 0), "released by COMMIT");
        assertEquals(-1, get(b, res("se"), "Exclusive", "Session", 0), "the session lock outlives the transaction");
        exec("BEGIN TRAN");
        assertEquals(0, get(conn, res("tx2"), "Shared", "Transaction", 0));
        exec("ROLLBACK");
        assertEquals(0, get(b, res("tx2"), "Exclusive", "Session", 0), "released by ROLLBACK");
        assertEquals(-1, get(b, res("se"), "Exclusive", "Session", 0));
    }

    @Test
    void transactionOwnerOutsideATransactionIsMinus999WithMessage15626() throws Exception {
        try (Statement st = conn.createStatement()) {
            int r = firstInt(st, st.execute("DECLARE @r int; EXEC @r = sp_getapplock @Resource = N'" + res("no")
                    + "', @LockMode = N'Exclusive'; SELECT @r;"));
            assertEquals(-999, r);
            assertTrue(hasWarning(st.getWarnings(), 15626), "INFO 15626");
        }
        Connection b = session();
        assertEquals(0, get(b, res("no"), "Exclusive", "Session", 0), "nothing was locked");
    }

    @Test
    void anUnknownLockModeIsMinus999WithMessage15625() throws Exception {
        try (Statement st = conn.createStatement()) {
            int r = firstInt(st, st.execute("DECLARE @r int; EXEC @r = sp_getapplock @Resource = N'" + res("m")
                    + "', @LockMode = N'Bogus', @LockOwner = N'Session'; SELECT @r;"));
            assertEquals(-999, r);
            assertTrue(hasWarning(st.getWarnings(), 15625), "INFO 15625");
        }
    }

    @Test
    void releasingALockNotHeldIsError1223AndMinus999AndTheBatchGoesOn() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "_r] ([r] int NULL)");
        try {
            Connection b = session();
            assertEquals(0, get(conn, res("n"), "Exclusive", "Session", 0));
            SQLException e = assertError(1223, b, "DECLARE @r int; EXEC @r = sp_releaseapplock @Resource = N'"
                    + res("n") + "', @LockOwner = N'Session'; INSERT INTO [dbo].[" + table + "_r] ([r]) VALUES (@r);");
            assertEquals("Cannot release the application lock (Database Principal: 'public', Resource: '" + res("n")
                    + "') because it is not currently held.", e.getMessage());
            assertEquals(-999, scalar("SELECT [r] FROM [dbo].[" + table + "_r]"), "the return code, stored by the"
                    + " rest of the batch");
            assertEquals(-1, get(b, res("n"), "Exclusive", "Session", 0), "the holder's lock is untouched");
            exec("BEGIN TRAN"); // the session's lock is not its transaction's
            assertError(1223, "EXEC sp_releaseapplock @Resource = N'" + res("n") + "', @LockOwner = N'Transaction'");
            exec("ROLLBACK");
        } finally {
            dropIfExists(table + "_r");
        }
    }

    @Test
    void releasingATransactionLockOutsideATransactionIsError3918() {
        assertError(3918, "EXEC sp_releaseapplock @Resource = N'" + res("x") + "'");
    }

    @Test
    void callAndParameterErrors() throws Exception {
        String r = lit(res("e"));
        assertError(201, "EXEC sp_getapplock @Resource = " + r);
        assertError(8145, "EXEC sp_getapplock @Resource = " + r + ", @LockMode = N'Shared', @Bogus = 1");
        assertError(8144, "EXEC sp_releaseapplock " + r + ", N'Session', N'public', 1");
        assertError(1224, "EXEC sp_getapplock NULL, N'Shared', N'Session'");
        assertError(1227, "EXEC sp_getapplock " + r + ", N'Shared', N'Session', -5");
        assertError(1202, "EXEC sp_getapplock " + r + ", N'Shared', N'Session', 0, N'nobody'");
        assertError(3918, "SELECT APPLOCK_MODE(N'public', " + r + ", N'Transaction')");
        assertEquals("NoLock", scalar("SELECT APPLOCK_MODE(N'public', " + r + ", N'Session')"), "nothing was locked");
    }

    @Test
    void everyGrantNeedsItsOwnRelease() throws Exception {
        Connection b = session();
        assertEquals(0, get(conn, res("twice"), "Shared", "Session", 0));
        assertEquals(0, get(conn, res("twice"), "Exclusive", "Session", 0), "converted to the stronger mode");
        assertEquals(0, release(conn, res("twice"), "Session"));
        assertEquals("Exclusive", applockMode(conn, res("twice"), "Session"), "still held in the strongest mode");
        assertEquals(-1, get(b, res("twice"), "Shared", "Session", 0));
        assertEquals(0, release(conn, res("twice"), "Session"));
        assertEquals("NoLock", applockMode(conn, res("twice"), "Session"));
        assertEquals(0, get(b, res("twice"), "Shared", "Session", 0));
    }

    // ---- compatibility -------------------------------------------------------------------------------------------

    @Test
    void sharedLocksAreCompatibleExclusiveIsNot() throws Exception {
        Connection b = session();
        Connection c = session();
        assertEquals(0, get(conn, res("s"), "Shared", "Session", 0));
        assertEquals(0, get(b, res("s"), "Shared", "Session", 0), "S with S");
        assertEquals(-1, get(c, res("s"), "Exclusive", "Session", 0), "X with S");
        assertEquals(0, get(c, res("s"), "Update", "Session", 0), "U with S");
        assertEquals(0, release(conn, res("s"), "Session"));
        assertEquals(0, release(b, res("s"), "Session"));
        assertEquals(-1, get(b, res("s"), "Exclusive", "Session", 0), "X with the remaining U");
        assertEquals(0, release(c, res("s"), "Session"));
        assertEquals(0, get(b, res("s"), "Exclusive", "Session", 0), "X once nobody holds a lock");
    }

    @Test
    void theIntentAndUpdateModesFollowTheCompatibilityMatrix() throws Exception {
        Connection b = session();
        assertEquals(0, get(conn, res("u"), "Update", "Session", 0));
        assertEquals(-1, get(b, res("u"), "Update", "Session", 0), "U with U");
        assertEquals(0, get(b, res("u"), "IntentShared", "Session", 0), "IS with U");
        assertEquals(-1, get(b, res("u"), "IntentExclusive", "Session", 0), "IX with U");
        assertEquals(0, get(conn, res("ix"), "IntentExclusive", "Session", 0));
        assertEquals(0, get(b, res("ix"), "IntentExclusive", "Session", 0), "IX with IX");
        assertEquals(-1, get(b, res("ix"), "Shared", "Session", 0), "S with IX");
        assertEquals(0, get(conn, res("is"), "IntentShared", "Session", 0));
        assertEquals(-1, get(b, res("is"), "Exclusive", "Session", 0), "X with IS");
        assertEquals(0, get(conn, res("six"), "Shared", "Session", 0));
        assertEquals(0, get(conn, res("six"), "IntentExclusive", "Session", 0));
        assertEquals("SharedIntentExclusive", applockMode(conn, res("six"), "Session"));
        assertEquals(0, get(b, res("six"), "IntentShared", "Session", 0), "IS with SIX");
        assertEquals(-1, get(b, res("six"), "Shared", "Session", 0), "S with SIX");
    }

    // ---- deadlocks -----------------------------------------------------------------------------------------------

    @Test
    void anApplockRequestChosenAsDeadlockVictimReturnsMinus3AndKeepsItsTransaction() throws Exception {
        Connection a = session();
        Connection b = session();
        exec(a, "SET DEADLOCK_PRIORITY LOW");
        exec(a, "BEGIN TRAN");
        exec(a, "UPDATE " + t() + " SET [v] = 11 WHERE [id] = 1"); // a holds the table's (or row's) lock
        exec(b, "BEGIN TRAN");
        assertEquals(0, get(b, res("dl"), "Exclusive", "Transaction", -1));
        Future<Integer> bUpdate = inThread(() -> {
            exec(b, "UPDATE " + t() + " SET [v] = 12 WHERE [id] = 1"); // waits for a
            return 0;
        });
        assertStillWaiting(bUpdate);
        try (Statement st = a.createStatement(); ResultSet rs = st.executeQuery("DECLARE @r int; EXEC @r ="
                + " sp_getapplock @Resource = N'" + res("dl") + "', @LockMode = N'Exclusive', @LockTimeout = -1;"
                + " SELECT @r, @@TRANCOUNT;")) {
            assertTrue(rs.next());
            assertEquals(-3, rs.getInt(1), "the request is the deadlock victim");
            assertEquals(1, rs.getInt(2), "and its transaction is not rolled back");
        }
        assertStillWaiting(bUpdate);
        exec(a, "ROLLBACK");
        assertEquals(0, finished(bUpdate));
        exec(b, "COMMIT");
        assertEquals(12, scalar("SELECT [v] FROM " + t() + " WHERE [id] = 1"));
    }

    @Test
    void aTableLockRequestChosenAsDeadlockVictimIs1205AndReleasesItsApplock() throws Exception {
        Connection a = session();
        Connection b = session();
        exec(b, "SET DEADLOCK_PRIORITY LOW");
        exec(a, "BEGIN TRAN");
        exec(a, "UPDATE " + t() + " SET [v] = 11 WHERE [id] = 1");
        exec(b, "BEGIN TRAN");
        assertEquals(0, get(b, res("dl2"), "Exclusive", "Transaction", -1));
        Future<Integer> aGet = inThread(() -> get(a, res("dl2"), "Exclusive", "Transaction", -1)); // waits for b
        assertStillWaiting(aGet);
        SQLException e = assertError(1205, b, "UPDATE " + t() + " SET [v] = 12 WHERE [id] = 1");
        assertNotNull(e.getMessage());
        assertEquals(0, (int) (Integer) scalarOn(b, "SELECT @@TRANCOUNT"), "the victim's transaction is rolled back");
        assertEquals(1, finished(aGet), "granted once the victim's application lock went with its transaction");
        exec(a, "COMMIT");
        assertEquals(11, scalar("SELECT [v] FROM " + t() + " WHERE [id] = 1"));
        assertFalse(a.isClosed());
    }
}
