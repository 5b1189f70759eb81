package io.deltafunnel.benchmark;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The side-by-side benchmark's command line (see {@link Benchmark}); mutable, filled by {@link #parse}. */
final class BenchmarkOptions {

    long rows = 2_000_000;
    Shape shape = Shape.LINEITEM;
    int runs = 5;
    int warmups = 1;
    long sqlRows = 100_000;
    int sqlRuns = 3;
    int scale = 5;
    int batchSize = 65_536;
    int files = 4;
    List<String> paths = List.of("df", "direct", "dfnative", "rs", "sql", "src", "wire", "prebuilt", "adapt");
    Path workDir;
    /** When set, a JFR recording ("profile" settings) covers the measured runs of the bulk paths. */
    Path jfrFile;

    void parse(String[] args) {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (a) {
                case "--rows" -> rows = Long.parseLong(v.replace("_", ""));
                case "--shape" -> shape = Shape.valueOf(v.toUpperCase(Locale.ROOT));
                case "--runs" -> runs = Integer.parseInt(v);
                case "--warmups" -> warmups = Integer.parseInt(v);
                case "--sql-rows" -> sqlRows = Long.parseLong(v.replace("_", ""));
                case "--sql-runs" -> sqlRuns = Integer.parseInt(v);
                case "--scale" -> scale = Integer.parseInt(v);
                case "--batch-size" -> batchSize = Integer.parseInt(v);
                case "--paths" -> paths = List.of(v.split(","));
                case "--work-dir" -> workDir = Path.of(v);
                case "--jfr" -> jfrFile = Path.of(v);
                default -> throw new IllegalArgumentException("unknown option " + a + " (see the class comment)");
            }
            i++;
        }
    }
}
