package io.deltafunnel.mssql.run;

import io.deltafunnel.mssql.BulkEncoder;
import io.deltafunnel.mssql.channel.ConnectionSettings;
import io.deltafunnel.mssql.channel.SqlChannelProvider;
import io.deltafunnel.mssql.direct.DirectChannels;
import io.deltafunnel.mssql.direct.DirectOptions;
import io.deltafunnel.mssql.direct.DirectTdsConnection;
import io.deltafunnel.mssql.direct.DirectUnsupportedSettingException;
import io.deltafunnel.mssql.direct.DirectUrl;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses how a producer's runs talk to SQL Server: mssql-jdbc connections (bulkEncoder=DRIVER), or the direct TDS
 * client (bulkEncoder=DIRECT) where its settings allow it. Where they do not (a dataSource without url, Kerberos/NTLM,
 * other Entra ID methods, named instances, keepIdentity, ...) it falls back to the driver path with a warning, or
 * refuses when fallback is off. The direct client always connects from the url; a dataSource serves only the driver
 * path and the fallback.
 */
public final class ChannelFactory {
    private static final Logger LOG = LoggerFactory.getLogger(ChannelFactory.class);

    private ChannelFactory() {
    }

    /**
     * Whether the sessions of {@code connection} encrypt their data: with a dataSource assumed (mssql-jdbc encrypts
     * by default), with a url unless its {@code encrypt} turns that off ({@link DirectUrl#encryptsData}).
     */
    public static boolean encryptsData(ConnectionSettings connection) {
        return connection.dataSource() != null || DirectUrl.encryptsData(connection.url());
    }

    /**
     * The channel provider for {@code target} (used in messages).
     *
     * @throws IllegalArgumentException DIRECT cannot be used and {@code fallback} is false; the message says why
     */
    public static SqlChannelProvider channels(String target, ConnectionSettings connection, BulkEncoder encoder,
            boolean fallback, boolean keepIdentity) {
        SqlChannelProvider driver = SqlChannelProvider.driver(connection.driverConnections());
        if (encoder != BulkEncoder.DIRECT) {
            return driver;
        }
        String why;
        if (keepIdentity) {
            why = "keepIdentity=true is not implemented by the direct writer";
        } else if (connection.url() == null) {
            why = "no url is set (the direct client connects from url with username/password or accessTokenSupplier;"
                    + " it cannot use a dataSource)";
        } else {
            try {
                DirectOptions options;
                if (connection.accessTokens() != null) {
                    // Token login: no user/password (the direct client refuses both at once).
                    options = DirectUrl.parse(connection.url(), null, null).user(null).password(null)
                            .accessToken(connection.accessTokens());
                } else {
                    options = DirectUrl.parse(connection.url(), connection.username(), connection.password());
                }
                int login = connection.loginTimeoutSeconds();
                if (login > 0) {
                    options.connectTimeoutMillis(login * 1000).loginTimeoutMillis(login * 1000);
                }
                return new DirectChannels(options, fallback ? driver : null);
            } catch (DirectUnsupportedSettingException e) {
                why = e.getMessage();
            }
        }
        if (!fallback) {
            throw new IllegalArgumentException(target + ": bulkEncoder=DIRECT cannot be used: " + why
                    + " (bulkEncoderFallback=false)");
        }
        LOG.warn("{}: bulkEncoder=DIRECT cannot be used ({}); using the mssql-jdbc path", target, why);
        return driver;
    }
}
