package io.deltafunnel.camel;

import java.util.HashSet;
import java.util.Set;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.mock.MockEndpoint;
import org.apache.camel.test.junit5.CamelTestSupport;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeltaFunnelConsumerBatchesTest extends CamelTestSupport {

    private static final String URI =
            "deltafunnel:t?query=SELECT * FROM range(1000000) t(i)&batchSize=65536&repeatCount=2&delay=10";

    private final BatchRecorder recorder = new BatchRecorder();

    @Override
    protected RouteBuilder createRouteBuilder() {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(URI).routeId("million").process(recorder).to("mock:out");
            }
        };
    }

    @Test
    void millionRowsArriveAsSixteenBatchesPerRunWithExactHeaders() throws Exception {
        MockEndpoint out = getMockEndpoint("mock:out");
        out.expectedMessageCount(32);
        // The route's own endpoint instance (a second lookup by URI could create another one).
        DeltaFunnelEndpoint endpoint = (DeltaFunnelEndpoint) context.getRoute("million").getEndpoint();
        BufferAllocator allocator = endpoint.getAllocator();
        assertNotNull(allocator);

        MockEndpoint.assertIsSatisfied(context);

        ConsumerAssertions.assertMillionRowRun(recorder.seen.subList(0, 16));
        ConsumerAssertions.assertMillionRowRun(recorder.seen.subList(16, 32));
        Set<String> runIds = new HashSet<>();
        recorder.seen.forEach(s -> runIds.add(s.runId()));
        assertEquals(2, runIds.size(), "each poll is a run with its own id");
        assertEquals(Set.of("i"), Set.copyOf(recorder.seen.get(0).columns()));

        assertTrue(allocator.getPeakMemoryAllocation() > 1_000_000, "the batches came from this allocator");
        context.stop();
        assertEquals(0, allocator.getAllocatedMemory(), "every batch was released");
        assertNull(endpoint.getAllocator(), "the endpoint closed its allocator");
    }
}
