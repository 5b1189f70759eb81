package io.deltafunnel.mssql.direct;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

import io.deltafunnel.emulator.LoginRecord;
import io.deltafunnel.emulator.MssqlEmulator;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.tds.Login7;
import io.deltafunnel.tds.PreloginOptions;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Connection setup of the direct client against the emulator: strict TLS, certificates, access tokens, routing. */
class DirectTdsConnectionTest {


    @RegisterExtension
    static final EmulatorTrustStore TRUST = new EmulatorTrustStore();

    private static DirectOptions sqlAuth(MssqlEmulator emu) {
        return DirectTdsConnection.options().host("localhost").port(emu.port()).database("master")
                .user(emu.user()).password(emu.password()).loginTimeoutMillis(10_000);
    }

    private static DirectOptions strict(MssqlEmulator emu) {
        return sqlAuth(emu).encryption(DirectTdsConnection.Encryption.STRICT)
                .trustStore(TRUST.path(), EmulatorTrustStore.PASSWORD, "PKCS12");
    }

    private static Connection jdbc(MssqlEmulator emu) throws Exception {
        Properties p = new Properties();
        p.setProperty("user", emu.user());
        p.setProperty("password", emu.password());
        return DriverManager.getConnection("jdbc:sqlserver://localhost:" + emu.port()
                + ";databaseName=master;encrypt=true;trustServerCertificate=true", p);
    }

    private static int count(Connection c, String table) throws Exception {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    // ---------------------------------------------------------------- strict (TDS 8.0)

    @Test
    void strictConnectsTlsFirstWithAlpnAndBulkLoads() throws Exception {
        try (MssqlEmulator emu = MssqlEmulator.builder().strictEncryption(true).start();
                BufferAllocator allocator = new RootAllocator()) {
            try (DirectTdsConnection c = DirectTdsConnection.open(strict(emu))) {
                assertTrue(c.encrypted());
                assertTrue(List.of("TLSv1.3", "TLSv1.2").contains(c.tlsProtocol()), c.tlsProtocol());
                c.executeBatch("CREATE TABLE [dbo].[strict_bulk] (id int NOT NULL, name nvarchar(50))");
                try (IntVector id = new IntVector("id", allocator);
                        VarCharVector name = new VarCharVector("name", allocator)) {
                    id.allocateNew();
                    name.allocateNew();
                    for (int i = 0; i < 3; i++) {
                        id.setSafe(i, i);
                        name.setSafe(i, ("n" + i).getBytes(UTF_8));
                    }
                    id.setValueCount(3);
                    name.setValueCount(3);
                    try (VectorSchemaRoot root = new VectorSchemaRoot(List.<FieldVector>of(id, name))) {
                        root.setRowCount(3);
                        List<TargetColumn> targets = List.of(
                                new TargetColumn("id", "int", null, 10, 0, null, false, 1),
                                new TargetColumn("name", "nvarchar", 50, null, null, null, true, 2));
                        long rows = new DirectBulkWriter(c).write(new TableName("dbo", "strict_bulk"), root, targets);
                        assertEquals(3, rows);
                    }
                }
            }
            assertEquals(3, emu.bulkRowsDecoded());
            LoginRecord r = emu.loginRecords().get(0);
            assertTrue(r.strictTls());
            assertEquals(PreloginOptions.ALPN_TDS_8_0, r.alpn());
            assertEquals(Login7.TDS_8_0, r.tdsVersion());
            assertEquals(PreloginOptions.ENCRYPT_NOT_SUP, r.preloginEncryption(), "what mssql-jdbc sends in strict");
            assertTrue(r.accepted());
        }
    }

    @Test
    void strictClientAgainstTds7ServerFailsTypedWithoutHanging() {
        try (MssqlEmulator emu = MssqlEmulator.builder().start()) {
            DirectTlsException e = assertThrows(DirectTlsException.class,
                    () -> DirectTdsConnection.open(strict(emu).loginTimeoutMillis(5_000)).close());
            assertEquals(DirectTlsException.Reason.HANDSHAKE, e.reason());
            assertEquals(emu.port(), e.port());
            assertTrue(e.getMessage().contains("localhost:" + emu.port()), e.getMessage());
            assertTrue(e.getMessage().contains("TDS 8.0"), e.getMessage());
            assertTrue(emu.loginRecords().isEmpty());
        }
    }

    @Test
    void strictWithoutTrustMaterialRefusesTheSelfSignedCertificate() {
        try (MssqlEmulator emu = MssqlEmulator.builder().strictEncryption(true).start()) {
            DirectTlsException e = assertThrows(DirectTlsException.class, () -> DirectTdsConnection
                    .open(sqlAuth(emu).encryption(DirectTdsConnection.Encryption.STRICT)).close());
            assertEquals(DirectTlsException.Reason.CERTIFICATE_UNTRUSTED, e.reason());
            assertTrue(emu.loginRecords().isEmpty(), "no LOGIN7 may be sent over an untrusted channel");
        }
    }

    @Test
    void strictChecksTheHostName() throws Exception {
        try (MssqlEmulator emu = MssqlEmulator.builder().strictEncryption(true).start()) {
            DirectTlsException e = assertThrows(DirectTlsException.class, () -> DirectTdsConnection
                    .open(strict(emu).hostNameInCertificate("db.example.com")).close());
            assertEquals(DirectTlsException.Reason.HOST_NAME_MISMATCH, e.reason());
            // the override is what gets checked: 127.0.0.1 is not in the certificate as a DNS name, localhost is
            try (DirectTdsConnection c = DirectTdsConnection
                    .open(strict(emu).host("127.0.0.1").hostNameInCertificate("localhost"))) {
                assertTrue(c.encrypted());
            }
        }
    }

    @Test
    void strictRefusesTrustServerCertificate() {
        try (MssqlEmulator emu = MssqlEmulator.builder().start()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DirectTdsConnection
                    .open(sqlAuth(emu).encryption(DirectTdsConnection.Encryption.STRICT).trustServerCertificate(true)));
            assertTrue(e.getMessage().contains("trustServerCertificate"), e.getMessage());
            assertTrue(emu.loginRecords().isEmpty(), "refused before connecting");
        }
    }

    // ---------------------------------------------------------------- TDS 7.4 TLS with validation

    @Test
    void mandatoryTlsValidatesWithATrustStoreAndChecksTheHostName() throws Exception {
        try (MssqlEmulator emu = MssqlEmulator.builder().start()) {
            try (DirectTdsConnection c = DirectTdsConnection.open(sqlAuth(emu)
                    .trustStore(TRUST.path(), EmulatorTrustStore.PASSWORD, "PKCS12"))) {
                assertEquals("TLSv1.2", c.tlsProtocol());
            }
            DirectTlsException mismatch = assertThrows(DirectTlsException.class, () -> DirectTdsConnection
                    .open(sqlAuth(emu).trustStore(TRUST.path(), EmulatorTrustStore.PASSWORD, "PKCS12")
                            .hostNameInCertificate("db.example.com")).close());
            assertEquals(DirectTlsException.Reason.HOST_NAME_MISMATCH, mismatch.reason());
            DirectTlsException untrusted = assertThrows(DirectTlsException.class,
                    () -> DirectTdsConnection.open(sqlAuth(emu)).close());
            assertEquals(DirectTlsException.Reason.CERTIFICATE_UNTRUSTED, untrusted.reason());
            assertEquals(1, emu.loginRecords().size(), "only the validated connection logged in");
        }
    }

    // ---------------------------------------------------------------- access token (FEDAUTH)

    private static final String GOOD_TOKEN = "eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.good-token-" + "x".repeat(3000);

    private static DirectOptions token(MssqlEmulator emu, java.util.function.Supplier<String> t) {
        return DirectTdsConnection.options().host("localhost").port(emu.port()).database("master")
                .trustServerCertificate(true).accessToken(t).loginTimeoutMillis(10_000);
    }

    @Test
    void accessTokenLogsInWithFedAuthAndTheSupplierIsCalledOncePerConnection() throws Exception {
        try (MssqlEmulator emu = MssqlEmulator.builder().accessTokenValidator(GOOD_TOKEN::equals).start()) {
            AtomicInteger calls = new AtomicInteger();
            try (DirectTdsConnection c = DirectTdsConnection.open(token(emu, () -> {
                calls.incrementAndGet();
                return GOOD_TOKEN;
            }))) {
                c.executeBatch("CREATE TABLE [dbo].[by_token] (id int)");
                assertEquals(1, c.executeBatch("INSERT INTO [dbo].[by_token] VALUES (1)"));
            }
            assertEquals(1, calls.get());
            LoginRecord r = emu.loginRecords().get(0);
            assertTrue(r.accepted());
            assertEquals(Login7.FEDAUTH_LIBRARY_SECURITYTOKEN, r.fedAuthLibrary());
            assertTrue(r.fedAuthEcho(), "echoes the server's PRELOGIN FEDAUTHREQUIRED=1");
            assertEquals(1, r.fedAuthRequiredReply());
            assertEquals("01", r.preloginOption(PreloginOptions.FEDAUTHREQUIRED));
            assertEquals(GOOD_TOKEN.length(), r.accessTokenLength());
            assertEquals("", r.userName());
            assertFalse(r.passwordPresent());
            assertEquals(List.of(Login7.FEATURE_FEDAUTH, Login7.FEATURE_VECTORSUPPORT, Login7.FEATURE_JSONSUPPORT),
                    r.featureExtIds()); // the SQL Server 2025 features, asked for as mssql-jdbc does
            assertFalse(r.toString().contains("good-token"));
        }
    }

    @Test
    void badAccessTokenIsRefusedWith18456AndNeverShown() {
        try (MssqlEmulator emu = MssqlEmulator.builder().accessTokenValidator(GOOD_TOKEN::equals).start()) {
            String bad = "bad-token-" + System.nanoTime();
            DirectTdsException e = assertThrows(DirectTdsException.class,
                    () -> DirectTdsConnection.open(token(emu, () -> bad)).close());
            assertEquals(18456, e.number());
            assertFalse(e.getMessage().contains(bad));
            assertFalse(emu.loginRecords().get(0).accepted());
        }
        try (MssqlEmulator noTokens = MssqlEmulator.builder().start()) {
            DirectTdsException e = assertThrows(DirectTdsException.class,
                    () -> DirectTdsConnection.open(token(noTokens, () -> GOOD_TOKEN)).close());
            assertEquals(18456, e.number(), "a server without token support refuses token logins");
            assertEquals(0, noTokens.loginRecords().get(0).fedAuthRequiredReply());
            assertFalse(noTokens.loginRecords().get(0).fedAuthEcho());
        }
    }

    @Test
    void accessTokenOptionsAreChecked() {
        try (MssqlEmulator emu = MssqlEmulator.builder().start()) {
            accessTokenOptionsAreChecked(emu);
        }
    }

    private static void accessTokenOptionsAreChecked(MssqlEmulator emu) {
        assertThrows(IllegalArgumentException.class,
                () -> DirectTdsConnection.open(token(emu, () -> GOOD_TOKEN).user("sa").password("x")));
        IllegalArgumentException plain = assertThrows(IllegalArgumentException.class,
                () -> DirectTdsConnection.open(token(emu, () -> GOOD_TOKEN).encrypt(false)));
        assertTrue(plain.getMessage().contains("unencrypted"), plain.getMessage());
        assertTrue(emu.loginRecords().isEmpty());
        DirectTdsException empty = assertThrows(DirectTdsException.class,
                () -> DirectTdsConnection.open(token(emu, () -> "")).close());
        assertTrue(empty.getMessage().contains("no token"), empty.getMessage());
    }

    // ---------------------------------------------------------------- routing

    @Test
    void routingEnvChangeIsFollowedOnce() throws Exception {
        try (MssqlEmulator b = MssqlEmulator.builder().start();
                MssqlEmulator a = MssqlEmulator.builder().routeTo("localhost", b.port()).start()) {
            try (DirectTdsConnection c = DirectTdsConnection.open(sqlAuth(a).trustServerCertificate(true))) {
                assertEquals(b.port(), c.port());
                assertEquals("localhost", c.host());
                c.executeBatch("CREATE TABLE [dbo].[routed] (id int)");
                assertEquals(1, c.executeBatch("INSERT INTO [dbo].[routed] VALUES (7)"));
            }
            assertEquals(1, a.loginRecords().size());
            assertEquals(1, b.loginRecords().size());
            assertEquals("localhost", b.loginRecords().get(0).serverName());
            try (Connection onB = jdbc(b)) {
                assertEquals(1, count(onB, "[dbo].[routed]"));
            }
        }
    }

    @Test
    void routedTlsConnectionIsValidatedAgainstTheRoutedHost() throws Exception {
        // A is reached by IP with an override; B is reached by the routed name "localhost", which the certificate has
        try (MssqlEmulator b = MssqlEmulator.builder().start();
                MssqlEmulator a = MssqlEmulator.builder().routeTo("localhost", b.port()).start();
                DirectTdsConnection c = DirectTdsConnection.open(sqlAuth(a).host("127.0.0.1")
                        .hostNameInCertificate("localhost")
                        .trustStore(TRUST.path(), EmulatorTrustStore.PASSWORD, "PKCS12"))) {
            assertEquals(b.port(), c.port());
            assertTrue(c.encrypted());
        }
    }

    @Test
    void routingIsRefusedWhenNotFollowedAndAfterOneRedirect() throws Exception {
        try (MssqlEmulator b = MssqlEmulator.builder().start();
                MssqlEmulator a = MssqlEmulator.builder().routeTo("localhost", b.port()).start();
                MssqlEmulator first = MssqlEmulator.builder().routeTo("localhost", a.port()).start()) {
            DirectRoutingException off = assertThrows(DirectRoutingException.class, () -> DirectTdsConnection
                    .open(sqlAuth(a).trustServerCertificate(true).followRouting(false)).close());
            assertEquals("localhost", off.targetHost());
            assertEquals(b.port(), off.targetPort());
            assertTrue(off.getMessage().contains("localhost:" + b.port()), off.getMessage());
            assertTrue(b.loginRecords().isEmpty());

            DirectRoutingException twice = assertThrows(DirectRoutingException.class,
                    () -> DirectTdsConnection.open(sqlAuth(first).trustServerCertificate(true)).close());
            assertEquals(b.port(), twice.targetPort());
            assertTrue(twice.getMessage().contains("only one redirect"), twice.getMessage());
            assertTrue(b.loginRecords().isEmpty());
        }
    }
}
