package io.deltafunnel.benchmark;

import java.util.Arrays;

/** The side-by-side benchmark's measured values and the shapes of the code that produces them. */
final class Measurements {

    private Measurements() {
    }

    /** One path's measurements. */
    record Result(String path, String note, long rowsPerRun, double[] rowsPerSecond, double wireBytesPerRow,
            MemoryProbe.Peaks peaks, long arrowPeak) {
        double median() {
            double[] s = rowsPerSecond.clone();
            Arrays.sort(s);
            int n = s.length;
            return n == 0 ? Double.NaN : n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
        }
    }

    /** One timed run of a path: rows done and, where the path has one, its Arrow allocator peak. */
    record Run(long rows, long arrowPeak, long nanos) {
        Run(long rows, long arrowPeak) {
            this(rows, arrowPeak, -1);
        }

        /** Rows per second: over the path's own load time when it measured one, else over {@code outerNanos}. */
        double rate(long outerNanos) {
            return rows / ((nanos > 0 ? nanos : outerNanos) / 1e9);
        }
    }

    /** The memory check of one path at 1× and {@code scale}× the rows. */
    record ScaleResult(String path, int scale, Run one, MemoryProbe.Peaks onePeaks, Run big,
            MemoryProbe.Peaks bigPeaks, boolean flat) {
    }

    /** One run of a path against the server at {@code jdbcUrl}. */
    @FunctionalInterface
    interface PathRun {
        Run run(String jdbcUrl) throws Exception;
    }

    /** A path run over a given query (the scale check passes the {@code scale}× UNION ALL query). */
    @FunctionalInterface
    interface QueryRun {
        Run run(String jdbcUrl, String sql) throws Exception;
    }

    /** Untimed preparation before each run (warm-ups included). */
    @FunctionalInterface
    interface Prepare {
        void run() throws Exception;
    }

    /** The body of one timed run. */
    @FunctionalInterface
    interface Body {
        Run run() throws Exception;
    }
}
