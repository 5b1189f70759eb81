package io.deltafunnel.routes;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import io.deltafunnel.mssql.channel.JdbcUrls;

/**
 * The application's settings, read from {@code application.properties}. Every key can be overridden by an
 * environment variable named after it in upper case with {@code .} and {@code -} as {@code _} (for example
 * {@code DELTAFUNNEL_MSSQL_URL}), or by a {@code -Dkey=value} system property.
 *
 * @param mssqlUrl      the SQL Server JDBC URL; blank starts the embedded emulator instead
 * @param sourcePath    the Delta table to load; blank loads the generated sample table
 * @param oneShot       true: run once, print the summary and exit; false: keep polling every {@code delay} ms
 * @param ownRoutes     {@code deltafunnel.routes}: route files, directories or Java DSL classes that run instead of
 *                      the built-in route; empty for the built-in route
 * @param tables        {@code deltafunnel.tables}: several tables instead of one
 * @param embeddedPort  {@code deltafunnel.embedded.port}: the embedded endpoint's TCP port, 0 for a free one
 * @param keepEmbedded  {@code deltafunnel.embedded.keep-running}: keep the embedded endpoint up after a one-shot load
 * @param progressInPlace {@code deltafunnel.progress.in-place}: {@code auto} (a terminal is attached), {@code true}
 *                      or {@code false}: progress as one line updated in place instead of periodic log lines
 * @param shards        {@code deltafunnel.shards}: N &gt; 1 runs all N shards of one load in this JVM, one route each
 *                      (N parallel bulk streams); 1 = not sharded in this JVM
 * @param shardCount    {@code deltafunnel.shard-count}: N &gt; 1 makes this process one shard of a load of N shards
 *                      (e.g. one pod of a Kubernetes Indexed Job); 1 = not sharded
 * @param shardIndex    {@code deltafunnel.shard-index}, else the environment variable {@code JOB_COMPLETION_INDEX}
 *                      (set by Kubernetes in Indexed Jobs): this process's shard, {@code 0 .. shardCount-1}; -1 when
 *                      neither is set
 * @param loadId        {@code deltafunnel.load-id}: the load's id shared by all shards (e.g. the Job's name); blank:
 *                      the shards join the open load of their key or start a new one
 *                      (reference: {@code docs/sharding.md}, {@code docs/application.md})
 * @param idleExitMillis {@code deltafunnel.idle-exit} (default {@code 10s}; a number is milliseconds): in one-shot
 *                      mode, routes that do not start at a {@code deltafunnel:} consumer (e.g. {@code file:} to
 *                      {@code deltafunnel-mssql:}) end the job once they have been idle that long with nothing in
 *                      flight and every run committed
 * @param runs          {@code deltafunnel.runs} (default 1): in one-shot mode, how many runs each built-in route makes
 *                      in this JVM before the job ends, one summary line each (back to back with
 *                      {@code deltafunnel.schedule.delay} between them); {@code benchmark/firstrun.sh} uses it for the
 *                      warmed steady state of the same job
 */
public record AppSettings(String mssqlUrl, String mssqlUsername, String mssqlPassword, String sourcePath,
        Path sampleDir, int sampleRows, String targetTable, String writeMode, boolean oneShot, long delay,
        int batchSize, String dsl, long progressIntervalMillis, List<String> ownRoutes, String tables,
        int embeddedPort, boolean keepEmbedded, String progressInPlace, int shards, int shardCount, int shardIndex,
        String loadId, long idleExitMillis, int runs) {

    /** The environment variable Kubernetes sets to a pod's index in an Indexed Job. */
    public static final String JOB_COMPLETION_INDEX = "JOB_COMPLETION_INDEX";

    /** The id of the route of shard {@code i} when the application shards its built-in route. */
    public static String shardRouteId(int shardIndex) {
        return LoadTableRoute.ROUTE_ID + "-shard-" + shardIndex;
    }

    /**
     * Reads the settings through {@code lookup}, which returns null for a key that is not set, and the process
     * environment for {@link #JOB_COMPLETION_INDEX}.
     */
    public static AppSettings from(Function<String, String> lookup) {
        return from(lookup, System::getenv);
    }

    /**
     * Reads the settings through {@code lookup}; {@code environment} answers {@link #JOB_COMPLETION_INDEX} (the shard
     * index when {@code deltafunnel.shard-index} is not set).
     *
     * @throws IllegalArgumentException for a value out of range or a combination that cannot work, naming the key
     */
    public static AppSettings from(Function<String, String> lookup, Function<String, String> environment) {
        String mode = get(lookup, "deltafunnel.mode", "oneshot").toLowerCase(Locale.ROOT);
        if (!mode.equals("oneshot") && !mode.equals("scheduled")) {
            throw new IllegalArgumentException("deltafunnel.mode must be oneshot or scheduled, got " + mode);
        }
        String dsl = get(lookup, "deltafunnel.dsl", "java").toLowerCase(Locale.ROOT);
        if (!dsl.equals("java") && !dsl.equals("yaml")) {
            throw new IllegalArgumentException("deltafunnel.dsl must be java or yaml, got " + dsl);
        }
        return new AppSettings(get(lookup, "deltafunnel.mssql.url", ""),
                get(lookup, "deltafunnel.mssql.username", "sa"),
                get(lookup, "deltafunnel.mssql.password", ""),
                get(lookup, "deltafunnel.source.path", ""),
                Path.of(get(lookup, "deltafunnel.sample.dir", "target/deltafunnel-sample/orders")),
                Integer.parseInt(get(lookup, "deltafunnel.sample.rows", "300000")),
                get(lookup, "deltafunnel.target.table", "dbo.sample_orders"),
                get(lookup, "deltafunnel.write-mode", "replace"),
                mode.equals("oneshot"),
                Long.parseLong(get(lookup, "deltafunnel.schedule.delay", "60000")),
                Integer.parseInt(get(lookup, "deltafunnel.batch-size", "65536")),
                dsl,
                Long.parseLong(get(lookup, "deltafunnel.progress.interval", "5000")),
                Arrays.stream(get(lookup, "deltafunnel.routes", "").split(",")).map(String::trim)
                        .filter(e -> !e.isEmpty()).toList(),
                get(lookup, "deltafunnel.tables", ""),
                Integer.parseInt(get(lookup, "deltafunnel.embedded.port", "0")),
                Boolean.parseBoolean(get(lookup, "deltafunnel.embedded.keep-running", "false")),
                get(lookup, "deltafunnel.progress.in-place", "auto").toLowerCase(Locale.ROOT),
                positive(lookup, "deltafunnel.shards", "shards"),
                positive(lookup, "deltafunnel.shard-count", "shards"),
                shardIndex(lookup, environment),
                get(lookup, "deltafunnel.load-id", ""),
                duration(lookup, "deltafunnel.idle-exit", "10s"),
                positive(lookup, "deltafunnel.runs", "runs")).checkSharding().checkRuns();
    }

    private static int positive(Function<String, String> lookup, String key, String what) {
        String text = get(lookup, key, "1");
        int n;
        try {
            n = Integer.parseInt(text.isEmpty() ? "1" : text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number of " + what + " (1 or more), got "
                    + text, e);
        }
        if (n < 1) {
            throw new IllegalArgumentException(key + " must be 1 or more, got " + n);
        }
        return n;
    }

    private static long duration(Function<String, String> lookup, String key, String defaultValue) {
        String text = get(lookup, key, defaultValue);
        long millis;
        try {
            millis = org.apache.camel.util.TimeUtils.toMilliSeconds(text.isEmpty() ? defaultValue : text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(key + " must be a duration (10s, 1m30s, 500ms; a number is"
                                               + " milliseconds), got " + text, e);
        }
        if (millis <= 0) {
            throw new IllegalArgumentException(key + " must be more than 0, got " + text);
        }
        return millis;
    }

    private static int shardIndex(Function<String, String> lookup, Function<String, String> environment) {
        String key = "deltafunnel.shard-index";
        String text = get(lookup, key, "");
        if (text.isEmpty()) {
            String fromJob = environment.apply(JOB_COMPLETION_INDEX);
            if (fromJob == null || fromJob.isBlank()) {
                return -1;
            }
            key = JOB_COMPLETION_INDEX;
            text = fromJob.trim();
        }
        try {
            int i = Integer.parseInt(text);
            if (i < 0) {
                throw new IllegalArgumentException(key + " must be 0 or more, got " + i);
            }
            return i;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a shard index (0, 1, ...), got " + text, e);
        }
    }

    private AppSettings checkSharding() {
        if (shards > 1 && shardCount > 1) {
            throw new IllegalArgumentException("deltafunnel.shards=" + shards + " (all shards in this JVM) and"
                    + " deltafunnel.shard-count=" + shardCount + " (one shard per process) exclude each other");
        }
        if (shardCount > 1 && shardIndex < 0) {
            throw new IllegalArgumentException("deltafunnel.shard-count=" + shardCount + " needs this process's shard:"
                    + " deltafunnel.shard-index (DELTAFUNNEL_SHARD_INDEX) or " + JOB_COMPLETION_INDEX);
        }
        if (shardIndex >= shardCount && shards == 1 && shardIndex >= 0) {
            throw new IllegalArgumentException("shard index " + shardIndex + " (deltafunnel.shard-index or "
                    + JOB_COMPLETION_INDEX + ") is out of range for deltafunnel.shard-count=" + shardCount
                    + " (0 .. " + (shardCount - 1) + ")");
        }
        if (sharded() && !tables.isBlank()) {
            throw new IllegalArgumentException("sharding (deltafunnel.shards / deltafunnel.shard-count) applies to one"
                    + " table; deltafunnel.tables loads several: run one application per table");
        }
        if (shards > 1 && !ownRoutes.isEmpty()) {
            throw new IllegalArgumentException("deltafunnel.shards runs the built-in route N times; with your own"
                    + " routes (deltafunnel.routes) write one route per shard with shardCount/shardIndex instead");
        }
        return this;
    }

    private AppSettings checkRuns() {
        if (runs > 1 && (!oneShot || sharded() || !ownRoutes.isEmpty())) {
            throw new IllegalArgumentException("deltafunnel.runs=" + runs + " repeats the built-in, unsharded one-shot"
                    + " job in one JVM; it does not apply to " + (!oneShot ? "deltafunnel.mode=scheduled"
                    : sharded() ? "a sharded load (deltafunnel.shards / deltafunnel.shard-count)"
                    : "your own routes (deltafunnel.routes)"));
        }
        return this;
    }

    /** True when the built-in load is split into shards (in this JVM or across processes). */
    public boolean sharded() {
        return shards > 1 || shardCount > 1;
    }

    /** N, the number of shards of the load: {@code shards} or {@code shardCount}. */
    public int effectiveShardCount() {
        return shards > 1 ? shards : shardCount;
    }

    /** The shards this process runs: all N with {@code deltafunnel.shards}, else its own one. */
    public List<Integer> shardIndexes() {
        if (shards > 1) {
            return java.util.stream.IntStream.range(0, shards).boxed().toList();
        }
        return List.of(Math.max(0, shardIndex));
    }

    /** Whether progress is one line updated in place: {@code deltafunnel.progress.in-place}, auto = a terminal. */
    public boolean progressInPlace(boolean terminalAttached) {
        return progressInPlace.equals("auto") ? terminalAttached : Boolean.parseBoolean(progressInPlace);
    }

    /** True when no SQL Server URL is configured and the embedded emulator is the target. */
    public boolean embeddedTarget() {
        return mssqlUrl.isBlank();
    }

    /** The Delta table that is loaded: the configured one, or the sample. */
    public String effectiveSourcePath() {
        return sourcePath.isBlank() ? sampleDir.toAbsolutePath().toString() : sourcePath;
    }

    private static String get(Function<String, String> lookup, String key, String defaultValue) {
        String v = lookup.apply(key);
        return v == null ? defaultValue : v.trim();
    }

    /**
     * The settings that concern the user's own routes (not the built-in route's source, target and write mode),
     * e.g. {@code AppSettings[routes=[my.yaml], mode=oneshot, mssqlUrl=(not configured)]}.
     */
    public String describeOwnRoutes() {
        return "AppSettings[routes=" + ownRoutes + ", mode=" + (oneShot ? "oneshot" : "scheduled")
               + ", mssqlUrl=" + (embeddedTarget() ? "(not configured)" : JdbcUrls.redact(mssqlUrl))
               + (shardCount > 1 ? ", shard=" + shardIndex + " of " + shardCount : "")
               + (loadId.isBlank() ? "" : ", loadId=" + loadId) + "]";
    }

    @Override
    public String toString() {
        // never print the password, nor a credential inside the URL
        return "AppSettings[mssqlUrl=" + (embeddedTarget() ? "(embedded emulator)" : JdbcUrls.redact(mssqlUrl))
               + ", username="
               + mssqlUsername + ", source=" + effectiveSourcePath() + ", target=" + targetTable + ", writeMode="
               + writeMode + ", mode=" + (oneShot ? "oneshot" : "scheduled") + ", delay=" + delay + ", batchSize="
               + batchSize + ", dsl=" + dsl + (runs > 1 ? ", runs=" + runs : "")
               + (ownRoutes.isEmpty() ? "" : ", routes=" + ownRoutes)
               + (shards > 1 ? ", shards=" + shards : "")
               + (shardCount > 1 ? ", shard=" + shardIndex + " of " + shardCount : "")
               + (loadId.isBlank() ? "" : ", loadId=" + loadId) + "]";
    }
}
