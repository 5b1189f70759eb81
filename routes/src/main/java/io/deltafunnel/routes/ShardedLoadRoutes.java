package io.deltafunnel.routes;

import org.apache.camel.builder.RouteBuilder;

/**
 * The application's built-in load, sharded (docs/sharding.md): one instance of the {@code deltafunnel-load-table}
 * template per shard this process runs — all N with {@code deltafunnel.shards=N} (N parallel bulk streams in one
 * JVM), or its own one with {@code deltafunnel.shard-count=N} and {@code deltafunnel.shard-index} /
 * {@code JOB_COMPLETION_INDEX} (one pod of a Kubernetes Indexed Job). The routes read the same properties as
 * {@link LoadTableRoute}; their ids are {@code load-table-shard-<i>}. The load plan lives in the target database
 * ({@code stateDataSource=#sqlServer}, the application's DataSource).
 */
public class ShardedLoadRoutes extends RouteBuilder {

    private final AppSettings settings;

    /** @param settings the application's settings; {@link AppSettings#sharded()} must be true */
    public ShardedLoadRoutes(AppSettings settings) {
        if (!settings.sharded()) {
            throw new IllegalArgumentException("not a sharded configuration: " + settings);
        }
        this.settings = settings;
    }

    @Override
    public void configure() {
        for (int index : settings.shardIndexes()) {
            var route = templatedRoute(LoadTableTemplate.TEMPLATE_ID)
                    .routeId(AppSettings.shardRouteId(index))
                    .parameter("sourcePath", "{{deltafunnel.source.effective-path}}")
                    .parameter("targetTable", "{{deltafunnel.target.table}}")
                    .parameter("writeMode", "{{deltafunnel.write-mode}}")
                    .parameter("delay", "{{deltafunnel.schedule.delay}}")
                    .parameter("repeatCount", "{{deltafunnel.repeat-count}}")
                    .parameter("batchSize", "{{deltafunnel.batch-size}}")
                    .parameter("shardCount", Integer.toString(settings.effectiveShardCount()))
                    .parameter("shardIndex", Integer.toString(index))
                    .parameter("stateDataSource", "#sqlServer");
            if (!settings.loadId().isBlank()) {
                route.parameter("loadId", settings.loadId());
            }
        }
    }
}
