package io.deltafunnel.camel;

import java.util.Optional;

import io.deltafunnel.emulator.MssqlEmulator;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.health.HealthCheck;
import org.apache.camel.health.HealthCheckHelper;
import org.apache.camel.health.HealthCheckRegistry;
import org.apache.camel.impl.health.DefaultHealthCheckRegistry;
import org.apache.camel.impl.health.ProducersHealthCheckRepository;
import org.apache.camel.test.junit5.CamelTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The producer's readiness check reports SQL Server reachability: UP while it runs, DOWN once it stops. */
class DeltaFunnelMssqlProducerHealthCheckTest extends CamelTestSupport {

    private final MssqlEmulator emulator = MssqlEmulator.builder().port(0).password("Health!Check1").start();

    @AfterEach
    void closeEmulator() {
        emulator.close();
    }

    @Override
    protected CamelContext createCamelContext() throws Exception {
        CamelContext ctx = super.createCamelContext();
        HealthCheckRegistry registry = new DefaultHealthCheckRegistry();
        registry.setCamelContext(ctx);
        ctx.getCamelContextExtension().addContextPlugin(HealthCheckRegistry.class, registry);
        ProducersHealthCheckRepository producers = new ProducersHealthCheckRepository();
        producers.setEnabled(true); // off by default in Camel (camel.health.producersEnabled=true in camel-main)
        registry.register(producers);
        return ctx;
    }

    @Override
    protected RouteBuilder createRouteBuilder() {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:in").routeId("writer")
                        .to("deltafunnel-mssql:dbo.health?url=RAW(" + emulator.jdbcUrl() + ")&username="
                            + emulator.user() + "&password=RAW(" + emulator.password() + ")&loginTimeout=5");
            }
        };
    }

    private HealthCheck.Result producerHealth() {
        Optional<HealthCheck.Result> result = HealthCheckHelper.invoke(context).stream()
                .filter(r -> r.getCheck().getId().startsWith("producer:deltafunnel-mssql")).findFirst();
        assertTrue(result.isPresent(), "the producer registered its health check");
        return result.get();
    }

    @Test
    void healthIsUpWhileTheServerRunsAndDownWhenItStops() {
        HealthCheck.Result up = producerHealth();
        assertEquals(HealthCheck.State.UP, up.getState(), () -> up.getMessage().orElse(""));
        assertEquals("dbo.health", String.valueOf(up.getDetails().get("table")));

        emulator.close();

        HealthCheck.Result down = producerHealth();
        assertEquals(HealthCheck.State.DOWN, down.getState());
        String message = down.getMessage().orElse("");
        assertTrue(message.contains("not reachable"), message);
        assertFalse(message.contains(emulator.password()), "the password is never reported");
    }
}
