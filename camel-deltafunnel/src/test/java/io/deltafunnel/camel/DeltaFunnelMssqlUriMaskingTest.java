package io.deltafunnel.camel;

import java.util.Properties;

import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.util.URISupport;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Camel's rendering of a {@code deltafunnel-mssql:} URI masks the {@code password} option (plain and RAW) and, once
 * the component has started, the whole {@code url} option, which may hold {@code ;password=...}; keywords configured
 * with {@code camel.main.additional-sensitive-keywords} stay masked.
 */
class DeltaFunnelMssqlUriMaskingTest {

    @Test
    void passwordOptionsAndCredentialsInsideTheUrlAreMaskedInCamelsRendering() throws Exception {
        try (DefaultCamelContext ctx = new DefaultCamelContext()) {
            Properties p = new Properties();
            p.setProperty("camel.main.additional-sensitive-keywords", "myOwnKey");
            ctx.getPropertiesComponent().setOverrideProperties(p);
            ctx.start();
            String uri = "deltafunnel-mssql:dbo.t?url=RAW(jdbc:sqlserver://h:1;databaseName=d;password=InUrl!Pw1)"
                         + "&username=sa&password=RAW(Opt!Pw2)";
            DeltaFunnelMssqlEndpoint e = ctx.getEndpoint(uri, DeltaFunnelMssqlEndpoint.class);
            String plain = "deltafunnel-mssql:dbo.t?url=jdbc:sqlserver://h:1;password=Plain!Pw3&password=Opt!Pw2";
            for (String rendered : new String[] {URISupport.sanitizeUri(uri), e.toString(),
                URISupport.sanitizeUri(plain)}) {
                for (String secret : new String[] {"InUrl!Pw1", "Opt!Pw2", "Plain!Pw3"}) {
                    assertFalse(rendered.contains(secret), secret + " in " + rendered);
                }
                assertTrue(rendered.startsWith("deltafunnel-mssql:") || rendered.contains("deltafunnel-mssql:"),
                        rendered);
            }
            String own = URISupport.sanitizeUri("x:y?myOwnKeyThing=Own!Pw4");
            assertFalse(own.contains("Own!Pw4"), own);
        }
    }
}
