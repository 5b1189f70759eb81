package io.deltafunnel.mssql.session;

import java.sql.Connection;

import io.deltafunnel.mssql.channel.JdbcSqlChannel;

/** Test access to package-private helpers of {@link BulkLoadSession}. */
public final class BulkLoadSessionAccess {
    private BulkLoadSessionAccess() {
    }

    public static boolean temporalAsText(Connection c) {
        return JdbcSqlChannel.sendsTemporalAsText(c);
    }
}
