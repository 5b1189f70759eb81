package io.deltafunnel.camel;

import java.nio.charset.StandardCharsets;

import org.apache.camel.component.mock.MockEndpoint;
import org.apache.camel.spi.Resource;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.apache.camel.test.junit5.CamelTestSupport;
import org.junit.jupiter.api.Test;

/** The acceptance route of the Java DSL test, written in YAML DSL. */
class DeltaFunnelConsumerYamlTest extends CamelTestSupport {

    private static final String ROUTE = """
            - route:
                id: million-yaml
                from:
                  uri: deltafunnel:t
                  parameters:
                    query: SELECT * FROM range(1000000) t(i)
                    batchSize: 65536
                    repeatCount: 1
                  steps:
                    - process:
                        ref: recorder
                    - to: mock:out
            """;

    private final BatchRecorder recorder = new BatchRecorder();

    @Override
    protected void bindToRegistry(org.apache.camel.spi.Registry registry) {
        registry.bind("recorder", recorder);
    }

    @Test
    void yamlRouteReceivesTheSameSixteenBatches() throws Exception {
        Resource resource = ResourceHelper.fromBytes("million.yaml", ROUTE.getBytes(StandardCharsets.UTF_8));
        PluginHelper.getRoutesLoader(context).loadRoutes(resource);
        MockEndpoint out = getMockEndpoint("mock:out");
        out.expectedMessageCount(16);
        MockEndpoint.assertIsSatisfied(context);
        ConsumerAssertions.assertMillionRowRun(recorder.seen);
    }
}
