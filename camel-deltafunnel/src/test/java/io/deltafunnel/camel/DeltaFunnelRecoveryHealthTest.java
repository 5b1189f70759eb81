package io.deltafunnel.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.concurrent.TimeUnit;

import io.deltafunnel.mssql.bind.ColumnMappingException;

import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.health.HealthCheckRegistry;
import org.apache.camel.health.HealthCheckRepository;
import org.apache.camel.impl.health.ConsumersHealthCheckRepository;
import org.apache.camel.impl.health.DefaultHealthCheckRegistry;
import org.junit.jupiter.api.Test;

/**
 * After a failed poll the consumer's health check (camel-health's "consumers" repository, one
 * {@code consumer:<routeId>} check per scheduled-poll consumer) is DOWN, the next poll runs normally, and a
 * successful poll turns it UP again.
 */
class DeltaFunnelRecoveryHealthTest extends EmulatorRouteTestSupport {

    @Override
    protected CamelContext createCamelContext() throws Exception {
        CamelContext ctx = super.createCamelContext();
        HealthCheckRegistry registry = new DefaultHealthCheckRegistry();
        registry.setCamelContext(ctx);
        ctx.getCamelContextExtension().addContextPlugin(HealthCheckRegistry.class, registry);
        HealthCheckRepository consumers = new ConsumersHealthCheckRepository();
        registry.register(consumers);
        return ctx;
    }

    private Optional<HealthCheck.Result> consumerHealth() {
        return HealthCheckHelper.invoke(context).stream()
                .filter(r -> r.getCheck().getId().equals("consumer:recovering")).findFirst();
    }

    /** Waits (at most 30 s) for the state, with a message containing {@code words} (the check says why). */
    private HealthCheck.Result awaitHealth(HealthCheck.State expected, String words) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Optional<HealthCheck.Result> result = consumerHealth();
        while (!matches(result, expected, words) && System.nanoTime() < deadline) {
            Thread.sleep(50);
            result = consumerHealth();
        }
        assertTrue(result.isPresent(), "no consumer:recovering health check");
        assertEquals(expected, result.get().getState(), () -> consumerHealth().flatMap(HealthCheck.Result::getMessage)
                .orElse(""));
        return result.get();
    }

    private static boolean matches(Optional<HealthCheck.Result> r, HealthCheck.State state, String words) {
        return r.isPresent() && r.get().getState() == state
                && (words == null || r.get().getMessage().orElse("").contains(words));
    }

    @Test
    void failingPollTurnsHealthDownAndTheNextGoodPollUpAgain() throws Exception {
        // Every poll fails (the target does not exist) until the test creates it.
        String src = "deltafunnel:recovering?query=RAW(" + AbstractMssqlScenarios.FIFTY + ")&batchSize=10&delay=100"
                + "&initialDelay=0";
        String to = mssql("writeMode=replace&maxRetries=0");
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                onException(ColumnMappingException.class).process(e -> failures.add(
                        e.getProperty(org.apache.camel.Exchange.EXCEPTION_CAUGHT, ColumnMappingException.class)));
                from(src).routeId("recovering").to(to).to("mock:out");
            }
        });
        HealthCheck.Result down = awaitHealth(HealthCheck.State.DOWN, "Consumer failed polling");
        assertInstanceOf(io.deltafunnel.handoff.DownstreamException.class, down.getError().orElseThrow());
        assertTrue(failures.size() >= 1);
        assertInstanceOf(ColumnMappingException.class, failures.get(0));
        assertTrue(failures.get(0).getMessage().contains("does not exist"), failures.get(0).getMessage());

        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20) NULL)");
        awaitHealth(HealthCheck.State.UP, null);
        getMockEndpoint("mock:out").expectedMinimumMessageCount(5);
        getMockEndpoint("mock:out").assertIsSatisfied();
        context.getRouteController().stopRoute("recovering");
        assertEquals(50, count(table), "replace: each successful run leaves exactly the 50 rows");
        org.apache.arrow.memory.BufferAllocator allocator =
                ((DeltaFunnelEndpoint) context.getRoute("recovering").getEndpoint()).getAllocator();
        assertTrue(allocator.getPeakMemoryAllocation() > 0, "the route's own endpoint allocated the batches");
        assertEquals(0, allocator.getAllocatedMemory());
    }
}
