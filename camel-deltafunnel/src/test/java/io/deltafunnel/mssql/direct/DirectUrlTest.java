package io.deltafunnel.mssql.direct;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DirectUrlTest {

    @Test
    void propertiesAreCaseInsensitiveAndBracesQuote() {
        Map<String, String> p = DirectUrl.properties("databaseName=db;PassWord={a;b=c};encrypt=true;");
        assertEquals("db", p.get("databasename"));
        assertEquals("a;b=c", p.get("password"));
        assertEquals("true", p.get("encrypt"));
    }

    @Test
    void doubledClosingBraceInsideBracesIsOneBrace() {
        Map<String, String> p = DirectUrl.properties("password={p}}w;d};databaseName={a}}}}};x=1");
        assertEquals("p}w;d", p.get("password"));
        assertEquals("a}}", p.get("databasename"));
        assertEquals("1", p.get("x"));
    }

    /** Every property the direct client reads is read as mssql-jdbc's own parser reads it. */
    @Test
    void readsUrlsAsTheDriverDoes() throws Exception {
        String[] urls = {
            "jdbc:sqlserver://h:1444;databaseName={a;b}}c};encrypt=strict;user=u;hostNameInCertificate=*.x.net",
            "jdbc:sqlserver://db.example.com;DATABASENAME=sales;Encrypt=false;trustServerCertificate=true;packetSize=4096",
            "jdbc:sqlserver://10.0.0.1:1433;database=d;applicationName={my;app};loginTimeout=7;trustStore={/t;s}",
        };
        com.microsoft.sqlserver.jdbc.SQLServerDriver driver = new com.microsoft.sqlserver.jdbc.SQLServerDriver();
        for (String url : urls) {
            Map<String, String> ours = DirectUrl.properties(url.substring(url.indexOf(';') + 1));
            java.util.Map<String, String> theirs = new java.util.HashMap<>();
            for (java.sql.DriverPropertyInfo i : driver.getPropertyInfo(url, new java.util.Properties())) {
                theirs.put(i.name.toLowerCase(java.util.Locale.ROOT), i.value);
            }
            for (Map.Entry<String, String> e : ours.entrySet()) {
                String key = e.getKey().equals("database") ? "databasename" : e.getKey();
                assertTrue(theirs.containsKey(key), url + ": the driver knows " + key);
                assertEquals(theirs.get(key).toLowerCase(java.util.Locale.ROOT),
                        e.getValue().toLowerCase(java.util.Locale.ROOT), url + ": " + key);
            }
        }
    }

    /** Data is encrypted unless encrypt turns it off, as in mssql-jdbc (10 and later: encrypt=true by default). */
    @Test
    void encryptsDataUnlessEncryptIsOff() {
        assertTrue(DirectUrl.encryptsData("jdbc:sqlserver://h:1433;databaseName=d"));
        assertTrue(DirectUrl.encryptsData("jdbc:sqlserver://h"));
        assertTrue(DirectUrl.encryptsData("jdbc:sqlserver://h;encrypt=true;trustServerCertificate=true"));
        assertTrue(DirectUrl.encryptsData("jdbc:sqlserver://h;Encrypt=Strict"));
        assertTrue(DirectUrl.encryptsData("jdbc:sqlserver://h;encrypt=mandatory"));
        assertFalse(DirectUrl.encryptsData("jdbc:sqlserver://h;encrypt=false"));
        assertFalse(DirectUrl.encryptsData("JDBC:SQLSERVER://h;ENCRYPT={No}"));
        assertFalse(DirectUrl.encryptsData("jdbc:sqlserver://h;databaseName=d;encrypt=optional;user=u"));
        assertFalse(DirectUrl.encryptsData(null));
        assertFalse(DirectUrl.encryptsData("jdbc:postgresql://h/d"));
    }

    @Test
    void hostPortDatabaseAndCredentials() throws Exception {
        DirectOptions o = DirectUrl.parse(
                "jdbc:sqlserver://db.example.com:14330;databaseName=sales;trustServerCertificate=true;packetSize=32767",
                "loader", "s3cret");
        assertEquals("db.example.com", o.host());
        assertEquals(14330, o.port());
        assertEquals("sales", o.database());
        assertEquals("loader", o.user());
        assertTrue(o.trustServerCertificate());
        assertEquals(32767, o.packetSize());
        assertTrue(o.encrypt(), "encryption stays on by default");
    }

    @Test
    void defaultsAndUrlCredentials() throws Exception {
        DirectOptions o = DirectUrl.parse("jdbc:sqlserver://localhost;user=u;password=p;encrypt=false",
                null, null);
        assertEquals(1433, o.port());
        assertEquals("u", o.user());
        assertFalse(o.encrypt());
        assertFalse(o.trustServerCertificate());
    }

    @Test
    void unsupportedAuthenticationIsRefusedWithoutShowingValues() {
        for (String url : new String[] {
            "jdbc:sqlserver://h:1433;integratedSecurity=true",
            "jdbc:sqlserver://h:1433;authentication=ActiveDirectoryIntegrated",
            "jdbc:sqlserver://h:1433;authentication=ActiveDirectoryPassword;password=TopSecret1",
            "jdbc:sqlserver://h\\SQLEXPRESS",
            "jdbc:sqlserver://h:1433;columnEncryptionSetting=Enabled;password=TopSecret1",
            "jdbc:sqlserver://h:1433;accessToken=TopSecret1",
            "jdbc:mysql://h:3306"}) {
            DirectUnsupportedSettingException e = assertThrows(DirectUnsupportedSettingException.class,
                    () -> DirectUrl.parse(url, "u", "TopSecret1"), url);
            assertFalse(e.getMessage().contains("TopSecret1"), e.getMessage());
        }
    }

    @Test
    void driverDefaultsOfUnsupportedFeaturesAreAccepted() throws Exception {
        DirectUrl.parse("jdbc:sqlserver://h:1;integratedSecurity=false;columnEncryptionSetting=Disabled;"
                + "applicationIntent=ReadWrite;multiSubnetFailover=false;authentication=SqlPassword", "u", "p");
    }

    @Test
    void strictEncryptionTrustStoreAndHostNameInCertificate() throws Exception {
        DirectOptions o = DirectUrl.parse("jdbc:sqlserver://h:1433;encrypt=strict;"
                + "hostNameInCertificate=db.example.com;trustStore=/tmp/ts.p12;trustStorePassword=pw;trustStoreType=PKCS12",
                "u", "p");
        assertEquals(DirectTdsConnection.Encryption.STRICT, o.encryption());
        assertEquals("db.example.com", o.hostNameInCertificate());
        assertFalse(o.toString().contains("pw"), o.toString());
        assertThrows(DirectUnsupportedSettingException.class,
                () -> DirectUrl.parse("jdbc:sqlserver://h;encrypt=strict;trustServerCertificate=true", "u", "p"));
    }
}
