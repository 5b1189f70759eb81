package io.deltafunnel.mssql.channel;

import java.sql.SQLException;

/** Opens a new {@link SqlChannel}, owned (and closed) by the caller. */
@FunctionalInterface
public interface SqlChannelProvider {

    SqlChannel open() throws SQLException;

    /**
     * The provider to use instead when a channel of this one cannot write a run's columns ({@link
     * SqlChannel#cannotWrite}), or null when there is no fallback (the run then fails with the reason).
     */
    default SqlChannelProvider fallback() {
        return null;
    }

    /** mssql-jdbc connections from {@code connections}, bulk-written with {@code SQLServerBulkCopy}. */
    static SqlChannelProvider driver(ConnectionProvider connections) {
        return () -> new JdbcSqlChannel(connections.open());
    }
}
