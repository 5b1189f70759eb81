package io.deltafunnel.benchmark;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.deltafunnel.mssql.session.BulkLoadSession;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * The final step of {@code writeMode=replace} (issue 26), {@code replaceStrategy=switch} against {@code copy}, at
 * several row counts (default 100,000 and 5,000,000), against the emulator's executable jar as a separate process in
 * its <b>storing</b> mode (a copy needs the rows: sink mode keeps none). See benchmark/README.md, "Replace".
 *
 * <p>Each run: a fresh NARROW heap target with 1,000 old rows, then one replace of it from a generated Delta table
 * (one route, {@code transaction=run}, {@code tableLock=true}, direct encoder), while a reader on its own connection
 * (READ COMMITTED, the emulator's locking default) runs {@code SELECT COUNT(*) FROM target} in a loop. Reported:
 * <ul>
 *   <li><b>final step</b>: from the producer's DEBUG line {@link BulkLoadSession#FINAL_STEP_BEGINS} (the final
 *       transaction begins: before the switch, or before TRUNCATE + INSERT ... SELECT) to its DEBUG line
 *       {@link BulkLoadSession#COMMITTED} (after the commit), both timed here as they are logged;</li>
 *   <li><b>longest reader wait</b>: the longest single {@code SELECT COUNT(*)} of the reader during the run (it
 *       waits for the final step's Sch-M / X locks);</li>
 *   <li>the whole run's time and the emulator process's peak resident memory ({@code VmHWM}).</li>
 * </ul>
 * The emulator's {@code ALTER TABLE ... SWITCH} moves the rows inside H2 ({@code INSERT ... SELECT} + {@code DELETE}):
 * it is not SQL Server's metadata-only switch, so its time grows with the rows here; these figures compare the two
 * strategies on the emulator only. Each run checks that the target ends with exactly the table's rows.
 *
 * <pre>
 * benchmark/replace.sh [--rows 100000,5000000] [--strategies switch,copy] [--runs 1] [--warmups 1] [--batch-size 65536]
 *                      [--files 4] [--work-dir DIR] [--emulator-jar JAR] [--emulator-xmx 8g]
 * </pre>
 */
public final class ReplaceBench {

    static final List<String> STRATEGIES = List.of("switch", "copy");
    private static final int OLD_ROWS = 1000;

    // ---- options ----
    List<Long> rowCounts = List.of(100_000L, 5_000_000L);
    List<String> strategies = STRATEGIES;
    int runs = 1;
    /** Unreported runs of each strategy at the smallest row count first (the JIT, H2's and the emulator's caches). */
    int warmups = 1;
    int batchSize = 65_536;
    int files = 4;
    Path workDir;
    Path emulatorJar;
    String emulatorXmx = "8g";

    /** One run's figures (milliseconds; the emulator's peak resident set in MiB). */
    record ReplaceResult(long rows, String strategy, int run, double finalStepMs, double readerMaxWaitMs,
            long readerQueries, double runMs, long emulatorPeakMiB) {
    }

    private final List<ReplaceResult> results = new ArrayList<>();
    private EmulatorProcess emulator;
    private String url;
    private int seq;

    public static void main(String[] args) throws Exception {
        ReplaceBench b = new ReplaceBench();
        b.parse(args);
        b.run();
        System.exit(0);
    }

    void parse(String[] args) {
        BenchSupport.options(args, (a, v) -> {
            switch (a) {
                case "--rows" -> rowCounts = Arrays.stream(v.split(","))
                        .map(s -> Long.valueOf(s.trim().replace("_", ""))).toList();
                case "--strategies" -> strategies = List.of(v.split(","));
                case "--runs" -> runs = Integer.parseInt(v);
                case "--warmups" -> warmups = Integer.parseInt(v);
                case "--batch-size" -> batchSize = Integer.parseInt(v);
                case "--files" -> files = Integer.parseInt(v);
                case "--work-dir" -> workDir = Path.of(v);
                case "--emulator-jar" -> emulatorJar = Path.of(v);
                case "--emulator-xmx" -> emulatorXmx = v;
                default -> throw new IllegalArgumentException("unknown option " + a + " (see the class comment)");
            }
        });
        for (String s : strategies) {
            if (!STRATEGIES.contains(s)) {
                throw new IllegalArgumentException("unknown strategy " + s + "; known: " + STRATEGIES);
            }
        }
    }

    void run() throws Exception {
        System.out.printf("DeltaFunnel replace, final step: rows %s, strategies %s, %d run(s) each, NARROW heap target"
                + " with %,d old rows, batch %,d, direct encoder%n", rowCounts, strategies, runs, OLD_ROWS, batchSize);
        System.out.println(BenchSupport.conditions());
        boolean ownWorkDir = workDir == null;
        if (ownWorkDir) {
            workDir = Files.createTempDirectory("deltafunnel-replace");
        }
        FinalStepLog log = FinalStepLog.install();
        try {
            emulator = EmulatorProcess.start(emulatorJar, emulatorXmx, List.of());
            url = emulator.url();
            System.out.printf("emulator: pid %d, port %d, %s (storing mode, -Xmx%s)%n", emulator.pid(),
                    emulator.port(), emulator.launchedAs(), emulatorXmx);
            for (int w = 0; w < warmups; w++) {
                long smallest = rowCounts.stream().mapToLong(Long::longValue).min().orElseThrow();
                for (String strategy : strategies) {
                    measureOnce(table(smallest), smallest, strategy, 0, log); // warm-up (run 0), not reported
                }
            }
            for (long rows : rowCounts) {
                Path table = table(rows);
                for (int r = 1; r <= runs; r++) {
                    for (String strategy : strategies) {
                        results.add(measureOnce(table, rows, strategy, r, log));
                    }
                }
            }
            report(System.out);
        } finally {
            log.remove();
            if (emulator != null) {
                emulator.close();
            }
            if (ownWorkDir) {
                BenchSupport.deleteTree(workDir);
            }
        }
    }

    /** The generated Delta table of {@code rows} NARROW rows (made once, reused from the work directory). */
    private Path table(long rows) throws Exception {
        Path table = workDir.resolve("table-narrow-" + rows + "-" + files);
        long t0 = System.nanoTime();
        if (BenchSupport.generate(Shape.NARROW, table, rows, files) >= 0) {
            System.out.printf("generated Delta table %s: %,d rows, %.1f s%n", table, rows,
                    (System.nanoTime() - t0) / 1e9);
        }
        return table;
    }

    List<ReplaceResult> results() {
        return results;
    }

    private ReplaceResult measureOnce(Path table, long rows, String strategy, int run, FinalStepLog log)
            throws Exception {
        String target = "replace_" + strategy + "_" + (seq++);
        try (Connection c = BenchSupport.sqlServer(url); Statement st = c.createStatement()) {
            st.execute(Shape.NARROW.createTableSql(target));
            StringBuilder seed = new StringBuilder("INSERT INTO [dbo].[" + target + "] VALUES ");
            for (int i = 0; i < OLD_ROWS; i++) {
                seed.append(i == 0 ? "" : ", ").append("(-").append(i + 1).append(", ").append(i)
                        .append(", N'old', 0.00, '2000-01-01')");
            }
            st.execute(seed.toString());
        }
        System.gc();
        log.reset();
        String sink = "deltafunnel-mssql:dbo." + target + "?url=RAW(" + url + ")&username=sa&password=RAW("
                + BenchSupport.PASSWORD + ")&writeMode=replace&replaceStrategy=" + strategy
                + "&tableLock=true&transaction=run&bulkEncoder=direct&bulkEncoderFallback=false";
        String source = "deltafunnel:replacebench?delta.t=RAW(" + table.toAbsolutePath() + ")&query=RAW(SELECT * FROM"
                + " t)&batchSize=" + batchSize + "&repeatCount=1&initialDelay=0&delay=3600000";
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Reader reader = new Reader(url, target);
        long t0 = System.nanoTime();
        long doneAt;
        CamelContext camel = new DefaultCamelContext();
        try {
            camel.setAutowiredEnabled(false);
            camel.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    onException(Exception.class).process(e -> {
                        failure.compareAndSet(null, e.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class));
                        done.countDown();
                    });
                    from(source).routeId("replace").to(sink).process(e -> {
                        if (Boolean.TRUE.equals(e.getProperty(Exchange.BATCH_COMPLETE, Boolean.class))) {
                            done.countDown();
                        }
                    });
                }
            });
            reader.start();
            camel.start();
            if (!done.await(60, TimeUnit.MINUTES)) {
                throw new IllegalStateException(rows + " rows " + strategy + ": the route did not finish");
            }
            doneAt = System.nanoTime();
        } finally {
            camel.stop();
            reader.stop();
        }
        if (failure.get() != null) {
            throw new IllegalStateException(rows + " rows, replaceStrategy=" + strategy + " failed: " + failure.get(),
                    failure.get());
        }
        if (reader.failure.get() != null) {
            throw new IllegalStateException("the reader failed: " + reader.failure.get(), reader.failure.get());
        }
        long count;
        try (Connection c = BenchSupport.sqlServer(url); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM [dbo].[" + target + "]")) {
            rs.next();
            count = rs.getLong(1);
        }
        if (count != rows) {
            throw new IllegalStateException(strategy + ": the target holds " + count + " rows, expected " + rows);
        }
        double finalStepMs = log.finalStepNanos() / 1e6;
        long peak = emulator.statusMiB("VmHWM");
        ReplaceResult r = new ReplaceResult(rows, strategy, run, finalStepMs, reader.maxNanos.get() / 1e6,
                reader.queries.get(), (doneAt - t0) / 1e6, peak);
        System.out.printf("  %,10d rows  %-6s %s: final step %,9.1f ms   longest reader wait %,9.1f ms (%,d"
                + " queries)   run %,9.0f ms   emulator peak RSS %,d MiB (now %,d MiB)   load average %s%n", rows,
                strategy, run == 0 ? "warm-up" : "run " + run, r.finalStepMs(), r.readerMaxWaitMs(),
                r.readerQueries(), r.runMs(), peak, emulator.statusMiB("VmRSS"), BenchSupport.loadAverage());
        try (Connection c = BenchSupport.sqlServer(url); Statement st = c.createStatement()) {
            st.execute("DROP TABLE [dbo].[" + target + "]"); // frees the emulator's memory for the next run
        }
        return r;
    }

    void report(PrintStream out) {
        out.printf("%n| rows | replaceStrategy | run | final step ms | longest reader wait ms | reader queries |"
                + " whole run ms | emulator peak RSS MiB |%n|---:|---|---:|---:|---:|---:|---:|---:|%n");
        for (ReplaceResult r : results) {
            out.printf(Locale.ROOT, "| %,d | %s | %d | %.1f | %.1f | %,d | %.0f | %,d |%n", r.rows(), r.strategy(),
                    r.run(), r.finalStepMs(), r.readerMaxWaitMs(), r.readerQueries(), r.runMs(), r.emulatorPeakMiB());
        }
        out.printf("%nConditions: emulator jar as a separate process in storing mode; its SWITCH moves rows inside H2"
                + " (not metadata-only like SQL Server's); load average at the end %s (a loaded machine: figures"
                + " under load).%n", BenchSupport.loadAverage());
    }

    /** A reader of the target on its own connection: {@code SELECT COUNT(*)} in a loop, its longest query kept. */
    private static final class Reader {
        private final String url;
        private final String target;
        private final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicLong maxNanos = new AtomicLong();
        final AtomicLong queries = new AtomicLong();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        private Thread thread;

        Reader(String url, String target) {
            this.url = url;
            this.target = target;
        }

        void start() {
            thread = new Thread(this::loop, "replace-reader");
            thread.setDaemon(true);
            thread.start();
        }

        private void loop() {
            try (Connection c = BenchSupport.sqlServer(url); Statement st = c.createStatement()) {
                while (running.get()) {
                    long t = System.nanoTime();
                    try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM [dbo].[" + target + "]")) {
                        rs.next();
                    }
                    long took = System.nanoTime() - t;
                    maxNanos.accumulateAndGet(took, Math::max);
                    queries.incrementAndGet();
                    Thread.sleep(5);
                }
            } catch (SQLException | RuntimeException e) {
                failure.set(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void stop() throws InterruptedException {
            running.set(false);
            thread.join(TimeUnit.MINUTES.toMillis(10));
        }
    }

    /**
     * A log4j2 appender on {@link BulkLoadSession}'s logger at DEBUG that notes when the final step begins and when
     * the run commits ({@link System#nanoTime()} as each line is logged, in the logging thread). Installed for the
     * benchmark's whole run, removed at its end.
     */
    private static final class FinalStepLog extends AbstractAppender {
        private final AtomicLong begins = new AtomicLong(-1);
        private final AtomicLong committed = new AtomicLong(-1);
        private LoggerContext context;

        private FinalStepLog() {
            super("replace-bench-final-step", null, null, true, Property.EMPTY_ARRAY);
        }

        static FinalStepLog install() {
            FinalStepLog a = new FinalStepLog();
            a.start();
            a.context = (LoggerContext) LogManager.getContext(false);
            Configuration config = a.context.getConfiguration();
            LoggerConfig lc = new LoggerConfig(BulkLoadSession.class.getName(), Level.DEBUG, false);
            lc.addAppender(a, Level.DEBUG, null);
            config.addLogger(BulkLoadSession.class.getName(), lc);
            a.context.updateLoggers();
            return a;
        }

        void remove() {
            context.getConfiguration().removeLogger(BulkLoadSession.class.getName());
            context.updateLoggers();
            stop();
        }

        void reset() {
            begins.set(-1);
            committed.set(-1);
        }

        @Override
        public void append(LogEvent event) {
            long now = System.nanoTime();
            String format = event.getMessage().getFormat();
            if (BulkLoadSession.FINAL_STEP_BEGINS.equals(format)) {
                begins.set(now);
            } else if (BulkLoadSession.COMMITTED.equals(format)) {
                committed.set(now);
            }
        }

        long finalStepNanos() {
            if (begins.get() < 0 || committed.get() < begins.get()) {
                throw new IllegalStateException("the producer logged no final step (begins " + begins.get()
                        + ", committed " + committed.get() + ")");
            }
            return committed.get() - begins.get();
        }
    }
}
