package io.deltafunnel.routes;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issue 24: the start-up line {@code DeltaFunnel starting: AppSettings[...]} never shows a credential. */
class AppSettingsRedactionTest {

    @Test
    void credentialsInsideTheUrlAndThePasswordAreNotRendered() {
        Map<String, String> props = Map.of(
                "deltafunnel.mssql.url", "jdbc:sqlserver://localhost:1;databaseName=lake;encrypt=true;"
                                         + "password=UrlS3cret99;AccessToken={tok;en42};trustStorePassword=Ts!77",
                "deltafunnel.mssql.password", "Prop!Secret55");
        String text = AppSettings.from(props::get, k -> null).toString();
        for (String secret : new String[] {"UrlS3cret99", "tok;en42", "en42", "Ts!77", "Prop!Secret55"}) {
            assertFalse(text.contains(secret), secret + " in " + text);
        }
        assertTrue(text.contains("mssqlUrl=jdbc:sqlserver://localhost:1;databaseName=lake;encrypt=true;password=***;"
                                 + "AccessToken=***;trustStorePassword=***,"), text);
    }
}
