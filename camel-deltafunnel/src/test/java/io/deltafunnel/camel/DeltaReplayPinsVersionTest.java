package io.deltafunnel.camel;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import io.deltafunnel.sample.SampleDeltaWriter;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;
import org.apache.camel.Exchange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A replayed run reads the same Delta version as its first attempt, even when the table advanced in between:
 * the target ends with exactly the rows of that version, once.
 */
class DeltaReplayPinsVersionTest extends EmulatorRouteTestSupport {

    @TempDir
    Path dir;

    @Test
    void replayReadsThePinnedVersionAfterTheTableAdvanced() throws Exception {
        Path orders = dir.resolve("orders");
        try (Connection duckdb = DuckDbConnections.open(DuckDbSettings.inMemory())) {
            new SampleDeltaWriter(duckdb, orders).append("SELECT i::INTEGER AS id, 'v0' AS name FROM range(50) t(i)", 2);
        }
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20) NULL)");
        // The second bulk load of the run fails with a deadlock (1205): the run is rolled back and replayed.
        SERVER.emulator().faults().failBulkLoad(2, 0, 1205);

        AtomicBoolean advanced = new AtomicBoolean();
        List<Object[]> seen = new CopyOnWriteArrayList<>();
        String source = "deltafunnel:" + table + "?delta.orders=" + orders + "&query=SELECT * FROM orders"
                        + "&batchSize=10&repeatCount=1&initialDelay=0";
        runRoute(source, mssql("transaction=run&retryDelay=10"), 2 + 5, exchange -> {
            seen.add(new Object[] {exchange.getIn().getHeader(DeltaFunnelConstants.ATTEMPT, Integer.class),
                    exchange.getIn().getHeader(DeltaFunnelConstants.DELTA_VERSIONS, Map.class)});
            // While the first attempt is under way, another writer commits version 1.
            if (exchange.getProperty(Exchange.BATCH_INDEX, Integer.class) == 0 && advanced.compareAndSet(false, true)) {
                try (Connection duckdb = DuckDbConnections.open(DuckDbSettings.inMemory())) {
                    new SampleDeltaWriter(duckdb, orders).append(
                            "SELECT (1000 + i)::INTEGER AS id, 'v1' AS name FROM range(30) t(i)", 1);
                }
            }
        }, null);

        assertEquals(50, count(table), "exactly the rows of version 0, once");
        // COUNT(*) is int in SQL Server (COUNT_BIG is bigint)
        assertEquals(List.of(List.of(50)),
                query("SELECT COUNT(*) FROM [dbo].[" + table + "] WHERE [name] = N'v0'"));
        Object[] last = seen.get(seen.size() - 1);
        assertEquals(2, last[0], "the run was replayed as attempt 2");
        assertEquals(Map.of("orders", 0L), last[1], "the replay read the pinned version 0");
        stopAndAssertNoArrowLeak();
    }
}
