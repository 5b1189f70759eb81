package io.deltafunnel.camel.springboot;

import io.deltafunnel.camel.DeltaFunnelMssqlComponent;
import org.apache.camel.Component;
import org.apache.camel.spi.ComponentCustomizer;
import org.apache.camel.spring.boot.CamelAutoConfiguration;
import org.apache.camel.spring.boot.ComponentConfigurationProperties;
import org.apache.camel.spring.boot.util.ConditionalOnCamelContextAndAutoConfigurationBeans;
import org.apache.camel.spring.boot.util.ConditionalOnHierarchicalProperties;
import org.apache.camel.spring.boot.util.HierarchicalPropertiesEvaluator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.convert.converter.GenericConverter;

/**
 * Auto-configures the {@code deltafunnel-mssql:} component from {@code camel.component.deltafunnel-mssql.*}, and
 * gives it the Spring context's DataSource.
 *
 * <p>Which DataSource an endpoint writes to, first match wins:
 * <ol>
 *   <li>the endpoint's {@code dataSource} ({@code ?dataSource=#name});</li>
 *   <li>the endpoint's {@code url} (with {@code username}/{@code password});</li>
 *   <li>the component's {@code dataSource}: {@code camel.component.deltafunnel-mssql.data-source=#name}, else the
 *       Spring context's single DataSource bean, or its {@code @Primary} one when there are several: the
 *       component's {@code dataSource} option is autowired, and with camel-spring-boot Camel's registry is the
 *       Spring context (off with {@code autowired-enabled=false});</li>
 *   <li>otherwise the endpoint fails to start, saying to set dataSource or url.</li>
 * </ol>
 * The Spring context owns the DataSource; the component never closes it.
 */
@AutoConfiguration(after = CamelAutoConfiguration.class)
@Conditional(ConditionalOnCamelContextAndAutoConfigurationBeans.class)
@EnableConfigurationProperties({ ComponentConfigurationProperties.class, DeltaFunnelMssqlComponentConfiguration.class })
@ConditionalOnHierarchicalProperties({ "camel.component", "camel.component.deltafunnel-mssql" })
public class DeltaFunnelMssqlComponentAutoConfiguration {

    /** Binds {@code data-source=#name} to the named bean (static: converters are needed before this class). */
    @Bean
    @ConfigurationPropertiesBinding
    static GenericConverter deltaFunnelMssqlDataSourceConverter(ApplicationContext applicationContext) {
        return new DataSourceReferenceConverter(applicationContext);
    }

    @Lazy
    @Bean
    public ComponentCustomizer configureDeltaFunnelMssqlComponent(ApplicationContext applicationContext,
            DeltaFunnelMssqlComponentConfiguration configuration) {
        return new ComponentCustomizer() {
            @Override
            public void configure(String name, Component target) {
                // dataSource left unset is autowired by Camel after the customizers ran (see the class comment)
                ComponentOptions.copy(target.getCamelContext(), configuration, target);
            }

            @Override
            public boolean isEnabled(String name, Component target) {
                return HierarchicalPropertiesEvaluator.evaluate(applicationContext, "camel.component.customizer",
                        "camel.component.deltafunnel-mssql.customizer") && target instanceof DeltaFunnelMssqlComponent;
            }
        };
    }
}
