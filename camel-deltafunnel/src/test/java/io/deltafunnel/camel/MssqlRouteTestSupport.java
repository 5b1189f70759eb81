package io.deltafunnel.camel;

import io.deltafunnel.emulator.fidelity.ServerUnderTest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.deltafunnel.mssql.BulkLoadException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.camel.Exchange;
import org.apache.camel.builder.NotifyBuilder;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.model.RouteDefinition;
import org.apache.camel.test.junit5.CamelTestSupport;
import org.junit.jupiter.api.TestInfo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Route tests against a SQL Server endpoint: the in-JVM emulator here, or a real server in the *IT subclasses.
 * Each test uses one table named after the test.
 */
abstract class MssqlRouteTestSupport extends CamelTestSupport {

    /** Failures seen by the routes (the exception stays on the exchange, so the consumer stops the run). */
    protected final List<BulkLoadException> failures = new CopyOnWriteArrayList<>();
    protected String table;
    private final List<String> consumerUris = new ArrayList<>();

    /** The server the scenarios run against: the emulator ({@code *Test}) or SQL Server in Docker ({@code *IT}). */
    protected abstract ServerUnderTest server();

    /** The server's JDBC URL, without credentials. */
    protected String jdbcUrl() {
        return server().jdbcUrl();
    }

    protected String user() {
        return server().user();
    }

    protected String password() {
        return server().password();
    }

    protected void nameTable(TestInfo info) {
        table = info.getTestMethod().orElseThrow().getName();
    }

    protected Connection jdbc() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", user());
        p.setProperty("password", password());
        return DriverManager.getConnection(jdbcUrl(), p);
    }

    protected void exec(String... sql) throws SQLException {
        try (Connection c = jdbc(); Statement st = c.createStatement()) {
            for (String s : sql) {
                st.execute(s);
            }
        }
    }

    protected List<List<Object>> query(String sql) throws SQLException {
        try (Connection c = jdbc(); PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            List<List<Object>> rows = new ArrayList<>();
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getObject(i));
                }
                rows.add(row);
            }
            return rows;
        }
    }

    protected long count(String tableName) throws SQLException {
        return ((Number) query("SELECT COUNT(*) FROM [dbo].[" + tableName + "]").get(0).get(0)).longValue();
    }

    /** The mssql endpoint URI for the test's table with extra options ({@code a=b&c=d}). */
    protected String mssql(String options) {
        return "deltafunnel-mssql:dbo." + table + "?url=RAW(" + jdbcUrl() + ")&username=" + user()
                + "&password=RAW(" + password() + ")" + (options == null || options.isEmpty() ? "" : "&" + options)
                + encoderOptions();
    }

    /** Options every producer URI of the test class gets, e.g. {@code &bulkEncoder=direct}; none by default. */
    protected String encoderOptions() {
        return "";
    }

    /** A deltafunnel: consumer URI running {@code sql} once, in batches of {@code batchSize}. */
    protected String source(String sql, int batchSize) {
        String uri = "deltafunnel:" + table + consumerUris.size() + "?query=RAW(" + sql + ")&batchSize=" + batchSize
                + "&repeatCount=1&initialDelay=0";
        consumerUris.add(uri);
        return uri;
    }

    /** Adds {@code from(source).to(mssql)[.process(after)].to(mock:out)} and waits until {@code exchanges} are done. */
    protected void runRoute(String sourceUri, String mssqlUri, int exchanges, org.apache.camel.Processor after)
            throws Exception {
        runRoute(sourceUri, mssqlUri, exchanges, null, after);
    }

    /** As above, with {@code before} run on each exchange ahead of the mssql endpoint (e.g. to record headers). */
    protected void runRoute(String sourceUri, String mssqlUri, int exchanges, org.apache.camel.Processor before,
            org.apache.camel.Processor after) throws Exception {
        NotifyBuilder done = new NotifyBuilder(context).whenDone(exchanges).create();
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                onException(BulkLoadException.class).process(e -> failures.add(
                        e.getProperty(Exchange.EXCEPTION_CAUGHT, BulkLoadException.class)));
                RouteDefinition route = from(sourceUri).routeId("r" + consumerUris.size());
                if (before != null) {
                    route.process(before);
                }
                route.to(mssqlUri);
                if (after != null) {
                    route.process(after);
                }
                route.to("mock:out");
            }
        });
        assertTrue(done.matches(60, TimeUnit.SECONDS), "the route did not finish " + exchanges + " exchanges");
    }

    /** The failures that ended a run (replay requests, which the consumer obeys, left out). */
    protected List<BulkLoadException> finalFailures() {
        return failures.stream().filter(f -> io.deltafunnel.handoff.ReplayRequest.find(f) == null).toList();
    }

    /** Stops the context and checks every consumer endpoint's Arrow allocator has nothing outstanding. */
    protected void stopAndAssertNoArrowLeak() {
        // The routes' own endpoint instances: looking a URI up again could create (and check) a second endpoint.
        List<BufferAllocator> allocators = new ArrayList<>();
        for (org.apache.camel.Route route : context.getRoutes()) {
            if (route.getEndpoint() instanceof DeltaFunnelEndpoint ep && ep.getAllocator() != null) {
                allocators.add(ep.getAllocator());
            }
        }
        assertTrue(consumerUris.isEmpty() || !allocators.isEmpty(), "no deltafunnel: route found to check");
        context.stop();
        for (BufferAllocator a : allocators) {
            assertEquals(0, a.getAllocatedMemory(), "Arrow memory outstanding in " + a.getName());
        }
    }
}
