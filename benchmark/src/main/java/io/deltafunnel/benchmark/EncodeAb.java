package io.deltafunnel.benchmark;

import java.io.File;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.deltafunnel.mssql.direct.DirectBulkWriter;

/**
 * Two builds of the direct writer measured in <b>one JVM</b>, round by round: {@link EncodeCpu}'s LINEITEM (or
 * ORDERS) batch written with build A, then with build B (then B before A in the next round), each build's
 * {@code camel-deltafunnel} jar in a class loader of its own over the same Arrow, tds-codec and driver classes. The
 * machine's drift between processes, which moves one path by ±15–25% here, moves both builds alike within a round,
 * so their ratio, paired by round, shows differences of a few percent that separate JVMs cannot. Rounds are short
 * by default (5 batches): the machine also changes pace within a JVM, and a change between a round's two halves
 * spoils that round's pair.
 *
 * <pre>
 * java -cp ... io.deltafunnel.benchmark.EncodeAb A.jar B.jar [batches per round, 5] [rounds, 80] [rows, 65536]
 * </pre>
 *
 * Prints each round's thread CPU per row for A and B, then each build's median and B's over A's, paired by round
 * (median and range). Each build writes into a table of its own on one sink emulator, which decodes every row; a
 * round fails unless the server counted all of them. The bytes of the two builds are not compared here (the direct
 * writer's tests do that).
 */
public final class EncodeAb {

    private EncodeAb() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: EncodeAb A.jar B.jar [batches] [rounds] [rows]");
        }
        run(Path.of(args[0]), Path.of(args[1]), args.length > 2 ? Integer.parseInt(args[2]) : 5,
                args.length > 3 ? Integer.parseInt(args[3]) : 80, args.length > 4 ? Integer.parseInt(args[4]) : 65_536,
                System.getProperty("java.class.path"), System.out);
    }

    /** What {@link #run} measured: each round's thread CPU per row of A and of B. */
    record Result(double[] cpuA, double[] cpuB) {
        BenchSupport.PairedRatios bOverA() {
            return BenchSupport.PairedRatios.of(cpuB, cpuA);
        }
    }

    /**
     * Measures builds {@code a} and {@code b} (each a {@code camel-deltafunnel} jar or classes directory) with the
     * rest of {@code classPath} shared, against a sink emulator started for it; prints to {@code out}.
     */
    static Result run(Path a, Path b, int batches, int rounds, int rows, String classPath, PrintStream out)
            throws Exception {
        for (Path build : List.of(a, b)) {
            if (!Files.exists(build)) {
                throw new IllegalArgumentException("no such build: " + build);
            }
        }
        Path benchmarkClasses = codeSource(EncodeAb.class);
        List<URL> shared = sharedClassPath(classPath, codeSource(DirectBulkWriter.class), benchmarkClasses);
        URL benchmark = benchmarkClasses.toUri().toURL();
        try (URLClassLoader common = new URLClassLoader(shared.toArray(URL[]::new),
                        ClassLoader.getPlatformClassLoader());
                URLClassLoader loaderA = new URLClassLoader(new URL[] {benchmark, a.toUri().toURL()}, common);
                URLClassLoader loaderB = new URLClassLoader(new URL[] {benchmark, b.toUri().toURL()}, common);
                EmulatorProcess emulator = EmulatorProcess.start(EmulatorProcess.findJar(), "sink");
                Build buildA = new Build("A", loaderA, emulator.url(), rows);
                Build buildB = new Build("B", loaderB, emulator.url(), rows)) {
            out.printf("EncodeAb: %s, %,d rows per batch, %d batches per round, %d rounds; A %s, B %s; load average"
                    + " %s%n", EncodeCpu.shapeText(), rows, batches, rounds, a, b, loadAverage());
            buildA.round(batches); // warm-up, both builds
            buildB.round(batches);
            buildB.round(batches);
            buildA.round(batches);
            double[] cpuA = new double[rounds];
            double[] cpuB = new double[rounds];
            for (int r = 0; r < rounds; r++) {
                boolean aFirst = r % 2 == 0;
                long[] first = (aFirst ? buildA : buildB).round(batches);
                long[] second = (aFirst ? buildB : buildA).round(batches);
                long[] ra = aFirst ? first : second;
                long[] rb = aFirst ? second : first;
                cpuA[r] = ra[0];
                cpuB[r] = rb[0];
                out.printf("  round %d (%s first): A %d ns/row (user %d), B %d ns/row (user %d), B/A %.3f%n",
                        r + 1, aFirst ? "A" : "B", ra[0], ra[1], rb[0], rb[1], (double) rb[0] / ra[0]);
            }
            Result result = new Result(cpuA, cpuB);
            out.printf("median thread CPU: A %.0f ns/row, B %.0f ns/row; B/A paired by round %s; load average %s%n",
                    BenchSupport.median(cpuA), BenchSupport.median(cpuB), result.bOverA().text(), loadAverage());
            return result;
        }
    }

    /**
     * The class path's entries without the two that differ between builds (the benchmark's own classes, loaded again
     * in each build's loader, and the {@code camel-deltafunnel} jar it was started with), as URLs.
     */
    static List<URL> sharedClassPath(String classPath, Path... excluded) throws MalformedURLException {
        List<URL> urls = new ArrayList<>();
        entries:
        for (String entry : classPath.split(File.pathSeparator)) {
            if (entry.isBlank()) {
                continue;
            }
            Path p = Path.of(entry).toAbsolutePath().normalize();
            for (Path x : excluded) {
                if (p.equals(x.toAbsolutePath().normalize())) {
                    continue entries;
                }
            }
            urls.add(p.toUri().toURL());
        }
        return urls;
    }

    private static Path codeSource(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (java.io.IOException e) {
            return "unknown";
        }
    }

    /** One build's {@link EncodeCpu.Session}, reached by reflection in its own class loader; closing closes it. */
    private static final class Build implements AutoCloseable {
        private final AutoCloseable session;
        private final Method round;

        Build(String name, ClassLoader loader, String url, int rows) throws Exception {
            Class<?> type = Class.forName(EncodeCpu.Session.class.getName(), true, loader);
            Class<?> writer = Class.forName(DirectBulkWriter.class.getName(), false, loader);
            if (type.getClassLoader() != loader || writer.getClassLoader() != loader) {
                throw new IllegalStateException("build " + name + ": the session or the writer came from a shared"
                        + " class loader, not the build's own (" + type.getClassLoader() + ", "
                        + writer.getClassLoader() + ")");
            }
            try {
                session = (AutoCloseable) type.getConstructor(String.class, String.class, int.class)
                        .newInstance(url, (EncodeCpu.ORDERS ? "encode_orders_" : "encode_lineitem_")
                                + name.toLowerCase(java.util.Locale.ROOT), rows);
            } catch (InvocationTargetException e) {
                throw rethrown(e);
            }
            round = type.getMethod("round", int.class);
        }

        long[] round(int batches) throws Exception {
            try {
                return (long[]) round.invoke(session, batches);
            } catch (InvocationTargetException e) {
                throw rethrown(e);
            }
        }

        @Override
        public void close() throws Exception {
            session.close();
        }

        private static Exception rethrown(InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Error err) {
                throw err;
            }
            return cause instanceof Exception ex ? ex : e;
        }
    }
}
