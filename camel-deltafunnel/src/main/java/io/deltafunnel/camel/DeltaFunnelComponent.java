package io.deltafunnel.camel;

import java.util.Map;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.camel.Endpoint;
import org.apache.camel.spi.annotations.Component;
import org.apache.camel.support.DefaultComponent;

/**
 * The {@code deltafunnel:} component: a polling consumer that runs a DuckDB query (usually over Delta Lake
 * tables) and emits one Apache Arrow batch per exchange.
 *
 * <p>The component owns one Arrow {@link RootAllocator}; each endpoint takes a child allocator from it while
 * started. The component closes the root when it stops.
 */
@Component("deltafunnel")
public class DeltaFunnelComponent extends DefaultComponent {

    private RootAllocator rootAllocator;

    @Override
    protected Endpoint createEndpoint(String uri, String remaining, Map<String, Object> parameters) throws Exception {
        DeltaFunnelEndpoint endpoint = new DeltaFunnelEndpoint(uri, this);
        endpoint.setName(remaining);
        setProperties(endpoint, parameters);
        return endpoint;
    }

    /** The component's root allocator, created on first use. Endpoints take children of it. */
    synchronized BufferAllocator rootAllocator() {
        if (rootAllocator == null) {
            rootAllocator = new RootAllocator();
        }
        return rootAllocator;
    }

    @Override
    protected synchronized void doStop() throws Exception {
        super.doStop();
        if (rootAllocator != null) {
            rootAllocator.close();
            rootAllocator = null;
        }
    }
}
