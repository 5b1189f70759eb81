package io.deltafunnel.camel;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.Map;

import io.deltafunnel.sample.SampleDeltaWriter;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.camel.Exchange;
import org.apache.camel.ResolveEndpointFailedException;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.mock.MockEndpoint;
import org.apache.camel.test.junit5.CamelTestSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * delta.&lt;view&gt;=&lt;path&gt; exposes a Delta table (written here by the project's own writer) to the query;
 * deltaVersion.&lt;view&gt; pins a version; the versions read are reported in a header.
 */
class DeltaFunnelConsumerDeltaTablesTest extends CamelTestSupport {

    @TempDir
    static Path dir;

    @BeforeAll
    static void writeTable() throws Exception {
        try (Connection duckdb = DuckDbConnections.open(DuckDbSettings.inMemory())) {
            SampleDeltaWriter writer = new SampleDeltaWriter(duckdb, dir.resolve("orders"));
            assertEquals(0, writer.append("SELECT i AS id, 'o' || i AS label, (i * 1.5)::DECIMAL(10,2) AS amount,"
                                          + " TIMESTAMP '2024-01-01 00:00:00.123456' AS ts FROM range(100) t(i)", 3));
            assertEquals(1, writer.append("SELECT i AS id, 'o' || i AS label, (i * 1.5)::DECIMAL(10,2) AS amount,"
                                          + " TIMESTAMP '2024-01-02 00:00:00' AS ts FROM range(100, 150) t(i)", 2));
        }
    }

    private static String uri(String name, String extra) {
        return "deltafunnel:" + name + "?delta.orders=" + dir.resolve("orders")
               + "&query=SELECT count(*) AS n, sum(id) AS s, count(DISTINCT label) AS labels FROM orders"
               + "&repeatCount=1&initialDelay=0" + extra;
    }

    /**
     * The rows are read in the routes, while each batch is open: the routes start with the context, before a test
     * method could set a mock's processor.
     */
    private final long[] latestRow = new long[2];
    private final long[] v0Row = new long[2];

    @Override
    protected RouteBuilder createRouteBuilder() {
        return new RouteBuilder() {
            @Override
            public void configure() {
                from(uri("latest", "")).process(e -> read(e, latestRow)).to("mock:latest");
                from(uri("v0", "&deltaVersion.orders=0")).process(e -> read(e, v0Row)).to("mock:v0");
                from(uri("blankPin", "&deltaVersion.orders=")).to("mock:blank");
            }
        };
    }

    @Test
    void latestSnapshotAndPinnedVersionAreReadWithTheirVersionsReported() throws Exception {
        MockEndpoint latest = getMockEndpoint("mock:latest");
        MockEndpoint v0 = getMockEndpoint("mock:v0");
        MockEndpoint blank = getMockEndpoint("mock:blank");
        for (MockEndpoint m : new MockEndpoint[] {latest, v0, blank}) {
            m.expectedMessageCount(1);
        }
        MockEndpoint.assertIsSatisfied(context);

        assertEquals(150, latestRow[0]);
        assertEquals(149L * 150 / 2, latestRow[1]);
        assertEquals(100, v0Row[0]);
        assertEquals(99L * 100 / 2, v0Row[1]);
        assertEquals(Map.of("orders", 1L), latest.getExchanges().get(0).getIn()
                .getHeader(DeltaFunnelConstants.DELTA_VERSIONS, Map.class));
        assertEquals(Map.of("orders", 0L), v0.getExchanges().get(0).getIn()
                .getHeader(DeltaFunnelConstants.DELTA_VERSIONS, Map.class));
        assertEquals(Map.of("orders", 1L), blank.getExchanges().get(0).getIn()
                .getHeader(DeltaFunnelConstants.DELTA_VERSIONS, Map.class), "a blank pin means latest");
    }

    private static void read(Exchange e, long[] into) {
        VectorSchemaRoot root = e.getIn().getBody(VectorSchemaRoot.class);
        into[0] = ((BigIntVector) root.getVector("n")).get(0);
        into[1] = ((org.apache.arrow.vector.DecimalVector) root.getVector("s")).getObject(0).longValueExact();
    }

    @Test
    void pinningAnUnregisteredViewOrAMalformedVersionFailsAtEndpointCreation() {
        ResolveEndpointFailedException e = assertThrows(ResolveEndpointFailedException.class,
                () -> context.getEndpoint("deltafunnel:x?query=SELECT 1&deltaVersion.missing=3"));
        assertTrue(e.getCause().getMessage().contains("missing"), e.getCause().getMessage());
        e = assertThrows(ResolveEndpointFailedException.class,
                () -> context.getEndpoint("deltafunnel:y?query=SELECT 1&delta.t=/x&deltaVersion.t=abc"));
        assertTrue(e.getCause().getMessage().contains("deltaVersion.t=abc"), e.getCause().getMessage());
    }
}
