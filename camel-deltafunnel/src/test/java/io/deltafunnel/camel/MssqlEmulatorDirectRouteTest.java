package io.deltafunnel.camel;


import io.deltafunnel.mssql.direct.DirectChannels;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every end-to-end producer scenario and every emulator test of {@link MssqlEmulatorRouteTest} (fault injection,
 * runs across exchanges, producer stop) again with {@code bulkEncoder=direct} and no fallback: the direct TDS writer
 * must behave exactly like the mssql-jdbc path (write modes, transactions, statistics, errors naming column and row).
 * Plus the direct path's own choices: TLS, and the fallback to the driver path where its settings are unsupported.
 */
class MssqlEmulatorDirectRouteTest extends MssqlEmulatorRouteTest {

    @Override
    protected String encoderOptions() {
        return "&bulkEncoder=direct&bulkEncoderFallback=false";
    }

    @Test
    void directRunsOverTls() throws Exception {
        int before = SERVER.emulator().encryptedSessions();
        createIdName("nvarchar(20)");
        runRoute(source(FIFTY, 10), mssql(""), 5, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(50, count(table));
        assertTrue(SERVER.emulator().encryptedSessions() > before, "the direct connection negotiated TLS");
        stopAndAssertNoArrowLeak();
    }

    @Test
    void directIsUsedWhereItsSettingsAllow() throws Exception {
        DeltaFunnelMssqlEndpoint ep = context.getEndpoint(mssql(""), DeltaFunnelMssqlEndpoint.class);
        assertInstanceOf(DirectChannels.class, ep.channelProvider());
    }

    @Test
    void unsupportedAuthenticationFallsBackToTheDriverOrFailsClearly() throws Exception {
        String url = "deltafunnel-mssql:dbo.t?url=RAW(" + SERVER.emulator().jdbcUrl() + ";integratedSecurity=true)"
                + "&bulkEncoder=direct";
        DeltaFunnelMssqlEndpoint fallback = context.getEndpoint(url, DeltaFunnelMssqlEndpoint.class);
        assertFalse(fallback.channelProvider() instanceof DirectChannels, "falls back to the mssql-jdbc path");
        DeltaFunnelMssqlEndpoint strict = context.getEndpoint(url + "&bulkEncoderFallback=false",
                DeltaFunnelMssqlEndpoint.class);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, strict::channelProvider);
        assertTrue(e.getMessage().contains("integratedsecurity") && e.getMessage().contains("bulkEncoderFallback"),
                e.getMessage());
    }

    @Test
    void aDataSourceFallsBackToTheDriver() throws Exception {
        com.microsoft.sqlserver.jdbc.SQLServerDataSource ds = new com.microsoft.sqlserver.jdbc.SQLServerDataSource();
        ds.setURL(SERVER.emulator().jdbcUrl());
        ds.setUser(SERVER.emulator().user());
        ds.setPassword(SERVER.emulator().password());
        context.getRegistry().bind("lakeDs", ds);
        DeltaFunnelMssqlEndpoint ep = context.getEndpoint("deltafunnel-mssql:dbo." + table
                + "?dataSource=#lakeDs&bulkEncoder=direct", DeltaFunnelMssqlEndpoint.class);
        assertFalse(ep.channelProvider() instanceof DirectChannels);
        createIdName("nvarchar(20)");
        runRoute(source(FIFTY, 25), "deltafunnel-mssql:dbo." + table + "?dataSource=#lakeDs&bulkEncoder=direct", 2,
                null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(50, count(table));
        stopAndAssertNoArrowLeak();
    }
}
