package io.deltafunnel.mssql.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.DriverPropertyInfo;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import com.microsoft.sqlserver.jdbc.SQLServerDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JdbcUrlsTest {

    @Test
    void thePasswordOfTheIssueIsMaskedAndTheRestKept() {
        assertEquals("jdbc:sqlserver://localhost:1;databaseName=lake;encrypt=true;password=***",
                JdbcUrls.redact("jdbc:sqlserver://localhost:1;databaseName=lake;encrypt=true;password=UrlS3cret99"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"password", "PASSWORD", "Password", "pAsSwOrD", " password ", "accessToken",
        "ACCESSTOKEN", "clientKeyPassword", "keyStoreSecret", "KeyStoreSecret", "keyStorePassword",
        "trustStorePassword", "TRUSTSTOREPASSWORD", "AADSecurePrincipalSecret", "aadSecurePrincipalSecret",
        "pwd", "clientSecret", "someFutureSecret"})
    void everyCredentialPropertyIsMaskedInAnyCase(String name) {
        String url = "jdbc:sqlserver://h:1433;databaseName=lake;" + name + "=Leak3d!;encrypt=true";
        String red = JdbcUrls.redact(url);
        assertEquals("jdbc:sqlserver://h:1433;databaseName=lake;" + name + "=***;encrypt=true", red);
        assertFalse(JdbcUrls.redactText("failed for " + url + " (x)").contains("Leak3d"));
    }

    @Test
    void nonSecretPropertiesAreKeptAsWritten() {
        String url = "jdbc:sqlserver://h\\inst:1433;databaseName={my;db};user=loader;trustStore=/etc/ts.jks;"
                     + "hostNameInCertificate=*.example.org;keyStoreAuthentication=JavaKeyStorePassword;"
                     + "accessTokenCallbackClass=";
        // keyStoreAuthentication's value names a method, not a secret, but the property name is not secret-ish;
        // accessTokenCallbackClass contains "token": masked though it is a class name (more, never less)
        assertEquals(url.replace("accessTokenCallbackClass=", "accessTokenCallbackClass=***"), JdbcUrls.redact(url));
        assertEquals("jdbc:sqlserver://h:1", JdbcUrls.redact("jdbc:sqlserver://h:1"));
        assertNull(JdbcUrls.redact(null));
    }

    @Test
    void bracedValuesWithSemicolonsAndEscapedBracesAreMaskedWhole() {
        String url = "jdbc:sqlserver://h;password={a;b}}c=d;e};databaseName=lake";
        assertEquals("jdbc:sqlserver://h;password=***;databaseName=lake", JdbcUrls.redact(url));
        String text = "cannot open " + url + " now";
        String red = JdbcUrls.redactText(text);
        for (String part : new String[] {"a;b", "c=d", ";e}"}) {
            assertFalse(red.contains(part), red);
        }
        assertTrue(red.contains("databaseName=lake now"), red);
    }

    @Test
    void aBracedNonSecretValueMayHoldWhatLooksLikeAPassword() {
        // the driver reads {..} as the value of applicationName; nothing in it is a property
        String url = "jdbc:sqlserver://h;applicationName={x;password=notAProperty};password=Real1";
        assertEquals("jdbc:sqlserver://h;applicationName={x;password=notAProperty};password=***",
                JdbcUrls.redact(url));
    }

    @Test
    void anUnterminatedBraceMasksTheRest() {
        assertEquals("jdbc:sqlserver://h;password=***", JdbcUrls.redact("jdbc:sqlserver://h;password={abc;user=x"));
        assertFalse(JdbcUrls.redactText("x jdbc:sqlserver://h;password={abc;user=x\nnext").contains("abc"));
    }

    @Test
    void severalSecretsAndBlanksAroundNamesAndValues() {
        String url = "jdbc:sqlserver://h;password=One1; accessToken = Two2 ;databaseName=d;keyStoreSecret={Th;ree3};"
                     + "trustStorePassword=Four4";
        String red = JdbcUrls.redact(url);
        assertEquals("jdbc:sqlserver://h;password=***; accessToken =***;databaseName=d;keyStoreSecret=***;"
                     + "trustStorePassword=***", red);
        String text = JdbcUrls.redactText("AppSettings[mssqlUrl=" + url + "]");
        for (String secret : new String[] {"One1", "Two2", "Th;ree3", "ree3", "Four4"}) {
            assertFalse(red.contains(secret), red);
            assertFalse(text.contains(secret), text);
        }
    }

    @Test
    void segmentsWithoutValuesAreKept() {
        assertEquals("jdbc:sqlserver://h;;encrypt;password=***;", JdbcUrls.redact("jdbc:sqlserver://h;;encrypt;password=x;"));
    }

    @Test
    void textWithoutSecretsIsUnchanged() {
        String t = "Login failed for user 'sa'. ClientConnectionId:1; databaseName=lake";
        assertEquals(t, JdbcUrls.redactText(t));
        assertNull(JdbcUrls.redactText(null));
    }

    /** mssql-jdbc reads every non-secret property of the masked URL exactly as of the original one. */
    @Test
    void theDriverReadsTheMaskedUrlsOtherPropertiesUnchanged() throws Exception {
        String url = "jdbc:sqlserver://h:1433;databaseName={my;db};password={a;b}}c};applicationName=app;"
                     + "trustStorePassword=x;encrypt=false;loginTimeout=7";
        Map<String, String> original = driverView(url);
        Map<String, String> masked = driverView(JdbcUrls.redact(url));
        original.keySet().removeIf(JdbcUrls::isSecret);
        masked.keySet().removeIf(JdbcUrls::isSecret);
        assertEquals(original, masked);
        assertEquals("my;db", masked.get("databaseName"));
        assertEquals("7", masked.get("loginTimeout"));
        assertEquals("app", masked.get("applicationName"));
    }

    private static Map<String, String> driverView(String url) throws Exception {
        Map<String, String> out = new LinkedHashMap<>();
        for (DriverPropertyInfo p : new SQLServerDriver().getPropertyInfo(url, new Properties())) {
            out.put(p.name, p.value);
        }
        return out;
    }
}
