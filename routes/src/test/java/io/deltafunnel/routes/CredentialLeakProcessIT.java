package io.deltafunnel.routes;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.deltafunnel.emulator.MssqlEmulator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 24, secrets, the process-level configuration paths: the packaged application ({@code java -jar}, as
 * {@link ApplicationProcessIT} runs it; no Docker) given a distinctive password through the URL
 * ({@code DELTAFUNNEL_MSSQL_URL=...;password=...}), the {@code deltafunnel.mssql.password} property ({@code -D}) and
 * the environment ({@code DELTAFUNNEL_MSSQL_PASSWORD}), each wrong so that the run fails at login, one URL whose
 * server is unreachable, and one successful run whose password is inside its URL. The password of each run must
 * appear neither on standard output, nor on standard error, nor in the log file (a file appender added to the
 * application's own log4j2 configuration, DeltaFunnel's loggers at DEBUG). The in-JVM paths are in
 * {@link CredentialLeakTest}.
 */
class CredentialLeakProcessIT {

    private static Path jar;
    private static Path sample;
    private static MssqlEmulator target;

    @TempDir
    Path work;

    @BeforeAll
    static void setUp() throws Exception {
        Path built = Path.of(System.getProperty("deltafunnel.app.jar", "target/deltafunnel-app.jar")).toAbsolutePath();
        assertTrue(Files.isRegularFile(built), "the packaged application is missing: " + built);
        Path dir = Files.createTempDirectory("deltafunnel-app");
        jar = Files.copy(built, dir.resolve("deltafunnel-app.jar"), StandardCopyOption.REPLACE_EXISTING);
        sample = TestTargets.smallSample();
        target = TestTargets.startEmulator(); // its password is none of the ones below, except the successful run's
    }

    @AfterAll
    static void tearDown() {
        if (target != null) {
            target.close();
        }
    }

    record Result(int status, String stdout, String stderr, String logFile) {
        String all() {
            return "--- stdout\n" + stdout + "\n--- stderr\n" + stderr + "\n--- log file\n" + logFile;
        }
    }

    /** {@code java [jvmArgs] -jar} in {@link #work} with {@code env}; waits for the end (at most 240 s). */
    private Result launch(List<String> jvmArgs, Map<String, String> env) throws Exception {
        Path log = work.resolve("deltafunnel.log");
        Path extra = work.resolve("log4j2-file.properties");
        Files.writeString(extra, String.join("\n",
                "appender.file.type = File",
                "appender.file.name = file",
                "appender.file.fileName = " + log.toString().replace('\\', '/'),
                "appender.file.layout.type = PatternLayout",
                "appender.file.layout.pattern = %d %-5p %c - %m%n",
                "rootLogger.appenderRef.file.ref = file",
                "logger.deltafunnel.name = io.deltafunnel",
                "logger.deltafunnel.level = DEBUG", ""));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx1g", "-Dlog4j2.configurationFile=classpath:log4j2.properties," + extra.toUri()));
        command.addAll(jvmArgs);
        command.addAll(List.of("-jar", jar.toString()));
        ProcessBuilder pb = new ProcessBuilder(command).directory(work.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("DELTAFUNNEL_") || k.startsWith("CAMEL_"));
        pb.environment().put("DELTAFUNNEL_SAMPLE_DIR", sample.toString());
        pb.environment().put("DELTAFUNNEL_SAMPLE_ROWS", "5000");
        pb.environment().put("DELTAFUNNEL_TARGET_TABLE", "dbo.secrets");
        pb.environment().putAll(env);
        Process process = pb.start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Thread o = drain(process.getInputStream(), out);
        Thread e = drain(process.getErrorStream(), err);
        boolean ended = process.waitFor(240, TimeUnit.SECONDS);
        if (!ended) {
            process.destroyForcibly();
        }
        o.join(10_000);
        e.join(10_000);
        Result r = new Result(ended ? process.exitValue() : -1, out.toString(StandardCharsets.UTF_8),
                err.toString(StandardCharsets.UTF_8), Files.isRegularFile(log) ? Files.readString(log) : "");
        System.out.println(r.all());
        assertTrue(ended, "the application did not end within 240 s:\n" + r.all());
        assertFalse(r.logFile().isEmpty(), "the log file was written:\n" + r.all());
        return r;
    }

    private static Thread drain(InputStream in, ByteArrayOutputStream to) {
        Thread t = new Thread(() -> {
            try (in) {
                in.transferTo(to);
            } catch (IOException ignored) {
                // the process ended
            }
        });
        t.start();
        return t;
    }

    private static void assertNoLeak(String path, String secret, Result r) {
        for (String where : new String[] {"stdout", "stderr", "log file"}) {
            String text = switch (where) {
                case "stdout" -> r.stdout();
                case "stderr" -> r.stderr();
                default -> r.logFile();
            };
            int at = text.indexOf(secret);
            assertTrue(at < 0, () -> "the password given through " + path + " leaked to " + where + ": ..."
                    + text.substring(Math.max(0, at - 300), Math.min(text.length(), at + 40)) + "...");
        }
    }

    private static void assertLoginFailed(Result r) {
        assertEquals(1, r.status(), r.all());
        assertTrue(r.stdout().contains("DeltaFunnel run FAILED on route load-table"), r.all());
        assertTrue(r.all().contains("Login failed"), r.all());
    }

    @Test
    void aWrongPasswordInsideTheUrlIsNeverPrinted() throws Exception {
        String secret = "ProcUrlLeak!Pw1";
        Result r = launch(List.of(), Map.of("DELTAFUNNEL_MSSQL_URL",
                target.jdbcUrl() + ";user=sa;password=" + secret));
        assertLoginFailed(r);
        assertTrue(r.all().contains("password=***"), "the URL is shown, masked:\n" + r.all());
        assertNoLeak("DELTAFUNNEL_MSSQL_URL (;password=)", secret, r);
    }

    @Test
    void aWrongPasswordAsTheDeltafunnelMssqlPasswordPropertyIsNeverPrinted() throws Exception {
        String secret = "ProcPropLeak!Pw2";
        Result r = launch(List.of("-Ddeltafunnel.mssql.password=" + secret),
                Map.of("DELTAFUNNEL_MSSQL_URL", target.jdbcUrl()));
        assertLoginFailed(r);
        assertNoLeak("-Ddeltafunnel.mssql.password", secret, r);
    }

    @Test
    void aWrongPasswordFromTheEnvironmentIsNeverPrinted() throws Exception {
        String secret = "ProcEnvLeak!Pw3";
        Result r = launch(List.of(), Map.of("DELTAFUNNEL_MSSQL_URL", target.jdbcUrl(),
                "DELTAFUNNEL_MSSQL_PASSWORD", secret));
        assertLoginFailed(r);
        assertNoLeak("DELTAFUNNEL_MSSQL_PASSWORD", secret, r);
    }

    @Test
    void anUnreachableServerWithTheCredentialsInTheUrlPrintsNeitherSecret() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        String urlSecret = "ProcUnreachLeak!Pw4";
        String token = "ProcTokenLeak!Tk5";
        Result r = launch(List.of(), Map.of("DELTAFUNNEL_MSSQL_URL", "jdbc:sqlserver://localhost:" + port
                + ";databaseName=lake;encrypt=false;loginTimeout=5;user=sa;password={" + urlSecret + ";x}"
                + ";trustStorePassword=" + token));
        assertEquals(1, r.status(), r.all());
        assertTrue(r.stdout().contains("FAILED"), r.all());
        assertNoLeak("DELTAFUNNEL_MSSQL_URL (braced password, unreachable server)", urlSecret, r);
        assertNoLeak("DELTAFUNNEL_MSSQL_URL (trustStorePassword)", token, r);
    }

    @Test
    void aSuccessfulRunWithThePasswordInsideTheUrlNeverPrintsIt() throws Exception {
        String secret = "ProcGoodLeak!Pw6";
        try (MssqlEmulator good = MssqlEmulator.builder().port(0).password(secret).start()) {
            Result r = launch(List.of(), Map.of("DELTAFUNNEL_MSSQL_URL",
                    good.jdbcUrl() + ";user=sa;password=" + secret));
            assertEquals(0, r.status(), r.all());
            assertTrue(r.stdout().contains("DeltaFunnel run complete on route load-table: 5,000 rows"), r.all());
            assertNoLeak("DELTAFUNNEL_MSSQL_URL of a successful run", secret, r);
            assertEquals(5000, TestTargets.count(good, "[dbo].[secrets]"));
        }
    }
}
