package io.deltafunnel.routes;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import com.microsoft.sqlserver.jdbc.SQLServerDataSource;
import io.deltafunnel.camel.DeltaFunnelEndpoint;
import io.deltafunnel.emulator.MssqlEmulator;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.camel.CamelContext;
import org.apache.camel.Route;
import org.apache.camel.RoutesBuilder;
import org.apache.camel.main.BaseMainSupport;
import org.apache.camel.main.MainListenerSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The runnable DeltaFunnel application (camel-main). The reference is {@code docs/application.md}.
 *
 * <ul>
 *   <li>Loads the configured Delta table, or a generated sample table, into the configured SQL Server; or runs the
 *       user's own routes instead ({@code deltafunnel.routes}: route files, a directory, Java DSL classes).</li>
 *   <li>Binds a {@code sqlServer} {@link javax.sql.DataSource} from {@code deltafunnel.mssql.*}. When no SQL Server
 *       URL is configured it starts the embedded {@code mssql-emulator} and says where (with
 *       {@code deltafunnel.mssql.password}, or a generated password it prints once).</li>
 *   <li>{@code deltafunnel.mode=oneshot} (default) waits until every {@code deltafunnel:} route has finished its runs,
 *       replays included, prints one summary line per run and exits 0 if all succeeded, 1 otherwise; a failure a later
 *       poll cannot cure (missing table, bad SQL, configuration) ends the job at once. {@code scheduled} keeps
 *       polling every {@code deltafunnel.schedule.delay} ms.</li>
 *   <li>Sharded loads ({@code docs/sharding.md}): {@code deltafunnel.shards=N} runs the N shards of one load as N
 *       routes here ({@link ShardedLoadRoutes}); {@code deltafunnel.shard-count=N} with {@code deltafunnel.shard-index}
 *       or {@code JOB_COMPLETION_INDEX} runs one shard (a pod of a Kubernetes Indexed Job). In one-shot mode the exit
 *       status is 0 when the shard's share is committed (or was already), 1 otherwise.</li>
 * </ul>
 */
public final class DeltaFunnelApplication {

    private static final Logger LOG = LoggerFactory.getLogger(DeltaFunnelApplication.class);

    private DeltaFunnelMain main;
    private final PrintStream out;
    private final AtomicBoolean failed = new AtomicBoolean();
    private final AtomicReference<String> startFailure = new AtomicReference<>();
    private final AtomicBoolean completing = new AtomicBoolean();
    private volatile boolean started;
    private MssqlEmulator emulator;
    private AppSettings settings;
    private RunReporter reporter;
    private ProducerRuns producerRuns;
    private volatile Thread idleWatch;

    public DeltaFunnelApplication() {
        this(System.out);
    }

    /** @param out where summaries, progress and the embedded endpoint's details are printed */
    public DeltaFunnelApplication(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        DeltaFunnelApplication app = new DeltaFunnelApplication();
        int status = app.run(args);
        app.keepEmbeddedEndpointIfAsked(status);
        System.exit(status);
    }

    /** Runs until the one-shot load finishes or the application is stopped; returns the exit status. */
    public int run(String[] args) throws Exception {
        try {
            main = new DeltaFunnelMain(ResolutionSettings.from(ResolutionSettings.startupLookup(),
                    MissingComponents.camelVersion()));
        } catch (IllegalArgumentException e) {
            out.println("DeltaFunnel FAILED to start: " + e.getMessage());
            return 1;
        }
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
            public void afterStart(BaseMainSupport support) {
                started = true;
                if (settings != null && settings.oneShot()) {
                    expectRoutes(support.getCamelContext());
                    checkDone(false);
                }
            }
        });
        try {
            main.run(args);
        } catch (Exception e) {
            String missing = MissingComponents.explain(e, main.resolution().describeSources());
            startFailure.compareAndSet(null, missing != null ? missing : RunPrinter.describe(e));
        } finally {
            Thread watch = idleWatch;
            if (watch != null) {
                watch.interrupt();
            }
            if (reporter != null) {
                reporter.close();
            }
            if (emulator != null && (settings == null || !settings.keepEmbedded())) {
                emulator.close();
            }
        }
        String problem = startFailure.get();
        if (problem != null) {
            out.println("DeltaFunnel FAILED to start: " + problem);
            return 1;
        }
        if (!started) {
            out.println("DeltaFunnel FAILED to start (see the log above)");
            return 1;
        }
        return failed.get() ? 1 : 0;
    }

    /** With deltafunnel.embedded.keep-running, keeps the embedded endpoint up after a one-shot load until Ctrl+C. */
    void keepEmbeddedEndpointIfAsked(int status) throws InterruptedException {
        if (emulator == null || settings == null || !settings.keepEmbedded()) {
            return;
        }
        out.println("DeltaFunnel finished (exit status " + status + "); the embedded SQL Server endpoint stays up at "
                    + emulator.jdbcUrl() + " (user " + emulator.user() + ") for inspection; stop with Ctrl+C");
        out.flush();
        CountDownLatch stop = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            emulator.close();
            stop.countDown();
        }));
        stop.await();
    }

    private void prepare(CamelContext context) throws Exception {
        settings = AppSettings.from(key -> context.getPropertiesComponent().resolveProperty(key).orElse(null));
        RouteNeeds needs = RouteNeeds.of(settings.ownRoutes());
        LOG.info("DeltaFunnel starting: {}", settings.ownRoutes().isEmpty() ? settings : settings.describeOwnRoutes());
        new DeclaredDependencies(main.resolution(), main.present()).resolve(context);
        Properties overrides = new Properties();

        String url = settings.mssqlUrl();
        String username = settings.mssqlUsername();
        String password = settings.mssqlPassword();
        if (settings.embeddedTarget() && needs.sqlServer()) {
            boolean generated = password.isBlank();
            if (generated) {
                password = generatedPassword();
            }
            emulator = MssqlEmulator.builder().port(settings.embeddedPort()).password(password).start();
            url = emulator.jdbcUrl();
            username = emulator.user();
            out.println("DeltaFunnel: no SQL Server URL configured (deltafunnel.mssql.url): started the embedded"
                        + " SQL Server endpoint (mssql-emulator, for tests and demos) at " + url + " user " + username
                        + (generated ? " password " + password + " (generated; set deltafunnel.mssql.password to"
                                       + " choose one)" : " (password from deltafunnel.mssql.password)"));
        }
        overrides.setProperty("deltafunnel.mssql.url", url);
        overrides.setProperty("deltafunnel.mssql.username", username);
        overrides.setProperty("deltafunnel.mssql.password", password);
        SQLServerDataSource sqlServer = new SQLServerDataSource();
        sqlServer.setURL(url);
        // an empty password does not override one inside the URL (a DataSource's own password would)
        if (!username.isEmpty()) {
            sqlServer.setUser(username);
        }
        if (!password.isEmpty()) {
            sqlServer.setPassword(password);
        }
        if (!url.isBlank() || needs.sqlServer()) {
            context.getRegistry().bind("sqlServer", sqlServer);
        }

        boolean builtIn = settings.ownRoutes().isEmpty();
        if (settings.sourcePath().isBlank() && needs.sample()) {
            SampleTable.ensure(settings.sampleDir(), settings.sampleRows());
        }
        overrides.setProperty("deltafunnel.source.effective-path", settings.effectiveSourcePath());
        overrides.setProperty("deltafunnel.repeat-count", settings.oneShot() ? Integer.toString(settings.runs()) : "0");
        // for own routes: this process's shard, whether it came from deltafunnel.shard-index or JOB_COMPLETION_INDEX
        overrides.setProperty("deltafunnel.shard-count", Integer.toString(settings.effectiveShardCount()));
        overrides.setProperty("deltafunnel.shard-index", Integer.toString(Math.max(0, settings.shardIndex())));
        overrides.setProperty("deltafunnel.load-id", settings.loadId());
        context.getPropertiesComponent().setOverrideProperties(overrides);

        java.util.function.Supplier<MeterRegistry> registry = () -> {
            MeterRegistry found = context.getRegistry().findSingleByType(MeterRegistry.class);
            return found != null ? found : new SimpleMeterRegistry();
        };
        reporter = new RunReporter(new RunPrinter.Output(out, settings.progressInPlace(System.console() != null),
                settings.progressIntervalMillis()), settings.oneShot(), registry, this::runFinished).install(context);
        producerRuns = new ProducerRuns();
        if (settings.oneShot()) {
            producerRuns.onPermanentFailure(() -> new Thread(() -> endProducerRuns("DeltaFunnel: ending the job at"
                    + " once; sending the same input again cannot cure that failure"), "deltafunnel-end").start());
        }
        context.getManagementStrategy().addEventNotifier(producerRuns);
        reporter.progressOf(producerRuns);

        if (!builtIn) {
            addOwnRoutes(context, settings.ownRoutes());
        } else if (settings.sharded()) {
            if (settings.dsl().equals("yaml")) {
                addRouteFiles(context, List.of("classpath:routes/load-table-template.yaml"));
            } else {
                main.configure().addRoutesBuilder(new LoadTableTemplate());
            }
            main.configure().addRoutesBuilder(new ShardedLoadRoutes(settings));
        } else if (!settings.tables().isBlank()) {
            main.configure().addRoutesBuilder(new LoadTableTemplate());
            main.configure().addRoutesBuilder(new MultiTableRoutes(settings.tables()));
        } else if (settings.dsl().equals("yaml")) {
            addRouteFiles(context, List.of("classpath:routes/load-table.yaml"));
        } else {
            main.configure().addRoutesBuilder(new LoadTableRoute());
        }
    }

    private static String generatedPassword() {
        String alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789";
        SecureRandom random = new SecureRandom();
        StringBuilder sb = new StringBuilder("Df1!");
        for (int i = 0; i < 16; i++) {
            sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    /**
     * {@code deltafunnel.routes}: comma-separated route files ({@code .yaml}, {@code .yml}, {@code .xml}, with or
     * without a {@code file:}/{@code classpath:} prefix), directories (every route file in them) and fully qualified
     * names of Java DSL {@link RoutesBuilder} classes on the class path.
     */
    private void addOwnRoutes(CamelContext context, List<String> entries) throws Exception {
        List<String> locations = new ArrayList<>();
        for (String entry : entries) {
            String lower = entry.toLowerCase(java.util.Locale.ROOT);
            if (lower.startsWith("classpath:") || lower.startsWith("file:")) {
                locations.add(entry);
            } else if (Files.isDirectory(Path.of(entry))) {
                try (var files = Files.list(Path.of(entry))) {
                    files.filter(f -> isRouteFile(f.getFileName().toString())).sorted()
                            .forEach(f -> locations.add("file:" + f.toAbsolutePath()));
                }
            } else if (isRouteFile(lower)) {
                Path file = Path.of(entry);
                if (!Files.isRegularFile(file)) {
                    throw new IllegalArgumentException("deltafunnel.routes: no such route file: " + file.toAbsolutePath());
                }
                locations.add("file:" + file.toAbsolutePath());
            } else {
                Class<?> type;
                try {
                    type = Class.forName(entry);
                } catch (ClassNotFoundException e) {
                    throw new IllegalArgumentException("deltafunnel.routes: " + entry + " is neither a route file, a"
                            + " directory nor a RoutesBuilder class on the class path", e);
                }
                if (!RoutesBuilder.class.isAssignableFrom(type)) {
                    throw new IllegalArgumentException("deltafunnel.routes: " + entry + " is not a RoutesBuilder");
                }
                main.configure().addRoutesBuilder((RoutesBuilder) type.getDeclaredConstructor().newInstance());
            }
        }
        addRouteFiles(context, locations);
    }

    private static boolean isRouteFile(String name) {
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        return lower.endsWith(".yaml") || lower.endsWith(".yml") || lower.endsWith(".xml");
    }

    /**
     * Adds the routes of route files (independently of Camel's own {@code camel.main.routes-include-pattern}, which
     * still adds its routes too).
     */
    private void addRouteFiles(CamelContext context, List<String> locations) throws Exception {
        List<org.apache.camel.spi.Resource> resources = new ArrayList<>();
        for (String location : locations) {
            resources.add(org.apache.camel.support.ResourceHelper.resolveMandatoryResource(context, location));
        }
        if (!resources.isEmpty()) {
            for (RoutesBuilder builder : org.apache.camel.support.PluginHelper.getRoutesLoader(context)
                    .findRoutesBuilders(resources)) {
                main.configure().addRoutesBuilder(builder);
            }
        }
    }

    /**
     * One-shot: every route consuming from deltafunnel: is waited for; routes fed by other consumers (file:,
     * kafka:, ...) end the job when they have been idle for deltafunnel.idle-exit (after the deltafunnel: routes).
     */
    private void expectRoutes(CamelContext context) {
        int n = 0;
        for (Route route : context.getRoutes()) {
            if (route.getEndpoint() instanceof DeltaFunnelEndpoint source) {
                reporter.expect(route.getRouteId(), source);
                n++;
            } else if (!INTERNAL_CONSUMERS.contains(route.getEndpoint().getEndpointKey().split(":", 2)[0])) {
                otherConsumers = true;
            }
        }
        if (context.getRoutes().isEmpty()) {
            startFailure.compareAndSet(null, "one-shot mode, but there is no route (check deltafunnel.routes)");
            complete();
        } else if (n == 0) {
            otherConsumers = true;
            watchIdle(context);
        }
    }

    /** Prints the producer runs' summary lines and {@code last}, and ends the one-shot job. */
    private void endProducerRuns(String last) {
        if (!ending.compareAndSet(false, true)) {
            return;
        }
        for (String line : producerRuns.summaryLines()) {
            reporter.print(line);
        }
        reporter.print(last);
        if (producerRuns.anyFailed()) {
            failed.set(true);
        }
        complete();
    }

    private final AtomicBoolean ending = new AtomicBoolean();

    /** Consumers that only carry what another route sends: they never feed a one-shot job by themselves. */
    private static final java.util.Set<String> INTERNAL_CONSUMERS = java.util.Set.of("direct", "seda", "kamelet",
            "vm", "disruptor", "disruptor-vm", "direct-vm");

    private volatile boolean otherConsumers;

    /** Ends the one-shot job once the routes have been idle for deltafunnel.idle-exit with nothing in flight. */
    private void watchIdle(CamelContext context) {
        if (idleWatch != null) {
            return;
        }
        long idle = settings.idleExitMillis();
        producerRuns.touch();
        Thread t = new Thread(() -> {
            long check = Math.max(50, Math.min(250, idle / 4));
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(check);
                } catch (InterruptedException e) {
                    return;
                }
                if (producerRuns.idle(idle, context.getInflightRepository().size())) {
                    endProducerRuns(String.format(java.util.Locale.ROOT, "DeltaFunnel: the routes were idle for %.1f s"
                            + " with nothing in flight (%s exchanges completed, %s failed): one-shot job done",
                            idle / 1000.0, RunPrinter.fmt(producerRuns.completedExchanges()),
                            RunPrinter.fmt(producerRuns.failedExchanges())));
                    return;
                }
            }
        }, "deltafunnel-idle-exit");
        t.setDaemon(true);
        idleWatch = t;
        t.start();
    }

    private void runFinished(RunReporter.Summary summary) {
        if (summary.failed()) {
            failed.set(true);
        }
        if (!settings.oneShot()) {
            return;
        }
        checkDone(summary.failed() && summary.permanent());
    }

    private void checkDone(boolean endNow) {
        if (!started) {
            return; // afterStart checks again
        }
        Map<String, Boolean> done = reporter.routesDone();
        if (!endNow && otherConsumers && !done.containsValue(false)) {
            watchIdle(main.getCamelContext()); // the deltafunnel: routes are done; the others end when idle
            return;
        }
        if (endNow || (!done.isEmpty() && !done.containsValue(false))) {
            if (endNow && done.containsValue(false)) {
                out.println("DeltaFunnel: ending the job at once; a later poll cannot cure that failure (routes not"
                            + " finished: " + done.entrySet().stream().filter(e -> !e.getValue()).map(Map.Entry::getKey)
                                    .toList() + ")");
            }
            complete();
        }
    }

    private void complete() {
        if (completing.compareAndSet(false, true)) {
            main.completed();
        }
    }
}
