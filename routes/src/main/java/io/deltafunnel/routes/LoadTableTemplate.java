package io.deltafunnel.routes;

import org.apache.camel.builder.RouteBuilder;

/**
 * The parameterised route template {@code deltafunnel-load-table}: one Delta table into one SQL Server
 * table. Instantiate it with {@code templatedRoute("deltafunnel-load-table")} (Java) or a
 * {@code templatedRoute} (YAML), with these parameters:
 *
 * <table>
 *   <tr><th>parameter</th><th>meaning</th><th>default</th></tr>
 *   <tr><td>sourcePath</td><td>the Delta table</td><td>(required)</td></tr>
 *   <tr><td>targetTable</td><td>[schema.]table in SQL Server</td><td>(required)</td></tr>
 *   <tr><td>writeMode</td><td>append, truncate, replace or merge</td><td>replace</td></tr>
 *   <tr><td>keyColumns</td><td>merge keys</td><td>(none)</td></tr>
 *   <tr><td>delay</td><td>ms between runs</td><td>60000</td></tr>
 *   <tr><td>repeatCount</td><td>runs before stopping; 0 = forever</td><td>0</td></tr>
 *   <tr><td>batchSize</td><td>rows per Arrow batch</td><td>65536</td></tr>
 * </table>
 *
 * The SQL Server connection comes from {@code deltafunnel.mssql.url}, {@code deltafunnel.mssql.username}
 * and {@code deltafunnel.mssql.password}, the encoder from {@code deltafunnel.bulk-encoder} (default driver); the
 * application's {@link RunReporter} reports each instance's runs.
 */
public class LoadTableTemplate extends RouteBuilder {

    public static final String TEMPLATE_ID = "deltafunnel-load-table";

    @Override
    public void configure() {
        routeTemplate(TEMPLATE_ID)
                .templateParameter("sourcePath")
                .templateParameter("targetTable")
                .templateParameter("writeMode", "replace")
                .templateParameter("keyColumns", "")
                .templateParameter("delay", "60000")
                .templateParameter("repeatCount", "0")
                .templateParameter("batchSize", "65536")
                .from("deltafunnel:source?delta.source={{sourcePath}}&query=SELECT * FROM source"
                      + "&batchSize={{batchSize}}&delay={{delay}}&repeatCount={{repeatCount}}")
                .errorHandler(defaultErrorHandler().loggingLevel(org.apache.camel.LoggingLevel.DEBUG).logExhausted(false))
                .to("deltafunnel-mssql:{{targetTable}}?url={{deltafunnel.mssql.url}}"
                    + "&username={{deltafunnel.mssql.username}}&password=RAW({{deltafunnel.mssql.password}})"
                    + "&writeMode={{writeMode}}&keyColumns={{keyColumns}}&createTable=true"
                    + "&bulkEncoder={{deltafunnel.bulk-encoder:driver}}");
    }
}
