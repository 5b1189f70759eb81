package io.deltafunnel.mssql.direct;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Base64;
import java.util.List;
import java.util.Properties;

import io.deltafunnel.emulator.MssqlEmulator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.mssqlserver.MSSQLServerContainer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The direct TDS client against a real SQL Server 2022 in Docker: TLS inside PRELOGIN with certificate and host-name
 * validation, TDS 8.0 strict encryption, the login failure path, and a bulk round trip through
 * {@link DirectSqlChannel}. Skipped (not failed) where Docker is missing.
 *
 * <p>SQL Server gets the emulator's bundled test-only certificate (CN=localhost, SAN localhost/127.0.0.1) through
 * {@code mssql.conf}, so that the client can validate it with a trust store holding that certificate.
 */
@Testcontainers(disabledWithoutDocker = true)
class DirectTdsConnectionIT {

    /** The emulator's bundled keystore and its test-only password (the certificate protects nothing). */
    private static final String KEYSTORE = "/mssql-emulator-tls.p12";
    private static final char[] KEYSTORE_PASSWORD = "emulator-test-only".toCharArray();

    @Container
    static final MSSQLServerContainer SERVER = new MSSQLServerContainer(
            "mcr.microsoft.com/mssql/server:2022-latest").acceptLicense()
            .withCopyToContainer(Transferable.of(pem("CERTIFICATE", certificate()), 0644),
                    "/var/opt/mssql/certs/deltafunnel.pem")
            .withCopyToContainer(Transferable.of(pem("PRIVATE KEY", privateKey()), 0644),
                    "/var/opt/mssql/private/deltafunnel.key")
            .withCopyToContainer(Transferable.of("[network]\ntlscert = /var/opt/mssql/certs/deltafunnel.pem\n"
                    + "tlskey = /var/opt/mssql/private/deltafunnel.key\nforceencryption = 0\n", 0644),
                    "/var/opt/mssql/mssql.conf");

    @TempDir
    static Path dir;
    static Path trustStore;

    @BeforeAll
    static void trust() throws Exception {
        trustStore = dir.resolve("trust.p12");
        MssqlEmulator.writeTrustStore(trustStore, "changeit".toCharArray());
    }

    private static byte[] certificate() {
        try {
            return ((X509Certificate) keyStore().getCertificate(alias())).getEncoded();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] privateKey() {
        try {
            return ((PrivateKey) keyStore().getKey(alias(), KEYSTORE_PASSWORD)).getEncoded(); // PKCS#8
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String alias() throws Exception {
        return keyStore().aliases().nextElement();
    }

    private static KeyStore keyStore() throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = MssqlEmulator.class.getResourceAsStream(KEYSTORE)) {
            ks.load(in, KEYSTORE_PASSWORD);
        }
        return ks;
    }

    private static byte[] pem(String type, byte[] der) {
        return ("-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + type + "-----\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static DirectTdsConnection.Options options() {
        return DirectTdsConnection.options().host(SERVER.getHost()).port(SERVER.getMappedPort(1433))
                .database("master").user(SERVER.getUsername()).password(SERVER.getPassword())
                .hostNameInCertificate("localhost");
    }

    private static void roundTrip(DirectTdsConnection c) throws Exception {
        try (DirectSqlChannel channel = new DirectSqlChannel(c)) {
            String table = "direct_it_" + Long.toHexString(System.nanoTime());
            channel.execute("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20))");
            assertEquals(1, channel.update("INSERT INTO [dbo].[" + table + "] ([id], [name]) VALUES (?, ?)", 1,
                    "één"));
            List<Object[]> rows = channel.query("SELECT [id], [name] FROM [dbo].[" + table + "] WHERE [id] = ?", 1);
            assertEquals("één", rows.get(0)[1]);
            channel.execute("DROP TABLE [dbo].[" + table + "]");
        }
    }

    @Test
    void tlsInPreloginWithAValidatedCertificate() throws Exception {
        DirectTdsConnection c = DirectTdsConnection.open(options().trustStore(trustStore, "changeit".toCharArray(),
                "PKCS12"));
        assertNotNull(c.tlsProtocol());
        roundTrip(c);
    }

    @Test
    void strictEncryptionTds8() throws Exception {
        DirectTdsConnection c = DirectTdsConnection.open(options().encryption(DirectTdsConnection.Encryption.STRICT)
                .trustStore(trustStore, "changeit".toCharArray(), "PKCS12"));
        assertNotNull(c.tlsProtocol());
        roundTrip(c);
    }

    @Test
    void theDriverAgreesOnStrictEncryption() throws Exception {
        Properties p = new Properties();
        p.setProperty("user", SERVER.getUsername());
        p.setProperty("password", SERVER.getPassword());
        p.setProperty("trustStore", trustStore.toString());
        p.setProperty("trustStorePassword", "changeit");
        try (Connection c = DriverManager.getConnection("jdbc:sqlserver://" + SERVER.getHost() + ":"
                + SERVER.getMappedPort(1433) + ";encrypt=strict;hostNameInCertificate=localhost", p)) {
            assertEquals(1, c.createStatement().executeQuery("SELECT 1").next() ? 1 : 0);
        }
    }

    @Test
    void anUntrustedCertificateIsRefused() {
        DirectTlsException e = assertThrows(DirectTlsException.class, () -> DirectTdsConnection.open(options()));
        assertEquals(DirectTlsException.Reason.CERTIFICATE_UNTRUSTED, e.reason());
    }

    @Test
    void aWrongPasswordIsLoginFailed18456() {
        DirectTdsException e = assertThrows(DirectTdsException.class, () -> DirectTdsConnection.open(options()
                .password("wrong-" + SERVER.getPassword()).trustStore(trustStore, "changeit".toCharArray(), "PKCS12")));
        assertEquals(18456, e.number());
    }
}
