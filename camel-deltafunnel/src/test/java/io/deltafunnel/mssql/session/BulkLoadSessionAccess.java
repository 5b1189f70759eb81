package io.deltafunnel.mssql.session;

import io.deltafunnel.mssql.channel.JdbcSqlChannel;

import java.sql.Connection;

/** Test access to package-private helpers of {@link BulkLoadSession}. */
public final class BulkLoadSessionAccess {
    private BulkLoadSessionAccess() {
    }

    public static boolean temporalAsText(Connection c) {
        return JdbcSqlChannel.sendsTemporalAsText(c);
    }
}
