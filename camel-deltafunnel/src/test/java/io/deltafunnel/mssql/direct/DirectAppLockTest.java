package io.deltafunnel.mssql.direct;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shard claim of docs/sharding.md (step 3) sent by the direct client (sp_executesql RPC with {@code @P0}) against
 * the emulator: granted (0), refused to a mssql-jdbc session (-1), released (0), and gone with the direct session.
 * The SQL Server behaviour itself is the emulator's {@code fidelity.AppLockScenarios} (also run as an IT).
 */
class DirectAppLockTest {
    static final String CLAIM = "DECLARE @r int; EXEC @r = sp_getapplock @Resource = ?, @LockMode = N'Exclusive',"
            + " @LockOwner = N'Session', @LockTimeout = 0; SELECT @r;";
    static final String UNCLAIM = "DECLARE @r int; EXEC @r = sp_releaseapplock @Resource = ?, @LockOwner = N'Session';"
            + " SELECT @r;";

    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer();

    private static Connection jdbc() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", SERVER.emulator().user());
        p.setProperty("password", SERVER.emulator().password());
        return DriverManager.getConnection(SERVER.emulator().jdbcUrl(), p);
    }

    private static DirectSqlChannel channel() throws Exception {
        return new DirectSqlChannel(DirectTdsConnection.open(DirectTdsConnection.options().host("localhost")
                .port(SERVER.emulator().port()).database("master").user(SERVER.emulator().user())
                .password(SERVER.emulator().password()).trustServerCertificate(true)));
    }

    private static int direct(DirectSqlChannel c, String sql, String resource) throws SQLException {
        List<Object[]> rows = c.query(sql, resource);
        assertEquals(1, rows.size());
        return ((Number) rows.get(0)[0]).intValue();
    }

    private static int jdbcClaim(Connection c, String resource) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(CLAIM)) {
            ps.setString(1, resource);
            try (ResultSet rs = ps.executeQuery()) {
                assertTrue(rs.next());
                return rs.getInt(1);
            }
        }
    }

    @Test
    void theDirectClientClaimsAndReleasesAShard() throws Exception {
        String shard = "deltafunnel:load-1:0";
        try (Connection other = jdbc()) {
            try (DirectSqlChannel c = channel()) {
                assertEquals(0, direct(c, CLAIM, shard));
                assertEquals(-1, jdbcClaim(other, shard), "a second runner is refused");
                assertEquals(0, direct(c, CLAIM, shard), "the holder's own second claim is granted, and counted");
                assertEquals(0, direct(c, UNCLAIM, shard));
                assertEquals(-1, jdbcClaim(other, shard), "still held once: the second grant needs its release");
                assertEquals(0, direct(c, UNCLAIM, shard));
                assertEquals(0, jdbcClaim(other, shard));
                assertEquals(-1, direct(c, CLAIM, shard));
            }
            String second = "deltafunnel:load-1:1";
            try (DirectSqlChannel c = channel()) {
                assertEquals(0, direct(c, CLAIM, second));
            }
            // the direct session ended: its claim went with it (the server may notice the close a moment later)
            try (PreparedStatement ps = other.prepareStatement(CLAIM.replace("@LockTimeout = 0", "@LockTimeout = 60000"))) {
                ps.setString(1, second);
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertTrue(rs.getInt(1) >= 0, "granted");
                }
            }
        }
    }
}
