package io.deltafunnel.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The CPU time of this JVM's JIT compiler threads, from Linux's {@code /proc/self/task/<tid>/stat} of the threads
 * whose name begins with {@code C1 Compiler} or {@code C2 Compiler} (HotSpot's {@code C1 CompilerThread0},
 * {@code C2 CompilerThread0}; the kernel keeps 15 characters of a thread's name). A run whose process CPU still holds
 * compiler time is not at steady state: code the run needs is being compiled while it runs, a one-time cost that a
 * per-row figure would charge to the rows.
 *
 * <p>
 * A snapshot keeps each compiler thread's time by thread id, so {@link #since} counts a thread that started between
 * two snapshots from zero. A compiler thread that exits between them (HotSpot's dynamic number of compiler threads)
 * takes its time with it: the figure is then a lower bound.
 *
 * @param nanosByThread CPU time (user + system, 10 ms resolution) of each compiler thread, by thread id
 */
record JitCpu(Map<Integer, Long> nanosByThread) {

    private static final Path TASKS = Path.of("/proc/self/task");
    private static final long NANOS_PER_TICK = 10_000_000L;
    /** Where the OS has no {@code /proc/self/task}: {@link #since} is -1. */
    static final JitCpu UNKNOWN = new JitCpu(Map.of());

    /** Now, or {@link #UNKNOWN}. */
    static JitCpu now() {
        if (!Files.isDirectory(TASKS)) {
            return UNKNOWN;
        }
        Map<Integer, Long> byThread = new HashMap<>();
        try (Stream<Path> tasks = Files.list(TASKS)) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"), StandardCharsets.US_ASCII);
                } catch (IOException gone) {
                    // the thread ended while the directory was listed (ENOENT) or while its stat was read (ESRCH,
                    // "No such process"): a thread's own stat file fails only so; its time goes with it (see above)
                    continue;
                }
                long nanos = compilerNanos(stat);
                if (nanos >= 0) {
                    byThread.put(Integer.valueOf(task.getFileName().toString()), nanos);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + TASKS, e);
        }
        return new JitCpu(Map.copyOf(byThread));
    }

    /**
     * A thread's user + system CPU time in ns from its {@code stat} line when the thread is a JIT compiler thread, else
     * -1. The name (field 2) is in parentheses and may hold spaces; utime and stime are the 12th and 13th fields after
     * its closing parenthesis (fields 14 and 15 of proc(5)).
     */
    static long compilerNanos(String statLine) {
        int open = statLine.indexOf('(');
        int close = statLine.lastIndexOf(')');
        if (open < 0 || close < open) {
            throw new IllegalArgumentException("not a /proc stat line: " + statLine);
        }
        String name = statLine.substring(open + 1, close);
        if (!name.startsWith("C1 Compiler") && !name.startsWith("C2 Compiler")) {
            return -1;
        }
        String[] f = statLine.substring(close + 2).trim().split(" +");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * NANOS_PER_TICK;
    }

    /** The compiler threads' CPU time since {@code before}, in ns; -1 when either snapshot is {@link #UNKNOWN}. */
    long since(JitCpu before) {
        if (this == UNKNOWN || before == UNKNOWN) {
            return -1;
        }
        long sum = 0;
        for (Map.Entry<Integer, Long> e : nanosByThread.entrySet()) {
            sum += e.getValue() - before.nanosByThread.getOrDefault(e.getKey(), 0L);
        }
        return sum;
    }
}
