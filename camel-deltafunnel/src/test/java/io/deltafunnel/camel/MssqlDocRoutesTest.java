package io.deltafunnel.camel;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.microsoft.sqlserver.jdbc.SQLServerDataSource;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.TransactionMode;
import io.deltafunnel.mssql.WriteMode;
import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.support.PluginHelper;
import org.apache.camel.support.ResourceHelper;
import org.apache.camel.test.junit5.CamelTestSupport;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The canonical YAML route of MSSQL.md loads and configures the endpoint as documented. */
class MssqlDocRoutesTest extends CamelTestSupport {

    private final SQLServerDataSource dataSource = new SQLServerDataSource();

    @Override
    protected CamelContext createCamelContext() throws Exception {
        CamelContext context = super.createCamelContext();
        context.getRegistry().bind("sqlServer", dataSource);
        context.getRegistry().bind("otherBean", "not a data source");
        return context;
    }

    @Test
    void yamlRouteFromTheDocLoads() throws Exception {
        String doc = Files.readString(Path.of("MSSQL.md"));
        Matcher m = Pattern.compile("```yaml\\n(.*?)```", Pattern.DOTALL).matcher(doc);
        assertTrue(m.find(), "MSSQL.md has a yaml block");
        String yaml = m.group(1).replace("- route:\n", "- route:\n    autoStartup: false\n");
        PluginHelper.getRoutesLoader(context).loadRoutes(ResourceHelper.fromString("canonical.yaml", yaml));
        Endpoint found = context.getEndpoints().stream().filter(e -> e instanceof DeltaFunnelMssqlEndpoint)
                .findFirst().orElseThrow();
        DeltaFunnelMssqlEndpoint ep = (DeltaFunnelMssqlEndpoint) found;
        assertSame(dataSource, ep.getConfiguration().getDataSource());
        BulkLoadSettings s = ep.settings();
        assertEquals("dbo.orders", s.table().toString());
        assertEquals(WriteMode.REPLACE, s.writeMode());
        assertEquals(TransactionMode.RUN, s.transactionMode());
        assertTrue(s.tableLock());
    }

    @Test
    void singleDataSourceIsAutowired() {
        DeltaFunnelMssqlEndpoint ep = context.getEndpoint("deltafunnel-mssql:t", DeltaFunnelMssqlEndpoint.class);
        ep.init();
        assertNotNull(ep.getConfiguration().getDataSource());
        assertSame(dataSource, ep.getConfiguration().getDataSource());
    }
}
