package io.deltafunnel.camel;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.deltafunnel.delta.CorruptLogException;
import io.deltafunnel.delta.DeltaException;
import io.deltafunnel.delta.MissingDataFileException;
import io.deltafunnel.delta.NotADeltaTableException;
import io.deltafunnel.delta.UnsupportedFeatureException;
import io.deltafunnel.sample.SampleDeltaWriter;
import io.deltafunnel.handoff.QuerySetupException;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Delta-side bad inputs, one test each, through a route into the emulator: each fails the poll with a typed
 * error (a {@link QuerySetupException} caused by the Delta reader's own exception type) naming the table and the
 * problem, and leaves the target unchanged.
 */
class DeltaBadInputTest extends EmulatorRouteTestSupport {

    @TempDir
    Path dir;

    private Path orders;
    private List<List<Object>> before;

    @BeforeEach
    void tableAndTarget() throws Exception {
        orders = dir.resolve("orders");
        try (Connection duckdb = DuckDbConnections.open(DuckDbSettings.inMemory())) {
            new SampleDeltaWriter(duckdb, orders).append("SELECT i::INTEGER AS id, 'n' || i AS name FROM range(30) t(i)", 3);
        }
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20) NULL)",
                "INSERT INTO [dbo].[" + table + "] ([id], [name]) VALUES (1000, N'old')");
        before = query("SELECT * FROM [dbo].[" + table + "] ORDER BY 1");
    }

    /** Runs the load once and returns the failure the poll ended with. */
    private QuerySetupException load(Path tablePath) throws Exception {
        CompletableFuture<Exception> failure = new CompletableFuture<>();
        String routeId = "bad-" + table;
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("deltafunnel:" + table + "?delta.src=" + tablePath + "&query=SELECT * FROM src&repeatCount=1"
                     + "&initialDelay=0&bridgeErrorHandler=true").routeId(routeId)
                        .onException(Exception.class).handled(true)
                        .process(e -> failure.complete(e.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class)))
                        .end()
                        .to(mssql("transaction=run"))
                        .process(e -> failure.complete(null));
            }
        });
        Exception e = failure.get(60, TimeUnit.SECONDS);
        context.getRouteController().stopRoute(routeId);
        assertEquals(before, query("SELECT * FROM [dbo].[" + table + "] ORDER BY 1"), "the target changed");
        return assertInstanceOf(QuerySetupException.class, e);
    }

    private static <T extends DeltaException> T cause(QuerySetupException e, Class<T> type, String... words) {
        T cause = assertInstanceOf(type, e.getCause(), () -> "cause of " + e);
        for (String w : words) {
            assertTrue(e.getMessage().contains(w), () -> "'" + w + "' not in: " + e.getMessage());
        }
        return cause;
    }

    private Path commit(long version) {
        return orders.resolve("_delta_log").resolve(String.format("%020d.json", version));
    }

    @Test
    void missingDeltaDirectory() throws Exception {
        Path missing = dir.resolve("no-such-table");
        cause(load(missing), NotADeltaTableException.class, missing.toString(), "deltafunnel:" + table);
    }

    @Test
    void corruptCommitJson() throws Exception {
        Files.writeString(commit(1), "{\"add\": {\"path\": \"x.parquet\", \"partitionValues\": {}, \n not json at all\n",
                StandardCharsets.UTF_8);
        cause(load(orders), CorruptLogException.class, orders.toString(), "00000000000000000001.json");
    }

    @Test
    void dataFileListedButMissing() throws Exception {
        Path victim;
        try (Stream<Path> files = Files.list(orders)) {
            victim = files.filter(p -> p.getFileName().toString().endsWith(".parquet")).findFirst().orElseThrow();
        }
        Files.delete(victim);
        MissingDataFileException e = cause(load(orders), MissingDataFileException.class, orders.toString(),
                victim.getFileName().toString());
        assertTrue(String.valueOf(e.file()).contains(victim.getFileName().toString()), String.valueOf(e.file()));
    }

    @Test
    void unsupportedReaderFeature() throws Exception {
        Files.writeString(commit(1), "{\"protocol\":{\"minReaderVersion\":3,\"minWriterVersion\":7,"
                + "\"readerFeatures\":[\"catalogManaged\"],\"writerFeatures\":[\"catalogManaged\"]}}\n"
                + "{\"commitInfo\":{\"timestamp\":1700000000000,\"operation\":\"UPGRADE PROTOCOL\"}}\n",
                StandardCharsets.UTF_8);
        UnsupportedFeatureException e = cause(load(orders), UnsupportedFeatureException.class, orders.toString(),
                "catalogManaged");
        assertEquals("catalogManaged", e.feature());
    }
}
