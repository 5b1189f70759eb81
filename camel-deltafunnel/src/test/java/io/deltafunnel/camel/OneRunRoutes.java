package io.deltafunnel.camel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.deltafunnel.handoff.ReplayRequest;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The route tests' way to run {@code deltafunnel:} routes for one poll each. Every consumer URI becomes a fresh route
 * {@code from(consumer).to(producer)} (a fresh route each time, as after a restart); the call returns when every
 * route's run has ended, and removes the routes. A run ends with its last batch ({@code CamelBatchComplete}), with an
 * unchanged poll ({@link DeltaFunnelConstants#UNCHANGED}), or with a failure that is not a replay request (a replay
 * continues the run, as the consumer obeys it). Failures are handled, so a failed run does not poll again. After
 * each route stops, its consumer endpoint's Arrow allocator must hold nothing.
 *
 * <p>The instance belongs to one test class instance and its Camel context; it owns nothing that needs closing.
 */
final class OneRunRoutes {

    /** What the runs of one call left: their failures, every exchange's headers, and each run's last exchange. */
    record Ended(List<Throwable> failures, List<Map<String, Object>> headers, List<Exchange> lastExchanges) {

        /** The first failure, or null when every run ended well. */
        Throwable failure() {
            return failures.isEmpty() ? null : failures.get(0);
        }

        /** The last exchange of the (only) run that ended well, or null. */
        Exchange last() {
            return lastExchanges.isEmpty() ? null : lastExchanges.get(0);
        }

        /** The headers of the last exchange of the (only) run that ended well. */
        Map<String, Object> lastHeaders() {
            return last() == null ? Map.of() : Map.copyOf(last().getIn().getHeaders());
        }
    }

    private final CamelContext context;
    private final String idPrefix;
    private int routes;

    /** @param idPrefix route ids are this plus a counter (a reject row's route key may be the route id) */
    OneRunRoutes(CamelContext context, String idPrefix) {
        this.context = context;
        this.idPrefix = idPrefix;
    }

    /** The id the next route will get. */
    String nextId() {
        return idPrefix + routes;
    }

    /** One run of {@code consumerUri} into {@code producerUri}, waiting at most 60 s. */
    Ended run(String consumerUri, String producerUri) throws Exception {
        return runAll(List.of(consumerUri), producerUri, 60);
    }

    /** One route: a consumer URI and the producer URI it writes into. */
    record Pair(String consumerUri, String producerUri) {
    }

    /**
     * Runs every consumer URI at the same time, each into {@code producerUri} (e.g. the N shards of one load), and
     * waits at most {@code seconds} for all of them to end.
     */
    Ended runAll(List<String> consumerUris, String producerUri, int seconds) throws Exception {
        return runPairs(consumerUris.stream().map(c -> new Pair(c, producerUri)).toList(), seconds);
    }

    /**
     * Runs every pair's route at the same time, each consumer into its own producer (e.g. shards of one load into
     * differently configured producers), and waits at most {@code seconds} for all of them to end.
     */
    Ended runPairs(List<Pair> pairs, int seconds) throws Exception {
        CountDownLatch ended = new CountDownLatch(pairs.size());
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        List<Map<String, Object>> headers = new CopyOnWriteArrayList<>();
        List<Exchange> lasts = new CopyOnWriteArrayList<>();
        List<String> ids = new ArrayList<>();
        for (Pair pair : pairs) {
            String id = idPrefix + (routes++);
            ids.add(id);
            context.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    onException(Exception.class).handled(true).process(e -> {
                        Exception caught = e.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class);
                        if (ReplayRequest.find(caught) == null) {
                            failures.add(caught);
                            ended.countDown();
                        }
                    });
                    from(pair.consumerUri()).routeId(id).to(pair.producerUri()).process(e -> {
                        headers.add(Map.copyOf(e.getIn().getHeaders()));
                        if (e.getProperty(Exchange.BATCH_COMPLETE, false, Boolean.class)
                                || e.getIn().getHeader(DeltaFunnelConstants.UNCHANGED, false, Boolean.class)) {
                            lasts.add(e);
                            ended.countDown();
                        }
                    });
                }
            });
        }
        assertTrue(ended.await(seconds, TimeUnit.SECONDS), "not every run of " + ids + " ended");
        for (String id : ids) {
            BufferAllocator allocator = context.getRoute(id).getEndpoint() instanceof DeltaFunnelEndpoint ep
                    ? ep.getAllocator() : null;
            context.getRouteController().stopRoute(id);
            context.removeRoute(id);
            if (allocator != null) {
                assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory outstanding after route " + id);
            }
        }
        return new Ended(List.copyOf(failures), List.copyOf(headers), List.copyOf(lasts));
    }
}
