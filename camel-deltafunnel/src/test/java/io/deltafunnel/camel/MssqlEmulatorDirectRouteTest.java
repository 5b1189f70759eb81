package io.deltafunnel.camel;

import java.sql.SQLException;
import java.util.List;

import io.deltafunnel.emulator.MssqlEmulator;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.SqlServerErrors;
import io.deltafunnel.mssql.WorkOutcome;
import io.deltafunnel.mssql.direct.DirectChannels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every end-to-end producer scenario again with {@code bulkEncoder=direct} and no fallback: the direct TDS writer must
 * behave exactly like the mssql-jdbc path (write modes, transactions, statistics, errors naming column and row), plus
 * the direct path's own failure handling against the emulator's fault injection.
 */
class MssqlEmulatorDirectRouteTest extends AbstractMssqlScenarios {

    static MssqlEmulator emulator;

    @BeforeAll
    static void startEmulator() {
        emulator = MssqlEmulator.builder().port(0).password("Str0ng!Passw0rd").sinkMode(false).start();
    }

    @AfterAll
    static void stopEmulator() {
        if (emulator != null) {
            emulator.close();
        }
    }

    @AfterEach
    void clearFaults() {
        emulator.faults().clear();
    }

    @Override
    protected String jdbcUrl() {
        // The emulator's certificate is self-signed.
        return emulator.jdbcUrl() + ";encrypt=true;trustServerCertificate=true";
    }

    @Override
    protected String user() {
        return emulator.user();
    }

    @Override
    protected String password() {
        return emulator.password();
    }

    @Override
    protected String encoderOptions() {
        return "&bulkEncoder=direct&bulkEncoderFallback=false";
    }

    @Test
    void directRunsOverTls() throws Exception {
        int before = emulator.encryptedSessions();
        createIdName("nvarchar(20)");
        runRoute(source(FIFTY, 10), mssql(""), 5, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(50, count(table));
        assertTrue(emulator.encryptedSessions() > before, "the direct connection negotiated TLS");
        stopAndAssertNoArrowLeak();
    }

    @Test
    void runTransactionServerErrorAtThirdBulkLoadLeavesTargetExactlyAsBefore() throws Exception {
        createIdName("nvarchar(20)");
        seedOld(3);
        List<List<Object>> before = contents();
        emulator.faults().failBulkLoad(3, 0, 1205);
        runRoute(source(FIFTY, 10), mssql("maxRetries=0"), 3, null);
        assertEquals(before, contents());
        BulkLoadException e = singleFailure();
        assertEquals(1205, e.errorNumber());
        assertEquals(WorkOutcome.ROLLED_BACK, e.outcome());
        assertEquals(20, e.stats().outputRows());
        assertTrue(e.getCause() instanceof SQLException sql && SqlServerErrors.isTransient(sql));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void directIsUsedWhereItsSettingsAllow() throws Exception {
        DeltaFunnelMssqlEndpoint ep = context.getEndpoint(mssql(""), DeltaFunnelMssqlEndpoint.class);
        assertInstanceOf(DirectChannels.class, ep.channelProvider());
    }

    @Test
    void unsupportedAuthenticationFallsBackToTheDriverOrFailsClearly() throws Exception {
        String url = "deltafunnel-mssql:dbo.t?url=RAW(" + emulator.jdbcUrl() + ";integratedSecurity=true)"
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
        ds.setURL(emulator.jdbcUrl());
        ds.setUser(emulator.user());
        ds.setPassword(emulator.password());
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
