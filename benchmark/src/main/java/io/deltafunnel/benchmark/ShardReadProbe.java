package io.deltafunnel.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import io.deltafunnel.delta.DeltaLog;
import io.deltafunnel.delta.DeltaSnapshot;
import io.deltafunnel.delta.DeltaTableSpec;
import io.deltafunnel.delta.DeltaViews;
import io.deltafunnel.delta.ShardFilter;
import io.deltafunnel.query.ArrowBatch;
import io.deltafunnel.query.ArrowBatchStream;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * A diagnostic of issue #29 (docs/sharding.md, "Measured"): the reading side of a sharded load without Camel, the
 * state tables or a server. The consumer's own path (the Delta views of {@link DeltaViews}, the shard's files by
 * {@link ShardFilter#assign}, {@link ArrowBatchStream} over DuckDB's Arrow export) reads one generated table in
 * alternating modes within one JVM, so that a loaded machine still compares like with like:
 *
 * <ul>
 * <li>{@code one}: the whole table, one stream (the unsharded load);</li>
 * <li>{@code seq}: N shards one after the other, each its own DuckDB instance (the consumer's instance per run);</li>
 * <li>{@code conc}: N shards at the same time, one thread and one DuckDB instance each (N shard routes in one JVM);</li>
 * <li>{@code shared}: N shards at the same time on connections of one DuckDB instance, new for the mode;</li>
 * <li>{@code p-one}, {@code p-seq}, {@code p-conc}: as {@code one}, {@code seq}, {@code conc}, on connections of one
 * long-lived DuckDB instance opened once for the probe (one instance per JVM);</li>
 * <li>{@code open}: N fresh instances opened, the view registered and closed, nothing read (figures per table row).</li>
 * </ul>
 *
 * Per mode and round: process CPU per row, its system part and minor faults (/proc/self/stat), and the voluntary and
 * involuntary context switches of the process's threads (summed over /proc/self/task/* while every instance of the
 * mode is still open). The batches are closed unread, as {@code --encoders none} does.
 *
 * <pre>
 * java … ShardReadProbe --table DIR [--rows 4000000 --files 16] [--shards 4] [--rounds 3] [--modes one,seq,conc,shared] [--batch-size 65536]
 *                       [--init "SET threads=1; SET preserve_insertion_order=false"]
 * </pre>
 */
public final class ShardReadProbe {

    private Path table;
    private int shards = 4;
    private int rounds = 3;
    private List<String> modes = List.of("one", "seq", "conc", "shared");
    private int batchSize = 65_536;
    private List<String> init = List.of();
    private long rows = 4_000_000;
    /** The long-lived instance of the {@code p-} modes (one DuckDB instance for the JVM), opened once. */
    private org.duckdb.DuckDBConnection instance;
    private int files = 16;

    public static void main(String[] args) throws Exception {
        ShardReadProbe p = new ShardReadProbe();
        for (int i = 0; i + 1 < args.length; i += 2) {
            String v = args[i + 1];
            switch (args[i]) {
                case "--table" -> p.table = Path.of(v);
                case "--rows" -> p.rows = Long.parseLong(v);
                case "--files" -> p.files = Integer.parseInt(v);
                case "--shards" -> p.shards = Integer.parseInt(v);
                case "--rounds" -> p.rounds = Integer.parseInt(v);
                case "--modes" -> p.modes = List.of(v.split(","));
                case "--batch-size" -> p.batchSize = Integer.parseInt(v);
                case "--init" -> p.init = Arrays.stream(v.split(";")).map(String::trim).filter(s -> !s.isEmpty())
                        .toList();
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        p.run();
        System.exit(0);
    }

    private void run() throws Exception {
        BenchSupport.generate(Shape.LINEITEM, table, rows, files); // reused when there
        DuckDbSettings settings = new DuckDbSettings(null, init, false);
        Map<String, Integer> assignment;
        try (Connection duck = DuckDbConnections.open(settings)) {
            DeltaSnapshot snapshot = DeltaLog.snapshot(duck, table.toString(), null, null);
            assignment = ShardFilter.assign(snapshot.files(), shards);
        }
        System.out.printf("table %s, %d shards, batch %,d, init %s, %d CPUs, load %s%n", table, shards, batchSize,
                init, Runtime.getRuntime().availableProcessors(), BenchSupport.loadAverage());
        try (BufferAllocator allocator = new RootAllocator()) {
            for (int r = 0; r < rounds + 1; r++) {
                for (String mode : modes) {
                    measure(r == 0 ? "warm-up" : "round " + r, mode, settings, assignment, allocator);
                }
            }
        }
    }

    private void measure(String label, String mode, DuckDbSettings settings, Map<String, Integer> assignment,
            BufferAllocator allocator) throws Exception {
        System.gc();
        List<Connection> open = new ArrayList<>();
        long[] cs0 = contextSwitches();
        ProcessStat s0 = ProcessStat.now();
        long cpu0 = ClientCpu.processCpuNanos();
        long t0 = System.nanoTime();
        long rows = 0;
        boolean pooled = mode.startsWith("p-");
        if (pooled && instance == null) {
            instance = (org.duckdb.DuckDBConnection) DuckDbConnections.open(settings);
        }
        java.util.function.Supplier<Connection> connect = () -> {
            try {
                return pooled ? instance.duplicate() : DuckDbConnections.open(settings);
            } catch (java.sql.SQLException e) {
                throw new IllegalStateException(e);
            }
        };
        try {
            switch (pooled ? mode.substring(2) : mode) {
                case "one" -> {
                    Connection c = connect.get();
                    open.add(c);
                    rows = read(c, null, allocator);
                }
                case "seq" -> {
                    for (int i = 0; i < shards; i++) {
                        Connection c = connect.get();
                        open.add(c);
                        rows += read(c, ShardFilter.of(i, shards, assignment), allocator);
                    }
                }
                case "conc", "shared" -> {
                    Connection first = connect.get();
                    open.add(first);
                    for (int i = 1; i < shards; i++) {
                        open.add(!mode.equals("shared") ? connect.get()
                                : ((org.duckdb.DuckDBConnection) first).duplicate());
                    }
                    ExecutorService pool = Executors.newFixedThreadPool(shards);
                    try {
                        List<Future<Long>> fs = new ArrayList<>();
                        for (int i = 0; i < shards; i++) {
                            Connection c = open.get(i);
                            ShardFilter f = ShardFilter.of(i, shards, assignment);
                            fs.add(pool.submit(() -> read(c, f, allocator)));
                        }
                        for (Future<Long> f : fs) {
                            rows += f.get();
                        }
                    } finally {
                        pool.shutdown();
                    }
                }
                case "open" -> {
                    // what a fresh instance costs by itself: N opened, a view registered, closed; no rows read
                    for (int i = 0; i < shards; i++) {
                        try (Connection c = connect.get()) {
                            DeltaViews.register(c, List.of(new DeltaTableSpec("t", table.toString(), null, null)));
                        }
                    }
                    rows = this.rows; // per row of the table, to compare with the reads
                }
                default -> throw new IllegalArgumentException("unknown mode " + mode);
            }
        } finally {
            long wall = System.nanoTime() - t0;
            long[] cs = contextSwitches();
            for (Connection c : open) {
                c.close();
            }
            long cpu = ClientCpu.processCpuNanos() - cpu0;
            ProcessStat s = ProcessStat.now().minus(s0);
            if (rows > 0) {
                System.out.printf("  %-8s %-6s %,10d rows  %,9.0f rows/s  cpu %5.0f ns/row (user %4.0f, system %4.0f)"
                        + "  faults %5.1f/1k rows  ctxt vol %,8d invol %,8d  load %s%n", label, mode, rows,
                        rows / (wall / 1e9), (double) cpu / rows, (double) s.userNanos() / rows,
                        (double) s.systemNanos() / rows, s.minorFaults() * 1000.0 / rows, cs[0] - cs0[0],
                        cs[1] - cs0[1], BenchSupport.loadAverage());
            }
        }
    }

    private long read(Connection c, ShardFilter filter, BufferAllocator allocator) throws Exception {
        DeltaViews.register(c, List.of(new DeltaTableSpec("t", table.toString(), null, null)),
                filter == null ? null : "t", filter);
        long rows = 0;
        try (ArrowBatchStream s = ArrowBatchStream.open("probe", c, "SELECT * FROM t", batchSize, allocator)) {
            ArrowBatch b;
            while ((b = s.next()) != null) {
                rows += b.rowCount();
                b.close();
            }
        }
        return rows;
    }

    /** Voluntary and involuntary context switches summed over this process's live threads. */
    static long[] contextSwitches() throws IOException {
        long[] sum = new long[2];
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                List<String> lines;
                try {
                    lines = Files.readAllLines(task.resolve("status"));
                } catch (IOException gone) {
                    continue; // the thread ended meanwhile
                }
                for (String l : lines) {
                    if (l.startsWith("voluntary_ctxt_switches:")) {
                        sum[0] += Long.parseLong(l.substring(l.indexOf(':') + 1).trim());
                    } else if (l.startsWith("nonvoluntary_ctxt_switches:")) {
                        sum[1] += Long.parseLong(l.substring(l.indexOf(':') + 1).trim());
                    }
                }
            }
        }
        return sum;
    }
}
