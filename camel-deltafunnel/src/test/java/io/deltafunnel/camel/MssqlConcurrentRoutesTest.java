package io.deltafunnel.camel;

import java.util.List;
import java.util.concurrent.TimeUnit;

import io.deltafunnel.handoff.HandoffStats;
import org.apache.camel.Exchange;
import org.apache.camel.builder.NotifyBuilder;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.mock.MockEndpoint;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Four routes write four tables at the same time, each in another write/transaction mode; every count is exact. */
class MssqlConcurrentRoutesTest extends EmulatorRouteTestSupport {

    static final int ROWS = 40_000;
    static final int BATCH = 4_000;

    @Test
    void fourRoutesIntoFourTablesAtOnce() throws Exception {
        List<String> modes = List.of("transaction=run", "transaction=batch", "writeMode=replace",
                "writeMode=merge&keyColumns=id");
        String base = table;
        for (int r = 0; r < 4; r++) {
            dropIfExists(base + r);
            exec("CREATE TABLE [dbo].[" + base + r + "] ([id] bigint NOT NULL, [name] nvarchar(30) NULL,"
                    + " [amount] decimal(12,2) NULL)");
        }
        int batches = ROWS / BATCH;
        NotifyBuilder done = new NotifyBuilder(context).whenDone(4 * batches).create();
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                for (int r = 0; r < 4; r++) {
                    String sql = "SELECT i AS id, 'row ' || i AS name, (i % 1000)::DECIMAL(12,2) AS amount"
                            + " FROM range(0, " + (ROWS + r) + ") t(i)";
                    table = base + r;
                    from("deltafunnel:c" + r + "?query=RAW(" + sql + ")&batchSize=" + BATCH
                            + "&repeatCount=1&initialDelay=0").routeId("c" + r)
                            .to(mssql(modes.get(r))).to("mock:c" + r);
                }
                table = base;
            }
        });
        assertTrue(done.matches(120, TimeUnit.SECONDS), "the four routes did not finish");
        for (int r = 0; r < 4; r++) {
            int expected = ROWS + r;
            MockEndpoint out = getMockEndpoint("mock:c" + r);
            out.expectedMessageCount(batches + (r > 0 ? 1 : 0));
            out.assertIsSatisfied();
            Exchange last = out.getExchanges().get(out.getExchanges().size() - 1);
            long batchCount = batches + (r > 0 ? 1 : 0);
            assertEquals(new HandoffStats(batchCount, expected, batchCount, expected),
                    last.getProperty(DeltaFunnelConstants.HANDOFF_STATS), modes.get(r));
            List<Object> stats = query("SELECT COUNT(*), COUNT(DISTINCT [id]), MIN([id]), MAX([id]) FROM [dbo].["
                    + base + r + "]").get(0);
            assertEquals(List.of(expected, expected, 0L, (long) expected - 1), List.of(
                    ((Number) stats.get(0)).intValue(), ((Number) stats.get(1)).intValue(),
                    ((Number) stats.get(2)).longValue(), ((Number) stats.get(3)).longValue()), modes.get(r));
        }
        stopAndAssertNoArrowLeak();
    }
}
