package io.deltafunnel.camel;

import java.sql.SQLException;
import java.util.Map;

import io.deltafunnel.mssql.channel.ConnectionProvider;
import io.deltafunnel.mssql.channel.JdbcUrls;

import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * Reports whether the SQL Server behind a {@code deltafunnel-mssql:} producer is reachable: each check
 * {@linkplain ConnectionProvider#ping() pings} it (a new connection with the endpoint's credentials and login
 * timeout, {@code SELECT 1}). It never reports the
 * password: the message passes through {@link JdbcUrls#redactText} (a driver message that quotes the URL), and the
 * error attached to the result is a copy with that message, the driver's exception is not attached; the error details
 * carry SQL Server's error number and SQLState.
 */
public class DeltaFunnelMssqlProducerHealthCheck extends AbstractHealthCheck {

    private final ConnectionProvider connections;
    private final String target;

    public DeltaFunnelMssqlProducerHealthCheck(DeltaFunnelMssqlEndpoint endpoint, String id) {
        super("camel", "producer:deltafunnel-mssql-" + id);
        this.connections = endpoint.connectionProvider();
        this.target = endpoint.getConfiguration().getTable();
    }

    @Override
    public boolean isLiveness() {
        // Losing the database makes the application not ready, but restarting it would not help.
        return false;
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        builder.detail("table", target);
        try {
            connections.ping();
            builder.up();
        } catch (SQLException e) {
            builder.detail("errorNumber", e.getErrorCode());
            builder.detail("sqlState", String.valueOf(e.getSQLState()));
            String message = JdbcUrls.redactText(e.getMessage());
            builder.message("SQL Server not reachable for " + target + ": " + message);
            SQLException reported = new SQLException(message, e.getSQLState(), e.getErrorCode());
            reported.setStackTrace(e.getStackTrace());
            builder.error(reported);
            builder.down();
        }
    }
}
