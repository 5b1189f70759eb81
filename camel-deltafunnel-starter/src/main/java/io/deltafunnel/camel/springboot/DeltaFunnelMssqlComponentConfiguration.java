package io.deltafunnel.camel.springboot;

import javax.sql.DataSource;

import org.apache.camel.spring.boot.ComponentConfigurationPropertiesCommon;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code camel.component.deltafunnel-mssql.*} properties: every component-level option of the
 * {@code deltafunnel-mssql:} producer component ({@link io.deltafunnel.camel.DeltaFunnelMssqlComponent}). Endpoint
 * options (write mode, bulk encoder, retries, ...) stay on the endpoint URI.
 *
 * <p>{@code data-source} takes a bean reference ({@code #name}); left unset, Camel autowires the
 * Spring context's single (or {@code @Primary}) DataSource into the component.
 *
 * <p>The option fields carry no Javadoc: their descriptions in the generated Spring Boot metadata are the component's
 * catalog descriptions (written once, in the component's annotations), merged in from
 * {@code additional-spring-configuration-metadata.json}, which the build generates from the catalog
 * ({@code src/build/StarterMetadata.java}; it also declares {@code data-source}, a {@code javax.sql.DataSource}
 * property that Spring Boot's configuration processor skips). {@code DeltaFunnelStarterMetadataTest} checks it.
 */
@ConfigurationProperties(prefix = "camel.component.deltafunnel-mssql")
public class DeltaFunnelMssqlComponentConfiguration extends ComponentConfigurationPropertiesCommon {

    /**
     * Whether to auto-configure the deltafunnel-mssql component (on by default).
     */
    private Boolean enabled;
    private DataSource dataSource;
    private Boolean lazyStartProducer = false;
    private Boolean autowiredEnabled = true;
    private Boolean healthCheckConsumerEnabled = true;
    private Boolean healthCheckProducerEnabled = true;

    public DataSource getDataSource() {
        return dataSource;
    }

    public void setDataSource(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public Boolean getLazyStartProducer() {
        return lazyStartProducer;
    }

    public void setLazyStartProducer(Boolean lazyStartProducer) {
        this.lazyStartProducer = lazyStartProducer;
    }

    public Boolean getAutowiredEnabled() {
        return autowiredEnabled;
    }

    public void setAutowiredEnabled(Boolean autowiredEnabled) {
        this.autowiredEnabled = autowiredEnabled;
    }

    public Boolean getHealthCheckConsumerEnabled() {
        return healthCheckConsumerEnabled;
    }

    public void setHealthCheckConsumerEnabled(Boolean healthCheckConsumerEnabled) {
        this.healthCheckConsumerEnabled = healthCheckConsumerEnabled;
    }

    public Boolean getHealthCheckProducerEnabled() {
        return healthCheckProducerEnabled;
    }

    public void setHealthCheckProducerEnabled(Boolean healthCheckProducerEnabled) {
        this.healthCheckProducerEnabled = healthCheckProducerEnabled;
    }
}
