package io.deltafunnel.emulator.fidelity;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * The server a fidelity scenario runs against: the emulator (unit tests, everywhere) or a real SQL Server in Docker
 * ({@code *IT}, wherever Docker exists). A scenario is written once against this interface and run against both, so
 * every claim about the emulator is checked against the real server where that is possible.
 */
public interface ServerUnderTest {

    /** A JDBC URL for mssql-jdbc, without credentials. */
    String jdbcUrl();

    String user();

    String password();

    /**
     * The host to open a raw TDS connection to ({@code io.deltafunnel.emulator.RawTdsClient}); by default taken from
     * {@link #jdbcUrl()} ({@code jdbc:sqlserver://host:port;...}).
     */
    default String host() {
        String rest = jdbcUrl().substring("jdbc:sqlserver://".length());
        int end = rest.indexOf(';');
        String hostPort = end < 0 ? rest : rest.substring(0, end);
        int colon = hostPort.lastIndexOf(':');
        return colon < 0 ? hostPort : hostPort.substring(0, colon);
    }

    /** The TCP port to open a raw TDS connection to; by default taken from {@link #jdbcUrl()} (1433 if absent). */
    default int port() {
        String rest = jdbcUrl().substring("jdbc:sqlserver://".length());
        int end = rest.indexOf(';');
        String hostPort = end < 0 ? rest : rest.substring(0, end);
        int colon = hostPort.lastIndexOf(':');
        return colon < 0 ? 1433 : Integer.parseInt(hostPort.substring(colon + 1));
    }

    /** "emulator" or "sqlserver": for messages only; scenarios must not branch on it. */
    String kind();

    /** A new connection, owned (and closed) by the caller. {@code extra} is appended to the URL (";x=y"). */
    default Connection connect(String extra) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user());
        p.setProperty("password", password());
        return DriverManager.getConnection(jdbcUrl() + extra, p);
    }

    default Connection connect() throws SQLException {
        return connect("");
    }
}
