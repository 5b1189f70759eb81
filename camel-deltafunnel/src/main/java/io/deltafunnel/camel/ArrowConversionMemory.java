package io.deltafunnel.camel;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.camel.CamelContext;
import org.apache.camel.support.service.ServiceSupport;

/**
 * The Arrow memory of conversions in one CamelContext: the allocator from which the type converters and the
 * {@code deltafunnel-mssql:} producer allocate the roots they read from Arrow IPC bodies.
 *
 * <p>One instance per CamelContext, created on first use and registered as a context service, so that it stops with
 * the context. Stopping closes the allocator, which fails loudly ({@link IllegalStateException}) when a converted
 * root was never released. Roots made by a conversion are owned by their exchange and released when it completes,
 * so after the last exchange has completed {@link #allocator(CamelContext)}{@code .getAllocatedMemory()} is 0.
 */
public final class ArrowConversionMemory extends ServiceSupport {

    private volatile RootAllocator allocator;

    private ArrowConversionMemory() {
    }

    /** The context's conversion allocator, creating and starting the service on first use. */
    public static BufferAllocator allocator(CamelContext context) {
        synchronized (context) {
            ArrowConversionMemory memory = context.hasService(ArrowConversionMemory.class);
            if (memory == null) {
                memory = new ArrowConversionMemory();
                try {
                    context.addService(memory, true, true);
                } catch (Exception e) {
                    throw new IllegalStateException("cannot register the DeltaFunnel Arrow conversion memory", e);
                }
            }
            if (!memory.isStarted()) {
                memory.start();
            }
            return memory.allocator;
        }
    }

    @Override
    protected void doStart() {
        if (allocator == null) {
            allocator = new RootAllocator();
        }
    }

    @Override
    protected void doStop() {
        RootAllocator closing = allocator;
        allocator = null;
        if (closing != null) {
            closing.close(); // throws when a converted root was not released
        }
    }
}
