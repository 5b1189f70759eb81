package io.deltafunnel.routes;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class RunMetricsTest {

    @Test
    void rowsSetAsideAreCountedPerRouteApartFromTheRowsLoaded() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RunMetrics metrics = new RunMetrics(() -> registry);
        metrics.batchOut("ctx", "load-a", 998, 2);
        metrics.batchOut("ctx", "load-a", 1000, 0);
        metrics.batchOut("ctx", "load-b", 500, 0);
        assertEquals(1998.0, registry.get("camel.deltafunnel.rows.out").tag("routeId", "load-a").counter().count());
        assertEquals(2.0, registry.get("camel.deltafunnel.rows.rejected").tag("routeId", "load-a").counter().count());
        assertEquals(2.0, registry.get("camel.deltafunnel.batches.out").tag("routeId", "load-a").counter().count());
        // a route that set nothing aside has no rejected-rows meter
        assertNull(registry.find("camel.deltafunnel.rows.rejected").tag("routeId", "load-b").counter());
    }
}
