package io.deltafunnel.camel;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.mock.MockEndpoint;
import org.apache.camel.test.junit5.CamelTestSupport;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A route that blocks on its first exchange holds the source back: while it blocks, DuckDB has been asked for
 * exactly two batches (the one in the route and the one-batch look-ahead), however long the block lasts.
 */
class DeltaFunnelConsumerBackpressureTest extends CamelTestSupport {

    private final CountDownLatch firstEntered = new CountDownLatch(1);
    private final CountDownLatch releaseFirst = new CountDownLatch(1);

    @Override
    protected RouteBuilder createRouteBuilder() {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from("deltafunnel:bp?query=SELECT * FROM range(100000) t(i)&batchSize=1000&repeatCount=1")
                        .routeId("bp")
                        .process(exchange -> {
                            if (exchange.getProperty("CamelBatchIndex", Integer.class) == 0) {
                                firstEntered.countDown();
                                assertTrue(releaseFirst.await(60, TimeUnit.SECONDS), "test never released the route");
                            }
                        })
                        .to("mock:out");
            }
        };
    }

    @Test
    void slowRouteBlocksTheNextPull() throws Exception {
        MockEndpoint out = getMockEndpoint("mock:out");
        out.expectedMessageCount(100);
        DeltaFunnelConsumer consumer = (DeltaFunnelConsumer) context.getRoute("bp").getConsumer();

        assertTrue(firstEntered.await(60, TimeUnit.SECONDS));
        // Sample repeatedly while the route is blocked: the source must not move past the look-ahead.
        for (int i = 0; i < 20; i++) {
            assertEquals(2, consumer.getRunBatchesLoaded(), "batches pulled while the first is in the route");
            assertEquals(0, out.getReceivedCounter(), "nothing passed the blocked step");
            Thread.sleep(10);
        }
        releaseFirst.countDown();

        MockEndpoint.assertIsSatisfied(context);
        assertEquals(100, out.getReceivedCounter());
    }
}
