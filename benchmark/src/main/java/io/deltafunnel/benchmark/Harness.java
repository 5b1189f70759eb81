package io.deltafunnel.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import io.deltafunnel.benchmark.Measurements.Body;
import io.deltafunnel.benchmark.Measurements.PathRun;
import io.deltafunnel.benchmark.Measurements.Prepare;
import io.deltafunnel.benchmark.Measurements.QueryRun;
import io.deltafunnel.benchmark.Measurements.Result;
import io.deltafunnel.benchmark.Measurements.Run;
import io.deltafunnel.benchmark.Measurements.ScaleResult;
import io.deltafunnel.emulator.MssqlEmulator;

/**
 * How the side-by-side benchmark measures a path: warm-ups (the first through a counting, optionally recording
 * proxy), measured runs checked against the in-process sink-mode emulator's decoded-row counter, memory peaks, the
 * memory check at {@code scale}× the rows, and the wire ceiling (recorded bytes replayed into a fresh emulator).
 * It does not own the emulator or the probe: {@link Benchmark} creates and closes them.
 */
final class Harness {

    private final BenchmarkOptions o;
    private final MssqlEmulator emulator;
    private final String url;
    private final MemoryProbe probe;
    private final List<ScaleResult> scaleResults = new ArrayList<>();
    /** The first DeltaFunnel load's client-to-server bytes, recorded during its first warm-up (for the wire ceiling). */
    private Path recording;
    /** The direct path's client-to-server bytes, recorded during its first warm-up (for its own wire ceiling). */
    private Path directRecording;

    Harness(BenchmarkOptions options, MssqlEmulator emulator, String url, MemoryProbe probe) {
        this.o = options;
        this.emulator = emulator;
        this.url = url;
        this.probe = probe;
    }

    List<ScaleResult> scaleResults() {
        return scaleResults;
    }

    Path recording() {
        return recording;
    }

    Path directRecording() {
        return directRecording;
    }

    static void createTargets(MssqlEmulator emu, Shape shape) throws SQLException {
        try (Connection c = BenchSupport.sqlServer(BenchSupport.plainUrl(emu)); Statement st = c.createStatement()) {
            st.execute(shape.createTableSql(Benchmark.TABLE));
            st.execute(shape.createTableSql(Benchmark.SQL_TABLE));
        }
    }

    /**
     * Warm-up runs (the first goes through a counting proxy, for the wire bytes per row), then measured runs
     * against the emulator directly. Bulk paths are checked against the emulator's decoded-row counter.
     */
    Result measure(String name, String note, int measured, boolean bulk, PathRun path) throws Exception {
        return measure(name, note, measured, bulk, path, null);
    }

    Result measure(String name, String note, int measured, boolean bulk, PathRun path, Prepare beforeEachRun)
            throws Exception {
        System.out.printf("%n== %s (load average %s)%n", name, BenchSupport.loadAverage());
        double wireBytesPerRow = Double.NaN;
        // The wire ceiling replays the first DeltaFunnel load (default settings), recorded during its warm-up.
        String recordAs = name.equals(Benchmark.DF) && recording == null ? "recording"
                : name.equals(Benchmark.DIRECT) && directRecording == null ? "recording-direct" : null;
        boolean record = recordAs != null;
        for (int w = 0; w < o.warmups; w++) {
            if (beforeEachRun != null) {
                beforeEachRun.run();
            }
            if (w == 0 && bulk) {
                try (RecordingProxy proxy = new RecordingProxy(emulator.port(),
                        record ? recordDir(recordAs) : null)) {
                    Run r = timed("warm-up (through proxy)", bulk,
                            () -> path.run(BenchSupport.viaPort(url, proxy.port())));
                    proxy.awaitIdle();
                    wireBytesPerRow = (double) proxy.clientToServerBytes() / r.rows();
                    System.out.printf("  through the proxy: %,d bytes client->server, %,d bytes server->client, %d"
                            + " connection(s)%n", proxy.clientToServerBytes(), proxy.serverToClientBytes(),
                            proxy.connections());
                    if (record) {
                        if (name.equals(Benchmark.DF)) {
                            recording = recordDir(recordAs);
                        } else {
                            directRecording = recordDir(recordAs);
                        }
                    }
                }
            } else {
                timed("warm-up", bulk, () -> path.run(url));
            }
        }
        double[] rates = new double[measured];
        MemoryProbe.Peaks peaks = new MemoryProbe.Peaks(0, 0, 0);
        long arrowPeak = -1;
        long rowsPerRun = 0;
        jdk.jfr.Recording jfr = null;
        if (o.jfrFile != null && bulk) {
            jfr = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
            jfr.start();
        }
        for (int i = 0; i < measured; i++) {
            if (beforeEachRun != null) {
                beforeEachRun.run();
            }
            System.gc();
            probe.reset();
            long t0 = System.nanoTime();
            Run r = timed("run " + (i + 1), bulk, () -> path.run(url));
            rates[i] = r.rate(System.nanoTime() - t0);
            peaks = peaks.max(probe.peaks());
            arrowPeak = Math.max(arrowPeak, r.arrowPeak());
            rowsPerRun = r.rows();
        }
        if (jfr != null) {
            jfr.stop();
            jfr.dump(o.jfrFile);
            jfr.close();
            System.out.println("  JFR recording of the measured runs: " + o.jfrFile);
        }
        return new Result(name, note, rowsPerRun, rates, wireBytesPerRow, peaks, arrowPeak);
    }

    private Path recordDir(String dir) throws IOException {
        return Files.createDirectories(o.workDir.resolve(dir));
    }

    /**
     * One run, printed; a bulk run fails unless the emulator decoded exactly the rows the path reports (the
     * emulator's counter is global: runs never overlap).
     */
    Run timed(String label, boolean bulk, Body body) throws Exception {
        long decodedBefore = emulator.bulkRowsDecoded();
        long t0 = System.nanoTime();
        Run r = body.run();
        double s = (r.nanos() > 0 ? r.nanos() : System.nanoTime() - t0) / 1e9;
        long decoded = emulator.bulkRowsDecoded() - decodedBefore;
        System.out.printf("  %-24s %,12d rows %8.2f s %,12.0f rows/s%s%n", label, r.rows(), s, r.rows() / s,
                bulk ? "  (emulator decoded " + String.format("%,d", decoded) + ")" : "");
        if (bulk && decoded != r.rows()) {
            throw new IllegalStateException(label + ": the emulator decoded " + decoded + " rows, expected " + r.rows());
        }
        return r;
    }

    /**
     * A path at 1× and then at {@code scale}× the rows, back to back (so that both start from the same heap and
     * direct-buffer state), and whether the peaks stay within 10%. The scaled query reads the same Parquet files
     * {@code scale} times (UNION ALL): same data, no second table to generate.
     */
    void scaleCheck(String name, String query, QueryRun path) throws Exception {
        int scale = o.scale;
        String scaled = String.join(" UNION ALL ", java.util.Collections.nCopies(scale, query));
        System.out.printf("%n== scale check: %s at 1× and %d× (%,d rows) (load average %s)%n", name, scale,
                o.rows * scale, BenchSupport.loadAverage());
        System.gc();
        probe.reset();
        long t0 = System.nanoTime();
        Run one = timed("1×", true, () -> path.run(url, query));
        one = new Run(one.rows(), one.arrowPeak(), one.nanos() > 0 ? one.nanos() : System.nanoTime() - t0);
        MemoryProbe.Peaks onePeaks = peaksAfterFinalGc();
        System.gc();
        probe.reset();
        t0 = System.nanoTime();
        Run big = timed(scale + "×", true, () -> path.run(url, scaled));
        big = new Run(big.rows(), big.arrowPeak(), big.nanos() > 0 ? big.nanos() : System.nanoTime() - t0);
        MemoryProbe.Peaks bigPeaks = peaksAfterFinalGc();
        boolean arrowFlat = big.arrowPeak() <= one.arrowPeak() * 1.1;
        // Heap after GC: within 10%, or within 8 MB when it is tiny (a handful of MB is noise from the JVM itself).
        boolean heapFlat = bigPeaks.heapAfterGc() <= Math.max(onePeaks.heapAfterGc() * 1.1,
                onePeaks.heapAfterGc() + (8 << 20));
        boolean directFlat = bigPeaks.direct() <= Math.max(onePeaks.direct() * 1.1, onePeaks.direct() + (1 << 20));
        ScaleResult r = new ScaleResult(name, scale, one, onePeaks, big, bigPeaks, arrowFlat && heapFlat && directFlat);
        scaleResults.add(r);
        BenchmarkReport.printScale(r);
    }

    /**
     * The probe's peaks after one more (untimed) GC at the end of the run, so that "heap after GC" has a value even
     * when the run itself never collected (a fast 1× run may not fill the young generation): it is then the retained
     * set right after the run. GC notifications arrive asynchronously, hence the short wait.
     */
    private MemoryProbe.Peaks peaksAfterFinalGc() throws InterruptedException {
        System.gc();
        Thread.sleep(200);
        return probe.peaks();
    }

    /** The wire ceiling: the bytes recorded during a warm-up, replayed over raw sockets into a fresh emulator. */
    Result measureWire(Path recording, String name, String note) throws Exception {
        List<byte[]> streams = new ArrayList<>();
        long total = 0;
        try (Stream<Path> s = Files.list(recording)) {
            for (Path p : s.sorted(Comparator.naturalOrder()).toList()) {
                // FileInputStream, not Files.readAllBytes: the latter reads through a temporary direct buffer as
                // large as the file, which the JDK then keeps cached (and the direct-memory column would show it).
                byte[] b;
                try (java.io.FileInputStream in = new java.io.FileInputStream(p.toFile())) {
                    b = in.readAllBytes();
                }
                streams.add(b);
                total += b.length;
            }
        }
        System.out.printf("%n== %s: replaying %d recorded connection(s), %,d client bytes%n", name, streams.size(),
                total);
        try (MssqlEmulator fresh = MssqlEmulator.builder().port(0).password(BenchSupport.PASSWORD).sinkMode(true)
                .start()) {
            createTargets(fresh, o.shape);
            PathRun path = u -> {
                long before = fresh.bulkRowsDecoded();
                WireReplay.replay(streams, fresh.port());
                return new Run(fresh.bulkRowsDecoded() - before, -1);
            };
            for (int w = 0; w < o.warmups; w++) {
                timed("warm-up", false, () -> path.run(null));
            }
            double[] rates = new double[o.runs];
            MemoryProbe.Peaks peaks = new MemoryProbe.Peaks(0, 0, 0);
            long rowsPerRun = 0;
            for (int i = 0; i < o.runs; i++) {
                System.gc();
                probe.reset();
                long t0 = System.nanoTime();
                Run r = timed("run " + (i + 1), false, () -> path.run(null));
                rates[i] = r.rows() / ((System.nanoTime() - t0) / 1e9);
                peaks = peaks.max(probe.peaks());
                rowsPerRun = r.rows();
                if (r.rows() != o.rows) {
                    throw new IllegalStateException("replay decoded " + r.rows() + " rows, expected " + o.rows);
                }
            }
            return new Result(name, note, rowsPerRun, rates, (double) total / o.rows, peaks, -1);
        }
    }
}
