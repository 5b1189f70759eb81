package io.deltafunnel.routes;

import java.util.Properties;

import org.apache.camel.CamelContext;
import org.apache.camel.builder.TemplatedRouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The route template's optional sharding parameters: left out, the consumer URI carries none of the shard options;
 * given, it carries exactly them (Java and YAML twins alike).
 */
class LoadTableTemplateTest {

    private static String sourceUri(boolean yaml, boolean sharded) throws Exception {
        try (CamelContext context = new DefaultCamelContext()) {
            Properties p = new Properties();
            p.setProperty("deltafunnel.mssql.url", "jdbc:sqlserver://localhost:1;encrypt=true");
            p.setProperty("deltafunnel.mssql.username", "sa");
            p.setProperty("deltafunnel.mssql.password", "x");
            context.getPropertiesComponent().setInitialProperties(p);
            context.getRegistry().bind("sqlServer", new com.microsoft.sqlserver.jdbc.SQLServerDataSource());
            if (yaml) {
                PluginHelper.getRoutesLoader(context).loadRoutes(ResourceHelper.resolveMandatoryResource(context,
                        "classpath:routes/load-table-template.yaml"));
            } else {
                context.addRoutes(new LoadTableTemplate());
            }
            TemplatedRouteBuilder t = TemplatedRouteBuilder.builder(context, LoadTableTemplate.TEMPLATE_ID)
                    .routeId("r").parameter("sourcePath", "/data/orders").parameter("targetTable", "dbo.orders");
            if (sharded) {
                t.parameter("shardCount", "3").parameter("shardIndex", "1").parameter("loadId", "job-7")
                        .parameter("stateDataSource", "#sqlServer");
            }
            t.add();
            context.setAutoStartup(false); // build the route and its endpoints, poll nothing
            context.start();
            return java.net.URLDecoder.decode(context.getRoute("r").getEndpoint().getEndpointUri(),
                    java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    @Test
    void unshardedInstancesCarryNoShardOptions() throws Exception {
        for (boolean yaml : new boolean[] {false, true}) {
            String uri = sourceUri(yaml, false);
            assertTrue(uri.startsWith("deltafunnel:"), uri);
            assertTrue(uri.contains("delta.source=/data/orders"), uri);
            assertFalse(uri.contains("shard"), uri);
            assertFalse(uri.contains("loadId"), uri);
            assertFalse(uri.contains("stateDataSource"), uri);
        }
    }

    @Test
    void shardedInstancesCarryTheShardOptions() throws Exception {
        for (boolean yaml : new boolean[] {false, true}) {
            String uri = sourceUri(yaml, true);
            assertTrue(uri.contains("shardCount=3"), uri);
            assertTrue(uri.contains("shardIndex=1"), uri);
            assertTrue(uri.contains("loadId=job-7"), uri);
            assertTrue(uri.contains("stateDataSource=#sqlServer"), uri);
        }
    }
}
