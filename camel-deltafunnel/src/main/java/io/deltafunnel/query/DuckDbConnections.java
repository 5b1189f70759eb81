package io.deltafunnel.query;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/** Opens DuckDB connections configured from {@link DuckDbSettings}. The caller owns and closes the connection. */
public final class DuckDbConnections {

    private DuckDbConnections() {
    }

    /**
     * Opens a connection and runs the settings' init SQL on it.
     *
     * @throws SQLException when DuckDB cannot open the database or an init statement fails; the message names
     *                      the failing statement. The connection is closed in that case.
     */
    public static Connection open(DuckDbSettings settings) throws SQLException {
        Properties props = new Properties();
        String auto = Boolean.toString(settings.allowExtensionAutoInstall());
        props.setProperty("autoinstall_known_extensions", auto);
        props.setProperty("autoload_known_extensions", auto);
        // Stream results instead of materialising them, so memory stays bounded by the batches in flight.
        props.setProperty("jdbc_stream_results", "true");
        Connection connection = DriverManager.getConnection(settings.jdbcUrl(), props);
        try {
            for (String sql : settings.initSql()) {
                try (Statement st = connection.createStatement()) {
                    st.execute(sql);
                } catch (SQLException e) {
                    throw new SQLException("init SQL failed: " + sql + ": " + e.getMessage(), e.getSQLState(), e);
                }
            }
            return connection;
        } catch (SQLException | RuntimeException e) {
            try {
                connection.close();
            } catch (SQLException closeFailure) {
                e.addSuppressed(closeFailure);
            }
            throw e;
        }
    }
}
