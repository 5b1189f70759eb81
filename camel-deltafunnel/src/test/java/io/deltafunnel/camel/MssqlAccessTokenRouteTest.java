package io.deltafunnel.camel;

import io.deltafunnel.emulator.fidelity.ServerUnderTest;
import io.deltafunnel.emulator.fidelity.EmulatorServer;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The producer's {@code accessTokenSupplier} (Microsoft Entra ID token login, FEDAUTH) with both encoders, against an
 * emulator that only accepts one token.
 */
class MssqlAccessTokenRouteTest extends MssqlRouteTestSupport {

    static final String TOKEN = "eyJ0eXAiOiJKV1QiLCJhbGciOi.test-token";

    @RegisterExtension
    static final EmulatorServer SERVER =
            new EmulatorServer(b -> b.port(0).sinkMode(false).accessTokenValidator(TOKEN::equals));

    static final AtomicInteger calls = new AtomicInteger();

    @BeforeEach
    void name(TestInfo info) {
        nameTable(info);
    }

    @Override
    protected ServerUnderTest server() {
        return SERVER;
    }

    private String tokenUri(String encoder) {
        context.getRegistry().bind("tokens", (Supplier<String>) () -> {
            calls.incrementAndGet();
            return TOKEN;
        });
        return "deltafunnel-mssql:dbo." + table + "?url=RAW(" + jdbcUrl() + ")&accessTokenSupplier=#tokens"
                + "&bulkEncoder=" + encoder + "&bulkEncoderFallback=false";
    }

    private void loadWith(String encoder) throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20))");
        int before = calls.get();
        runRoute(source("SELECT i::INTEGER AS id, 'n' || i AS name FROM range(0, 30) t(i)", 10), tokenUri(encoder), 3,
                null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(30, count(table));
        assertTrue(calls.get() > before, "the supplier was asked for a token");
        long tokenLogins = SERVER.emulator().loginRecords().stream().filter(r -> r.accessTokenLength() > 0).count();
        assertTrue(tokenLogins > 0);
        stopAndAssertNoArrowLeak();
    }

    @Test
    void directEncoderLogsInWithTheSuppliedToken() throws Exception {
        loadWith("direct");
    }

    @Test
    void driverEncoderLogsInWithTheSuppliedToken() throws Exception {
        loadWith("driver");
    }
}
