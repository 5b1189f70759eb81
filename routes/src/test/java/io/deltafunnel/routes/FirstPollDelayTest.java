package io.deltafunnel.routes;

import java.util.Properties;

import org.apache.camel.CamelContext;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.apache.camel.support.ScheduledPollEndpoint;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The application's routes start their first run as soon as they have started: {@code initialDelay} 0 on the
 * built-in route and, by default, on the route template's instances (Camel's polling consumers wait 1000 ms), in both
 * DSL twins; the template's parameter still sets another value, and {@code delay} stays the configured one.
 */
class FirstPollDelayTest {

    private static CamelContext context() {
        CamelContext context = new DefaultCamelContext();
        Properties p = new Properties();
        p.setProperty("deltafunnel.mssql.url", "jdbc:sqlserver://localhost:1;encrypt=true");
        p.setProperty("deltafunnel.mssql.username", "sa");
        p.setProperty("deltafunnel.mssql.password", "x");
        p.setProperty("deltafunnel.source.effective-path", "/data/orders");
        p.setProperty("deltafunnel.batch-size", "1000");
        p.setProperty("deltafunnel.schedule.delay", "4321");
        p.setProperty("deltafunnel.repeat-count", "1");
        p.setProperty("deltafunnel.target.table", "dbo.orders");
        p.setProperty("deltafunnel.write-mode", "replace");
        context.getPropertiesComponent().setInitialProperties(p);
        return context;
    }

    /** The route's consumer endpoint, built but not started (nothing is polled). */
    private static ScheduledPollEndpoint endpoint(CamelContext context, String routeId) {
        context.setAutoStartup(false);
        context.start();
        return (ScheduledPollEndpoint) context.getRoute(routeId).getEndpoint();
    }

    private static void load(CamelContext context, String resource) throws Exception {
        PluginHelper.getRoutesLoader(context).loadRoutes(ResourceHelper.resolveMandatoryResource(context, resource));
    }

    @Test
    void theBuiltInRoutePollsAtOnceInBothDsls() throws Exception {
        for (boolean yaml : new boolean[] {false, true}) {
            try (CamelContext context = context()) {
                if (yaml) {
                    load(context, "classpath:routes/load-table.yaml");
                } else {
                    context.addRoutes(new LoadTableRoute());
                }
                ScheduledPollEndpoint e = endpoint(context, LoadTableRoute.ROUTE_ID);
                assertEquals(0, e.getInitialDelay(), yaml ? "yaml" : "java");
                assertEquals(4321, e.getDelay(), yaml ? "yaml" : "java");
            }
        }
    }

    @Test
    void templateInstancesPollAtOnceUnlessTold() throws Exception {
        for (boolean yaml : new boolean[] {false, true}) {
            for (String given : new String[] {null, "2500"}) {
                try (CamelContext context = context()) {
                    if (yaml) {
                        load(context, "classpath:routes/load-table-template.yaml");
                    } else {
                        context.addRoutes(new LoadTableTemplate());
                    }
                    TemplatedRouteBuilder t = TemplatedRouteBuilder.builder(context, LoadTableTemplate.TEMPLATE_ID)
                            .routeId("r").parameter("sourcePath", "/data/orders")
                            .parameter("targetTable", "dbo.orders").parameter("delay", "777");
                    if (given != null) {
                        t.parameter("initialDelay", given);
                    }
                    t.add();
                    ScheduledPollEndpoint e = endpoint(context, "r");
                    String what = (yaml ? "yaml" : "java") + ", initialDelay " + given;
                    assertEquals(given == null ? 0 : 2500, e.getInitialDelay(), what);
                    assertEquals(777, e.getDelay(), what);
                }
            }
        }
    }
}
