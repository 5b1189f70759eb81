package io.deltafunnel.emulator;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import com.microsoft.sqlserver.jdbc.SQLServerException;
import io.deltafunnel.tds.Login7;
import io.deltafunnel.tds.PreloginOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** mssql-jdbc against the emulator's strict listener, FEDAUTH token logins, routing and login records. */
class ConnectionSetupTest {

    @TempDir
    Path dir;

    private static Properties credentials(MssqlEmulator emu) {
        Properties p = new Properties();
        p.setProperty("user", emu.user());
        p.setProperty("password", emu.password());
        return p;
    }

    private static int selectOne(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT 1")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void driverConnectsStrictWithATrustStore() throws Exception {
        Path trust = dir.resolve("trust.p12");
        char[] pw = "trust-test".toCharArray();
        MssqlEmulator.writeTrustStore(trust, pw);
        try (MssqlEmulator emu = MssqlEmulator.builder().strictEncryption(true).start()) {
            Properties p = credentials(emu);
            p.setProperty("trustStore", trust.toString());
            p.setProperty("trustStorePassword", new String(pw));
            p.setProperty("trustStoreType", "PKCS12");
            assertTrue(emu.jdbcUrl().contains("encrypt=strict"));
            try (Connection c = DriverManager.getConnection(emu.jdbcUrl(), p)) {
                assertEquals(1, selectOne(c));
            }
            LoginRecord r = emu.loginRecords().get(0);
            assertTrue(r.strictTls());
            assertEquals(PreloginOptions.ALPN_TDS_8_0, r.alpn());
            assertEquals(Login7.TDS_8_0, r.tdsVersion());
            assertEquals(PreloginOptions.ENCRYPT_NOT_SUP, r.preloginEncryption());
            assertEquals(1, emu.encryptedSessions());
        }
    }

    @Test
    void driverIgnoresTrustServerCertificateInStrictMode() {
        try (MssqlEmulator emu = MssqlEmulator.builder().strictEncryption(true).start()) {
            // mssql-jdbc forces certificate validation for encrypt=strict: the self-signed certificate is refused
            SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(
                    emu.jdbcUrl() + ";trustServerCertificate=true;loginTimeout=10", credentials(emu)).close());
            assertTrue(e.getMessage().contains("SSL") || e.getMessage().contains("PKIX"), e.getMessage());
            assertTrue(emu.loginRecords().isEmpty());
        }
    }

    @Test
    void tds7DriverAgainstStrictListenerFails() {
        try (MssqlEmulator emu = MssqlEmulator.builder().strictEncryption(true).start()) {
            String url = "jdbc:sqlserver://localhost:" + emu.port()
                    + ";encrypt=true;trustServerCertificate=true;loginTimeout=10";
            assertThrows(SQLException.class, () -> DriverManager.getConnection(url, credentials(emu)).close());
            assertTrue(emu.loginRecords().isEmpty());
        }
    }

    @Test
    void driverLogsInWithAnAccessToken() throws Exception {
        String token = "eyJ0eXAiOiJKV1QifQ.driver-token";
        try (MssqlEmulator emu = MssqlEmulator.builder().accessTokenValidator(token::equals).start()) {
            Properties p = new Properties();
            p.setProperty("accessToken", token);
            try (Connection c = DriverManager.getConnection(emu.jdbcUrl(), p)) {
                assertEquals(1, selectOne(c));
            }
            LoginRecord r = emu.loginRecords().get(0);
            assertEquals(Login7.FEDAUTH_LIBRARY_SECURITYTOKEN, r.fedAuthLibrary());
            assertTrue(r.fedAuthEcho());
            assertEquals(token.length(), r.accessTokenLength());
            assertFalse(r.toString().contains("driver-token"), "records never hold the token");

            p.setProperty("accessToken", "eyJ0eXAiOiJKV1QifQ.wrong-token");
            SQLServerException e = assertThrows(SQLServerException.class,
                    () -> DriverManager.getConnection(emu.jdbcUrl(), p).close());
            assertEquals(18456, e.getErrorCode());
            assertFalse(e.getMessage().contains("wrong-token"));
        }
    }

    @Test
    void driverFollowsRouting() throws Exception {
        try (MssqlEmulator b = MssqlEmulator.builder().start();
                MssqlEmulator a = MssqlEmulator.builder().routeTo("localhost", b.port()).start()) {
            try (Connection c = DriverManager.getConnection(a.jdbcUrl(), credentials(a));
                    Statement s = c.createStatement()) {
                s.execute("CREATE TABLE routed_by_driver (id int)");
            }
            assertEquals(1, a.loginRecords().size());
            assertEquals(1, b.loginRecords().size());
            try (Connection onB = DriverManager.getConnection(b.jdbcUrl(), credentials(b));
                    Statement s = onB.createStatement();
                    ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM routed_by_driver")) {
                rs.next();
                assertEquals(0, rs.getInt(1), "the table was created on B");
            }
        }
    }

    @Test
    void loginRecordsHoldNoPassword() throws Exception {
        try (MssqlEmulator emu = MssqlEmulator.builder().start();
                Connection c = DriverManager.getConnection(emu.jdbcUrl(), credentials(emu))) {
            LoginRecord r = emu.loginRecords().get(0);
            assertEquals(emu.password().length(), r.passwordLength());
            assertEquals(emu.user(), r.userName());
            assertFalse(r.toString().contains(emu.password()));
        }
    }
}
