package io.deltafunnel.camel;

import com.microsoft.sqlserver.jdbc.SQLServerDataSource;
import io.deltafunnel.mssql.channel.CipherWarmup;
import org.apache.camel.CamelContext;
import org.apache.camel.Producer;
import org.apache.camel.test.junit5.CamelTestSupport;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When the producer warms up the TLS cipher: cipherWarmup (default true) and an encrypted connection. */
class MssqlCipherWarmupOptionTest extends CamelTestSupport {

    private DeltaFunnelMssqlEndpoint endpoint(String uri) {
        DeltaFunnelMssqlEndpoint ep = context.getEndpoint(uri, DeltaFunnelMssqlEndpoint.class);
        ep.init();
        return ep;
    }

    /** Two data sources: none is autowired, so the url endpoints have none. */
    @Override
    protected CamelContext createCamelContext() throws Exception {
        CamelContext context = super.createCamelContext();
        context.getRegistry().bind("ds1", new SQLServerDataSource());
        context.getRegistry().bind("ds2", new SQLServerDataSource());
        return context;
    }

    @Test
    void onByDefaultForEncryptedUrlsAndDataSources() {
        assertTrue(endpoint("deltafunnel-mssql:a?url=RAW(jdbc:sqlserver://h:1433;databaseName=d)").warmsUpCipher());
        assertTrue(endpoint("deltafunnel-mssql:b?url=RAW(jdbc:sqlserver://h;encrypt=strict)").warmsUpCipher());
        assertTrue(endpoint("deltafunnel-mssql:c?dataSource=#ds1").warmsUpCipher());
    }

    /** The producer's start asks for the warm-up when the endpoint says so, and not otherwise. */
    @Test
    void theProducersStartAsksForTheWarmUp() throws Exception {
        int before = CipherWarmup.requests();
        try (Producer plain = endpoint("deltafunnel-mssql:g?url=RAW(jdbc:sqlserver://h;encrypt=false)")
                .createProducer()) {
            plain.start();
            assertEquals(before, CipherWarmup.requests(), "no TLS: not asked");
        }
        try (Producer off = endpoint("deltafunnel-mssql:h?url=RAW(jdbc:sqlserver://h)&cipherWarmup=false")
                .createProducer()) {
            off.start();
            assertEquals(before, CipherWarmup.requests(), "turned off: not asked");
        }
        try (Producer tls = endpoint("deltafunnel-mssql:i?url=RAW(jdbc:sqlserver://h;encrypt=true)")
                .createProducer()) {
            tls.start();
            assertEquals(before + 1, CipherWarmup.requests(), "TLS: asked once");
            assertTrue(CipherWarmup.started());
        }
    }

    @Test
    void offWithoutEncryptionOrWhenTurnedOff() {
        assertFalse(endpoint("deltafunnel-mssql:d?url=RAW(jdbc:sqlserver://h;encrypt=false)").warmsUpCipher());
        assertFalse(endpoint("deltafunnel-mssql:e?url=RAW(jdbc:sqlserver://h)&cipherWarmup=false").warmsUpCipher());
        assertFalse(endpoint("deltafunnel-mssql:f?dataSource=#ds1&cipherWarmup=false").warmsUpCipher());
    }
}
