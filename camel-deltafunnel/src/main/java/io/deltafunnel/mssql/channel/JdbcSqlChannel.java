package io.deltafunnel.mssql.channel;

import java.lang.reflect.Method;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.BoundColumn;

import com.microsoft.sqlserver.jdbc.ISQLServerConnection;
import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import com.microsoft.sqlserver.jdbc.SQLServerBulkCopyOptions;
import com.microsoft.sqlserver.jdbc.SQLServerConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link SqlChannel} over an mssql-jdbc {@link Connection} ({@code bulkEncoder=driver}): batches are written with
 * {@link SQLServerBulkCopy} from {@link ArrowBulkData} (the only place a {@link BulkBatch} becomes mssql-jdbc's
 * {@code ISQLServerBulkData}). Owns the connection it is given.
 */
public final class JdbcSqlChannel implements SqlChannel {

    private static final Logger LOG = LoggerFactory.getLogger(JdbcSqlChannel.class);

    private final Connection connection;
    private final boolean temporalAsText;
    private int timeoutSeconds;

    public JdbcSqlChannel(Connection connection) {
        this.connection = connection;
        try {
            // Destination metadata read once per table instead of on every writeToServer.
            connection.unwrap(ISQLServerConnection.class).setcacheBulkCopyMetadata(true);
        } catch (SQLException | RuntimeException e) {
            LOG.debug("cannot enable cacheBulkCopyMetadata: {}", e.toString());
        }
        this.temporalAsText = sendsTemporalAsText(connection);
    }

    /** The underlying connection (still owned by this channel). */
    public Connection connection() {
        return connection;
    }

    /** The connection's sendTemporalDataTypesAsStringForBulkCopy (true, the driver default, when unknown). */
    public static boolean sendsTemporalAsText(Connection c) {
        try {
            SQLServerConnection sql = c.unwrap(SQLServerConnection.class);
            Method m = SQLServerConnection.class.getDeclaredMethod("getSendTemporalDataTypesAsStringForBulkCopy");
            m.setAccessible(true);
            return (Boolean) m.invoke(sql);
        } catch (ReflectiveOperationException | SQLException | RuntimeException e) {
            return true;
        }
    }

    @Override
    public void setQueryTimeout(int seconds) {
        this.timeoutSeconds = seconds;
    }

    @Override
    public void execute(String sql) throws SQLException {
        try (Statement st = connection.createStatement()) {
            if (timeoutSeconds > 0) {
                st.setQueryTimeout(timeoutSeconds);
            }
            st.execute(sql);
        }
    }

    @Override
    public long update(String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(sql, params)) {
            return ps.executeLargeUpdate();
        }
    }

    @Override
    public void executeAll(String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = prepare(sql, params)) {
            boolean results = ps.execute();
            // mssql-jdbc raises a statement's error only when its result is reached: read them all.
            while (results || ps.getUpdateCount() != -1) {
                if (results) {
                    try (ResultSet rs = ps.getResultSet()) {
                        while (rs.next()) {
                            // dropped
                        }
                    }
                }
                results = ps.getMoreResults();
            }
        }
    }

    @Override
    public int errorLine(SQLException e) {
        for (SQLException s = e; s != null; s = s.getNextException()) {
            if (s instanceof com.microsoft.sqlserver.jdbc.SQLServerException x && x.getSQLServerError() != null) {
                return (int) x.getSQLServerError().getLineNumber();
            }
        }
        return 0;
    }

    @Override
    public List<Object[]> query(String sql, Object... params) throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        try (PreparedStatement ps = prepare(sql, params); ResultSet rs = ps.executeQuery()) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                Object[] row = new Object[n];
                for (int i = 0; i < n; i++) {
                    row[i] = rs.getObject(i + 1);
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private PreparedStatement prepare(String sql, Object... params) throws SQLException {
        PreparedStatement ps = connection.prepareStatement(sql);
        try {
            if (timeoutSeconds > 0) {
                ps.setQueryTimeout(timeoutSeconds);
            }
            for (int i = 0; i < params.length; i++) {
                Object p = params[i];
                if (p == null) {
                    ps.setNull(i + 1, Types.NVARCHAR);
                } else if (p instanceof String s) {
                    ps.setString(i + 1, s);
                } else if (p instanceof Long l) {
                    ps.setLong(i + 1, l);
                } else if (p instanceof Integer v) {
                    ps.setInt(i + 1, v);
                } else {
                    throw new IllegalArgumentException("unsupported parameter type " + p.getClass().getName());
                }
            }
            return ps;
        } catch (SQLException | RuntimeException e) {
            ps.close();
            throw e;
        }
    }

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        connection.setAutoCommit(autoCommit);
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        return connection.getAutoCommit();
    }

    @Override
    public void commit() throws SQLException {
        connection.commit();
    }

    @Override
    public void rollback() throws SQLException {
        connection.rollback();
    }

    @Override
    public boolean isClosed() {
        try {
            return connection.isClosed();
        } catch (SQLException e) {
            return true;
        }
    }

    @Override
    public boolean temporalAsText() {
        return temporalAsText;
    }

    @Override
    public void bulkWrite(TableName destination, BulkBatch batch, BulkLoadSettings settings) throws SQLException {
        ArrowBulkData data = new ArrowBulkData(batch.validate(destination));
        requireVectorSupport(destination, batch.columns());
        try (SQLServerBulkCopy copy = new SQLServerBulkCopy(connection)) {
            SQLServerBulkCopyOptions options = new SQLServerBulkCopyOptions();
            options.setTableLock(settings.tableLock());
            options.setCheckConstraints(settings.checkConstraints());
            options.setFireTriggers(settings.fireTriggers());
            options.setKeepNulls(settings.keepNulls());
            options.setKeepIdentity(settings.keepIdentity());
            options.setBatchSize(settings.bulkBatchSize());
            options.setBulkCopyTimeout(settings.timeoutSeconds());
            copy.setBulkCopyOptions(options);
            copy.setDestinationTableName(destination.quoted());
            List<BoundColumn> columns = batch.columns();
            for (int i = 0; i < columns.size(); i++) {
                copy.addColumnMapping(i + 1, columns.get(i).target().name());
            }
            copy.writeToServer(data);
        }
    }

    /**
     * A vector target needs VECTORSUPPORT negotiated at login (mssql-jdbc asks for it unless
     * {@code vectorTypeSupport=off}); refused here, naming the column, before the bulk copy starts.
     */
    private void requireVectorSupport(TableName destination, List<BoundColumn> columns) throws SQLException {
        for (BoundColumn c : columns) {
            if (c.target().type() == io.deltafunnel.mssql.bind.SqlType.VECTOR
                    && connection.unwrap(SQLServerConnection.class).getNegotiatedVectorVersion() <= 0) {
                throw new java.sql.SQLFeatureNotSupportedException("target column " + c.target().name() + " of "
                        + destination + " is " + c.target().typeText() + ", but the server did not negotiate"
                        + " vector support at login (VECTORSUPPORT: SQL Server 2025 or Azure SQL, and not"
                        + " vectorTypeSupport=off); nothing was sent");
            }
        }
    }

    @Override
    public String encoder() {
        return "driver";
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }

    /**
     * {@link Connection#abort}: the physical connection is dropped without a word to the server (a pool's handle
     * passes it on to its physical connection and evicts it), then the handle is closed so that a pool takes it back
     * as broken. Failures are logged at debug level: the session is gone either way.
     */
    @Override
    public void abort() {
        try {
            connection.abort(Runnable::run);
        } catch (SQLException | RuntimeException e) {
            LOG.debug("aborting the connection failed: {}", e.toString());
        }
        try {
            connection.close();
        } catch (SQLException | RuntimeException e) {
            LOG.debug("closing the aborted connection failed: {}", e.toString());
        }
    }
}
