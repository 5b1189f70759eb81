package io.deltafunnel.routes;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import com.microsoft.sqlserver.jdbc.SQLServerDataSource;
import io.deltafunnel.camel.DeltaFunnelConstants;
import io.deltafunnel.emulator.MssqlEmulator;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;
import io.deltafunnel.sample.SampleDeltaWriter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A shard's progress line has the percentage of its share: the consumer says the share's rows up front (header
 * {@code CamelDeltaFunnelExpectedRows}, from the Delta log's {@code stats.numRecords}), and the run tracker shows
 * {@code writing N of SHARE rows (P%)} while the shard writes into SQL Server. The route holds its second batch until
 * the tracker has drawn a line for the first one, so that the line is seen whatever the machine's speed.
 */
class ShardProgressTest {

    @TempDir
    Path work;

    @Test
    void aShardsProgressLineShowsThePercentageOfItsShare() throws Exception {
        Path table = work.resolve("orders");
        try (Connection duckdb = DuckDbConnections.open(DuckDbSettings.inMemory())) {
            new SampleDeltaWriter(duckdb, table).append(SampleTable.select(3000), 6); // stats.numRecords per file
        }
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8);
        List<RunReporter.Summary> summaries = new CopyOnWriteArrayList<>();
        AtomicLong firstBatchRows = new AtomicLong();
        try (MssqlEmulator emu = TestTargets.startEmulator(); CamelContext context = new DefaultCamelContext()) {
            SQLServerDataSource ds = new SQLServerDataSource();
            ds.setURL(emu.jdbcUrl());
            ds.setUser(emu.user());
            ds.setPassword(emu.password());
            context.getRegistry().bind("ds", ds);
            // in place, as on a terminal (a line every 100 ms), wide enough not to be cut
            new RunReporter(new RunPrinter.Output(out, true, 100, 400), false, SimpleMeterRegistry::new,
                    summaries::add).install(context);
            context.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from("deltafunnel:progress?delta.source=" + table + "&query=SELECT * FROM source&batchSize=100"
                            + "&shardCount=2&shardIndex=0&loadId=progress-1&stateDataSource=#ds&repeatCount=1"
                            + "&initialDelay=0")
                            .routeId("load-table-shard-0")
                            .process(e -> {
                                if (e.getProperty(Exchange.BATCH_INDEX, Integer.class) == 0) {
                                    firstBatchRows.set(e.getIn().getHeader(DeltaFunnelConstants.BATCH_ROWS, Long.class));
                                } else if (e.getProperty(Exchange.BATCH_INDEX, Integer.class) == 1) {
                                    awaitText(captured, "load-table-shard-0: writing "
                                            + RunPrinter.fmt(firstBatchRows.get()) + " ");
                                }
                            })
                            .to("deltafunnel-mssql:dbo.shard_progress?dataSource=#ds&createTable=true");
                }
            });
            context.start();
            for (int i = 0; i < 1200 && summaries.isEmpty(); i++) {
                Thread.sleep(50); // until the run's summary (bounded: the assertions below say what happened)
            }
        }
        assertEquals(1, summaries.size(), summaries.toString());
        RunReporter.Summary summary = summaries.get(0);
        assertTrue(!summary.failed(), summary.line());
        assertNotNull(summary.shard(), summary.line());
        long share = summary.rows(); // what the shard wrote: its share of the 3,000 rows
        assertTrue(share > 0 && share < 3000, "a share, not the table: " + share);
        long first = firstBatchRows.get();
        String expected = "load-table-shard-0: writing " + RunPrinter.fmt(first) + " of " + RunPrinter.fmt(share)
                + " rows (" + first * 100 / share + "%)";
        String text = captured.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains(expected), "expected '" + expected + "' in:\n" + text.replace("\r", "\n"));
    }

    /** Waits (bounded) until the tracker has printed {@code text}; the assertion after the run says what was seen. */
    private static void awaitText(ByteArrayOutputStream captured, String text) throws InterruptedException {
        for (int i = 0; i < 300 && !captured.toString(StandardCharsets.UTF_8).contains(text); i++) {
            Thread.sleep(50);
        }
    }
}
