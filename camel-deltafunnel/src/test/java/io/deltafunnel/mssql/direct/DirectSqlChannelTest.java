package io.deltafunnel.mssql.direct;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;

import io.deltafunnel.mssql.SqlServerErrors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The direct channel's SQL surface (parameters, result sets, transactions, errors) against the emulator. */
class DirectSqlChannelTest {

    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(b -> b.port(0).sinkMode(false));

    @BeforeAll
    static void start() throws Exception {
        try (Connection c = jdbc(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE [dbo].[kv] ([k] nvarchar(100) NOT NULL PRIMARY KEY, [v] bigint NULL, [n] int NULL)");
        }
    }

    static Connection jdbc() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", SERVER.emulator().user());
        p.setProperty("password", SERVER.emulator().password());
        return DriverManager.getConnection(SERVER.emulator().jdbcUrl(), p);
    }

    static DirectSqlChannel channel() throws Exception {
        return new DirectSqlChannel(DirectTdsConnection.open(DirectTdsConnection.options().host("localhost")
                .port(SERVER.emulator().port()).database("master").user(SERVER.emulator().user()).password(SERVER.emulator().password())
                .trustServerCertificate(true)));
    }

    static long jdbcCount(String key) throws SQLException {
        try (Connection c = jdbc(); var ps = c.prepareStatement("SELECT COUNT(*) FROM [dbo].[kv] WHERE [k] = ?")) {
            ps.setString(1, key);
            try (var rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Test
    void placeholdersAreNumberedOutsideStringsIdentifiersAndComments() {
        assertEquals("SELECT '?', [a?b], @P0 -- ?\n, @P1 /* ? */ WHERE x = @P2 AND y = 'it''s ?'",
                RpcRequestBuilder.numberPlaceholders(
                        "SELECT '?', [a?b], ? -- ?\n, ? /* ? */ WHERE x = ? AND y = 'it''s ?'"));
    }

    @Test
    void boundParametersRoundTripAndAreNeverSqlText() throws Exception {
        String hostile = "x'); DROP TABLE [dbo].[kv]; --? ñ😀";
        try (DirectSqlChannel c = channel()) {
            assertEquals(1, c.update("INSERT INTO [dbo].[kv] ([k], [v], [n]) VALUES (?, ?, ?)", hostile, 42L, 7));
            assertEquals(1, c.update("INSERT INTO [dbo].[kv] ([k], [v], [n]) VALUES (?, ?, ?)", "nulls", null, null));
            List<Object[]> rows = c.query("SELECT [k], [v], [n] FROM [dbo].[kv] WHERE [k] = ?", hostile);
            assertEquals(1, rows.size());
            assertArrayEquals(new Object[] {hostile, 42L, 7}, rows.get(0));
            List<Object[]> nulls = c.query("SELECT [v], [n] FROM [dbo].[kv] WHERE [k] = ?", "nulls");
            assertArrayEquals(new Object[] {null, null}, nulls.get(0));
            assertTrue(c.query("SELECT [k] FROM [dbo].[kv] WHERE [k] = ?", "absent").isEmpty());
        }
        assertEquals(1, jdbcCount(hostile));
    }

    @Test
    void rollbackDiscardsAndCommitKeepsTheTransactionsWork() throws Exception {
        try (DirectSqlChannel c = channel()) {
            c.setAutoCommit(false);
            assertFalse(c.getAutoCommit());
            c.update("INSERT INTO [dbo].[kv] ([k], [v]) VALUES (?, ?)", "rolled", 1L);
            assertEquals(1, c.query("SELECT [k] FROM [dbo].[kv] WHERE [k] = ?", "rolled").size(),
                    "visible inside the transaction");
            c.rollback();
            assertEquals(0, c.query("SELECT [k] FROM [dbo].[kv] WHERE [k] = ?", "rolled").size());
            c.update("INSERT INTO [dbo].[kv] ([k], [v]) VALUES (?, ?)", "committed", 2L);
            c.commit();
            c.setAutoCommit(true);
            assertTrue(c.getAutoCommit());
        }
        assertEquals(1, jdbcCount("committed"));
        assertEquals(0, jdbcCount("rolled"));
    }

    @Test
    void closingWithAnOpenTransactionRollsItBack() throws Exception {
        DirectSqlChannel c = channel();
        c.setAutoCommit(false);
        c.update("INSERT INTO [dbo].[kv] ([k], [v]) VALUES (?, ?)", "abandoned", 1L);
        c.close();
        // The server rolls back what a closed session did not commit.
        for (int i = 0; i < 100 && SERVER.emulator().openConnections() > 0; i++) {
            Thread.sleep(20);
        }
        assertEquals(0, jdbcCount("abandoned"));
    }

    @Test
    void transactionDescriptorFollowsTheServersEnvChanges() throws Exception {
        try (DirectTdsConnection c = DirectTdsConnection.open(DirectTdsConnection.options().host("localhost")
                .port(SERVER.emulator().port()).user(SERVER.emulator().user()).password(SERVER.emulator().password())
                .trustServerCertificate(true))) {
            assertFalse(c.inTransaction());
            c.executeBatch("BEGIN TRANSACTION");
            assertTrue(c.inTransaction());
            c.execute("INSERT INTO [dbo].[kv] ([k], [v]) VALUES (?, ?)", "in-tx", 3L);
            c.executeBatch("COMMIT TRANSACTION");
            assertFalse(c.inTransaction());
        }
        assertEquals(1, jdbcCount("in-tx"));
    }

    @Test
    void serverErrorsKeepTheirNumberAndTheChannelStaysUsable() throws Exception {
        try (DirectSqlChannel c = channel()) {
            SQLException missing = assertThrows(SQLException.class,
                    () -> c.query("SELECT * FROM [dbo].[no_such_table]"));
            assertEquals(208, missing.getErrorCode());
            assertFalse(SqlServerErrors.isTransient(missing));
            c.update("INSERT INTO [dbo].[kv] ([k]) VALUES (?)", "pk");
            SQLException duplicate = assertThrows(SQLException.class,
                    () -> c.update("INSERT INTO [dbo].[kv] ([k]) VALUES (?)", "pk"));
            assertEquals(2627, duplicate.getErrorCode());
            assertFalse(c.isClosed());
            assertEquals(1, c.query("SELECT [k] FROM [dbo].[kv] WHERE [k] = ?", "pk").size());
        }
    }

    @Test
    void aBrokenConnectionIsAConnectionFailure() throws Exception {
        DirectSqlChannel c = channel();
        c.close();
        SQLException e = assertThrows(SQLException.class, () -> c.execute("SELECT 1"));
        assertTrue(SqlServerErrors.isConnectionFailure(e), e.getSQLState());
    }
}
