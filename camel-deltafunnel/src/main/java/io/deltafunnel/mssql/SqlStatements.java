package io.deltafunnel.mssql;

import java.sql.SQLException;
import java.util.List;

/**
 * Plain statements on one SQL Server session: what code that only reads or changes the catalog needs (the target
 * catalog, the state and plan tables), without the transaction or the bulk write. The channel
 * ({@code mssql.channel.SqlChannel}) extends it. Parameters are bound, never concatenated: {@code ?}
 * placeholders, values of type String, Long, Integer or null. Failures are {@link SQLException}s carrying SQL
 * Server's error number.
 */
public interface SqlStatements {

    /** The timeout of each statement from now on, in seconds (0 = none). */
    void setQueryTimeout(int seconds);

    /** Runs a statement (or batch) without results. */
    void execute(String sql) throws SQLException;

    /** Runs a parameterised statement; returns the affected row count. */
    long update(String sql, Object... params) throws SQLException;

    /** Runs a parameterised query; returns its rows (column values in select-list order; SQL NULL as null). */
    List<Object[]> query(String sql, Object... params) throws SQLException;
}
