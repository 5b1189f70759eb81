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
