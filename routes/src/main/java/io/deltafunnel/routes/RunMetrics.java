package io.deltafunnel.routes;

import java.time.Duration;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The Micrometer metrics of the {@code deltafunnel:} runs (Camel's Micrometer naming, tags {@code camelContext} and
 * {@code routeId}): {@code camel.deltafunnel.rows.in}, {@code .rows.out}, {@code .batches.in}, {@code .batches.out}
 * (counters), {@code camel.deltafunnel.run.duration} (timer, per completed run) and
 * {@code camel.deltafunnel.runs.failed}. The registry is looked up on first use (camel-main creates it after the
 * routes); this class does not own it.
 */
final class RunMetrics {

    private final Supplier<MeterRegistry> registrySupplier;
    private volatile MeterRegistry registry;

    RunMetrics(Supplier<MeterRegistry> registry) {
        this.registrySupplier = registry;
    }

    /**
     * A batch the producer accepted: {@code rows} of it loaded and {@code rejected} rows of the run set aside with it
     * (the run's rejected rows grew by that much; with writeMode=merge the final batch can set aside rows of earlier
     * batches, so {@code rejected} may exceed the batch's rows).
     */
    void batchOut(String context, String routeId, long rows, long rejected) {
        counter("camel.deltafunnel.rows.out", context, routeId).increment(rows);
        counter("camel.deltafunnel.batches.out", context, routeId).increment();
        if (rejected > 0) {
            counter("camel.deltafunnel.rows.rejected", context, routeId).increment(rejected);
        }
    }

    /** A batch whose exchange completed or failed. */
    void batchIn(String context, String routeId, long rows) {
        counter("camel.deltafunnel.rows.in", context, routeId).increment(rows);
        counter("camel.deltafunnel.batches.in", context, routeId).increment();
    }

    void runFailed(String context, String routeId) {
        counter("camel.deltafunnel.runs.failed", context, routeId).increment();
    }

    void runCompleted(String context, String routeId, long nanos) {
        Timer.builder("camel.deltafunnel.run.duration").tag("camelContext", context).tag("routeId", routeId)
                .register(registry()).record(Duration.ofNanos(nanos));
    }

    private Counter counter(String name, String context, String routeId) {
        return Counter.builder(name).tag("camelContext", context).tag("routeId", routeId).register(registry());
    }

    /** The registry the metrics go to. */
    MeterRegistry registry() {
        MeterRegistry r = registry;
        if (r == null) {
            synchronized (this) {
                if (registry == null) {
                    registry = registrySupplier.get();
                }
                r = registry;
            }
        }
        return r;
    }
}
