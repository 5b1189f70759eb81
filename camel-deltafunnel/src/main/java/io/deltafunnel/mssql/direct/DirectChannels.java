package io.deltafunnel.mssql.direct;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;

import io.deltafunnel.mssql.channel.SqlChannel;
import io.deltafunnel.mssql.channel.SqlChannelProvider;

/** Opens {@link DirectSqlChannel}s ({@code bulkEncoder=direct}) with fixed options and an optional fallback. */
public final class DirectChannels implements SqlChannelProvider {

    private final DirectOptions options;
    private final SqlChannelProvider fallback;

    /**
     * @throws IllegalArgumentException contradictory options (see {@link DirectOptions#validate()})
     * @param fallback the provider a run switches to when the direct writer cannot encode one of its columns, or
     *                 null to fail such runs
     */
    public DirectChannels(DirectOptions options, SqlChannelProvider fallback) {
        options.validate(); // contradictory settings fail when the producer starts, not at the first batch
        this.options = options;
        this.fallback = fallback;
    }

    @Override
    public SqlChannel open() throws SQLException {
        try {
            return new DirectSqlChannel(DirectTdsConnection.open(options));
        } catch (DirectTdsException e) {
            if (e.number() != 0) {
                // A server error during login (18456 login failed, 4060 database unavailable, ...): its number decides.
                throw new SQLException(e.serverMessage(), e.number() == 18456 ? "S0001" : "08004", e.number(), e);
            }
            throw new SQLNonTransientConnectionException(where() + ": " + e.getMessage(), "08001", e);
        } catch (UnknownHostException e) {
            throw new SQLNonTransientConnectionException("unknown host " + e.getMessage(), "08001", e);
        } catch (ConnectException | SocketTimeoutException | EOFException e) {
            throw new SQLException(where() + ": " + e.getMessage(), "08S01", 0, e);
        } catch (IOException e) {
            throw new SQLException(where() + ": " + e, "08S01", 0, e);
        }
    }

    private String where() {
        return "direct TDS connection to " + options.host() + ":" + options.port() + " failed";
    }

    @Override
    public SqlChannelProvider fallback() {
        return fallback;
    }
}
