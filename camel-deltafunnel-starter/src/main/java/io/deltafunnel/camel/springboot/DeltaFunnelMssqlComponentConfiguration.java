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
 * Spring context's single (or {@code @Primary}) DataSource into the component. Spring Boot's configuration processor skips
 * {@code javax.sql.DataSource} properties, so its metadata entry is declared in
 * {@code META-INF/additional-spring-configuration-metadata.json} (merged into the generated file by the processor).
 */
@ConfigurationProperties(prefix = "camel.component.deltafunnel-mssql")
public class DeltaFunnelMssqlComponentConfiguration extends ComponentConfigurationPropertiesCommon {

    /**
     * Whether to auto-configure the deltafunnel-mssql component (on by default).
     */
    private Boolean enabled;
    /**
     * The SQL Server DataSource used by endpoints that set neither dataSource nor url, as a bean reference
     * (#name). When unset, the Spring context's single or @Primary DataSource bean is used. The option is a
     * javax.sql.DataSource type.
     */
    private DataSource dataSource;
    /**
     * Create and start the producer on the first message instead of at route start, so that a SQL Server that is
     * not reachable at startup does not stop the route from starting; the failure then reaches the route's error
     * handler with the first exchange.
     */
    private Boolean lazyStartProducer = false;
    /**
     * Whether options marked as autowired (dataSource) are looked up in the registry (the Spring context) by type.
     * Off, the component takes no DataSource from the Spring context.
     */
    private Boolean autowiredEnabled = true;
    /**
     * Whether the consumer health checks of this component are enabled (the component has no consumer).
     */
    private Boolean healthCheckConsumerEnabled = true;
    /**
     * Whether the producer health checks of this component (SQL Server reachable per endpoint) are enabled. Camel
     * runs producer checks only with camel.health.producers-enabled=true.
     */
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
