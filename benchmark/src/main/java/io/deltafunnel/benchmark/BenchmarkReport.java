package io.deltafunnel.benchmark;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.deltafunnel.benchmark.Measurements.Result;
import io.deltafunnel.benchmark.Measurements.Run;
import io.deltafunnel.benchmark.Measurements.ScaleResult;

import static io.deltafunnel.benchmark.Benchmark.DF;
import static io.deltafunnel.benchmark.Benchmark.DF_DIRECT;
import static io.deltafunnel.benchmark.Benchmark.DIRECT;
import static io.deltafunnel.benchmark.Benchmark.PREBUILT;
import static io.deltafunnel.benchmark.Benchmark.RESULT_SET;
import static io.deltafunnel.benchmark.Benchmark.WIRE;
import static io.deltafunnel.benchmark.Benchmark.WIRE_DIRECT;
import static io.deltafunnel.benchmark.BenchSupport.loadAverage;

/** The side-by-side benchmark's summary: the Markdown tables and ratios printed at the end of a run. */
final class BenchmarkReport {

    private final Shape shape;
    private final long rows;
    private final int scale;
    private final List<Result> results;
    private final List<ScaleResult> scaleResults;
    /** Paths that were selected but could not run, with the reason. */
    private final Map<String, String> skipped;

    BenchmarkReport(BenchmarkOptions o, List<Result> results, List<ScaleResult> scaleResults,
            Map<String, String> skipped) {
        this.shape = o.shape;
        this.rows = o.rows;
        this.scale = o.scale;
        this.results = results;
        this.scaleResults = scaleResults;
        this.skipped = skipped;
    }

    void print() {
        Map<String, Double> m = new LinkedHashMap<>();
        results.forEach(r -> m.put(r.path(), r.median()));
        double df = m.getOrDefault(DF, Double.NaN);
        System.out.printf("%n## Results: %s, %,d rows (median of measured runs), load average at the end %s%n%n",
                shape, rows, loadAverage());
        System.out.println("| path | rows/run | rows/s (median) | min-max | vs DeltaFunnel | wire B/row "
                + "| heap peak MB | heap after GC MB | direct MB | Arrow peak MB |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Result r : results) {
            double[] s = r.rowsPerSecond().clone();
            Arrays.sort(s);
            System.out.printf("| %s | %,d | %,.0f | %,.0f-%,.0f | %s | %s | %,d | %,d | %,.1f | %s |%n", r.path(),
                    r.rowsPerRun(), r.median(), s[0], s[s.length - 1],
                    Double.isNaN(df) ? "-" : String.format("%.2f×", r.median() / df),
                    Double.isNaN(r.wireBytesPerRow()) ? "-" : String.format("%.1f", r.wireBytesPerRow()),
                    r.peaks().heap() >> 20, r.peaks().heapAfterGc() >> 20, r.peaks().direct() / 1048576.0,
                    r.arrowPeak() < 0 ? "-" : String.format("%.1f", r.arrowPeak() / 1048576.0));
        }
        skipped.forEach((path, why) -> System.out.printf("| %s | skipped: %s | | | | | | | | |%n", path,
                why.replace('|', '/')));
        System.out.println();
        for (Result r : results) {
            System.out.printf("- %s: %s; runs %s%n", r.path(), r.note(), Arrays.toString(Arrays.stream(
                    r.rowsPerSecond()).mapToLong(Math::round).toArray()));
        }
        Double prebuilt = m.get(PREBUILT);
        Double rs = m.get(RESULT_SET);
        if (prebuilt != null && !Double.isNaN(df)) {
            System.out.printf("DeltaFunnel / driver prebuilt ceiling: %.0f%% (target >= 85%%)%n", 100 * df / prebuilt);
        }
        if (rs != null && !Double.isNaN(df)) {
            System.out.printf("DeltaFunnel / ResultSet path: %.2f× (target >= 1.7×)%n", df / rs);
        }
        reportDirect(m, df, prebuilt);
        if (!scaleResults.isEmpty()) {
            System.out.printf("%nMemory at %d× the rows (peak memory must stay flat):%n", scale);
            for (ScaleResult r : scaleResults) {
                printScale(r);
            }
        }
    }

    /** The target for the direct writer against the driver path: 4× for LINEITEM, 3× for NARROW. */
    double directTarget() {
        return shape == Shape.LINEITEM ? 4.0 : 3.0;
    }

    /** The direct paths beside the driver paths, with the ratios the issue asks for. */
    private void reportDirect(Map<String, Double> m, double df, Double prebuilt) {
        Double direct = m.get(DIRECT);
        Double dfDirect = m.get(DF_DIRECT);
        if (direct == null && dfDirect == null && !skipped.containsKey(DF_DIRECT)) {
            return;
        }
        System.out.printf("%n### Direct TDS writer vs the driver encoder (%s, %,d rows, medians)%n%n", shape, rows);
        System.out.println("| path | rows/s (median) | vs df | vs prebuilt (driver ceiling) | memory at " + scale
                + "× |");
        System.out.println("|---|---:|---:|---:|---|");
        for (String path : List.of(DF, DF_DIRECT, DIRECT, PREBUILT, WIRE, WIRE_DIRECT)) {
            Double v = m.get(path);
            if (v == null) {
                if (skipped.containsKey(path)) {
                    System.out.printf("| %s | skipped | | | |%n", path);
                }
                continue;
            }
            String mem = scaleResults.stream().filter(r -> r.path().equals(path)).findFirst()
                    .map(r -> r.flat() ? "flat" : "NOT flat").orElse("-");
            System.out.printf("| %s | %,.0f | %s | %s | %s |%n", path, v,
                    Double.isNaN(df) ? "-" : String.format("%.2f×", v / df),
                    prebuilt == null ? "-" : String.format("%.2f×", v / prebuilt), mem);
        }
        System.out.println();
        if (direct != null && !Double.isNaN(df)) {
            double ratio = direct / df;
            System.out.printf("direct / df: %.2f× (issue target >= %.0f× for %s: %s)%n", ratio, directTarget(), shape,
                    ratio >= directTarget() ? "met" : "NOT met");
        }
        if (direct != null && prebuilt != null) {
            System.out.printf("direct / prebuilt (driver ceiling): %.2f×%n", direct / prebuilt);
        }
        Double wire = m.get(WIRE);
        if (wire != null && !Double.isNaN(df)) {
            System.out.printf("wire ceiling (emulator decoding the route's recorded bytes, no client) / df: %.2f×%n",
                    wire / df);
        }
        Double wireDirect = m.get(WIRE_DIRECT);
        if (direct != null && wireDirect != null) {
            // The emulator shares the JVM and the cores: decoding the direct path's recorded bytes with no client at
            // all bounds what the direct client can reach against it.
            System.out.printf("direct / its wire ceiling (emulator decoding the direct path's bytes, no client): %.0f%%;"
                    + " that ceiling / df: %s%n", 100 * direct / wireDirect,
                    Double.isNaN(df) ? "-" : String.format("%.2f×", wireDirect / df));
        }
        if (dfDirect != null && !Double.isNaN(df)) {
            double ratio = dfDirect / df;
            System.out.printf("dfdirect / df: %.2f× (issue target >= %.0f× for %s: %s)%n", ratio, directTarget(),
                    shape, ratio >= directTarget() ? "met" : "NOT met");
        } else if (skipped.containsKey(DF_DIRECT)) {
            System.out.printf("dfdirect / df: not measured (%s)%n", skipped.get(DF_DIRECT));
        }
    }

    static void printScale(ScaleResult r) {
        System.out.printf("%n| %s | rows | rows/s | heap peak MB | heap after GC MB | direct MB | Arrow peak MB |%n",
                r.path());
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        for (Object[] row : new Object[][] {{"1×", r.one(), r.onePeaks()}, {r.scale() + "×", r.big(), r.bigPeaks()}}) {
            Run run = (Run) row[1];
            MemoryProbe.Peaks p = (MemoryProbe.Peaks) row[2];
            System.out.printf("| %s | %,d | %,.0f | %,d | %,d | %.1f | %.1f |%n", row[0], run.rows(), run.rate(0),
                    p.heap() >> 20, p.heapAfterGc() >> 20, p.direct() / 1048576.0, run.arrowPeak() / 1048576.0);
        }
        System.out.printf("%d× / 1×: Arrow peak %.2f, heap after GC %.2f, direct %s -> %s%n", r.scale(),
                (double) r.big().arrowPeak() / r.one().arrowPeak(),
                (double) r.bigPeaks().heapAfterGc() / Math.max(1, r.onePeaks().heapAfterGc()),
                r.bigPeaks().direct() <= Math.max(r.onePeaks().direct() * 1.1, r.onePeaks().direct() + (1 << 20))
                        ? "flat" : "grew",
                r.flat() ? "FLAT (within 10%)" : "NOT flat within 10%");
    }

}
