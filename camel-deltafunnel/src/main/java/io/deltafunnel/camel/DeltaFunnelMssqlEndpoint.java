package io.deltafunnel.camel;

import java.util.Set;

import javax.sql.DataSource;

import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.channel.CipherWarmup;
import io.deltafunnel.mssql.channel.ConnectionProvider;
import io.deltafunnel.mssql.channel.ConnectionSettings;
import io.deltafunnel.mssql.channel.SqlChannelProvider;
import io.deltafunnel.mssql.run.ChannelFactory;
import io.deltafunnel.mssql.run.RetryPolicy;

import org.apache.camel.Category;
import org.apache.camel.Consumer;
import org.apache.camel.Processor;
import org.apache.camel.Producer;
import org.apache.camel.spi.UriEndpoint;
import org.apache.camel.spi.UriParam;
import org.apache.camel.support.DefaultEndpoint;

/**
 * Bulk-writes each exchange's Apache Arrow {@link org.apache.arrow.vector.VectorSchemaRoot} into a SQL Server table,
 * synchronously, through mssql-jdbc's {@code SQLServerBulkCopy} or, with <code>bulkEncoder=DIRECT</code>, the
 * project's own TDS bulk writer.
 *
 * <p>Exchanges that share a {@code CamelDeltaFunnelRunId} header form a run; the exchange whose
 * {@code CamelBatchComplete} property is true ends it. An exchange without run id is a run of its own. The body is
 * not closed by the producer.
 *
 * <p>The options live in {@link DeltaFunnelMssqlConfiguration}, each described there once. (The first paragraph
 * above is the catalog's component description: camel-component-maven-plugin cannot render an inline code tag with
 * {@code =} inside, hence the HTML code tag there.)
 */
@UriEndpoint(firstVersion = "0.1.0", scheme = "deltafunnel-mssql", title = "DeltaFunnel SQL Server",
             syntax = "deltafunnel-mssql:table", producerOnly = true, category = { Category.DATABASE },
             headersClass = DeltaFunnelConstants.class)
public class DeltaFunnelMssqlEndpoint extends DefaultEndpoint {

    @UriParam
    private DeltaFunnelMssqlConfiguration configuration = new DeltaFunnelMssqlConfiguration();

    public DeltaFunnelMssqlEndpoint(String uri, DeltaFunnelMssqlComponent component) {
        super(uri, component);
    }

    @Override
    public DeltaFunnelMssqlComponent getComponent() {
        return (DeltaFunnelMssqlComponent) super.getComponent();
    }

    @Override
    public Producer createProducer() {
        return new DeltaFunnelMssqlProducer(this);
    }

    @Override
    public Consumer createConsumer(Processor processor) {
        throw new UnsupportedOperationException("deltafunnel-mssql: is a producer only; read with deltafunnel:");
    }

    @Override
    protected void doInit() throws Exception {
        super.doInit();
        configuration.validate(); // validate options early
        if (configuration.getDataSource() == null && configuration.getUrl() == null) {
            configuration.setDataSource(getComponent().getDataSource());
        }
        if (configuration.getDataSource() == null && configuration.getUrl() == null) {
            Set<DataSource> found = getCamelContext().getRegistry().findByType(DataSource.class);
            if (found.size() == 1) {
                configuration.setDataSource(found.iterator().next());
            }
        }
        if (configuration.getDataSource() == null && configuration.getUrl() == null) {
            throw new IllegalArgumentException("deltafunnel-mssql:" + configuration.getTable() + ": set dataSource or"
                                               + " url (no single DataSource found in the registry)");
        }
    }

    /** This endpoint's options. */
    public DeltaFunnelMssqlConfiguration getConfiguration() {
        return configuration;
    }

    public void setConfiguration(DeltaFunnelMssqlConfiguration configuration) {
        this.configuration = configuration;
    }

    /**
     * The bulk-load settings of this endpoint, with preSql and postSql read from the resource they name
     * ({@code resource:classpath:...}, {@code file:...}; {@link QueryReference}), so that the plain packages get text.
     */
    public BulkLoadSettings settings() {
        BulkLoadSettings settings = configuration.settings();
        String where = "deltafunnel-mssql:" + configuration.getTable();
        return settings.withHooks(new BulkLoadSettings.Hooks(
                QueryReference.resolve(getCamelContext(), where + " preSql", settings.hooks().preSql()),
                QueryReference.resolve(getCamelContext(), where + " postSql", settings.hooks().postSql())));
    }

    /** The retry policy built from maxRetries, retryDelay, retryBackoffMultiplier and maxRetryDelay. */
    public RetryPolicy retryPolicy() {
        return configuration.retryPolicy();
    }

    /**
     * Opens the runs' channels: mssql-jdbc connections with bulkEncoder=DRIVER, the direct TDS client with
     * bulkEncoder=DIRECT where its settings allow (see {@link ChannelFactory}).
     */
    SqlChannelProvider channelProvider() {
        return ChannelFactory.channels("deltafunnel-mssql:" + configuration.getTable(), connectionSettings(),
                configuration.getBulkEncoder(), configuration.isBulkEncoderFallback(), configuration.isKeepIdentity());
    }

    /**
     * Whether the producer warms up the JVM's TLS cipher when it starts ({@link CipherWarmup}): cipherWarmup is on and
     * the connection encrypts its data ({@link ChannelFactory#encryptsData}).
     */
    boolean warmsUpCipher() {
        return configuration.isCipherWarmup() && ChannelFactory.encryptsData(connectionSettings());
    }

    /** Opens connections from the dataSource, or from url with username/password or the access token supplier. */
    public ConnectionProvider connectionProvider() {
        return connectionSettings().driverConnections();
    }

    /** This endpoint's connection options. */
    public ConnectionSettings connectionSettings() {
        return configuration.connectionSettings();
    }
}
