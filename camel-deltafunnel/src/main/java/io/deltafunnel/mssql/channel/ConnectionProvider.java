package io.deltafunnel.mssql.channel;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Opens a new SQL Server connection (mssql-jdbc), owned by the caller. */
@FunctionalInterface
public interface ConnectionProvider {

    Connection open() throws SQLException;

    /**
     * Whether SQL Server answers: opens a connection, runs {@code SELECT 1} and closes it. Throws SQL Server's
     * error (number and SQLState kept) when it does not.
     */
    default void ping() throws SQLException {
        try (Connection c = open(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
            rs.next();
        }
    }
}
