package io.deltafunnel.routes;

import org.apache.camel.builder.RouteBuilder;

/**
 * The application's main route, in Java DSL: the configured Delta table (or the sample) into the configured
 * SQL Server table. The YAML DSL twin is {@code routes/load-table.yaml}; both read the same properties. The first run
 * starts as soon as the route has started ({@code initialDelay=0}, where Camel's polling consumers wait a second).
 */
public class LoadTableRoute extends RouteBuilder {

    public static final String ROUTE_ID = "load-table";

    @Override
    public void configure() {
        from("deltafunnel:source?delta.source={{deltafunnel.source.effective-path}}&query=SELECT * FROM source"
             + "&batchSize={{deltafunnel.batch-size}}&initialDelay=0&delay={{deltafunnel.schedule.delay}}"
             + "&repeatCount={{deltafunnel.repeat-count}}")
                .routeId(ROUTE_ID)
                // a failed run is reported once by the application's RunReporter, not logged per exchange too
                .errorHandler(defaultErrorHandler().loggingLevel(org.apache.camel.LoggingLevel.DEBUG).logExhausted(false))
                .to("deltafunnel-mssql:{{deltafunnel.target.table}}?url={{deltafunnel.mssql.url}}"
                    + "&username={{deltafunnel.mssql.username}}&password=RAW({{deltafunnel.mssql.password}})"
                    + "&writeMode={{deltafunnel.write-mode}}&createTable=true"
                    + "&bulkEncoder={{deltafunnel.bulk-encoder:driver}}");
    }
}
