package io.deltafunnel.routes;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.deltafunnel.emulator.MssqlEmulator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The packaged application as users run it: {@code java -jar deltafunnel-app.jar}, a separate process started from a
 * directory that holds nothing but the jar (so it is the single runnable artifact), its exit status and its output.
 * Needs the jar built by {@code package} (failsafe runs this after it); no Docker.
 */
class ApplicationProcessIT {

    private static Path jar;
    private static Path sample;

    @TempDir
    Path work;

    @BeforeAll
    static void findJar() throws Exception {
        String property = System.getProperty("deltafunnel.app.jar", "target/deltafunnel-app.jar");
        Path built = Path.of(property).toAbsolutePath();
        assertTrue(Files.isRegularFile(built), "the packaged application is missing: " + built);
        // Alone in a directory: nothing next to it (no lib/).
        Path dir = Files.createTempDirectory("deltafunnel-app");
        jar = Files.copy(built, dir.resolve("deltafunnel-app.jar"), StandardCopyOption.REPLACE_EXISTING);
        sample = TestTargets.smallSample();
    }

    record Result(int status, String output) {
        long count(String needle) {
            return output.lines().filter(l -> l.contains(needle)).count();
        }
    }

    /** Runs {@code java -jar} in {@link #work} with {@code env} added; waits for the end (at most 240 s). */
    private Result launch(Map<String, String> env) throws Exception {
        return launch(env, List.of(), 240);
    }

    /**
     * Runs {@code java <jvmArgs> -jar} in {@link #work} with {@code env} added; waits for the end (at most
     * {@code timeoutSeconds}: a guard, not a timing assertion).
     */
    private Result launch(Map<String, String> env, List<String> jvmArgs, int timeoutSeconds) throws Exception {
        Process process = start(env, jvmArgs);
        Output out = new Output(process, null);
        boolean ended = process.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        if (!ended) {
            process.destroyForcibly();
        }
        out.reader.join(10_000);
        String text = out.text();
        System.out.println(text);
        assertTrue(ended, "the application did not end within " + timeoutSeconds + " s:\n" + text);
        return new Result(process.exitValue(), text);
    }

    private Process start(Map<String, String> env) throws IOException {
        return start(env, List.of());
    }

    private Process start(Map<String, String> env, List<String> jvmArgs) throws IOException {
        return start(env, jvmArgs, jar);
    }

    private Process start(Map<String, String> env, List<String> jvmArgs, Path app) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx1g"));
        if (Runtime.version().feature() >= 24) {
            // as the container image's ENTRYPOINT: Arrow's MemoryUtil uses sun.misc.Unsafe, which Java 24 and later
            // warn about (four lines) unless it is allowed
            command.add("--sun-misc-unsafe-memory-access=allow");
        }
        command.addAll(jvmArgs);
        command.addAll(List.of("-jar", app.toString()));
        ProcessBuilder pb = new ProcessBuilder(command).directory(work.toFile()).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> k.startsWith("DELTAFUNNEL_") || k.startsWith("CAMEL_"));
        pb.environment().put("DELTAFUNNEL_SAMPLE_DIR", sample.toString());
        pb.environment().put("DELTAFUNNEL_SAMPLE_ROWS", "5000");
        pb.environment().putAll(env);
        return pb.start();
    }

    private static long count(MssqlEmulator emu, String url, String user, String password, String table)
            throws Exception {
        try (Connection c = DriverManager.getConnection(url, user, password);
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT COUNT_BIG(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The summary lines (they start with "DeltaFunnel ") carry no impossible or empty statistics. */
    private static void assertNoImpossibleNumbers(Result r) {
        List<String> summaries = r.output().lines().filter(l -> l.startsWith("DeltaFunnel ")).toList();
        assertFalse(summaries.isEmpty(), r.output());
        for (String line : summaries) {
            assertFalse(line.contains("-1 rows"), line);
            assertFalse(line.contains("inputBatches=0, inputRows=0"), line);
        }
    }

    // ---- 1, 5: a missing source path ends the job at once, exit 1, one clean FAILED line ----

    @Test
    void missingSourcePathEndsTheJobWithStatusOneAndOneCleanLine() throws Exception {
        Result r = launch(Map.of("DELTAFUNNEL_SOURCE_PATH", work.resolve("no-such-table").toString()));
        assertEquals(1, r.status(), r.output());
        assertEquals(1, r.count("DeltaFunnel run FAILED on route load-table"), r.output());
        assertTrue(r.output().contains("no-such-table"), r.output());
        assertFalse(r.output().contains("\tat "), "no stack trace:\n" + r.output());
        assertEquals(0, r.count("run complete"), r.output());
        assertNoImpossibleNumbers(r);
    }

    @Test
    void badConfigurationFailsTheStartWithStatusOneAndOneLine() throws Exception {
        Result r = launch(Map.of("DELTAFUNNEL_WRITE_MODE", "sideways"));
        assertEquals(1, r.status(), r.output());
        assertTrue(r.output().contains("sideways"), r.output());
        assertFalse(r.output().contains("\tat "), "no stack trace:\n" + r.output());
    }

    // ---- 2: retries happen in one-shot mode ----

    @Test
    void aTransientFailureIsReplayedAndTheJobSucceeds() throws Exception {
        try (MssqlEmulator target = TestTargets.startEmulator()) {
            // The sample in batches of 1,000: bulk load 3 (batch 2) is a deadlock victim (1205), a transient error.
            target.faults().failBulkLoad(3, 0, 1205);
            Result r = launch(Map.of("DELTAFUNNEL_MSSQL_URL", target.jdbcUrl(), "DELTAFUNNEL_MSSQL_PASSWORD",
                    target.password(), "DELTAFUNNEL_BATCH_SIZE", "1000", "DELTAFUNNEL_TARGET_TABLE", "dbo.retried"));
            assertEquals(0, r.status(), r.output());
            assertTrue(r.output().contains("replaying as attempt 2"), r.output());
            assertFalse(r.output().contains("\tat "), "a replay is no error, no stack trace:\n" + r.output());
            assertEquals(1, r.count("DeltaFunnel run complete on route load-table: 5,000 rows in 5 batches"),
                    r.output());
            assertEquals(0, r.count("FAILED"), r.output());
            assertEquals(5000, count(target, target.jdbcUrl(), target.user(), target.password(), "dbo.retried"));
        }
    }

    @Test
    void aPermanentServerErrorEndsTheJobWithStatusOne() throws Exception {
        try (MssqlEmulator target = TestTargets.startEmulator()) {
            target.faults().failBulkLoad(1, 0, 2627); // duplicate key: not transient
            Result r = launch(Map.of("DELTAFUNNEL_MSSQL_URL", target.jdbcUrl(), "DELTAFUNNEL_MSSQL_PASSWORD",
                    target.password(), "DELTAFUNNEL_TARGET_TABLE", "dbo.refused"));
            assertEquals(1, r.status(), r.output());
            assertEquals(1, r.count("DeltaFunnel run FAILED on route load-table"), r.output());
            assertTrue(r.output().contains("2627"), r.output());
            assertFalse(r.output().contains("refused (the route went on"), r.output());
            assertNoImpossibleNumbers(r);
        }
    }

    // ---- 3: own routes; the README's YAML route verbatim; the app waits for every deltafunnel: route ----

    /** The YAML DSL block of README's "The canonical route", verbatim. */
    static String readmeYamlRoute() throws IOException {
        String readme = Files.readString(Path.of(System.getProperty("deltafunnel.readme", "../README.md")));
        int section = readme.indexOf("## The canonical route");
        int yaml = readme.indexOf("```yaml\n", readme.indexOf("YAML DSL:", section));
        int end = readme.indexOf("```", yaml + 8);
        assertTrue(section >= 0 && yaml > section && end > yaml, "README's canonical YAML route not found");
        return readme.substring(yaml + "```yaml\n".length(), end);
    }

    @Test
    void theReadmeYamlRouteRunsVerbatimAsAnOwnRoute() throws Exception {
        Path route = work.resolve("load-orders.yaml");
        Files.writeString(route, readmeYamlRoute());
        try (MssqlEmulator target = TestTargets.startEmulator()) {
            Result r = launch(Map.of("DELTAFUNNEL_ROUTES", "load-orders.yaml", "ORDERS_PATH", sample.toString(),
                    "DELTAFUNNEL_MSSQL_URL", target.jdbcUrl(), "DELTAFUNNEL_MSSQL_PASSWORD", target.password()));
            assertEquals(0, r.status(), r.output());
            assertEquals(1, r.count("DeltaFunnel run complete on route "), r.output());
            assertTrue(r.output().contains("target dbo.orders holds 5,000 rows (read back)"), r.output());
            assertEquals(5000, count(target, target.jdbcUrl(), target.user(), target.password(), "dbo.orders"));
        }
    }

    @Test
    void theReadmeYamlRouteRunsOnTheEmbeddedEndpointFromADirectory() throws Exception {
        Path dir = Files.createDirectories(work.resolve("my-routes"));
        Files.writeString(dir.resolve("load-orders.yaml"), readmeYamlRoute());
        Result r = launch(Map.of("DELTAFUNNEL_ROUTES", dir.toString(), "ORDERS_PATH", sample.toString()));
        assertEquals(0, r.status(), r.output());
        assertTrue(r.output().contains("target dbo.orders holds 5,000 rows (read back)"), r.output());
    }

    @Test
    void withCamelsIncludePatternTheJobWaitsForTheUserRouteAndTheBuiltInOne() throws Exception {
        // A slower user route (small batches) next to the built-in one: both must finish before the exit.
        Path route = work.resolve("slow.yaml");
        Files.writeString(route, readmeYamlRoute().replace("batchSize: 65536", "batchSize: 100")
                .replace("dbo.orders", "dbo.user_orders"));
        for (String dsl : List.of("java", "yaml")) {
            try (MssqlEmulator target = TestTargets.startEmulator()) {
                Result r = launch(Map.of("CAMEL_MAIN_ROUTES_INCLUDE_PATTERN", "file:" + route, "ORDERS_PATH",
                        sample.toString(), "DELTAFUNNEL_DSL", dsl, "DELTAFUNNEL_MSSQL_URL", target.jdbcUrl(),
                        "DELTAFUNNEL_MSSQL_PASSWORD", target.password()));
                assertEquals(0, r.status(), dsl + "\n" + r.output());
                assertEquals(2, r.count("DeltaFunnel run complete on route "), r.output());
                assertEquals(5000, count(target, target.jdbcUrl(), target.user(), target.password(),
                        "dbo.user_orders"));
                assertEquals(5000, count(target, target.jdbcUrl(), target.user(), target.password(),
                        "dbo.sample_orders"));
            }
        }
    }

    @Test
    void severalTablesWithOneMissingEndWithStatusOne() throws Exception {
        Result r = launch(Map.of("DELTAFUNNEL_TABLES", sample + "=>dbo.good," + work.resolve("missing") + "=>dbo.bad"));
        assertEquals(1, r.status(), r.output());
        assertEquals(1, r.count("DeltaFunnel run FAILED on route load-1-dbo_bad"), r.output());
        assertEquals(1, r.count("DeltaFunnel run FAILED"), r.output());
        assertTrue(r.output().contains("ending the job at once"), r.output());
        // the other route either finished first or was stopped: one line for it, never "nothing to load"
        assertEquals(1, r.count("DeltaFunnel run complete on route load-0-dbo_good")
                        + r.count("DeltaFunnel run STOPPED on route load-0-dbo_good"), r.output());
        assertNoImpossibleNumbers(r);
    }

    // ---- 5, 6, 7: one summary, progress with phases, a quiet start ----

    @Test
    void theMainJobPrintsOneSummaryAQuietStartAndNamedProgressPhases() throws Exception {
        Path bigger = work.resolve("bigger");
        Result r = launch(Map.of("DELTAFUNNEL_SAMPLE_DIR", bigger.toString(), "DELTAFUNNEL_SAMPLE_ROWS", "100000",
                "DELTAFUNNEL_BATCH_SIZE", "5000", "DELTAFUNNEL_PROGRESS_INTERVAL", "100"));
        assertEquals(0, r.status(), r.output());
        assertEquals(1, r.count("DeltaFunnel run complete on route load-table: 100,000 rows in 20 batches"),
                r.output());
        assertTrue(r.output().contains("holds 100,000 rows (read back)"), r.output());
        // progress: periodic log lines (no terminal here) naming the phase, with the total from the Delta table
        assertTrue(r.output().lines().anyMatch(l -> l.contains("load-table: writing ") && l.contains(" of 100,000 rows")
                && l.contains("%")), r.output());
        // quiet: no property dump, no allocator lines, no shutdown wait for in-flight exchanges
        assertFalse(r.output().contains("Properties summary"), r.output());
        assertFalse(r.output().contains("BaseAllocator"), r.output());
        assertFalse(r.output().contains("DefaultAllocationManagerOption"), r.output());
        assertFalse(r.output().contains("inflight and pending exchanges"), r.output());
        List<String> beforeRun = new ArrayList<>();
        for (String line : r.output().lines().toList()) {
            if (line.contains("load-table: ")) {
                break;
            }
            beforeRun.add(line);
        }
        assertTrue(beforeRun.size() <= 15, "too many lines before the job starts:\n" + String.join("\n", beforeRun));
        assertNoImpossibleNumbers(r);
    }

    // ---- 4: the sample follows the requested size ----

    @Test
    void theSampleIsRegeneratedWhenTheRequestedSizeDiffers() throws Exception {
        Path dir = work.resolve("resized");
        Result first = launch(Map.of("DELTAFUNNEL_SAMPLE_DIR", dir.toString(), "DELTAFUNNEL_SAMPLE_ROWS", "2000"));
        assertEquals(0, first.status(), first.output());
        assertTrue(first.output().contains("2,000 rows in"), first.output());
        Result second = launch(Map.of("DELTAFUNNEL_SAMPLE_DIR", dir.toString(), "DELTAFUNNEL_SAMPLE_ROWS", "3000"));
        assertEquals(0, second.status(), second.output());
        assertTrue(second.output().contains("holds 2000 rows, 3000 requested"), second.output());
        assertTrue(second.output().contains("3,000 rows in"), second.output());
    }

    // ---- 8: the embedded endpoint's password, and keeping it up for inspection ----

    @Test
    void theEmbeddedEndpointUsesTheConfiguredPasswordAndStaysUpWhenAsked() throws Exception {
        inspectEmbedded(Map.of("DELTAFUNNEL_MSSQL_PASSWORD", "Mine!Secret42"), "Mine!Secret42");
    }

    @Test
    void theEmbeddedEndpointPrintsAGeneratedPasswordOnce() throws Exception {
        inspectEmbedded(Map.of(), null);
    }

    private void inspectEmbedded(Map<String, String> extra, String expectedPassword) throws Exception {
        Map<String, String> env = new java.util.HashMap<>(extra);
        env.put("DELTAFUNNEL_EMBEDDED_KEEP_RUNNING", "true");
        Process process = start(env);
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
                System.out.println(line);
                if (line.contains("stays up at")) {
                    break;
                }
            }
            String all = String.join("\n", lines);
            assertTrue(all.contains("stays up at"), all);
            assertTrue(all.contains("exit status 0"), all);
            Matcher m = Pattern.compile("at (jdbc:sqlserver://\\S+) user (\\S+)(?: password (\\S+))?").matcher(all);
            assertTrue(m.find(), all);
            String url = m.group(1);
            String user = m.group(2);
            String password = expectedPassword;
            if (expectedPassword == null) {
                assertTrue(m.group(3) != null, all);
                password = m.group(3);
                String generated = password;
                assertEquals(1, lines.stream().filter(l -> l.contains(generated)).count(), "printed once:\n" + all);
            } else {
                assertFalse(all.contains(expectedPassword), "a configured password is never printed:\n" + all);
            }
            assertEquals(5000, count(null, url, user, password, "dbo.sample_orders"));
        } finally {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    // ---- issue 28: any Camel component (KameletMain's downloader), producer-only routes, air-gapped sites ----

    /** A home directory of its own: the process's Maven local repository (~/.m2/repository) starts empty there. */
    private List<String> ownHome() throws IOException {
        Path home = work.resolve("home");
        // it must exist: without a ~/.m2/repository the downloader falls back to one under java.io.tmpdir
        Files.createDirectories(home.resolve(".m2/repository"));
        return List.of("-Duser.home=" + home);
    }

    /** The build's Maven repository (a directory in Maven layout that holds camel-file and its dependencies). */
    private static Path buildRepository() {
        String local = System.getProperty("maven.repo.local");
        return local != null ? Path.of(local) : Path.of(System.getProperty("user.home"), ".m2", "repository");
    }

    private static Path camelJar(Path repository, String artifactId) {
        String v = MissingComponents.camelVersion();
        return repository.resolve("org/apache/camel/" + artifactId + "/" + v + "/" + artifactId + "-" + v + ".jar");
    }

    private static long jarsUnder(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (var files = Files.walk(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jar")).count();
        }
    }

    @Test
    void theReadmeYamlInteropRoutesRunWithTheJarDeltaToArrowFilesAndArrowFilesIntoSqlServer() throws Exception {
        List<String> yaml = DocsYaml.blocks(DocsYaml.readme(), "## Connect to anything", 2);
        Files.writeString(work.resolve("orders-to-arrow.yaml"), yaml.get(0));
        Files.writeString(work.resolve("arrow-to-sqlserver.yaml"), yaml.get(1));
        Path exchange = work.resolve("exchange");
        try (MssqlEmulator target = TestTargets.startEmulator()) {
            // file: is not in the jar: resolved from Maven (Central by default; the build's own downloads make it a
            // local hit where the build already fetched it)
            Result out = launch(Map.of("DELTAFUNNEL_ROUTES", "orders-to-arrow.yaml", "ORDERS_PATH", sample.toString(),
                    "EXCHANGE_OUT", exchange.toString()));
            assertEquals(0, out.status(), out.output());
            assertEquals(1, out.count("DeltaFunnel run complete on route "), out.output());
            SampleArrowFiles.assertSampleRows(exchange, 5000);

            Result in = launch(Map.of("DELTAFUNNEL_ROUTES", "arrow-to-sqlserver.yaml", "EXCHANGE_IN",
                    exchange.toString(), "DELTAFUNNEL_IDLE_EXIT", "3s", "DELTAFUNNEL_MSSQL_URL", target.jdbcUrl(),
                    "DELTAFUNNEL_MSSQL_PASSWORD", target.password()));
            assertEquals(0, in.status(), in.output());
            assertEquals(1, in.count("DeltaFunnel target dbo.orders: 1 run, 5,000 rows; target holds 5,000 rows"
                                     + " (read back)"), in.output());
            assertTrue(in.output().contains("one-shot job done"), in.output());
            assertFalse(in.output().contains("no route consumes from deltafunnel:"), in.output());
            assertEquals(5000, count(target, target.jdbcUrl(), target.user(), target.password(), "dbo.orders"));
        }
    }

    @Test
    void theBuiltInJobDownloadsNothingEvenWithAnUnreachableRepository() throws Exception {
        List<String> home = ownHome();
        Result r = launch(Map.of("DELTAFUNNEL_REPOSITORIES", "http://127.0.0.1:9/maven2"), home, 240);
        assertEquals(0, r.status(), r.output());
        assertEquals(1, r.count("DeltaFunnel run complete on route load-table: 5,000 rows"), r.output());
        assertFalse(r.output().contains("Error downloading"), r.output());
        assertFalse(r.output().contains("Downloading: "), r.output());
        assertFalse(r.output().contains("Downloaded: "), r.output());
        assertEquals(0, jarsUnder(work.resolve("home/.m2")), "nothing downloaded");
    }

    @Test
    void aComponentThatCannotBeResolvedEndsTheJobWithStatusOneNamingTheArtifact() throws Exception {
        Path emptyRepository = Files.createDirectories(work.resolve("empty-repository"));
        Files.writeString(work.resolve("to-ftp.yaml"), readmeYamlRoute()
                .replace("uri: deltafunnel-mssql:dbo.orders", "uri: ftp://localhost:2121/out")
                .replace("dataSource: \"#sqlServer\"", "passiveMode: true")
                .replace("              writeMode: replace\n", "").replace("              createTable: true\n", ""));
        // offline: only an empty local repository, no Maven Central, an empty local repository of its own
        Result r = launch(Map.of("DELTAFUNNEL_ROUTES", "to-ftp.yaml", "ORDERS_PATH", sample.toString(),
                "DELTAFUNNEL_REPOSITORIES", emptyRepository.toString()), ownHome(), 60);
        assertEquals(1, r.status(), r.output());
        String artifact = "org.apache.camel:camel-ftp:" + MissingComponents.camelVersion();
        assertTrue(r.output().lines().anyMatch(l -> l.startsWith("DeltaFunnel FAILED to start: ")
                && l.contains("'ftp'") && l.contains(artifact) && l.contains(emptyRepository.toUri().toString())),
                r.output());

        // an artifact named in deltafunnel.dependencies that exists nowhere
        Result d = launch(Map.of("DELTAFUNNEL_DEPENDENCIES", "com.example.nowhere:no-such-artifact:1.0",
                "DELTAFUNNEL_REPOSITORIES", emptyRepository.toString()), ownHome(), 60);
        assertEquals(1, d.status(), d.output());
        assertTrue(d.output().lines().anyMatch(l -> l.startsWith("DeltaFunnel FAILED to start: ")
                && l.contains("com.example.nowhere:no-such-artifact:1.0")), d.output());
    }

    @Test
    void airGappedAComponentNotInTheJarResolvesFromALocalRepositoryDirectory() throws Exception {
        Files.writeString(work.resolve("orders-to-arrow.yaml"),
                DocsYaml.blocks(DocsYaml.readme(), "## Connect to anything", 1).get(0));
        Path exchange = work.resolve("exchange");
        // the build's Maven repository as the site's repository directory; Maven Central is not asked (a repository
        // is configured), and the process's own local repository starts empty
        Result r = launch(Map.of("DELTAFUNNEL_ROUTES", "orders-to-arrow.yaml", "ORDERS_PATH", sample.toString(),
                "EXCHANGE_OUT", exchange.toString(), "DELTAFUNNEL_REPOSITORIES", buildRepository().toString()),
                ownHome(), 240);
        assertEquals(0, r.status(), r.output());
        SampleArrowFiles.assertSampleRows(exchange, 5000);
        assertTrue(Files.isRegularFile(camelJar(work.resolve("home/.m2/repository"), "camel-file")),
                "camel-file came from the repository directory:\n" + r.output());
        assertFalse(r.output().contains("repo1.maven.org"), r.output());
    }

    @Test
    void airGappedAComponentNotInTheJarLoadsFromTheLibDir() throws Exception {
        Path lib = Files.createDirectories(work.resolve("lib"));
        Path camelFile = camelJar(buildRepository(), "camel-file");
        Files.copy(camelFile, lib.resolve(camelFile.getFileName()));
        Files.writeString(work.resolve("orders-to-arrow.yaml"),
                DocsYaml.blocks(DocsYaml.readme(), "## Connect to anything", 1).get(0));
        Path exchange = work.resolve("exchange");
        Result r = launch(Map.of("DELTAFUNNEL_ROUTES", "orders-to-arrow.yaml", "ORDERS_PATH", sample.toString(),
                "EXCHANGE_OUT", exchange.toString(), "DELTAFUNNEL_LIB_DIR", lib.toString(),
                "DELTAFUNNEL_MAVEN_CENTRAL", "false"), ownHome(), 240);
        assertEquals(0, r.status(), r.output());
        SampleArrowFiles.assertSampleRows(exchange, 5000);
        assertEquals(0, jarsUnder(work.resolve("home/.m2")), "nothing downloaded:\n" + r.output());
    }

    // ---- the image's layout: DuckDB's library next to the jar ----

    /**
     * The jar laid out as the Dockerfile does ({@link NativeLayout}) runs the built-in job, and its process maps
     * DuckDB's JNI library from next to the jar, not from a copy DuckDB extracted into {@code java.io.tmpdir}.
     */
    @Test
    void theNativeLayoutRunsTheJobWithDuckDbsLibraryNextToTheJar(@TempDir Path laidOut) throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/self/maps")), "needs /proc/<pid>/maps (Linux)");
        NativeLayout.Result layout = NativeLayout.write(jar, laidOut,
                NativeLayout.libraryName(System.getProperty("os.name"), System.getProperty("os.arch")));
        // scheduled: the process stays up after its first run, so that its mappings can be read
        Process process = start(Map.of("DELTAFUNNEL_MODE", "scheduled"), List.of(), layout.jar());
        try {
            String output = outputUntil(process, "DeltaFunnel run complete", 240);
            assertTrue(output.contains("DeltaFunnel run complete on route load-table: 5,000 rows"), output);
            List<String> mapped = Files.readAllLines(Path.of("/proc", String.valueOf(process.pid()), "maps")).stream()
                    .filter(l -> l.contains("libduckdb_java"))
                    .map(l -> l.substring(l.indexOf('/')))
                    .distinct()
                    .toList();
            assertEquals(List.of(layout.library().toRealPath().toString()), mapped, output);
        } finally {
            process.destroyForcibly();
            process.waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * The process's output up to and including the first line that contains {@code needle}; fails when the process
     * ends or {@code timeoutSeconds} pass first (a guard, not a timing assertion).
     */
    private static String outputUntil(Process process, String needle, int timeoutSeconds) throws Exception {
        Output out = new Output(process, needle);
        boolean found = out.seen.await(timeoutSeconds, TimeUnit.SECONDS);
        String text = out.text();
        System.out.println(text);
        assertTrue(found, "no line with '" + needle + "' within " + timeoutSeconds + " s:\n" + text);
        return text;
    }

    /**
     * A process's output (stdout and stderr), read line by line by a thread of its own until the process ends;
     * {@link #seen} opens at the first line that contains the needle (never without one).
     */
    private static final class Output {
        private final StringBuilder lines = new StringBuilder();
        final java.util.concurrent.CountDownLatch seen = new java.util.concurrent.CountDownLatch(1);
        final Thread reader;

        Output(Process process, String needle) {
            reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        synchronized (lines) {
                            lines.append(line).append('\n');
                        }
                        if (needle != null && line.contains(needle)) {
                            seen.countDown();
                        }
                    }
                } catch (IOException e) {
                    // the process ended
                }
            });
            reader.setDaemon(true);
            reader.start();
        }

        String text() {
            synchronized (lines) {
                return lines.toString();
            }
        }
    }
}
