package io.deltafunnel.mssql.direct;

import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Objects;
import java.util.function.Supplier;

import io.deltafunnel.mssql.direct.DirectTdsConnection.Encryption;

/**
 * The settings of a {@link DirectTdsConnection} ({@link DirectTdsConnection#options()},
 * {@link DirectTdsConnection#open(DirectOptions)}). Encryption is {@link Encryption#MANDATORY} and the certificate is
 * validated unless told otherwise. The options object is only read by {@link DirectTdsConnection#open}; it keeps
 * references to the password, the token supplier and the trust store password, so callers should not keep it longer
 * than needed. Its fields are package-private so that the connection's helpers ({@link DirectTls},
 * {@link Login7Builder}) read the settings (secrets included) without public getters.
 */
public final class DirectOptions {
    String host = "localhost";
    int port = 1433;
    String database = "";
    String user;
    String password;
    Supplier<String> accessToken;
    Encryption encryption = Encryption.MANDATORY;
    boolean trustServerCertificate;
    String hostNameInCertificate;
    Path trustStore;
    char[] trustStorePassword;
    String trustStoreType = KeyStore.getDefaultType();
    int packetSize = 8000;
    int connectTimeoutMillis = 15_000;
    int loginTimeoutMillis = 30_000;
    String applicationName = "deltafunnel-direct";
    String workstationId;
    boolean readOnlyIntent;
    boolean followRouting = true;

    public DirectOptions host(String host) {
        this.host = Objects.requireNonNull(host);
        return this;
    }

    public DirectOptions port(int port) {
        this.port = port;
        return this;
    }

    public DirectOptions database(String database) {
        this.database = database == null ? "" : database;
        return this;
    }

    /** SQL authentication user (not with {@link #accessToken(Supplier)}). */
    public DirectOptions user(String user) {
        this.user = user;
        return this;
    }

    /** SQL authentication password (not with {@link #accessToken(Supplier)}). Never logged. */
    public DirectOptions password(String password) {
        this.password = password;
        return this;
    }

    /**
     * Entra ID (Azure AD) access token authentication: {@code token} is called once per physical connection (so
     * once more after a routing redirect) and its result is sent in the LOGIN7 FEDAUTH feature; user and
     * password must not be set. Requires encryption. The token is never logged.
     */
    public DirectOptions accessToken(Supplier<String> token) {
        this.accessToken = token;
        return this;
    }

    /** TLS for the whole session (default true = {@link Encryption#MANDATORY}); false = {@link Encryption#OFF}. */
    public DirectOptions encrypt(boolean encrypt) {
        this.encryption = encrypt ? Encryption.MANDATORY : Encryption.OFF;
        return this;
    }

    public DirectOptions encryption(Encryption encryption) {
        this.encryption = Objects.requireNonNull(encryption);
        return this;
    }

    /**
     * Accept any server certificate (default false: trust store plus host name check). Not allowed with
     * {@link Encryption#STRICT}: strict mode always validates (mssql-jdbc silently ignores this setting there;
     * we refuse the combination instead).
     */
    public DirectOptions trustServerCertificate(boolean trust) {
        this.trustServerCertificate = trust;
        return this;
    }

    /**
     * The name the server certificate must carry, instead of {@link #host(String)} (like mssql-jdbc's
     * {@code hostNameInCertificate}). Also sent as TLS SNI. Not applied to a routed connection, which is
     * checked against the routed host name.
     */
    public DirectOptions hostNameInCertificate(String name) {
        this.hostNameInCertificate = name;
        return this;
    }

    /**
     * Trust material instead of the JDK default trust store (like mssql-jdbc's {@code trustStore},
     * {@code trustStorePassword}, {@code trustStoreType}); {@code type} null means {@link KeyStore#getDefaultType()}.
     * The password array is copied; it is never logged.
     */
    public DirectOptions trustStore(Path path, char[] password, String type) {
        this.trustStore = path;
        this.trustStorePassword = password == null ? null : password.clone();
        this.trustStoreType = type == null ? KeyStore.getDefaultType() : type;
        return this;
    }

    public DirectOptions packetSize(int packetSize) {
        this.packetSize = packetSize;
        return this;
    }

    /** TCP connect timeout per attempt (default 15 s). */
    public DirectOptions connectTimeoutMillis(int millis) {
        this.connectTimeoutMillis = millis;
        return this;
    }

    /**
     * Read timeout for every step of the connection setup (TLS handshake, PRELOGIN, LOGIN7 answers; default
     * 30 s), so a server that does not answer (e.g. a TDS 7.x server to a strict ClientHello) fails instead of
     * hanging. Requests after the login have no read timeout.
     */
    public DirectOptions loginTimeoutMillis(int millis) {
        this.loginTimeoutMillis = millis;
        return this;
    }

    public DirectOptions applicationName(String name) {
        this.applicationName = name;
        return this;
    }

    // Read access (for the URL parser's tests and diagnostics); the password and token have no getter.

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public String database() {
        return database;
    }

    public String user() {
        return user;
    }

    /** True unless the encryption is OFF. */
    public boolean encrypt() {
        return encryption != Encryption.OFF;
    }

    public Encryption encryption() {
        return encryption;
    }

    public String hostNameInCertificate() {
        return hostNameInCertificate;
    }

    public boolean hasAccessToken() {
        return accessToken != null;
    }

    public boolean trustServerCertificate() {
        return trustServerCertificate;
    }

    public int packetSize() {
        return packetSize;
    }

    /** LOGIN7 HostName (default: this machine's host name), like mssql-jdbc's {@code workstationID}. */
    public DirectOptions workstationId(String name) {
        this.workstationId = name;
        return this;
    }

    /** LOGIN7 TypeFlags read-only application intent (default false = read/write). */
    public DirectOptions readOnlyIntent(boolean readOnly) {
        this.readOnlyIntent = readOnly;
        return this;
    }

    /** Follow one routing ENVCHANGE (default true); false makes a redirect a {@link DirectRoutingException}. */
    public DirectOptions followRouting(boolean follow) {
        this.followRouting = follow;
        return this;
    }

    /** Refuses contradictory settings (token with user/password or without encryption, strict with trust-all). */
    public void validate() {
        if (accessToken != null) {
            if (user != null || password != null) {
                throw new IllegalArgumentException("set either user/password or accessToken, not both");
            }
            if (encryption == Encryption.OFF) {
                throw new IllegalArgumentException("an access token is never sent unencrypted: "
                        + "use encryption MANDATORY or STRICT");
            }
        } else {
            Objects.requireNonNull(user, "user");
            Objects.requireNonNull(password, "password");
        }
        if (encryption == Encryption.STRICT && trustServerCertificate) {
            throw new IllegalArgumentException("encryption STRICT always validates the server certificate; "
                    + "trustServerCertificate(true) is not allowed with it (use trustStore instead)");
        }
    }

    /** The settings without secrets. */
    @Override
    public String toString() {
        return "DirectOptions[host=" + host + ", port=" + port + ", database=" + database + ", auth="
                + (accessToken != null ? "accessToken" : "sql user " + user) + ", encryption=" + encryption
                + ", trustServerCertificate=" + trustServerCertificate + ", hostNameInCertificate="
                + hostNameInCertificate + ", trustStore=" + trustStore + ", packetSize=" + packetSize
                + ", followRouting=" + followRouting + "]";
    }
}
