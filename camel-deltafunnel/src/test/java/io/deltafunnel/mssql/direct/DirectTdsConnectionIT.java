package io.deltafunnel.mssql.direct;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.Base64;
import java.util.List;
import java.util.Properties;

import io.deltafunnel.emulator.MssqlEmulator;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.TargetColumn;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import org.testcontainers.mssqlserver.MSSQLServerContainer;

/**
 * The direct TDS client against a real SQL Server in Docker (image: {@code -Dmssql.image}, see
 * {@link io.deltafunnel.emulator.fidelity.SqlServerContainer#image()}): TLS inside PRELOGIN with certificate and host-name validation, TDS 8.0
 * strict encryption (SQL Server 2022 and later), the login failure path, and a round trip through
 * {@link DirectSqlChannel}: CREATE, a parameterised INSERT and SELECT, and a bulk load by {@link DirectBulkWriter}
 * (INSERT BULK + BULK_LOAD) whose rows are read back. Skipped (not failed) where Docker is missing.
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
            io.deltafunnel.emulator.fidelity.SqlServerContainer.image()).acceptLicense()
            .withCopyToContainer(Transferable.of(pem("CERTIFICATE", certificate()), 0644),
                    "/var/opt/mssql/certs/deltafunnel.pem")
            .withCopyToContainer(Transferable.of(pem("PRIVATE KEY", privateKey()), 0644),
                    "/var/opt/mssql/private/deltafunnel.key")
            .withCopyToContainer(Transferable.of("[network]\ntlscert = /var/opt/mssql/certs/deltafunnel.pem\n"
                    + "tlskey = /var/opt/mssql/private/deltafunnel.key\nforceencryption = 0\n", 0644),
                    "/var/opt/mssql/mssql.conf");

    @RegisterExtension
    static final EmulatorTrustStore TRUST = new EmulatorTrustStore();

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

    private static DirectOptions options() {
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
            // a real bulk load: INSERT BULK + one BULK_LOAD message written from Arrow vectors
            try (BufferAllocator allocator = new RootAllocator();
                    IntVector id = new IntVector("id", allocator);
                    VarCharVector name = new VarCharVector("name", allocator)) {
                id.allocateNew(3);
                name.allocateNew(3);
                for (int i = 0; i < 3; i++) {
                    id.set(i, 10 + i);
                }
                name.setSafe(0, "zwölf".getBytes(StandardCharsets.UTF_8));
                name.setNull(1);
                name.setSafe(2, "😀".getBytes(StandardCharsets.UTF_8));
                id.setValueCount(3);
                name.setValueCount(3);
                try (VectorSchemaRoot root = VectorSchemaRoot.of(id, name)) {
                    root.setRowCount(3);
                    long written = new DirectBulkWriter(c).write(new TableName("dbo", table), root, List.of(
                            new TargetColumn("id", "int", null, 10, 0, null, false, 1),
                            new TargetColumn("name", "nvarchar", 20, null, null, null, true, 2)));
                    assertEquals(3, written);
                }
            }
            List<Object[]> loaded = channel.query("SELECT [id], [name] FROM [dbo].[" + table + "] WHERE [id] >= ?"
                    + " ORDER BY [id]", 10);
            assertEquals(3, loaded.size());
            assertArrayEquals(new Object[] {10, "zwölf"}, loaded.get(0));
            assertArrayEquals(new Object[] {11, null}, loaded.get(1));
            assertArrayEquals(new Object[] {12, "😀"}, loaded.get(2));
            channel.execute("DROP TABLE [dbo].[" + table + "]");
        }
    }

    @Test
    void tlsInPreloginWithAValidatedCertificate() throws Exception {
        DirectTdsConnection c = DirectTdsConnection.open(options()
                .trustStore(TRUST.path(), EmulatorTrustStore.PASSWORD, "PKCS12"));
        assertNotNull(c.tlsProtocol());
        roundTrip(c);
    }

    /** TDS 8.0 (strict encryption) exists from SQL Server 2022 (major version 16) on. */
    private static void assumeTds8() throws Exception {
        Properties p = new Properties();
        p.setProperty("user", SERVER.getUsername());
        p.setProperty("password", SERVER.getPassword());
        try (Connection c = DriverManager.getConnection("jdbc:sqlserver://" + SERVER.getHost() + ":"
                + SERVER.getMappedPort(1433) + ";encrypt=true;trustServerCertificate=true", p);
                java.sql.ResultSet rs = c.createStatement().executeQuery(
                        "SELECT CAST(SERVERPROPERTY('ProductMajorVersion') AS int)")) {
            rs.next();
            assumeTrue(rs.getInt(1) >= 16, "TDS 8.0 needs SQL Server 2022 or later; this is major version "
                    + rs.getInt(1));
        }
    }

    @Test
    void strictEncryptionTds8() throws Exception {
        assumeTds8();
        DirectTdsConnection c = DirectTdsConnection.open(options().encryption(DirectTdsConnection.Encryption.STRICT)
                .trustStore(TRUST.path(), EmulatorTrustStore.PASSWORD, "PKCS12"));
        assertNotNull(c.tlsProtocol());
        roundTrip(c);
    }

    @Test
    void theDriverAgreesOnStrictEncryption() throws Exception {
        assumeTds8();
        Properties p = new Properties();
        p.setProperty("user", SERVER.getUsername());
        p.setProperty("password", SERVER.getPassword());
        p.setProperty("trustStore", TRUST.path().toString());
        p.setProperty("trustStorePassword", new String(EmulatorTrustStore.PASSWORD));
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
                .password("wrong-" + SERVER.getPassword())
                .trustStore(TRUST.path(), EmulatorTrustStore.PASSWORD, "PKCS12")));
        assertEquals(18456, e.number());
    }
}
