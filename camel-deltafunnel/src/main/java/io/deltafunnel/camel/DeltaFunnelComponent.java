package io.deltafunnel.camel;

import java.util.Map;

import io.deltafunnel.delta.SharedSnapshots;
import io.deltafunnel.query.DuckDbInstances;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.camel.Endpoint;
import org.apache.camel.spi.annotations.Component;
import org.apache.camel.support.HealthCheckComponent;
import org.apache.camel.util.PropertiesHelper;

/**
 * The {@code deltafunnel:} component: a polling consumer that runs a DuckDB query (usually over Delta Lake
 * tables) and emits one Apache Arrow batch per exchange.
 *
 * <p>The component owns one Arrow {@link RootAllocator}; each endpoint takes a child allocator from it while
 * started. It also owns the shared in-memory DuckDB instances of its endpoints ({@link DuckDbInstances}, option
 * {@code sharedDuckDb}). The component closes both when it stops, after its endpoints. Its shard endpoints share each
 * load's pinned Delta snapshots ({@link SharedSnapshots}: memory only, dropped with the component).
 */
@Component("deltafunnel")
public class DeltaFunnelComponent extends HealthCheckComponent {

    private RootAllocator rootAllocator;
    private DuckDbInstances duckDbInstances;
    private final SharedSnapshots sharedSnapshots = new SharedSnapshots();

    @Override
    protected Endpoint createEndpoint(String uri, String remaining, Map<String, Object> parameters) throws Exception {
        DeltaFunnelEndpoint endpoint = new DeltaFunnelEndpoint(uri, this);
        endpoint.getConfiguration().setName(remaining);
        // Multi-value options: delta.<view>=path, deltaVersion.<view>=n, deltaTimestamp.<view>=instant.
        // LinkedHashMap keeps the URI order, so views are registered in the order they were given.
        Map<String, Object> tables = PropertiesHelper.extractProperties(parameters, "delta.");
        Map<String, Object> versions = PropertiesHelper.extractProperties(parameters, "deltaVersion.");
        Map<String, Object> timestamps = PropertiesHelper.extractProperties(parameters, "deltaTimestamp.");
        setProperties(endpoint, parameters);
        if (!tables.isEmpty()) {
            endpoint.getConfiguration().setDelta(tables);
        }
        if (!versions.isEmpty()) {
            endpoint.getConfiguration().setDeltaVersion(versions);
        }
        if (!timestamps.isEmpty()) {
            endpoint.getConfiguration().setDeltaTimestamp(timestamps);
        }
        endpoint.deltaSpecs(); // validate the pins now, at endpoint creation
        return endpoint;
    }

    /** The component's root allocator, created on first use. Endpoints take children of it. */
    synchronized BufferAllocator rootAllocator() {
        if (rootAllocator == null) {
            rootAllocator = new RootAllocator();
        }
        return rootAllocator;
    }

    /** The Delta snapshots this component's shard routes share within a load ({@link SharedSnapshots}). */
    SharedSnapshots sharedSnapshots() {
        return sharedSnapshots;
    }

    /** The shared in-memory DuckDB instances of this component's endpoints, created on first use. */
    synchronized DuckDbInstances duckDbInstances() {
        if (duckDbInstances == null) {
            duckDbInstances = new DuckDbInstances();
        }
        return duckDbInstances;
    }

    @Override
    protected synchronized void doStop() throws Exception {
        super.doStop();
        if (duckDbInstances != null) {
            DuckDbInstances closing = duckDbInstances;
            duckDbInstances = null;
            closing.close();
        }
        if (rootAllocator != null) {
            rootAllocator.close();
            rootAllocator = null;
        }
    }
}
