package io.deltafunnel.mssql.channel;

import java.sql.SQLException;
import java.util.List;

import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.SqlServerErrors;
import io.deltafunnel.mssql.SqlStatements;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.BoundColumn;

import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One SQL Server session as a {@code BulkLoadSession} uses it: plain statements, parameterised queries and updates,
 * the transaction, and the bulk write of one Arrow batch. Everything a run does on its target goes through one
 * channel, so that {@code transaction=run} covers the data and the finalisation SQL on the same session.
 *
 * <p>Two implementations: {@link JdbcSqlChannel} (mssql-jdbc, {@code bulkEncoder=driver}) and
 * {@link io.deltafunnel.mssql.direct.DirectSqlChannel} (the project's own TDS client, {@code bulkEncoder=direct}).
 * Failures are {@link SQLException}s carrying SQL Server's error number ({@link SQLException#getErrorCode()}) and,
 * for connection failures, an SQLState of class 08, so that {@link SqlServerErrors} classifies both alike.
 *
 * <p>Parameters are bound, never concatenated: {@code ?} placeholders, values of type String, Long, Integer or null.
 * The channel owns its connection; {@link #close()} closes it (rolling back what is not committed). Not thread-safe.
 */
public interface SqlChannel extends SqlStatements, AutoCloseable {

    /** False starts a transaction at the next statement (like JDBC); true commits nothing and ends the mode. */
    void setAutoCommit(boolean autoCommit) throws SQLException;

    boolean getAutoCommit() throws SQLException;

    void commit() throws SQLException;

    void rollback() throws SQLException;

    boolean isClosed();

    /** Whether temporal values reach the server as text (the driver's default) rather than as native types. */
    boolean temporalAsText();

    /**
     * Null when this channel can bulk-write every column of {@code columns} (bound from {@code schema}) into
     * {@code destination}, else why not (naming the column). The
     * session asks before it writes anything, so that it can fall back to another channel.
     */
    default String cannotWrite(TableName destination, Schema schema, List<BoundColumn> columns)
            throws SQLException {
        return null;
    }

    /**
     * Bulk-writes every row of {@code batch} into {@code destination} with the settings' bulk options. A batch not
     * {@linkplain BulkBatch#validated() validated} yet is validated first, so that nothing is sent unless every
     * value fits. The batch's root stays the caller's.
     *
     * @throws io.deltafunnel.mssql.bind.ValueOutOfRangeException a value does not fit its target column (nothing sent)
     */
    void bulkWrite(TableName destination, BulkBatch batch, BulkLoadSettings settings) throws SQLException;

    /**
     * Runs a parameterised batch to its end: every result of every statement in it (row counts, result sets) is
     * read and dropped, so that an error raised by any of its statements, not only the first, fails the call. For
     * user SQL (the hooks); the direct channel reads whole replies anyway.
     */
    default void executeAll(String sql, Object... params) throws SQLException {
        update(sql, params);
    }

    /** The line of the batch SQL Server named in {@code e}'s error (1-based), or 0 when the channel does not know it. */
    default int errorLine(SQLException e) {
        return 0;
    }

    /** A short name for logs: {@code driver} or {@code direct}. */
    String encoder();

    /**
     * Ends the session without ending its transaction: the connection is dropped, SQL Server rolls back what was
     * not committed and releases the session's locks (application locks included) when it has ended the session.
     * Nothing is sent that could commit ({@link #setAutoCommit}{@code (true)} would commit an open transaction). A
     * pooled connection is evicted, never handed to the next user. For a channel whose transaction state is in
     * doubt (a failed rollback, a failed lock release, a message broken off). Never throws; idempotent.
     */
    default void abort() {
        try {
            close();
        } catch (SQLException | RuntimeException e) {
            // the session is gone either way
        }
    }

    @Override
    void close() throws SQLException;
}
