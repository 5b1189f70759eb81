package io.deltafunnel.emulator;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import com.microsoft.sqlserver.jdbc.SQLServerBulkCopyOptions;
import com.microsoft.sqlserver.jdbc.SQLServerException;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** failBulkLoad, dropConnectionDuringBulkLoad and failStatement. */
class FaultInjectionTest {
    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer();

    @AfterEach
    void clear() {
        SERVER.emulator().faults().clear();
    }

    private static ListBulkData rows(int n) {
        ListBulkData d = new ListBulkData().column("id", Types.INTEGER, 10, 0).column("v", Types.NVARCHAR, 20, 0);
        for (int i = 1; i <= n; i++) {
            d.row(i, "v" + i);
        }
        return d;
    }

    private static void create(String table) throws SQLException {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[" + table + "] ([id] INT NOT NULL, [v] NVARCHAR(20) NULL)");
        }
    }

    private static void load(Connection c, String table, int batchSize, ListBulkData data) throws SQLException {
        try (SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
            bc.setDestinationTableName("[dbo].[" + table + "]");
            SQLServerBulkCopyOptions o = new SQLServerBulkCopyOptions();
            o.setBatchSize(batchSize);
            bc.setBulkCopyOptions(o);
            bc.writeToServer(data);
        }
    }

    private static long count(String table) throws SQLException {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            return TestSupport.count(c, "[dbo].[" + table + "]");
        }
    }

    @Test
    void failBulkLoadWithDeadlock() throws Exception {
        create("f1205");
        SERVER.emulator().faults().failBulkLoad(1, 3, 1205);
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            SQLServerException e = assertThrows(SQLServerException.class, () -> load(c, "f1205", 0, rows(10)));
            assertEquals(1205, e.getErrorCode());
            assertTrue(e.getMessage().contains("deadlock victim"), e.getMessage());
        }
        assertEquals(0L, count("f1205"));
    }

    @Test
    void failSecondRoundKeepsFirst() throws Exception {
        create("f2nd");
        SERVER.emulator().faults().failBulkLoad(2, 1, 4060);
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            SQLServerException e = assertThrows(SQLServerException.class, () -> load(c, "f2nd", 5, rows(10)));
            assertEquals(4060, e.getErrorCode());
        }
        assertEquals(5L, count("f2nd"));
    }

    @Test
    void droppedConnectionCommitsNothing() throws Exception {
        create("fdrop");
        SERVER.emulator().faults().dropConnectionDuringBulkLoad(1, 4);
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            SQLException e = assertThrows(SQLException.class, () -> load(c, "fdrop", 0, rows(50)));
            assertTrue(!(e.getErrorCode() > 0 && e.getErrorCode() < 50000) || e.getErrorCode() == 0,
                    "expected a connection failure, got server error " + e.getErrorCode());
        }
        assertEquals(0L, count("fdrop"));
    }

    @Test
    void droppedConnectionRollsBackOpenTransaction() throws Exception {
        create("fdroptx");
        SERVER.emulator().faults().dropConnectionDuringBulkLoad(1, 0);
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            c.setAutoCommit(false);
            TestSupport.exec(c, "INSERT INTO [dbo].[fdroptx] VALUES (100, N'before')");
            assertThrows(SQLException.class, () -> load(c, "fdroptx", 0, rows(5)));
        }
        TestSupport.awaitSessionsClosed(SERVER.emulator(), 0);
        assertEquals(0L, count("fdroptx"));
    }

    @Test
    void failStatementOnce() throws Exception {
        create("fstmt");
        SERVER.emulator().faults().failStatement("INSERT INTO [dbo].[fstmt]", 2627);
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            SQLServerException e = assertThrows(SQLServerException.class,
                    () -> TestSupport.exec(c, "INSERT INTO [dbo].[fstmt] VALUES (1, N'x')"));
            assertEquals(2627, e.getErrorCode());
            TestSupport.exec(c, "INSERT INTO [dbo].[fstmt] VALUES (1, N'x')");
            assertEquals(1L, TestSupport.count(c, "[dbo].[fstmt]"));
        }
    }

    @Test
    void failStatementAppliesToRpc() throws Exception {
        create("frpc");
        SERVER.emulator().faults().failStatement("[frpc]", 1222);
        try (Connection c = TestSupport.connect(SERVER.emulator());
                java.sql.PreparedStatement ps = c.prepareStatement("INSERT INTO [dbo].[frpc] VALUES (?, ?)")) {
            ps.setInt(1, 1);
            ps.setString(2, "a");
            assertEquals(1222, assertThrows(SQLServerException.class, ps::executeUpdate).getErrorCode());
            assertEquals(1, ps.executeUpdate());
        }
    }

    @Test
    void aStalledBulkLoadHoldsItsReplyUntilReleased() throws Exception {
        create("fstall");
        SERVER.emulator().faults().stallBulkLoad(2);
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            c.setAutoCommit(false);
            java.util.concurrent.CompletableFuture<Void> loading = java.util.concurrent.CompletableFuture.runAsync(() -> {
                try {
                    load(c, "fstall", 5, rows(10));
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertTrue(SERVER.emulator().faults().awaitStalls(1, 60_000), "the second bulk load did not stall");
            assertEquals(1, SERVER.emulator().faults().stalledNow());
            // the client is inside its bulk load: the reply to the second round has not been sent
            assertTrue(!loading.isDone());
            SERVER.emulator().faults().releaseStalls();
            loading.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(0, SERVER.emulator().faults().stalledNow());
            c.commit();
        }
        assertEquals(10L, count("fstall"));
    }

    @Test
    void aClientGoneDuringAStallLeavesNothingOnceReleased() throws Exception {
        create("fstallgone");
        SERVER.emulator().faults().stallBulkLoad(2);
        Connection c = TestSupport.connect(SERVER.emulator());
        c.setAutoCommit(false);
        java.util.concurrent.CompletableFuture<Void> loading = java.util.concurrent.CompletableFuture.runAsync(() -> {
            try {
                load(c, "fstallgone", 5, rows(10));
            } catch (SQLException e) {
                // expected: the connection is aborted below
            }
        });
        assertTrue(SERVER.emulator().faults().awaitStalls(1, 60_000), "the second bulk load did not stall");
        // like a killed client process: the socket goes away while the server holds the reply
        c.abort(Runnable::run);
        SERVER.emulator().faults().releaseStalls();
        loading.get(60, java.util.concurrent.TimeUnit.SECONDS);
        TestSupport.awaitSessionsClosed(SERVER.emulator(), 0);
        assertEquals(0L, count("fstallgone"));
    }

    @Test
    void theCommandLineArmsAStall() {
        Main.Options o = Main.parse(new String[] {"--password", "x", "--stall-bulk-load", "3"});
        assertEquals(java.util.List.of(3), o.stalls);
        assertThrows(IllegalArgumentException.class,
                () -> Main.parse(new String[] {"--password", "x", "--stall-bulk-load", "0"}));
    }
}
