package io.deltafunnel.mssql.direct;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLNonTransientException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.channel.BulkBatch;
import io.deltafunnel.mssql.channel.SqlChannel;
import io.deltafunnel.tds.Collation;

import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * {@link SqlChannel} over the project's own TDS connection ({@code bulkEncoder=direct}): statements as SQL batches,
 * parameterised statements through {@code sp_executesql}, the transaction with the same SQL mssql-jdbc sends
 * ({@code set implicit_transactions on}, {@code IF @@TRANCOUNT > 0 COMMIT TRAN}, ...), and batches written by
 * {@link DirectBulkWriter} with native temporal types. Owns its {@link DirectTdsConnection}.
 *
 * <p>Failures become {@link SQLException}s: a server error keeps its number, state and message; a broken or timed-out
 * connection gets SQLState 08S01 (the driver's "communication link failure") and closes the connection, so that
 * {@link io.deltafunnel.mssql.SqlServerErrors} classifies them exactly like the driver path's. A reply the client cannot
 * decode ({@link DirectDecodeException}) closes the connection too but is permanent: a
 * {@link java.sql.SQLNonTransientException} with SQLState HY000, never retried.
 */
public final class DirectSqlChannel implements SqlChannel {

    private final DirectTdsConnection connection;
    private boolean autoCommit = true;
    private boolean broken;
    /** Per destination table: its character columns' server collations (see {@link #collations}). */
    private final Map<TableName, Map<String, Collation>> serverCollations = new HashMap<>();

    public DirectSqlChannel(DirectTdsConnection connection) {
        this.connection = connection;
    }

    @Override
    public void setQueryTimeout(int seconds) {
        connection.readTimeoutMillis(Math.max(0, seconds) * 1000);
    }

    @Override
    public void execute(String sql) throws SQLException {
        run(() -> connection.executeBatch(sql));
    }

    @Override
    public long update(String sql, Object... params) throws SQLException {
        return run(() -> connection.execute(sql, params).rowCount());
    }

    @Override
    public int errorLine(SQLException e) {
        return e.getCause() instanceof DirectTdsException d ? d.line() : 0;
    }

    @Override
    public List<Object[]> query(String sql, Object... params) throws SQLException {
        return run(() -> connection.execute(sql, params).rows());
    }

    @Override
    public void setAutoCommit(boolean on) throws SQLException {
        if (on == autoCommit) {
            return;
        }
        // What mssql-jdbc sends for Connection.setAutoCommit.
        execute(on ? "IF @@TRANCOUNT > 0 COMMIT TRAN set implicit_transactions off " : "set implicit_transactions on ");
        autoCommit = on;
    }

    @Override
    public boolean getAutoCommit() {
        return autoCommit;
    }

    @Override
    public void commit() throws SQLException {
        if (!autoCommit) {
            execute("IF @@TRANCOUNT > 0 COMMIT TRAN");
        }
    }

    @Override
    public void rollback() throws SQLException {
        if (!autoCommit) {
            execute("IF @@TRANCOUNT > 0 ROLLBACK TRAN");
        }
    }

    @Override
    public boolean isClosed() {
        return broken || connection.isClosed();
    }

    /** Always false: the direct writer sends date, time, datetime2, datetimeoffset... as native TDS types. */
    @Override
    public boolean temporalAsText() {
        return false;
    }

    /** Asks the encoder families ({@link DirectEncoders#cannotEncode}) by type alone: no vector is allocated. */
    @Override
    public String cannotWrite(TableName destination, Schema schema, List<BoundColumn> columns) throws SQLException {
        Map<String, Collation> collations = collations(destination);
        for (BoundColumn c : columns) {
            Field f = schema.getFields().get(c.sourceIndex());
            String reason = DirectEncoders.cannotEncode(c, f.getType(),
                    collations.get(c.target().name().toLowerCase(Locale.ROOT)));
            if (reason != null) {
                return new DirectUnsupportedColumnException(c.sourceName(), reason).getMessage();
            }
        }
        return null;
    }

    @Override
    public void bulkWrite(TableName destination, BulkBatch batch, BulkLoadSettings settings) throws SQLException {
        // Before anything is sent (a rejection leaves the session as it was); a no-op for a validated batch.
        batch.validate(destination);
        Map<String, Collation> collations = collations(destination);
        DirectBulkWriter writer = new DirectBulkWriter(connection).serverCollations(collations)
                .tableLock(settings.tableLock())
                .keepNulls(settings.keepNulls()).checkConstraints(settings.checkConstraints())
                .fireTriggers(settings.fireTriggers()).asciiAsVarchar(settings.asciiAsVarchar());
        run(() -> writer.write(destination, batch, settings.bulkBatchSize()));
    }

    /**
     * The character columns' collations of {@code table} as the server reports them, read once per table with the
     * metadata query mssql-jdbc's bulk copy sends ({@code SET FMTONLY ON SELECT * FROM table}): lower-case column
     * name to the 5-byte collation.
     */
    private Map<String, Collation> collations(TableName table) throws SQLException {
        Map<String, Collation> known = serverCollations.get(table);
        if (known != null) {
            return known;
        }
        DirectReply reply = run(() -> connection.executeBatchReply("SET FMTONLY ON SELECT * FROM " + table.quoted()
                + " SET FMTONLY OFF"));
        Map<String, Collation> collations = new HashMap<>();
        for (int i = 0; i < reply.columns().size() && i < reply.types().size(); i++) {
            Collation c = reply.types().get(i).collation();
            if (c != null) {
                collations.put(reply.columns().get(i).toLowerCase(Locale.ROOT), c);
            }
        }
        serverCollations.put(table, collations);
        return collations;
    }

    @Override
    public String encoder() {
        return "direct";
    }

    @Override
    public void close() {
        connection.close();
    }

    /** Closes the socket at once (what {@link #close()} does too: the direct client never pools). */
    @Override
    public void abort() {
        broken = true;
        connection.close();
    }

    /** A reply this client could not decode: permanent (SQLState HY000, no error number), never a connection failure. */
    static SQLException decodeFailure(DirectDecodeException e) {
        return new SQLNonTransientException(e.getMessage(), "HY000", 0, e);
    }

    private interface Call<T> {
        T call() throws IOException;
    }

    private <T> T run(Call<T> call) throws SQLException {
        if (isClosed()) {
            throw new SQLNonTransientConnectionException("the direct TDS connection is closed", "08003");
        }
        try {
            return call.call();
        } catch (DirectDecodeException e) {
            // The reply was read whole but not understood: the session's state is unknown, so close it, and fail
            // permanently (SQLState HY000, no 08 class): the same request would get the same reply.
            broken = true;
            connection.close();
            throw decodeFailure(e);
        } catch (DirectTdsException e) {
            if (e.number() == 0) {
                // Not a server error: the protocol or the connection failed; the session is unusable.
                broken = true;
                connection.close();
                throw new SQLException(e.getMessage(), "08S01", 0, e);
            }
            if (e.severity() >= 20) {
                broken = true; // fatal to the session: the server closes the connection
                connection.close();
            }
            throw new SQLException(e.serverMessage(), e.severity() >= 20 ? "08S01" : "S0001", e.number(), e);
        } catch (SocketTimeoutException e) {
            broken = true;
            connection.close();
            throw new SQLException("the server did not answer within the timeout; the direct connection was closed"
                    + " (the server rolls back what was not committed)", "HYT00", 0, e);
        } catch (IOException e) {
            broken = true;
            connection.close();
            throw new SQLException("the connection to SQL Server failed: " + e, "08S01", 0, e);
        } catch (RuntimeException | Error e) {
            // Thrown while a request was written or its reply read (an encoder's bug in the middle of a BULK_LOAD
            // message, say): what the server has seen is unknown, so the session is never used again.
            broken = true;
            connection.close();
            throw e;
        }
    }
}
