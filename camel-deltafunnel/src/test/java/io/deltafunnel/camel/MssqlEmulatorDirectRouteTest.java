package io.deltafunnel.camel;


import java.util.List;

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

    /**
     * {@code asciiAsVarchar} (default true) decides the wire type of an nvarchar column whose batch is ASCII: varchar in
     * the column's collation, or UTF-16 with false. The rows are the same either way.
     */
    @Test
    void asciiAsVarcharChoosesTheWireTypeOfAsciiText() throws Exception {
        SERVER.emulator().captureBulkLoads(true);
        try {
            String base = table;
            for (String option : new String[] {"", "asciiAsVarchar=false"}) {
                table = base + (option.isEmpty() ? "_default" : "_off");
                createIdName("nvarchar(20)");
                runRoute(source(FIFTY, 10), mssql(option), 5, null);
                assertTrue(failures.isEmpty(), () -> failures.toString());
                assertEquals(List.of(List.of(7, "v7")), query("SELECT [id], [name] FROM [dbo].[" + table
                        + "] WHERE [id] = 7"));
                String t = table;
                List<io.deltafunnel.emulator.MssqlEmulator.CapturedBulkLoad> loads = SERVER.emulator()
                        .capturedBulkLoads().stream().filter(l -> t.equalsIgnoreCase(l.table())).toList();
                assertEquals(5, loads.size(), "one bulk load per batch");
                for (var l : loads) {
                    io.deltafunnel.tds.TypeInfo name = io.deltafunnel.mssql.direct.BulkStreams.parse(l.payload())
                            .columns().get(1).type();
                    assertEquals(option.isEmpty() ? io.deltafunnel.tds.TypeId.BIGVARCHAR
                            : io.deltafunnel.tds.TypeId.NVARCHAR, name.typeId(), option);
                    assertEquals(option.isEmpty() ? 20 : 40, name.maxLength(), option);
                }
            }
        } finally {
            SERVER.emulator().captureBulkLoads(false);
        }
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
