package io.deltafunnel.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Comparator;
import java.util.Properties;
import java.util.stream.Stream;

import com.microsoft.sqlserver.jdbc.SQLServerDataSource;
import io.deltafunnel.emulator.MssqlEmulator;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;
import io.deltafunnel.sample.SampleDeltaWriter;

/**
 * What every benchmark program shares: the emulator's login, JDBC URLs and connections, the generated Delta tables,
 * the machine's load average and temporary directories. No state.
 */
final class BenchSupport {

    /** The password every benchmark starts its emulator with (a throw-away local test server). */
    static final String PASSWORD = "Bench!Passw0rd";

    private BenchSupport() {
    }

    static String plainUrl(MssqlEmulator emu) {
        return plainUrl(emu.port());
    }

    /** TLS off: the wire ceiling replays recorded plain bytes, and every path is compared on the same footing. */
    static String plainUrl(int port) {
        return "jdbc:sqlserver://localhost:" + port + ";databaseName=master;encrypt=false";
    }

    /** TLS on, as the producer connects by default, trusting the emulator's self-signed certificate. */
    static String tlsUrl(int port) {
        return "jdbc:sqlserver://localhost:" + port + ";databaseName=master;encrypt=true;trustServerCertificate=true";
    }

    static String viaPort(String jdbcUrl, int port) {
        return jdbcUrl.replaceFirst("localhost:\\d+", "localhost:" + port);
    }

    static int portOf(String jdbcUrl) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("localhost:(\\d+)").matcher(jdbcUrl);
        if (!m.find()) {
            throw new IllegalArgumentException("no localhost port in " + jdbcUrl);
        }
        return Integer.parseInt(m.group(1));
    }

    static SQLServerDataSource dataSource(String jdbcUrl) {
        SQLServerDataSource ds = new SQLServerDataSource();
        ds.setURL(jdbcUrl);
        ds.setUser("sa");
        ds.setPassword(PASSWORD);
        return ds;
    }

    /**
     * A new connection as {@code sa}; the caller closes it. The driver is called directly, not found through
     * {@code DriverManager}, which refuses a driver class of another class loader ({@link EncodeAb}'s builds).
     */
    static Connection sqlServer(String jdbcUrl) throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", "sa");
        p.setProperty("password", PASSWORD);
        Connection c = new com.microsoft.sqlserver.jdbc.SQLServerDriver().connect(jdbcUrl, p);
        if (c == null) {
            throw new SQLException("not a SQL Server JDBC URL: " + jdbcUrl);
        }
        return c;
    }

    /**
     * Writes {@code rows} rows of {@code shape} as a Delta table of {@code files} Parquet files at {@code table},
     * unless a Delta table is already there (then it is reused, as printed). Returns the Parquet bytes written, or -1 when
     * the table was reused.
     */
    static long generate(Shape shape, Path table, long rows, int files) throws Exception {
        if (Files.exists(table.resolve("_delta_log"))) {
            System.out.println("reusing Delta table " + table);
            return -1;
        }
        try (Connection duck = DuckDbConnections.open(DuckDbSettings.inMemory())) {
            new SampleDeltaWriter(duck, table).append(shape.generatorSql(rows), files);
        }
        try (Stream<Path> s = Files.list(table)) {
            return s.filter(p -> p.toString().endsWith(".parquet")).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    /** The query every path runs: all Parquet files of a generated table (read directly, as the paths compare). */
    static String parquetQuery(Path table) {
        return "SELECT * FROM read_parquet('" + table.toAbsolutePath() + "/*.parquet')";
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    /**
     * The benchmarks' command lines: each {@code --name value} pair of {@code args}, in order, handed to
     * {@code option}; a name without a value is refused.
     */
    static void options(String[] args, java.util.function.BiConsumer<String, String> option) {
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value (see the class comment)");
            }
            option.accept(args[i], args[i + 1]);
        }
    }

    /** The report's conditions line: date, Java, CPUs, this JVM's arguments and the load average now. */
    static String conditions() {
        return String.format("date %s, java %s, %d CPUs, args %s, load average %s",
                java.time.ZonedDateTime.now().format(java.time.format.DateTimeFormatter.ISO_OFFSET_DATE_TIME),
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments(), loadAverage());
    }

    /** /proc/loadavg's first three fields: other work on the machine shows up here. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    static double median(double[] v) {
        double[] s = v.clone();
        java.util.Arrays.sort(s);
        int n = s.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /**
     * Two configurations' figures paired by round ({@code --alternate}: round {@code i} ran {@code a[i]} and
     * {@code b[i]} back to back): the ratios {@code a[i] / b[i]}, their median and range. A drift of the machine
     * between rounds moves both runs of a round alike, so it cancels in each ratio, while the ratio of the two medians
     * can pair a slow round of one with a fast round of the other.
     */
    record PairedRatios(double median, double min, double max) {
        static PairedRatios of(double[] a, double[] b) {
            if (a.length != b.length) {
                throw new IllegalArgumentException("paired by round: " + a.length + " runs against " + b.length);
            }
            double[] r = new double[a.length];
            for (int i = 0; i < r.length; i++) {
                r[i] = a[i] / b[i];
                if (Double.isNaN(r[i])) { // a figure the OS did not report (the JIT's time without /proc)
                    return new PairedRatios(Double.NaN, Double.NaN, Double.NaN);
                }
            }
            double[] sorted = r.clone();
            java.util.Arrays.sort(sorted);
            return r.length == 0 ? new PairedRatios(Double.NaN, Double.NaN, Double.NaN)
                    : new PairedRatios(BenchSupport.median(r), sorted[0], sorted[sorted.length - 1]);
        }

        /** {@code 1.12× [1.05–1.20×]}, or {@code -} when unknown. */
        String text() {
            return Double.isNaN(median) ? "-" : String.format("%.2f× [%.2f–%.2f×]", median, min, max);
        }
    }

    /** Each run's {@code a[i] - b[i]}: its figure less its part {@code b} (as the reports' "less JIT"). */
    static double[] differences(double[] a, double[] b) {
        double[] d = new double[a.length];
        for (int i = 0; i < d.length; i++) {
            d[i] = a[i] - b[i];
        }
        return d;
    }

    /** The median of {@code a[i] - b[i]} (each run's figure less its part {@code b}), as in the reports' "less JIT". */
    static double medianOfDifferences(double[] a, double[] b) {
        return median(differences(a, b));
    }
}
