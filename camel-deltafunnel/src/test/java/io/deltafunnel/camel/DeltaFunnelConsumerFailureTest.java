package io.deltafunnel.camel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.deltafunnel.handoff.DownstreamException;
import io.deltafunnel.handoff.HandoffException;
import io.deltafunnel.handoff.QuerySetupException;
import io.deltafunnel.handoff.UpstreamException;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.mock.MockEndpoint;
import org.apache.camel.test.junit5.CamelTestSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Failures of a run reach the route's error handler (bridgeErrorHandler) as typed exceptions that carry the
 * statistics of what was delivered before them, and the next poll runs normally.
 */
class DeltaFunnelConsumerFailureTest extends CamelTestSupport {

    @TempDir
    static Path dir;

    private final List<Exception> errors = new CopyOnWriteArrayList<>();
    private final BatchRecorder recorder = new BatchRecorder();

    private static String missingThenPresentUri() {
        return "deltafunnel:late?query=SELECT * FROM read_parquet('" + dir.resolve("late.parquet")
               + "')&bridgeErrorHandler=true&delay=50&batchSize=10";
    }

    private static final String MID_STREAM_URI = "deltafunnel:mid?query=SELECT (CASE WHEN i < 2000000 THEN"
            + " i::VARCHAR ELSE 'not a number' END)::BIGINT AS v FROM range(3000000) t(i)"
            + "&batchSize=65536&bridgeErrorHandler=true&repeatCount=1";

    private static final String DOWNSTREAM_URI = "deltafunnel:down?query=SELECT * FROM range(50) t(i)"
            + "&batchSize=10&bridgeErrorHandler=true&delay=20&repeatCount=2";

    @Override
    protected RouteBuilder createRouteBuilder() {
        return new RouteBuilder() {
            @Override
            public void configure() {
                onException(HandoffException.class).handled(true)
                        .process(e -> errors.add(e.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class)))
                        .to("mock:errors");

                from(missingThenPresentUri()).routeId("late").autoStartup(false).process(recorder).to("mock:late");
                from(MID_STREAM_URI).routeId("mid").autoStartup(false).to("mock:mid");
                from(DOWNSTREAM_URI).routeId("down").autoStartup(false)
                        .process(e -> {
                            if (e.getProperty(Exchange.BATCH_INDEX, Integer.class) == 2
                                && e.getIn().getHeader(DeltaFunnelConstants.RUN_ID, String.class)
                                        .equals(firstRunId(e))) {
                                throw new IllegalStateException("writer rejected batch 2");
                            }
                        })
                        .to("mock:down");
            }
        };
    }

    private volatile String firstRun;

    private synchronized String firstRunId(Exchange e) {
        if (firstRun == null) {
            firstRun = e.getIn().getHeader(DeltaFunnelConstants.RUN_ID, String.class);
        }
        return firstRun;
    }

    @Test
    void badSqlOrMissingFileFailsThePollAndTheNextPollRecovers() throws Exception {
        MockEndpoint errorsEndpoint = getMockEndpoint("mock:errors");
        errorsEndpoint.expectedMinimumMessageCount(1);
        context.getRouteController().startRoute("late");
        MockEndpoint.assertIsSatisfied(context);

        QuerySetupException setup = assertInstanceOf(QuerySetupException.class, errors.get(0));
        assertTrue(setup.getMessage().contains("deltafunnel:late"), setup.getMessage());
        assertTrue(setup.getMessage().contains("late.parquet"), setup.getMessage());
        assertEquals(0, setup.stats().inputBatches());

        try (Connection c = DuckDbConnections.open(DuckDbSettings.inMemory()); Statement st = c.createStatement()) {
            Path tmp = dir.resolve("late.tmp");
            st.execute("COPY (SELECT i FROM range(25) t(i)) TO '" + tmp + "' (FORMAT parquet)");
            Files.move(tmp, dir.resolve("late.parquet"));
        }
        MockEndpoint late = getMockEndpoint("mock:late");
        late.expectedMinimumMessageCount(3);
        MockEndpoint.assertIsSatisfied(context);
        context.getRouteController().stopRoute("late");
        assertEquals(List.of(10, 10, 5), recorder.seen.subList(0, 3).stream().map(BatchRecorder.Seen::rowCount).toList());
    }

    @Test
    void midStreamFailureCarriesTheStatsOfTheDeliveredBatches() throws Exception {
        MockEndpoint errorsEndpoint = getMockEndpoint("mock:errors");
        errorsEndpoint.expectedMessageCount(1);
        DeltaFunnelEndpoint endpoint = (DeltaFunnelEndpoint) context.getRoute("mid").getEndpoint();
        BufferAllocator allocator = endpoint.getAllocator();
        context.getRouteController().startRoute("mid");
        MockEndpoint.assertIsSatisfied(context);

        UpstreamException upstream = assertInstanceOf(UpstreamException.class, errors.get(0));
        long delivered = getMockEndpoint("mock:mid").getReceivedCounter();
        assertTrue(delivered > 0);
        assertEquals(delivered, upstream.stats().inputBatches());
        assertEquals(delivered * 65536, upstream.stats().inputRows());
        assertTrue(upstream.getMessage().contains("not a number"), upstream.getMessage());
        assertTrue(allocator.getPeakMemoryAllocation() > 0, "the batches came from this allocator");
        context.getRouteController().stopRoute("mid");
        assertEquals(0, allocator.getAllocatedMemory());
    }

    @Test
    void routeFailureStopsTheRunAndTheNextRunIsWhole() throws Exception {
        MockEndpoint down = getMockEndpoint("mock:down");
        down.expectedMessageCount(2 + 5);
        getMockEndpoint("mock:errors").expectedMinimumMessageCount(1);
        context.getRouteController().startRoute("down");
        MockEndpoint.assertIsSatisfied(context);

        Exception first = errors.stream().filter(DownstreamException.class::isInstance).findFirst().orElseThrow();
        DownstreamException downstream = (DownstreamException) first;
        assertEquals(3, downstream.stats().inputBatches(), "batches 0..2 were handed to the route");
        assertEquals(30, downstream.stats().inputRows());
        assertTrue(downstream.getCause().getMessage().contains("writer rejected batch 2"));
    }
}
