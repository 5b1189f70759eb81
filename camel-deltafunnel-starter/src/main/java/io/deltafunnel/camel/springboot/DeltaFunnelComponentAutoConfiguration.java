package io.deltafunnel.camel.springboot;

import io.deltafunnel.camel.DeltaFunnelComponent;
import org.apache.camel.Component;
import org.apache.camel.spi.ComponentCustomizer;
import org.apache.camel.spring.boot.CamelAutoConfiguration;
import org.apache.camel.spring.boot.ComponentConfigurationProperties;
import org.apache.camel.spring.boot.util.ConditionalOnCamelContextAndAutoConfigurationBeans;
import org.apache.camel.spring.boot.util.ConditionalOnHierarchicalProperties;
import org.apache.camel.spring.boot.util.HierarchicalPropertiesEvaluator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Lazy;

/**
 * Auto-configures the {@code deltafunnel:} component from {@code camel.component.deltafunnel.*}: a component
 * customizer that Camel applies when it creates the component (on first use by a route). Off with
 * {@code camel.component.deltafunnel.enabled=false} (or {@code camel.component.enabled=false}); the customizer
 * alone is off with {@code camel.component.deltafunnel.customizer.enabled=false}.
 */
@AutoConfiguration(after = CamelAutoConfiguration.class)
@Conditional(ConditionalOnCamelContextAndAutoConfigurationBeans.class)
@EnableConfigurationProperties({ ComponentConfigurationProperties.class, DeltaFunnelComponentConfiguration.class })
@ConditionalOnHierarchicalProperties({ "camel.component", "camel.component.deltafunnel" })
public class DeltaFunnelComponentAutoConfiguration {

    @Lazy
    @Bean
    public ComponentCustomizer configureDeltaFunnelComponent(ApplicationContext applicationContext,
            DeltaFunnelComponentConfiguration configuration) {
        return new ComponentCustomizer() {
            @Override
            public void configure(String name, Component target) {
                ComponentOptions.copy(target.getCamelContext(), configuration, target);
            }

            @Override
            public boolean isEnabled(String name, Component target) {
                return HierarchicalPropertiesEvaluator.evaluate(applicationContext, "camel.component.customizer",
                        "camel.component.deltafunnel.customizer") && target instanceof DeltaFunnelComponent;
            }
        };
    }
}
