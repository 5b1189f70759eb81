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
 *   <tr><td>initialDelay</td><td>ms before the first run (Camel's polling consumers wait 1000)</td><td>0</td></tr>
 *   <tr><td>delay</td><td>ms between runs</td><td>60000</td></tr>
 *   <tr><td>repeatCount</td><td>runs before stopping; 0 = forever</td><td>0</td></tr>
 *   <tr><td>batchSize</td><td>rows per Arrow batch</td><td>65536</td></tr>
 *   <tr><td>shardCount</td><td>sharded loads: N, the number of shards (docs/sharding.md)</td><td>(not sharded)</td></tr>
 *   <tr><td>shardIndex</td><td>sharded loads: this route's shard, 0 .. N-1</td><td>(not sharded)</td></tr>
 *   <tr><td>loadId</td><td>sharded loads: the load's id, shared by its shards</td><td>(the open load of the key)</td></tr>
 *   <tr><td>stateDataSource</td><td>where the load plan lives (the target database), e.g. {@code #sqlServer};
 *       required when sharded</td><td>(none)</td></tr>
 * </table>
 *
 * The four sharding parameters are optional: left out, their consumer options are left out too
 * ({@code {{?name}}} placeholders), and the route is the unsharded one.
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
                .templateParameter("initialDelay", "0")
                .templateParameter("delay", "60000")
                .templateParameter("repeatCount", "0")
                .templateParameter("batchSize", "65536")
                .templateOptionalParameter("shardCount")
                .templateOptionalParameter("shardIndex")
                .templateOptionalParameter("loadId")
                .templateOptionalParameter("stateDataSource")
                .from("deltafunnel:source?delta.source={{sourcePath}}&query=SELECT * FROM source"
                      + "&batchSize={{batchSize}}&initialDelay={{initialDelay}}&delay={{delay}}"
                      + "&repeatCount={{repeatCount}}"
                      + "&shardCount={{?shardCount}}&shardIndex={{?shardIndex}}&loadId={{?loadId}}"
                      + "&stateDataSource={{?stateDataSource}}")
                .errorHandler(defaultErrorHandler().loggingLevel(org.apache.camel.LoggingLevel.DEBUG).logExhausted(false))
                .to("deltafunnel-mssql:{{targetTable}}?url={{deltafunnel.mssql.url}}"
                    + "&username={{deltafunnel.mssql.username}}&password=RAW({{deltafunnel.mssql.password}})"
                    + "&writeMode={{writeMode}}&keyColumns={{keyColumns}}&createTable=true"
                    + "&bulkEncoder={{deltafunnel.bulk-encoder:driver}}");
    }
}
