package io.deltafunnel.mssql.channel;

import java.sql.DriverManager;
import java.util.Properties;
import java.util.function.Supplier;

import javax.sql.DataSource;

/**
 * Where and how the producer connects: a {@link DataSource}, or an mssql-jdbc {@code url} with a user and password
 * or an access-token supplier. {@link #toString()} never shows the password, a token, or a credential inside the URL
 * ({@link JdbcUrls#redact}).
 *
 * @param dataSource          used when set (the caller owns it)
 * @param url                 the mssql-jdbc URL, used when there is no dataSource (credentials in it are masked when
 *                            it is rendered)
 * @param username            the user for {@code url}, or null; empty is null (the URL's {@code user} then applies)
 * @param password            the password for {@code url}, or null; empty is null, so that an empty option (the
 *                            application's default {@code deltafunnel.mssql.password=}) does not override a
 *                            {@code password} inside the URL
 * @param loginTimeoutSeconds seconds to connect and log in through {@code url}; 0 = the driver's default
 * @param accessTokens        a Microsoft Entra ID access token per new connection instead of user/password, or null
 */
public record ConnectionSettings(DataSource dataSource, String url, String username, String password,
        int loginTimeoutSeconds, Supplier<String> accessTokens) {

    public ConnectionSettings {
        username = username == null || username.isEmpty() ? null : username;
        password = password == null || password.isEmpty() ? null : password;
    }

    /**
     * mssql-jdbc connections: from the dataSource, else from url with username/password or the access token
     * (a new token per connection). Each opened connection is owned by the caller.
     */
    public ConnectionProvider driverConnections() {
        if (dataSource != null) {
            DataSource ds = dataSource;
            return ds::getConnection;
        }
        String jdbcUrl = url;
        Properties props = driverProperties();
        Supplier<String> tokens = accessTokens;
        if (tokens == null) {
            return () -> DriverManager.getConnection(jdbcUrl, props);
        }
        return () -> {
            Properties withToken = new Properties();
            withToken.putAll(props);
            withToken.setProperty("accessToken", tokens.get());
            return DriverManager.getConnection(jdbcUrl, withToken);
        };
    }

    /**
     * The properties given to mssql-jdbc with {@code url} (the access token is added per connection). Always
     * {@code connectRetryCount=0}: the driver's idle-connection resiliency would otherwise re-open a broken
     * connection silently, as a new session without the old one's application locks, implicit-transaction mode or
     * {@code IDENTITY_INSERT}; a broken connection must fail the run instead (a sharded run would otherwise commit
     * its share without holding its shard; the share's commit also re-checks the lock).
     */
    Properties driverProperties() {
        Properties props = new Properties();
        props.setProperty("connectRetryCount", "0");
        if (username != null) {
            props.setProperty("user", username);
        }
        if (password != null) {
            props.setProperty("password", password);
        }
        if (loginTimeoutSeconds > 0) {
            props.setProperty("loginTimeout", Integer.toString(loginTimeoutSeconds));
        }
        return props;
    }

    @Override
    public String toString() {
        return "ConnectionSettings[" + (dataSource != null ? "dataSource" : "url=" + JdbcUrls.redact(url) + ", username=" + username
                + (password != null ? ", password=***" : "") + (accessTokens != null ? ", accessToken=***" : ""))
                + "]";
    }
}
