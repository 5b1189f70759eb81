package io.deltafunnel.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.deltafunnel.emulator.fidelity.EmulatorServer;
import io.deltafunnel.emulator.semantics.SqlServerError;

import com.microsoft.sqlserver.jdbc.SQLServerException;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Login, TLS, packet sizes, cancellation and error reporting through the real driver. */
class ConnectionTest {
    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(b -> b.password("Str0ng!Passw0rd"));

    @Test
    void tlsSessionIsEncrypted() throws Exception {
        int before = SERVER.emulator().encryptedSessions();
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            assertEquals(1, ((Number) TestSupport.scalar(c, "SELECT 1")).intValue());
        }
        assertEquals(before + 1, SERVER.emulator().encryptedSessions());
        assertTrue(SERVER.emulator().jdbcUrl().contains("encrypt=true"));
        assertTrue(!SERVER.emulator().jdbcUrl().contains("password"), "jdbcUrl must not carry credentials");
    }

    @Test
    void plainConnectionWithoutTls() throws Exception {
        int before = SERVER.emulator().encryptedSessions();
        try (Connection c = TestSupport.connect(SERVER.emulator(), ";encrypt=false")) {
            assertEquals("dbo", TestSupport.scalar(c, "SELECT SCHEMA_NAME()"));
            assertTrue(((String) TestSupport.scalar(c, "SELECT @@VERSION")).contains("Microsoft SQL Server"));
        }
        assertEquals(before, SERVER.emulator().encryptedSessions());
    }

    @Test
    void wrongPasswordGives18456() {
        SQLException e = assertThrows(SQLException.class,
                () -> DriverManager.getConnection(SERVER.emulator().jdbcUrl(), SERVER.emulator().user(), "wrong"));
        assertEquals(18456, e.getErrorCode());
        assertTrue(e instanceof SQLServerException);
    }

    @Test
    void wrongUserGives18456OnPlainConnection() {
        SQLException e = assertThrows(SQLException.class,
                () -> DriverManager.getConnection(SERVER.emulator().jdbcUrl() + ";encrypt=false", "bob", SERVER.emulator().password()));
        assertEquals(18456, e.getErrorCode());
    }

    @Test
    void largeBatchesSpanManyPackets() throws Exception {
        for (int packetSize : new int[] {4096, 8000}) {
            try (Connection c = TestSupport.connect(SERVER.emulator(), ";packetSize=" + packetSize)) {
                String t = "[dbo].[big_" + packetSize + "]";
                TestSupport.exec(c, "CREATE TABLE " + t + " ([id] INT NOT NULL, [s] NVARCHAR(MAX) NULL)");
                StringBuilder sql = new StringBuilder();
                for (int i = 0; i < 500; i++) {
                    sql.append("INSERT INTO ").append(t).append(" VALUES (").append(i).append(", N'")
                            .append("é".repeat(100)).append("');\n");
                }
                TestSupport.exec(c, sql.toString());
                assertEquals(500L, TestSupport.count(c, t));
                String big = "ü😀".repeat(60_000);
                try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " VALUES (?, ?)")) {
                    ps.setInt(1, -1);
                    ps.setString(2, big);
                    ps.executeUpdate();
                }
                try (Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery("SELECT [s] FROM " + t + " WHERE [id] = -1")) {
                    rs.next();
                    assertEquals(big, rs.getString(1));
                }
                try (Statement st = c.createStatement();
                        ResultSet rs = st.executeQuery("SELECT [id], [s] FROM " + t + " ORDER BY [id]")) {
                    int n = 0;
                    while (rs.next()) {
                        n++;
                    }
                    assertEquals(501, n);
                }
            }
        }
    }

    @Test
    void queryTimeoutSendsAttentionAndConnectionStaysUsable() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator()); Statement st = c.createStatement()) {
            st.setQueryTimeout(1);
            assertThrows(SQLTimeoutException.class, () -> st.execute("WAITFOR DELAY '00:00:30'"));
            st.setQueryTimeout(0);
            assertEquals(7, ((Number) TestSupport.scalar(c, "SELECT 7")).intValue());
        }
    }

    @Test
    void cancelFromAnotherThread() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator()); Statement st = c.createStatement()) {
            CompletableFuture<Throwable> run = CompletableFuture.supplyAsync(() -> {
                try {
                    st.execute("WAITFOR DELAY '00:01:00'");
                    return null;
                } catch (SQLException e) {
                    return e;
                }
            });
            Throwable t = null;
            while (!run.isDone()) {
                st.cancel();
                try {
                    t = run.get(50, TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    // still running: cancel again (the first cancel may arrive before the request was sent)
                }
            }
            t = run.get();
            assertTrue(t instanceof SQLException, "cancelled statement must fail: " + t);
            assertTrue(t.getMessage().toLowerCase().contains("cancel"), t.getMessage());
            assertEquals(3, ((Number) TestSupport.scalar(c, "SELECT 3")).intValue());
        }
    }

    @Test
    void unsupportedStatementGetsClearError() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            SQLException e = assertThrows(SQLException.class,
                    () -> TestSupport.exec(c, "RAISERROR('boom', 16, 1)")); // DECLARE is supported now
            assertEquals(SqlServerError.UNSUPPORTED, e.getErrorCode());
            assertTrue(e.getMessage().contains("mssql-emulator does not support: RAISERROR('boom', 16, 1)"),
                    e.getMessage());
            SQLException e2 = assertThrows(SQLException.class,
                    () -> TestSupport.exec(c, "SELECT * FROM [dbo].[no_such_table]"));
            assertEquals(208, e2.getErrorCode());
            // the connection is still fine
            assertEquals(1, ((Number) TestSupport.scalar(c, "SELECT 1")).intValue());
        }
    }
}
