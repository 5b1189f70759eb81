package io.deltafunnel.camel;

import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.mock.MockEndpoint;
import org.apache.camel.test.junit5.CamelTestSupport;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * maxMessagesPerPoll bounds the exchanges of one poll; a longer run resumes on the next poll where it stopped,
 * with the same run id, so the data is neither cut nor repeated.
 */
class DeltaFunnelConsumerMaxMessagesPerPollTest extends CamelTestSupport {

    private final BatchRecorder recorder = new BatchRecorder();

    @Override
    protected RouteBuilder createRouteBuilder() {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from("deltafunnel:t?query=SELECT * FROM range(1000000) t(i)&batchSize=65536"
                     + "&maxMessagesPerPoll=5&delay=10")
                        .process(recorder).to("mock:out");
            }
        };
    }

    @Test
    void runSpansPollsAndIsDeliveredWhole() throws Exception {
        MockEndpoint out = getMockEndpoint("mock:out");
        out.expectedMinimumMessageCount(16);
        MockEndpoint.assertIsSatisfied(context);
        context.getRouteController().stopRoute(context.getRoutes().get(0).getRouteId());
        ConsumerAssertions.assertMillionRowRun(recorder.seen.subList(0, 16));
        if (recorder.seen.size() > 16) {
            assertEquals(0L, recorder.seen.get(16).inputRows() - recorder.seen.get(16).batchRows(),
                    "the next run starts from the beginning");
        }
    }
}
