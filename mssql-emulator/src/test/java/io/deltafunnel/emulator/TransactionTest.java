package io.deltafunnel.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.deltafunnel.emulator.exec.DdlHandler;
import io.deltafunnel.emulator.fidelity.EmulatorServer;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import com.microsoft.sqlserver.jdbc.SQLServerException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Types;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** JDBC and T-SQL transactions, rollback on disconnect, the transactional-DDL rule. */
class TransactionTest {
    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer();

    private static void create(Connection c, String t) throws Exception {
        TestSupport.exec(c, "CREATE TABLE [dbo].[" + t + "] ([id] INT NOT NULL PRIMARY KEY, [v] NVARCHAR(10) NULL)");
    }

    @Test
    void jdbcCommitAndRollback() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator()); Connection other = TestSupport.connect(SERVER.emulator())) {
            create(c, "tx_jdbc");
            c.setAutoCommit(false);
            TestSupport.exec(c, "INSERT INTO [dbo].[tx_jdbc] VALUES (1, N'a')");
            assertEquals(1, ((Number) TestSupport.scalar(c, "SELECT @@TRANCOUNT")).intValue());
            // READ COMMITTED: another session's reader waits for the uncommitted insert (here: at once 1222)
            TestSupport.exec(other, "SET LOCK_TIMEOUT 0");
            assertEquals(1222, assertThrows(SQLServerException.class,
                    () -> TestSupport.count(other, "[dbo].[tx_jdbc]")).getErrorCode());
            TestSupport.exec(other, "SET LOCK_TIMEOUT -1");
            c.rollback();
            assertEquals(0L, TestSupport.count(c, "[dbo].[tx_jdbc]"));
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO [dbo].[tx_jdbc] VALUES (?, ?)")) {
                for (int i = 1; i <= 3; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "v" + i);
                    ps.executeUpdate();
                }
            }
            c.commit();
            assertEquals(3L, TestSupport.count(other, "[dbo].[tx_jdbc]"));
            c.setAutoCommit(true);
            assertEquals(0, ((Number) TestSupport.scalar(c, "SELECT @@TRANCOUNT")).intValue());
        }
    }

    @Test
    void tsqlTransactions() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            create(c, "tx_tsql");
            TestSupport.exec(c, "BEGIN TRAN; INSERT INTO [dbo].[tx_tsql] VALUES (1, N'a'); ROLLBACK");
            assertEquals(0L, TestSupport.count(c, "[dbo].[tx_tsql]"));
            TestSupport.exec(c, "BEGIN TRANSACTION INSERT INTO [dbo].[tx_tsql] VALUES (2, N'b') BEGIN TRAN");
            assertEquals(2, ((Number) TestSupport.scalar(c, "SELECT @@TRANCOUNT")).intValue());
            TestSupport.exec(c, "COMMIT TRAN");
            assertEquals(1, ((Number) TestSupport.scalar(c, "SELECT @@TRANCOUNT")).intValue());
            TestSupport.exec(c, "IF @@TRANCOUNT > 0 COMMIT TRAN");
            assertEquals(0, ((Number) TestSupport.scalar(c, "SELECT @@TRANCOUNT")).intValue());
            assertEquals(1L, TestSupport.count(c, "[dbo].[tx_tsql]"));
            assertEquals(3902, assertThrows(SQLServerException.class, () -> TestSupport.exec(c, "COMMIT"))
                    .getErrorCode());
        }
    }

    @Test
    void failedStatementInsideTransactionKeepsEarlierWork() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            create(c, "tx_stmt");
            c.setAutoCommit(false);
            TestSupport.exec(c, "INSERT INTO [dbo].[tx_stmt] VALUES (1, N'a')");
            assertThrows(SQLServerException.class,
                    () -> TestSupport.exec(c, "INSERT INTO [dbo].[tx_stmt] VALUES (1, N'dup')"));
            c.commit();
            assertEquals(1L, TestSupport.count(c, "[dbo].[tx_stmt]"));
        }
    }

    @Test
    void abruptDisconnectRollsBack() throws Exception {
        try (Connection setup = TestSupport.connect(SERVER.emulator())) {
            create(setup, "tx_drop");
        }
        ExecutorService ex = Executors.newSingleThreadExecutor();
        try {
            Connection c = TestSupport.connect(SERVER.emulator());
            c.setAutoCommit(false);
            TestSupport.exec(c, "INSERT INTO [dbo].[tx_drop] VALUES (1, N'lost')");
            c.abort(ex); // closes the socket without sending a rollback
        } finally {
            ex.shutdown();
        }
        TestSupport.awaitSessionsClosed(SERVER.emulator(), 0);
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            assertEquals(0L, TestSupport.count(c, "[dbo].[tx_drop]"));
            // the row lock is gone too: the same key can be inserted at once
            TestSupport.exec(c, "INSERT INTO [dbo].[tx_drop] VALUES (1, N'ok')");
        }
    }

    @Test
    void bulkCopyInsideUserTransaction() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            create(c, "tx_bulk");
            c.setAutoCommit(false);
            ListBulkData d = new ListBulkData().column("id", Types.INTEGER, 10, 0).column("v", Types.NVARCHAR, 10, 0)
                    .row(1, "a").row(2, "b");
            try (SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
                bc.setDestinationTableName("[dbo].[tx_bulk]");
                bc.writeToServer(d);
            }
            assertEquals(2L, TestSupport.count(c, "[dbo].[tx_bulk]"));
            c.rollback();
            assertEquals(0L, TestSupport.count(c, "[dbo].[tx_bulk]"));
        }
    }

    @Test
    void truncateInsideTransactionIsTransactional() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            create(c, "tx_trunc");
            TestSupport.exec(c, "INSERT INTO [dbo].[tx_trunc] VALUES (1, N'a'), (2, N'b')");
            c.setAutoCommit(false);
            TestSupport.exec(c, "TRUNCATE TABLE [dbo].[tx_trunc]");
            assertEquals(0L, TestSupport.count(c, "[dbo].[tx_trunc]"));
            c.rollback();
            assertEquals(2L, TestSupport.count(c, "[dbo].[tx_trunc]"));
            c.setAutoCommit(true);
            TestSupport.exec(c, "TRUNCATE TABLE [dbo].[tx_trunc]");
            assertEquals(0L, TestSupport.count(c, "[dbo].[tx_trunc]"));
        }
    }

    @Test
    void createTableInsideTransactionIsUndoneOnRollback() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            c.setAutoCommit(false);
            TestSupport.exec(c, "CREATE TABLE [dbo].[tx_ddl] ([id] INT NOT NULL)");
            TestSupport.exec(c, "INSERT INTO [dbo].[tx_ddl] VALUES (1)");
            TestSupport.exec(c, "SELECT TOP 0 * INTO [dbo].[tx_ddl_copy] FROM [dbo].[tx_ddl]");
            c.rollback();
            assertNull(TestSupport.scalar(c, "SELECT OBJECT_ID(N'[dbo].[tx_ddl]', N'U')"));
            assertNull(TestSupport.scalar(c, "SELECT OBJECT_ID(N'[dbo].[tx_ddl_copy]')"));
            TestSupport.exec(c, "CREATE TABLE [dbo].[tx_ddl] ([id] INT NOT NULL)");
            TestSupport.exec(c, "INSERT INTO [dbo].[tx_ddl] VALUES (1)");
            c.commit();
        }
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            assertEquals(1L, TestSupport.count(c, "[dbo].[tx_ddl]"));
        }
    }

    @Test
    void otherDdlInsideTransactionIsRefusedClearly() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            create(c, "tx_refuse");
            c.setAutoCommit(false);
            TestSupport.exec(c, "INSERT INTO [dbo].[tx_refuse] VALUES (1, N'a')");
            SQLServerException e = assertThrows(SQLServerException.class,
                    () -> TestSupport.exec(c, "DROP TABLE [dbo].[tx_refuse]"));
            assertEquals(DdlHandler.DDL_IN_TRANSACTION, e.getErrorCode());
            assertTrue(e.getMessage().contains("DROP TABLE [dbo].[tx_refuse]"), e.getMessage());
            // the transaction is intact
            c.commit();
            assertEquals(1L, TestSupport.count(c, "[dbo].[tx_refuse]"));
        }
    }
}
