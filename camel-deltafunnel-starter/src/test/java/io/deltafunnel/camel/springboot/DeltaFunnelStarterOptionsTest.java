package io.deltafunnel.camel.springboot;

import javax.sql.DataSource;

import com.microsoft.sqlserver.jdbc.SQLServerDataSource;
import io.deltafunnel.camel.DeltaFunnelComponent;
import io.deltafunnel.camel.DeltaFunnelMssqlComponent;
import org.apache.camel.CamelContext;
import org.apache.camel.spring.boot.CamelAutoConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * camel.component.deltafunnel[-mssql].* properties reach the components, and the deltafunnel-mssql component's
 * DataSource follows the documented precedence: the configured bean reference, else the context's single or
 * {@code @Primary} DataSource, else none (the endpoint then needs dataSource or url).
 */
class DeltaFunnelStarterOptionsTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(CamelAutoConfiguration.class,
                    DeltaFunnelComponentAutoConfiguration.class, DeltaFunnelMssqlComponentAutoConfiguration.class));

    @Configuration(proxyBeanMethods = false)
    static class OneDataSource {
        @Bean
        DataSource only() {
            return dataSource("only");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoDataSources {
        @Bean
        DataSource first() {
            return dataSource("first");
        }

        @Bean
        DataSource second() {
            return dataSource("second");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class PrimaryDataSource {
        @Bean
        DataSource other() {
            return dataSource("other");
        }

        @Bean
        @Primary
        DataSource main() {
            return dataSource("main");
        }
    }

    private static DataSource dataSource(String database) {
        SQLServerDataSource ds = new SQLServerDataSource();
        ds.setURL("jdbc:sqlserver://localhost:1;databaseName=" + database);
        return ds;
    }

    private static DeltaFunnelMssqlComponent mssql(org.springframework.context.ApplicationContext ctx) {
        return ctx.getBean(CamelContext.class).getComponent("deltafunnel-mssql", DeltaFunnelMssqlComponent.class);
    }

    private static String database(DataSource ds) {
        return ds == null ? null : ((SQLServerDataSource) ds).getURL().replaceAll(".*databaseName=", "");
    }

    @Test
    void componentOptionsAreCopiedFromSpringProperties() {
        runner.withUserConfiguration(OneDataSource.class)
                .withPropertyValues("camel.component.deltafunnel.bridge-error-handler=true",
                        "camel.component.deltafunnel.health-check-consumer-enabled=false",
                        "camel.component.deltafunnel-mssql.lazy-start-producer=true",
                        "camel.component.deltafunnel-mssql.health-check-producer-enabled=false")
                .run(ctx -> {
                    CamelContext camel = ctx.getBean(CamelContext.class);
                    DeltaFunnelComponent consumer = camel.getComponent("deltafunnel", DeltaFunnelComponent.class);
                    assertTrue(consumer.isBridgeErrorHandler());
                    assertFalse(consumer.isHealthCheckConsumerEnabled());
                    DeltaFunnelMssqlComponent producer = mssql(ctx);
                    assertTrue(producer.isLazyStartProducer());
                    assertFalse(producer.isHealthCheckProducerEnabled());
                });
    }

    @Test
    void theContextsSingleDataSourceIsTheComponents() {
        runner.withUserConfiguration(OneDataSource.class)
                .run(ctx -> assertSame(ctx.getBean(DataSource.class), mssql(ctx).getDataSource()));
    }

    @Test
    void thePrimaryDataSourceWinsOverOthers() {
        runner.withUserConfiguration(PrimaryDataSource.class)
                .run(ctx -> assertEquals("main", database(mssql(ctx).getDataSource())));
    }

    @Test
    void aConfiguredBeanReferenceWinsOverTheContextsChoice() {
        runner.withUserConfiguration(PrimaryDataSource.class)
                .withPropertyValues("camel.component.deltafunnel-mssql.data-source=#other")
                .run(ctx -> assertEquals("other", database(mssql(ctx).getDataSource())));
    }

    @Test
    void severalDataSourcesWithoutPrimaryLeaveTheComponentWithout() {
        runner.withUserConfiguration(TwoDataSources.class)
                .run(ctx -> assertNull(mssql(ctx).getDataSource()));
    }

    @Test
    void autowiringOffLeavesTheComponentWithout() {
        runner.withUserConfiguration(OneDataSource.class)
                .withPropertyValues("camel.component.deltafunnel-mssql.autowired-enabled=false")
                .run(ctx -> assertNull(mssql(ctx).getDataSource()));
    }

    @Test
    void aDataSourceValueThatIsNoBeanReferenceFailsTheStart() {
        runner.withUserConfiguration(OneDataSource.class)
                .withPropertyValues("camel.component.deltafunnel-mssql.data-source=jdbc:sqlserver://db")
                .run(ctx -> {
                    assertTrue(ctx.getStartupFailure() != null, "the context refused the value");
                    Throwable root = ctx.getStartupFailure();
                    while (root.getCause() != null) {
                        root = root.getCause();
                    }
                    assertTrue(root.getMessage().contains("data-source takes a bean reference"), root.getMessage());
                });
    }

    @Test
    void disabledAutoConfigurationRegistersNoCustomizer() {
        runner.withUserConfiguration(OneDataSource.class)
                .withPropertyValues("camel.component.deltafunnel-mssql.enabled=false",
                        "camel.component.deltafunnel-mssql.lazy-start-producer=true")
                .run(ctx -> {
                    assertFalse(ctx.containsBean("configureDeltaFunnelMssqlComponent"));
                    assertFalse(mssql(ctx).isLazyStartProducer(), "the property is not applied");
                });
    }
}
