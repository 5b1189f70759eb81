package io.deltafunnel.mssql.direct;

import java.lang.reflect.RecordComponent;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

import io.deltafunnel.emulator.LoginRecord;
import io.deltafunnel.emulator.MssqlEmulator;
import io.deltafunnel.tds.Login7;
import io.deltafunnel.tds.PreloginOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PRELOGIN and LOGIN7 the direct client sends, compared field by field with what mssql-jdbc 13.6 sends to the same
 * emulator with equivalent settings (plain, TLS in PRELOGIN, access token, strict). Every {@link LoginRecord}
 * component is either asserted equal or listed in {@link #DIFFERING} with a justification and asserted there, so a
 * new field or a changed value shows up.
 */
class LoginEquivalenceTest {

    private static final String APP = "login-equivalence";
    private static final String TOKEN = "eyJ0eXAiOiJKV1QifQ.equivalence-token";

    /** Components that legitimately differ, each with why; all are asserted in {@link #assertDifferences}. */
    private static final Map<String, String> DIFFERING = Map.of(
            "spid", "the emulator's per-connection session id",
            "clientProgVersion", "each client sends its own version (driver 13.6.x, ours 0.1.0.0)",
            "libraryName", "CltIntName names the client library",
            "clientId", "the driver sends a MAC address; ours is zeros (informational only, MS-TDS 2.2.6.4)",
            "prelogin", "VERSION is the client's own version; the driver adds a TRACEID (connection/activity ids); "
                    + "with encryption off the driver asks ENCRYPT_OFF (login-only TLS), we ask ENCRYPT_NOT_SUP "
                    + "because login-only encryption is not implemented",
            "featureExtIds", "the driver requests features we do not implement (user agent, Always Encrypted, data "
                    + "classification, UTF-8 collations, DNS caching, vector, JSON, enhanced routing, session "
                    + "recovery); asking for UTF-8/JSON/vector would change what the server sends us");

    @RegisterExtension
    static final EmulatorTrustStore TRUST = new EmulatorTrustStore();

    private enum Mode { PLAIN, TLS, TOKEN, STRICT }

    @Test
    void plainLogin() throws Exception {
        compare(Mode.PLAIN);
    }

    @Test
    void tlsLogin() throws Exception {
        compare(Mode.TLS);
    }

    @Test
    void accessTokenLogin() throws Exception {
        compare(Mode.TOKEN);
    }

    @Test
    void strictLogin() throws Exception {
        compare(Mode.STRICT);
    }

    private void compare(Mode mode) throws Exception {
        try (MssqlEmulator emu = MssqlEmulator.builder().strictEncryption(mode == Mode.STRICT)
                .accessTokenValidator(TOKEN::equals).start()) {
            try (Connection c = DriverManager.getConnection(driverUrl(emu, mode), driverProperties(emu, mode))) {
                assertTrue(c.isValid(5));
            }
            try (DirectTdsConnection d = DirectTdsConnection.open(directOptions(emu, mode))) {
                d.executeBatch("SET NOCOUNT ON");
            }
            List<LoginRecord> records = emu.loginRecords();
            assertEquals(2, records.size());
            LoginRecord driver = records.get(0);
            LoginRecord direct = records.get(1);
            assertTrue(driver.accepted() && direct.accepted());
            Set<String> checked = assertEqualFields(driver, direct);
            assertDifferences(driver, direct, mode);
            Set<String> all = new TreeSet<>();
            for (RecordComponent rc : LoginRecord.class.getRecordComponents()) {
                all.add(rc.getName());
            }
            Set<String> covered = new TreeSet<>(checked);
            covered.addAll(DIFFERING.keySet());
            assertEquals(all, covered, "every LoginRecord field is either compared or a listed difference");
            assertModeSpecifics(direct, mode);
        }
    }

    /** Asserts equality of every component not in {@link #DIFFERING}; returns their names. */
    private static Set<String> assertEqualFields(LoginRecord driver, LoginRecord direct) throws Exception {
        Set<String> names = new HashSet<>();
        for (RecordComponent rc : LoginRecord.class.getRecordComponents()) {
            if (DIFFERING.containsKey(rc.getName())) {
                continue;
            }
            Object a = rc.getAccessor().invoke(driver);
            Object b = rc.getAccessor().invoke(direct);
            assertEquals(a, b, "LOGIN7/PRELOGIN field " + rc.getName());
            names.add(rc.getName());
        }
        return names;
    }

    private static void assertDifferences(LoginRecord driver, LoginRecord direct, Mode mode) {
        assertNotEquals(driver.spid(), direct.spid());
        assertEquals(0x00010000, direct.clientProgVersion());
        assertNotEquals(direct.clientProgVersion(), driver.clientProgVersion());
        assertTrue(driver.libraryName().startsWith("Microsoft JDBC Driver 13."), driver.libraryName());
        assertEquals("deltafunnel", direct.libraryName());
        assertEquals("000000000000", direct.clientId());
        assertEquals(12, driver.clientId().length());

        // PRELOGIN: same options in the same order, apart from the driver's TRACEID
        List<Integer> driverIds = new ArrayList<>(driver.prelogin().keySet());
        assertTrue(driverIds.remove(Integer.valueOf(PreloginOptions.TRACEID)), "driver sends TRACEID");
        assertEquals(72, driver.preloginOption(PreloginOptions.TRACEID).length(), "36-byte TRACEID");
        assertNull(direct.preloginOption(PreloginOptions.TRACEID));
        assertEquals(driverIds, new ArrayList<>(direct.prelogin().keySet()));
        assertEquals("000100000000", direct.preloginOption(PreloginOptions.VERSION));
        assertTrue(driver.preloginOption(PreloginOptions.VERSION).startsWith("0d"), "driver major version 13");
        if (mode == Mode.PLAIN) {
            assertEquals(PreloginOptions.ENCRYPT_OFF, driver.preloginEncryption());
            assertEquals(PreloginOptions.ENCRYPT_NOT_SUP, direct.preloginEncryption());
        } else {
            assertEquals(driver.preloginEncryption(), direct.preloginEncryption());
        }
        assertEquals(driver.preloginOption(PreloginOptions.FEDAUTHREQUIRED),
                direct.preloginOption(PreloginOptions.FEDAUTHREQUIRED));

        // FeatureExt: ours is a subset, in the driver's relative order; the rest is the listed set
        List<Integer> extra = new ArrayList<>(driver.featureExtIds());
        extra.removeAll(direct.featureExtIds());
        assertEquals(List.of(Login7.FEATURE_USERAGENT, Login7.FEATURE_COLUMNENCRYPTION,
                Login7.FEATURE_DATACLASSIFICATION, Login7.FEATURE_UTF8_SUPPORT, Login7.FEATURE_AZURESQLDNSCACHING,
                Login7.FEATURE_ENHANCEDROUTING,
                Login7.FEATURE_SESSIONRECOVERY), extra);
        List<Integer> common = new ArrayList<>(driver.featureExtIds());
        common.retainAll(direct.featureExtIds());
        assertEquals(common, direct.featureExtIds());
        List<Integer> modern = List.of(Login7.FEATURE_VECTORSUPPORT, Login7.FEATURE_JSONSUPPORT);
        assertEquals(mode == Mode.TOKEN ? List.of(Login7.FEATURE_FEDAUTH, Login7.FEATURE_VECTORSUPPORT,
                Login7.FEATURE_JSONSUPPORT) : modern, direct.featureExtIds());
    }

    private static void assertModeSpecifics(LoginRecord direct, Mode mode) {
        // the flags that change server behaviour, spelled out (they were compared with the driver above)
        assertEquals(Login7.F1_USE_DB_OFF | Login7.F1_INIT_DB_FATAL | Login7.F1_SET_LANG_ON, direct.optionFlags1());
        assertEquals(Login7.F2_INIT_LANG_FATAL | Login7.F2_ODBC_ON, direct.optionFlags2());
        assertEquals(0, direct.typeFlags(), "read/write intent");
        assertEquals(Login7.F3_UNKNOWN_COLLATION_HANDLING | Login7.F3_EXTENSION, direct.optionFlags3());
        assertEquals(mode == Mode.STRICT ? Login7.TDS_8_0 : Login7.TDS_7_4, direct.tdsVersion());
        assertEquals(8000, direct.packetSize());
        assertEquals("master", direct.database());
        assertEquals(APP, direct.appName());
        switch (mode) {
            case PLAIN -> assertNull(direct.tlsProtocol());
            case TLS -> assertEquals("TLSv1.2", direct.tlsProtocol());
            case TOKEN -> {
                assertEquals(Login7.FEDAUTH_LIBRARY_SECURITYTOKEN, direct.fedAuthLibrary());
                assertTrue(direct.fedAuthEcho());
                assertEquals(TOKEN.length(), direct.accessTokenLength());
                assertEquals("", direct.userName());
                assertFalse(direct.passwordPresent());
            }
            case STRICT -> {
                assertTrue(direct.strictTls());
                assertEquals(PreloginOptions.ALPN_TDS_8_0, direct.alpn());
            }
            default -> throw new IllegalStateException(mode.name());
        }
    }

    private static String driverUrl(MssqlEmulator emu, Mode mode) {
        String base = "jdbc:sqlserver://localhost:" + emu.port() + ";databaseName=master;applicationName=" + APP;
        return switch (mode) {
            case PLAIN -> base + ";encrypt=false";
            case TLS, TOKEN -> base + ";encrypt=true;trustServerCertificate=true";
            case STRICT -> base + ";encrypt=strict;trustStoreType=PKCS12";
        };
    }

    private static Properties driverProperties(MssqlEmulator emu, Mode mode) {
        Properties p = new Properties();
        if (mode == Mode.TOKEN) {
            p.setProperty("accessToken", TOKEN);
        } else {
            p.setProperty("user", emu.user());
            p.setProperty("password", emu.password());
        }
        if (mode == Mode.STRICT) {
            p.setProperty("trustStore", TRUST.path().toString());
            p.setProperty("trustStorePassword", new String(EmulatorTrustStore.PASSWORD));
        }
        return p;
    }

    private static DirectOptions directOptions(MssqlEmulator emu, Mode mode) {
        DirectOptions o = DirectTdsConnection.options().host("localhost").port(emu.port())
                .database("master").applicationName(APP);
        return switch (mode) {
            case PLAIN -> o.user(emu.user()).password(emu.password()).encrypt(false);
            case TLS -> o.user(emu.user()).password(emu.password()).trustServerCertificate(true);
            case TOKEN -> o.accessToken(() -> TOKEN).trustServerCertificate(true);
            case STRICT -> o.user(emu.user()).password(emu.password())
                    .encryption(DirectTdsConnection.Encryption.STRICT)
                    .trustStore(TRUST.path(), EmulatorTrustStore.PASSWORD, "PKCS12");
        };
    }
}
