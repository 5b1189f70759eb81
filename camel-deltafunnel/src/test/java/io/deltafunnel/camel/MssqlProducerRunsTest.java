package io.deltafunnel.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.run.RunRefusedException;
import io.deltafunnel.mssql.run.TooManyOpenRunsException;

import org.apache.camel.Exchange;
import org.apache.camel.builder.NotifyBuilder;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.mock.MockEndpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One producer and several runs at once (one session per run id, bounded by {@code maxOpenRuns}, a clear refusal
 * beyond it); Camel redelivery on a route that writes with {@code deltafunnel-mssql:}; {@code query} read from a file.
 */
class MssqlProducerRunsTest extends EmulatorRouteTestSupport {

    private final List<Exception> routeFailures = new CopyOnWriteArrayList<>();

    private String source(String name, int from, int to) {
        return "deltafunnel:" + name + "?query=RAW(SELECT i::INTEGER AS id, 'v' || i AS name FROM range(" + from + ", "
                + to + ") t(i) ORDER BY i)&batchSize=10&repeatCount=1&initialDelay=0";
    }

    /**
     * Two sources share one producer (through {@code direct:write}); each waits after its first batch until
     * {@code gate} opens, so both runs are open in the producer at the same time.
     */
    private void twoRunsAtOnce(String producerOptions, CountDownLatch gate, boolean countDownOnSuccess)
            throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20) NULL)");
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                onException(Exception.class).process(e -> {
                    routeFailures.add(e.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class));
                    gate.countDown();
                });
                from("direct:write").to(mssql(producerOptions));
                for (String name : List.of("a", "b")) {
                    int from = name.equals("a") ? 0 : 1000;
                    from(source(name, from, from + 50)).routeId(name).to("direct:write").process(e -> {
                        if (e.getProperty(Exchange.BATCH_INDEX, Integer.class) == 0) {
                            if (countDownOnSuccess) {
                                gate.countDown();
                            }
                            assertTrue(gate.await(30, TimeUnit.SECONDS), "the other run did not reach the producer");
                        }
                    }).to("mock:" + name);
                }
            }
        });
    }

    @Test
    void concurrentRunsEachKeepTheirOwnSession() throws Exception {
        CountDownLatch bothOpen = new CountDownLatch(2);
        NotifyBuilder done = new NotifyBuilder(context).whenDone(10).create();
        twoRunsAtOnce("maxOpenRuns=2", bothOpen, true);
        assertTrue(done.matches(60, TimeUnit.SECONDS));
        assertEquals(List.of(), routeFailures);
        MockEndpoint.assertIsSatisfied(context);
        assertEquals(5, getMockEndpoint("mock:a").getReceivedCounter());
        assertEquals(5, getMockEndpoint("mock:b").getReceivedCounter());
        List<Object> stats = query("SELECT COUNT(*), COUNT(DISTINCT [id]), SUM([id]) FROM [dbo].[" + table + "]")
                .get(0);
        assertEquals(List.of(100, 100, 1225L + 51225L), List.of(((Number) stats.get(0)).intValue(),
                ((Number) stats.get(1)).intValue(), ((Number) stats.get(2)).longValue()));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void aRunBeyondMaxOpenRunsIsRefusedAndTheOpenRunGoesOn() throws Exception {
        // The first run to write its first batch waits until the other one has been refused.
        CountDownLatch refused = new CountDownLatch(1);
        NotifyBuilder done = new NotifyBuilder(context).whenDone(6).create();
        twoRunsAtOnce("maxOpenRuns=1", refused, false);
        assertTrue(done.matches(60, TimeUnit.SECONDS));
        assertEquals(1, routeFailures.size(), routeFailures.toString());
        TooManyOpenRunsException e = assertInstanceOf(TooManyOpenRunsException.class, routeFailures.get(0));
        assertTrue(e.getMessage().contains("maxOpenRuns=1"), e.getMessage());
        assertEquals(1, e.openRunIds().size());
        int a = getMockEndpoint("mock:a").getReceivedCounter();
        int b = getMockEndpoint("mock:b").getReceivedCounter();
        assertEquals(List.of(0, 5), List.of(Math.min(a, b), Math.max(a, b)), "one run refused, the other complete");
        assertEquals(50, count(table));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void camelRedeliveryLeavesRetriesToTheProducerAndTheRunLandsOnce() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20) NULL)");
        SERVER.emulator().faults().failBulkLoad(3, 0, 1205); // batch 2 of the first attempt: a deadlock victim, transient
        List<Integer> producerCalls = new CopyOnWriteArrayList<>();
        NotifyBuilder done = new NotifyBuilder(context).whenDone(3 + 5).create();
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                errorHandler(defaultErrorHandler().maximumRedeliveries(3).redeliveryDelay(0));
                onException(Exception.class).maximumRedeliveries(3).redeliveryDelay(0).process(
                        e -> routeFailures.add(e.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class)));
                from(source("r", 0, 50)).routeId("redelivery")
                        .process(e -> producerCalls.add(e.getProperty(Exchange.BATCH_INDEX, Integer.class)))
                        .to(mssql("retryDelay=1")).to("mock:out");
            }
        });
        assertTrue(done.matches(60, TimeUnit.SECONDS));
        // Camel redelivered nothing (each batch reached the step once per attempt); the producer's replay did the retry.
        assertEquals(List.of(0, 1, 2, 0, 1, 2, 3, 4), producerCalls);
        assertEquals(1, routeFailures.size(), routeFailures.toString());
        assertTrue(io.deltafunnel.handoff.ReplayRequest.find(routeFailures.get(0)) != null, routeFailures.toString());
        assertEquals(2 + 5, getMockEndpoint("mock:out").getReceivedCounter());
        assertEquals(50, count(table));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void camelRedeliveryOfAFinalFailureHappensOnceWithoutRunRefused() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20) NULL)");
        SERVER.emulator().faults().failBulkLoad(2, 0, 2627); // a permanent error (duplicate key) on batch 1
        List<Exception> seen = new CopyOnWriteArrayList<>();
        NotifyBuilder done = new NotifyBuilder(context).whenDone(2).create();
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                onException(Exception.class).maximumRedeliveries(5).redeliveryDelay(0)
                        .process(e -> seen.add(e.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class)));
                from(source("p", 0, 50)).routeId("permanent").to(mssql("retryDelay=1")).to("mock:out");
            }
        });
        assertTrue(done.matches(60, TimeUnit.SECONDS));
        assertEquals(1, seen.size(), seen.toString());
        BulkLoadException e = assertInstanceOf(BulkLoadException.class, seen.get(0));
        assertTrue(!(e instanceof RunRefusedException), e.toString());
        assertEquals(2627, e.errorNumber());
        assertEquals(0, count(table));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void aRouteThatHandlesTheFailureAndGoesOnGetsTheRestOfTheRunRefused() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20) NULL)");
        SERVER.emulator().faults().failBulkLoad(2, 0, 2627); // a permanent error on batch 1
        List<Exception> seen = new CopyOnWriteArrayList<>();
        NotifyBuilder done = new NotifyBuilder(context).whenDone(5).create();
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                onException(Exception.class).handled(true)
                        .process(e -> seen.add(e.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class)));
                from(source("h", 0, 50)).routeId("handled").to(mssql("retryDelay=1")).to("mock:out");
            }
        });
        assertTrue(done.matches(60, TimeUnit.SECONDS));
        assertEquals(4, seen.size(), seen.toString());
        assertEquals(2627, ((BulkLoadException) seen.get(0)).errorNumber());
        for (Exception e : seen.subList(1, 4)) {
            RunRefusedException refused = assertInstanceOf(RunRefusedException.class, e);
            assertTrue(refused.getMessage().contains("has already failed"), refused.getMessage());
        }
        assertEquals(0, count(table), "the failed run left nothing");
        stopAndAssertNoArrowLeak();
    }

    @Test
    void queryIsReadFromAClasspathResourceOrAFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("three.sql");
        Files.writeString(file, "SELECT i::INTEGER AS id FROM range(0, 3) t(i)");
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("deltafunnel:cp?query=resource:classpath:sql/seven-rows.sql&repeatCount=1&initialDelay=0")
                        .process(e -> e.getIn().setBody(e.getIn().getHeader(DeltaFunnelConstants.BATCH_ROWS)))
                        .to("mock:cp");
                from("deltafunnel:file?query=file:" + file.toAbsolutePath() + "&repeatCount=1&initialDelay=0")
                        .process(e -> e.getIn().setBody(e.getIn().getHeader(DeltaFunnelConstants.BATCH_ROWS)))
                        .to("mock:file");
            }
        });
        getMockEndpoint("mock:cp").expectedBodiesReceived(7L);
        getMockEndpoint("mock:file").expectedBodiesReceived(3L);
        MockEndpoint.assertIsSatisfied(context, 30, TimeUnit.SECONDS);
        stopAndAssertNoArrowLeak();
    }

    @Test
    void aMissingQueryFileFailsTheRouteStartNamingIt() {
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> context.addRoutes(
                new RouteBuilder() {
                    @Override
                    public void configure() {
                        from("deltafunnel:missing?query=resource:classpath:sql/nope.sql&repeatCount=1").to("mock:x");
                    }
                }));
        Throwable root = e;
        while (root.getCause() != null && !(root instanceof IllegalArgumentException)) {
            root = root.getCause();
        }
        assertTrue(root.getMessage().contains("sql/nope.sql"), root.getMessage());
    }
}
