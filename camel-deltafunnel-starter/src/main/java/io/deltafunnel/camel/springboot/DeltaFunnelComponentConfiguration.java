package io.deltafunnel.camel.springboot;

import org.apache.camel.spring.boot.ComponentConfigurationPropertiesCommon;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code camel.component.deltafunnel.*} properties: every component-level option of the {@code deltafunnel:}
 * consumer component ({@link io.deltafunnel.camel.DeltaFunnelComponent}). Endpoint options (query, delta views,
 * batch size, ...) stay on the endpoint URI.
 *
 * <p>The defaults are the component's own. The option fields carry no Javadoc: their descriptions in the generated
 * Spring Boot metadata are the component's catalog descriptions (written once, in the component's annotations),
 * merged in from {@code additional-spring-configuration-metadata.json}, which the build generates from the catalog
 * ({@code src/build/StarterMetadata.java}). {@code DeltaFunnelStarterMetadataTest} checks that this class lists
 * exactly the options of the component's catalog JSON, with the same descriptions.
 */
@ConfigurationProperties(prefix = "camel.component.deltafunnel")
public class DeltaFunnelComponentConfiguration extends ComponentConfigurationPropertiesCommon {

    /**
     * Whether to auto-configure the deltafunnel component (on by default).
     */
    private Boolean enabled;
    private Boolean bridgeErrorHandler = false;
    private Boolean autowiredEnabled = true;
    private Boolean healthCheckConsumerEnabled = true;
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
