package io.deltafunnel.mssql;

import java.sql.Connection;
import java.sql.SQLException;

/** Opens a new SQL Server connection (mssql-jdbc), owned by the caller. */
@FunctionalInterface
public interface ConnectionProvider {
    Connection open() throws SQLException;
}
