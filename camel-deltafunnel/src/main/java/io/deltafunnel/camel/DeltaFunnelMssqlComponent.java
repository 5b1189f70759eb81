package io.deltafunnel.camel;

import java.util.Map;

import javax.sql.DataSource;

import org.apache.camel.Endpoint;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.annotations.Component;
import org.apache.camel.support.HealthCheckComponent;

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

    @Override
    protected Endpoint createEndpoint(String uri, String remaining, Map<String, Object> parameters) throws Exception {
        DeltaFunnelMssqlEndpoint endpoint = new DeltaFunnelMssqlEndpoint(uri, this);
        endpoint.setTable(remaining);
        setProperties(endpoint, parameters);
        return endpoint;
    }

    public DataSource getDataSource() {
        return dataSource;
    }

    /**
     * The SQL Server DataSource used by endpoints that set neither dataSource nor url. Autowired when exactly one
     * DataSource is in the registry.
     */
    public void setDataSource(DataSource dataSource) {
        this.dataSource = dataSource;
    }
}
