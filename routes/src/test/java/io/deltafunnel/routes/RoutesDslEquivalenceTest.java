package io.deltafunnel.routes;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;

import io.deltafunnel.emulator.MssqlEmulator;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The application's Java DSL route and its YAML DSL twin load identical contents into the target. */
class RoutesDslEquivalenceTest {

    private static MssqlEmulator emu;

    @BeforeAll
    static void start() {
        emu = TestTargets.startEmulator();
    }

    @AfterAll
    static void stop() {
        emu.close();
    }

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private List<RunReporter.Summary> runOnce(String dsl, String table) throws Exception {
        return runOnce(dsl, table, "driver");
    }

    private List<RunReporter.Summary> runOnce(String dsl, String table, String encoder) throws Exception {
        List<RunReporter.Summary> summaries = new CopyOnWriteArrayList<>();
        try (CamelContext context = new DefaultCamelContext()) {
            Properties p = new Properties();
            p.setProperty("deltafunnel.mssql.url", emu.jdbcUrl());
            p.setProperty("deltafunnel.mssql.username", emu.user());
            p.setProperty("deltafunnel.mssql.password", emu.password());
            p.setProperty("deltafunnel.source.effective-path", TestTargets.smallSample().toString());
            p.setProperty("deltafunnel.batch-size", "1000");
            p.setProperty("deltafunnel.schedule.delay", "10");
            p.setProperty("deltafunnel.repeat-count", "1");
            p.setProperty("deltafunnel.target.table", table);
            p.setProperty("deltafunnel.write-mode", "replace");
            p.setProperty("deltafunnel.bulk-encoder", encoder);
            context.getPropertiesComponent().setInitialProperties(p);
            new RunReporter(new RunPrinter.Output(System.out, false, 1000), true, () -> meters, summaries::add)
                    .install(context);
            if (dsl.equals("java")) {
                context.addRoutes(new LoadTableRoute());
            } else {
                PluginHelper.getRoutesLoader(context).loadRoutes(
                        ResourceHelper.resolveMandatoryResource(context, "classpath:routes/load-table.yaml"));
            }
            context.start();
            long deadline = System.currentTimeMillis() + 120_000;
            while (summaries.isEmpty() && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
        }
        return summaries;
    }

    private List<Double> counts(String name) {
        return meters.find(name).tag("routeId", "load-table").counters().stream()
                .map(c -> c.count()).sorted().toList();
    }

    @Test
    void javaAndYamlRoutesGiveIdenticalTargets() throws Exception {
        List<RunReporter.Summary> java = runOnce("java", "dbo.orders_java");
        List<RunReporter.Summary> yaml = runOnce("yaml", "dbo.orders_yaml");
        assertEquals(1, java.size());
        assertEquals(1, yaml.size());
        assertFalse(java.get(0).failed(), String.valueOf(java.get(0).failure()));
        assertFalse(yaml.get(0).failed(), String.valueOf(yaml.get(0).failure()));
        assertEquals(5000, java.get(0).rows());
        assertEquals(5000L, java.get(0).targetRowCount());
        assertEquals(5000L, yaml.get(0).targetRowCount());

        List<List<Object>> a = TestTargets.rows(emu, "SELECT * FROM [dbo].[orders_java] ORDER BY order_id");
        List<List<Object>> b = TestTargets.rows(emu, "SELECT * FROM [dbo].[orders_yaml] ORDER BY order_id");
        assertEquals(5000, a.size());
        assertEquals(a, b);

        // The metrics count rows and batches exactly: each of the two runs (two contexts, route id load-table).
        assertEquals(List.of(5000.0, 5000.0), counts("camel.deltafunnel.rows.in"));
        assertEquals(List.of(5000.0, 5000.0), counts("camel.deltafunnel.rows.out"));
        assertEquals(List.of(5.0, 5.0), counts("camel.deltafunnel.batches.out"));
        assertEquals(2, meters.find("camel.deltafunnel.run.duration").tag("routeId", "load-table").timers().stream()
                .mapToLong(t -> t.count()).sum());
    }

    @Test
    void directEncoderGivesTheSameTargetAsTheDriver() throws Exception {
        List<RunReporter.Summary> driver = runOnce("java", "dbo.orders_driver", "driver");
        List<RunReporter.Summary> direct = runOnce("yaml", "dbo.orders_direct", "direct");
        assertFalse(direct.get(0).failed(), String.valueOf(direct.get(0).failure()));
        assertEquals(5000L, direct.get(0).targetRowCount());
        List<List<Object>> a = TestTargets.rows(emu, "SELECT * FROM [dbo].[orders_driver] ORDER BY order_id");
        List<List<Object>> b = TestTargets.rows(emu, "SELECT * FROM [dbo].[orders_direct] ORDER BY order_id");
        assertEquals(5000, b.size());
        assertEquals(a, b);
        assertEquals(List.of(5000.0, 5000.0), counts("camel.deltafunnel.rows.out"));
    }
}
