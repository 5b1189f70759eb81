package io.deltafunnel.camel;

import java.util.Map;

import javax.sql.DataSource;

import org.apache.camel.CamelContext;
import org.apache.camel.Endpoint;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.annotations.Component;
import org.apache.camel.support.HealthCheckComponent;
import org.apache.camel.util.URISupport;

/**
 * The {@code deltafunnel-mssql:} component: a producer that bulk-writes Apache Arrow batches (for example those of
 * the {@code deltafunnel:} consumer) into a Microsoft SQL Server table with mssql-jdbc's bulk copy.
 */
@Component("deltafunnel-mssql")
public class DeltaFunnelMssqlComponent extends HealthCheckComponent {

    @Metadata(label = "producer", autowired = true,
              description = "The SQL Server DataSource used by endpoints that set neither dataSource nor url."
                            + " Autowired when exactly one DataSource is in the registry.")
    private DataSource dataSource;

    /**
     * The keyword that makes Camel's URI sanitizer mask the whole value of options whose name contains {@code url}
     * (any case): Camel masks options by name only (its keywords are matched literally), and the {@code url} of this
     * endpoint and of the {@code deltafunnel-mssql-sink} Kamelet may hold credentials ({@code ;password=...}). It
     * applies to every URI Camel renders (route labels, message history, endpoint names, exceptions), so other
     * components' {@code *url*} options are masked there too.
     */
    static final String URL_KEYWORD = "url";

    @Override
    protected void doInit() throws Exception {
        super.doInit();
        maskUrlOptions(getCamelContext());
    }

    /**
     * Adds {@link #URL_KEYWORD} to Camel's sanitizer, keeping the keywords of camel-main's
     * {@code camel.main.additional-sensitive-keywords} (Camel replaces the extra keywords on each call).
     */
    static void maskUrlOptions(CamelContext context) {
        String configured = null;
        if (context != null) {
            for (String key : new String[] {"camel.main.additional-sensitive-keywords",
                "camel.main.additionalSensitiveKeywords"}) {
                configured = context.getPropertiesComponent().resolveProperty(key).orElse(null);
                if (configured != null && !configured.isBlank()) {
                    break;
                }
            }
        }
        URISupport.addSanitizeKeywords(configured == null || configured.isBlank() ? URL_KEYWORD
                : configured + "," + URL_KEYWORD);
    }

    @Override
    protected Endpoint createEndpoint(String uri, String remaining, Map<String, Object> parameters) throws Exception {
        DeltaFunnelMssqlEndpoint endpoint = new DeltaFunnelMssqlEndpoint(uri, this);
        endpoint.getConfiguration().setTable(remaining);
        setProperties(endpoint, parameters);
        return endpoint;
    }

    public DataSource getDataSource() {
        return dataSource;
    }

    public void setDataSource(DataSource dataSource) {
        this.dataSource = dataSource;
    }
}
