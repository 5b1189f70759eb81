package io.deltafunnel.benchmark;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The {@code mssql-emulator} as a child process (its shaded executable jar, or its {@code Main} from this JVM's class
 * path when the jar is not built), so that the server's CPU is not the loader's. Whoever starts it closes it
 * ({@link #close()} ends the process).
 */
final class EmulatorProcess implements AutoCloseable {

    private final Process process;
    private final int port;
    private final String launchedAs;

    private EmulatorProcess(Process process, int port, String launchedAs) {
        this.process = process;
        this.port = port;
        this.launchedAs = launchedAs;
    }

    /**
     * Starts the emulator with {@code --port 0 --password <PASSWORD> [--<sinkMode>]} and waits for its
     * "listening on" line.
     *
     * @param jar the shaded jar, or null to look for it ({@link #findJar()}) and fall back to the class path
     * @param sinkMode the emulator's sink option, e.g. {@code sink}; null: storing mode (the rows are stored, as
     *                 keys and constraints need)
     */
    static EmulatorProcess start(Path jar, String sinkMode) throws IOException, InterruptedException {
        return start(jar, "2g", sinkMode == null ? List.of() : List.of("--" + sinkMode));
    }

    /**
     * Starts the emulator with {@code -Xmx<xmx>} and {@code --port 0 --password <PASSWORD>} plus {@code options}
     * (none: the storing mode, rows kept in H2) and waits for its "listening on" line.
     */
    static EmulatorProcess start(Path jar, String xmx, List<String> options) throws IOException,
            InterruptedException {
        Path found = jar != null ? jar : findJar();
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx" + xmx);
        String launchedAs;
        if (found != null) {
            cmd.add("-jar");
            cmd.add(found.toString());
            launchedAs = "java -jar " + found;
        } else {
            // Not packaged yet (e.g. a module build without -am): the same Main from this JVM's class path.
            cmd.add("-cp");
            cmd.add(System.getProperty("java.class.path"));
            cmd.add("io.deltafunnel.emulator.Main");
            launchedAs = "java -cp <this class path> io.deltafunnel.emulator.Main (no shaded jar found)";
        }
        cmd.addAll(List.of("--port", "0", "--password", BenchSupport.PASSWORD));
        cmd.addAll(options);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        Process process = pb.start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        Pattern ready = Pattern.compile("listening on (\\d+)");
        StringBuilder seen = new StringBuilder();
        int port = 0;
        String line;
        while ((line = out.readLine()) != null) {
            seen.append(line).append('\n');
            Matcher m = ready.matcher(line);
            if (m.find()) {
                port = Integer.parseInt(m.group(1));
                break;
            }
        }
        if (port == 0) {
            process.waitFor(10, TimeUnit.SECONDS);
            throw new IllegalStateException("the emulator process did not start (" + String.join(" ", cmd)
                    + "):\n" + seen);
        }
        // Keep draining its output so that it never blocks on a full pipe.
        Thread drain = new Thread(() -> {
            try {
                while (out.readLine() != null) {
                    // discarded
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "emulator-output");
        drain.setDaemon(true);
        drain.start();
        return new EmulatorProcess(process, port, launchedAs);
    }

    /** {@code mssql-emulator/target/mssql-emulator-*-all.jar} from the project root or from a module directory. */
    static Path findJar() throws IOException {
        for (String base : List.of("mssql-emulator/target", "../mssql-emulator/target")) {
            Path dir = Path.of(base);
            if (Files.isDirectory(dir)) {
                try (Stream<Path> s = Files.list(dir)) {
                    var jar = s.filter(p -> p.getFileName().toString().matches("mssql-emulator-.*-all\\.jar"))
                            .findFirst();
                    if (jar.isPresent()) {
                        return jar.get().toAbsolutePath();
                    }
                }
            }
        }
        return null;
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    /** How it was started, for the report. */
    String launchedAs() {
        return launchedAs;
    }

    /** A plain (encrypt=false) JDBC URL of it. */
    String url() {
        return BenchSupport.plainUrl(port);
    }

    /**
     * A field of the process's {@code /proc/<pid>/status} in MiB ({@code VmHWM}: its peak resident set so far,
     * {@code VmRSS}: now), or -1 where the OS does not report it.
     */
    long statusMiB(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (line.startsWith(field + ":")) {
                    return Long.parseLong(line.substring(field.length() + 1).trim().split("\\s+")[0]) / 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** The process's CPU time so far, in ns, or -1 when the OS does not report it. */
    long cpuNanos() {
        return process.toHandle().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
