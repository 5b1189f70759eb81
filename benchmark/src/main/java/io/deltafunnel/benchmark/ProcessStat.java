package io.deltafunnel.benchmark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's user and system CPU time and its minor page faults, from Linux's {@code /proc/self/stat} (fields
 * {@code minflt}, {@code utime}, {@code stime}; times in clock ticks of {@code 1/100} s, the kernel's {@code USER_HZ}
 * on every Linux this runs on). A minor fault is the kernel mapping a page on first touch: memory a fresh DuckDB
 * instance, or a fresh allocator, touches for the first time costs system time per page, so the split says how much of
 * the CPU per row is memory being faulted in rather than work on the rows.
 *
 * @param userNanos   user CPU time so far, in ns (10 ms resolution)
 * @param systemNanos system CPU time so far, in ns (10 ms resolution)
 * @param minorFaults minor page faults so far
 */
record ProcessStat(long userNanos, long systemNanos, long minorFaults) {

    private static final Path STAT = Path.of("/proc/self/stat");
    private static final long NANOS_PER_TICK = 10_000_000L;
    /** Where the OS does not have {@code /proc/self/stat}: every figure -1. */
    static final ProcessStat UNKNOWN = new ProcessStat(-1, -1, -1);

    /** Now, or {@link #UNKNOWN}. */
    static ProcessStat now() {
        if (!Files.isReadable(STAT)) {
            return UNKNOWN;
        }
        try {
            return parse(Files.readString(STAT, StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + STAT, e);
        }
    }

    /**
     * Parses one {@code /proc/<pid>/stat} line. The command name (field 2) is in parentheses and may hold spaces, so
     * the fields are counted from its closing parenthesis: after it come state (3), ppid, pgrp, session, tty_nr,
     * tpgid, flags, minflt (10), cminflt, majflt, cmajflt, utime (14), stime (15).
     */
    static ProcessStat parse(String line) {
        String[] f = line.substring(line.lastIndexOf(')') + 2).trim().split(" +");
        return new ProcessStat(Long.parseLong(f[11]) * NANOS_PER_TICK, Long.parseLong(f[12]) * NANOS_PER_TICK,
                Long.parseLong(f[7]));
    }

    /** {@code this - before}, or {@link #UNKNOWN} when either is unknown. */
    ProcessStat minus(ProcessStat before) {
        if (this == UNKNOWN || before == UNKNOWN || userNanos < 0 || before.userNanos < 0) {
            return UNKNOWN;
        }
        return new ProcessStat(userNanos - before.userNanos, systemNanos - before.systemNanos,
                minorFaults - before.minorFaults);
    }

    boolean known() {
        return userNanos >= 0;
    }
}
