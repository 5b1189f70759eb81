package io.deltafunnel.camel.springboot;

import org.apache.camel.spring.boot.ComponentConfigurationPropertiesCommon;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code camel.component.deltafunnel.*} properties: every component-level option of the {@code deltafunnel:}
 * consumer component ({@link io.deltafunnel.camel.DeltaFunnelComponent}). Endpoint options (query, delta views,
 * batch size, ...) stay on the endpoint URI.
 *
 * <p>The defaults are the component's own; {@code DeltaFunnelStarterMetadataTest} checks that this class lists
 * exactly the options of the component's catalog JSON.
 */
@ConfigurationProperties(prefix = "camel.component.deltafunnel")
public class DeltaFunnelComponentConfiguration extends ComponentConfigurationPropertiesCommon {

    /**
     * Whether to auto-configure the deltafunnel component (on by default).
     */
    private Boolean enabled;
    /**
     * Route consumer failures (a failed query or Delta read while polling) to the route's error handler as
     * exchanges instead of the consumer's ExceptionHandler, which logs them at WARN or ERROR level.
     */
    private Boolean bridgeErrorHandler = false;
    /**
     * Whether options marked as autowired are looked up in the registry (the Spring context) by type when exactly
     * one bean of that type exists.
     */
    private Boolean autowiredEnabled = true;
    /**
     * Whether the consumer health checks of this component are enabled.
     */
    private Boolean healthCheckConsumerEnabled = true;
    /**
     * Whether the producer health checks of this component are enabled (Camel runs producer checks only with
     * camel.health.producers-enabled=true).
     */
    private Boolean healthCheckProducerEnabled = true;

    public Boolean getBridgeErrorHandler() {
        return bridgeErrorHandler;
    }

    public void setBridgeErrorHandler(Boolean bridgeErrorHandler) {
        this.bridgeErrorHandler = bridgeErrorHandler;
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
