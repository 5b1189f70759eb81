package io.deltafunnel.query;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

/**
 * Opens DuckDB connections configured from {@link DuckDbSettings}: on the settings' shared instance
 * ({@link DuckDbInstances}) when they have one, else on a new instance of its own. The caller owns and closes the
 * connection.
 */
public final class DuckDbConnections {

    private DuckDbConnections() {
    }

    /**
     * A connection of its own on the settings' shared instance (whose init SQL ran when it started), or a new instance's
     * connection with the init SQL run on it ({@link #openInstance}).
     *
     * @throws SQLException when DuckDB cannot open the database or an init statement fails; the message names
     *                      the failing statement. Nothing stays open in that case.
     */
    public static Connection open(DuckDbSettings settings) throws SQLException {
        return settings.shared() != null ? settings.shared().open(settings) : openInstance(settings);
    }

    /**
     * Opens a connection to a new instance (for an in-memory database; to the database file otherwise) and runs the
     * settings' init SQL on it; {@code settings.shared()} is not consulted.
     *
     * @throws SQLException when DuckDB cannot open the database or an init statement fails; the message names
     *                      the failing statement. The connection is closed in that case.
     */
    static Connection openInstance(DuckDbSettings settings) throws SQLException {
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
