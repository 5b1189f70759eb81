package io.deltafunnel.camel;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import io.deltafunnel.delta.ArrowFingerprint;
import io.deltafunnel.delta.DeltaConformanceTest;
import io.deltafunnel.handoff.QuerySetupException;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.util.json.JsonArray;
import org.apache.camel.util.json.JsonObject;
import org.apache.camel.util.json.Jsoner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Delta conformance corpus read through the {@code deltafunnel:} consumer itself: every table and every
 * listed version, with {@code delta.t=<table>} (and {@code deltaVersion.t=<v>} for time travel), compared with
 * the reference reader's row counts and fingerprints; refused tables must fail the poll with a clear message.
 * Skipped, with a message, when the corpus is absent (as on a user's clone).
 */
class DeltaConformanceRouteTest {

    private static CamelContext context;
    private static final AtomicInteger ROUTES = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        context = new DefaultCamelContext();
        context.start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (context != null) {
            context.stop();
        }
    }

    @TestFactory
    Stream<DynamicTest> latestVersionsThroughTheConsumer() throws Exception {
        return tests("expected.jsonl");
    }

    @TestFactory
    Stream<DynamicTest> timeTravelThroughTheConsumer() throws Exception {
        return tests("expected-versions.jsonl");
    }

    private Stream<DynamicTest> tests(String file) throws Exception {
        Path root = DeltaConformanceTest.corpus();
        Path expectations = root.resolve(file);
        Assumptions.assumeTrue(Files.isRegularFile(expectations),
                "Delta corpus not found at " + root + " (set -Ddeltafunnel.corpus or DELTAFUNNEL_CORPUS): skipped");
        List<DynamicTest> tests = new ArrayList<>();
        for (String line : Files.readAllLines(expectations, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            JsonObject expected = (JsonObject) Jsoner.deserialize(line);
            String table = expected.getString("table");
            Object requested = expected.get("requested_version");
            tests.add(DynamicTest.dynamicTest(requested == null ? table : table + "@v" + requested,
                    () -> check(root.resolve("tables").resolve(table), requested, expected)));
        }
        return tests.stream();
    }

    private static void check(Path table, Object requestedVersion, JsonObject expected) throws Exception {
        List<String> skipped = new ArrayList<>();
        if (expected.get("skipped_columns") instanceof JsonArray a) {
            a.forEach(o -> skipped.add(String.valueOf(o)));
        }
        ArrowFingerprint fingerprint = new ArrowFingerprint(skipped);
        CompletableFuture<Map<?, ?>> done = new CompletableFuture<>();
        String routeId = "conformance-" + ROUTES.incrementAndGet();
        String uri = "deltafunnel:" + routeId + "?delta.t=" + table + "&query=SELECT * FROM t&batchSize=1000"
                     + "&repeatCount=1&initialDelay=0&bridgeErrorHandler=true"
                     + (requestedVersion == null ? "" : "&deltaVersion.t=" + requestedVersion);
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId(routeId)
                        .onException(Exception.class).handled(true)
                        .process(e -> done.completeExceptionally(e.getProperty(Exchange.EXCEPTION_CAUGHT,
                                Exception.class)))
                        .end()
                        .process(e -> {
                            fingerprint.add(e.getIn().getBody(VectorSchemaRoot.class));
                            if (e.getProperty(Exchange.BATCH_COMPLETE, Boolean.class)) {
                                done.complete(e.getIn().getHeader(DeltaFunnelConstants.DELTA_VERSIONS, Map.class));
                            }
                        });
            }
        });
        try {
            if (expected.containsKey("error")) {
                try {
                    done.get(60, TimeUnit.SECONDS);
                    assertTrue(Boolean.TRUE.equals(expected.get("lenient")), "a refused table was read: " + table);
                } catch (java.util.concurrent.ExecutionException e) {
                    QuerySetupException refused = assertInstanceOf(QuerySetupException.class, e.getCause());
                    assertTrue(refused.getMessage().contains(table.toString()),
                            "the refusal names the table: " + refused.getMessage());
                }
                return;
            }
            Map<?, ?> versions = done.get(60, TimeUnit.SECONDS);
            assertEquals(((Number) expected.get("version")).longValue(), ((Number) versions.get("t")).longValue(),
                    "version header");
            assertEquals(((Number) expected.get("rows")).longValue(), fingerprint.rowCount(), "rows");
            assertEquals(expected.getString("fingerprint"), fingerprint.hex(), "fingerprint");
        } finally {
            // Let the poll finish (the last exchange completes after the future does), so that stopping
            // the route does not wait for the graceful-shutdown poll interval.
            DeltaFunnelConsumer consumer = (DeltaFunnelConsumer) context.getRoute(routeId).getConsumer();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while ((context.getInflightRepository().size(routeId) > 0 || consumer.getPendingExchangesSize() > 0)
                   && System.nanoTime() < deadline) {
                Thread.sleep(2);
            }
            context.getRouteController().stopRoute(routeId);
            context.removeRoute(routeId);
        }
    }
}
