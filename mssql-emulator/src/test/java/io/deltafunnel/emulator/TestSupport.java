package io.deltafunnel.emulator;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/** Helpers shared by the tests: connecting through mssql-jdbc and small queries. */
final class TestSupport {
    private TestSupport() {
    }

    static Connection connect(MssqlEmulator emu) throws SQLException {
        return connect(emu, "");
    }

    /** {@code extra} is appended to the JDBC URL, e.g. ";packetSize=4096". */
    static Connection connect(MssqlEmulator emu, String extra) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", emu.user());
        p.setProperty("password", emu.password());
        return DriverManager.getConnection(emu.jdbcUrl() + extra, p);
    }

    static void exec(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    static long count(Connection c, String table) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Waits (bounded) until the emulator has at most {@code n} open client connections. */
    static void awaitSessionsClosed(MssqlEmulator emu, int n) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (emu.openConnections() > n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("connections still open: " + emu.openConnections());
            }
            Thread.sleep(10);
        }
    }

    static Object scalar(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getObject(1);
        }
    }
}
