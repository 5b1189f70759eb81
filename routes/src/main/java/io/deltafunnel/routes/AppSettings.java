package io.deltafunnel.routes;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

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
 */
public record AppSettings(String mssqlUrl, String mssqlUsername, String mssqlPassword, String sourcePath,
        Path sampleDir, int sampleRows, String targetTable, String writeMode, boolean oneShot, long delay,
        int batchSize, String dsl, long progressIntervalMillis, List<String> ownRoutes, String tables,
        int embeddedPort, boolean keepEmbedded, String progressInPlace) {

    /** Reads the settings through {@code lookup}, which returns null for a key that is not set. */
    public static AppSettings from(Function<String, String> lookup) {
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
                get(lookup, "deltafunnel.progress.in-place", "auto").toLowerCase(Locale.ROOT));
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

    @Override
    public String toString() {
        // never print the password
        return "AppSettings[mssqlUrl=" + (embeddedTarget() ? "(embedded emulator)" : mssqlUrl) + ", username="
               + mssqlUsername + ", source=" + effectiveSourcePath() + ", target=" + targetTable + ", writeMode="
               + writeMode + ", mode=" + (oneShot ? "oneshot" : "scheduled") + ", delay=" + delay + ", batchSize="
               + batchSize + ", dsl=" + dsl + (ownRoutes.isEmpty() ? "" : ", routes=" + ownRoutes) + "]";
    }
}
