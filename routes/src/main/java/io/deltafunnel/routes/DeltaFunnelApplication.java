package io.deltafunnel.routes;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;

import io.deltafunnel.emulator.MssqlEmulator;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.main.BaseMainSupport;
import org.apache.camel.main.Main;
import org.apache.camel.main.MainListenerSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runnable DeltaFunnel application (camel-main).
 *
 * <ul>
 *   <li>Loads the configured Delta table, or a generated sample table, into the configured SQL Server.</li>
 *   <li>When no SQL Server URL is configured it starts the embedded {@code mssql-emulator} and says so.</li>
 *   <li>{@code deltafunnel.mode=oneshot} (default) runs once, prints the summary and exits (status 1 when
 *       the run failed); {@code scheduled} keeps polling every {@code deltafunnel.schedule.delay} ms.</li>
 *   <li>{@code deltafunnel.tables} (a list of {@code path=>table}) loads several tables on a schedule
 *       instead of the single one.</li>
 *   <li>{@code deltafunnel.dsl=yaml} runs the YAML DSL twin of the route.</li>
 * </ul>
 */
public final class DeltaFunnelApplication {

    private static final Logger LOG = LoggerFactory.getLogger(DeltaFunnelApplication.class);

    private final Main main = new Main();
    private final AtomicBoolean failed = new AtomicBoolean();
    private MssqlEmulator emulator;

    public static void main(String[] args) throws Exception {
        int status = new DeltaFunnelApplication().run(args);
        System.exit(status);
    }

    /** Runs until the one-shot load finishes or the application is stopped; returns the exit status. */
    public int run(String[] args) throws Exception {
        main.addMainListener(new MainListenerSupport() {
            @Override
            public void beforeConfigure(BaseMainSupport support) {
                try {
                    prepare(support.getCamelContext());
                } catch (Exception e) {
                    throw new IllegalStateException("DeltaFunnel could not start: " + e.getMessage(), e);
                }
            }

            @Override
            public void afterStop(BaseMainSupport support) {
                if (emulator != null) {
                    emulator.close();
                    LOG.info("Stopped the embedded mssql-emulator");
                }
            }
        });
        try {
            main.run(args);
        } finally {
            if (emulator != null) {
                emulator.close();
            }
        }
        return failed.get() ? 1 : 0;
    }

    private void prepare(CamelContext context) throws Exception {
        AppSettings settings = AppSettings.from(key -> context.getPropertiesComponent().resolveProperty(key)
                .orElse(null));
        LOG.info("DeltaFunnel starting: {}", settings);
        Properties overrides = new Properties();

        String url = settings.mssqlUrl();
        String username = settings.mssqlUsername();
        String password = settings.mssqlPassword();
        if (settings.embeddedTarget()) {
            password = "Df!" + HexFormat.of().formatHex(new SecureRandom().generateSeed(12));
            emulator = MssqlEmulator.builder().port(0).password(password).start();
            url = emulator.jdbcUrl();
            username = emulator.user();
            LOG.info("No SQL Server URL configured (deltafunnel.mssql.url / DELTAFUNNEL_MSSQL_URL): started the"
                     + " embedded mssql-emulator, a test and demo endpoint, at {} (user {})", url, username);
        }
        overrides.setProperty("deltafunnel.mssql.url", url);
        overrides.setProperty("deltafunnel.mssql.username", username);
        overrides.setProperty("deltafunnel.mssql.password", password);

        if (settings.sourcePath().isBlank()) {
            SampleTable.ensure(settings.sampleDir(), settings.sampleRows());
        }
        overrides.setProperty("deltafunnel.source.effective-path", settings.effectiveSourcePath());
        overrides.setProperty("deltafunnel.repeat-count", settings.oneShot() ? "1" : "0");
        context.getPropertiesComponent().setOverrideProperties(overrides);

        java.util.function.Supplier<MeterRegistry> registry = () -> {
            MeterRegistry found = context.getRegistry().findSingleByType(MeterRegistry.class);
            return found != null ? found : new SimpleMeterRegistry();
        };
        String tables = context.getPropertiesComponent().resolveProperty("deltafunnel.tables").orElse("");
        int expectedRuns = tables.isBlank() ? 1 : MultiTableRoutes.parse(tables).size();
        int[] finishedRuns = {0};
        RunReporter reporter = new RunReporter(
                new RunReporter.AppTarget(url, username, password, settings.targetTable()), registry,
                settings.progressIntervalMillis(), summary -> {
                    if (summary.failed()) {
                        failed.set(true);
                    }
                    synchronized (finishedRuns) {
                        finishedRuns[0]++;
                        if (settings.oneShot() && finishedRuns[0] >= expectedRuns) {
                            main.completed();
                        }
                    }
                });
        context.getRegistry().bind("runReporter", reporter);

        if (!tables.isBlank()) {
            main.configure().addRoutesBuilder(new LoadTableTemplate());
            main.configure().addRoutesBuilder(new MultiTableRoutes(tables));
        } else if (settings.dsl().equals("yaml")) {
            main.configure().withRoutesIncludePattern("classpath:routes/load-table.yaml");
        } else {
            main.configure().addRoutesBuilder(new LoadTableRoute());
        }
    }
}
