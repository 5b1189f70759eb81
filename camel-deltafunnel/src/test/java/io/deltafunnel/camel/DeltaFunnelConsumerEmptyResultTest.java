package io.deltafunnel.camel;

import java.util.List;

import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.mock.MockEndpoint;
import org.apache.camel.test.junit5.CamelTestSupport;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A query with no rows still sends one empty batch that carries the result schema, marked complete. */
class DeltaFunnelConsumerEmptyResultTest extends CamelTestSupport {

    private final BatchRecorder recorder = new BatchRecorder();

    @Override
    protected RouteBuilder createRouteBuilder() {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from("deltafunnel:empty?query=SELECT i AS id, 'x' AS label FROM range(10) t(i) WHERE i > 100"
                     + "&repeatCount=1")
                        .process(recorder).to("mock:out");
            }
        };
    }

    @Test
    void emptyResultSendsOneEmptyCompleteBatchWithTheSchema() throws Exception {
        getMockEndpoint("mock:out").expectedMessageCount(1);
        MockEndpoint.assertIsSatisfied(context);
        BatchRecorder.Seen only = recorder.seen.get(0);
        assertEquals(0, only.rowCount());
        assertEquals(List.of("id", "label"), only.columns());
        assertTrue(only.complete());
        assertEquals(1, only.batchSize());
        assertEquals(1L, only.inputBatches());
        assertEquals(0L, only.inputRows());
        assertEquals(0L, only.batchRows());
    }
}
