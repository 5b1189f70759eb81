package io.deltafunnel.benchmark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.deltafunnel.benchmark.Measurements.Result;
import io.deltafunnel.emulator.MssqlEmulator;
import org.apache.camel.CamelContext;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * DeltaFunnel against what users would pick instead, side by side in one JVM run. See benchmark/README.md.
 *
 * <pre>
 * benchmark/run.sh [--rows N] [--shape LINEITEM|NARROW] [--runs 5] [--warmups 1] [--sql-rows 100000]
 *                  [--sql-runs 3] [--scale 5] [--paths df,direct,rs,sql,src,wire,prebuilt,adapt]
 * </pre>
 *
 * <p>Paths not run by default: {@code dfdirect} (the route with the producer option {@code bulkEncoder=direct}).
 *
 * <p>The parts: {@link BenchmarkOptions} (the command line), {@link BenchmarkPaths} (one method per path),
 * {@link Harness} (warm-ups, measured runs, row checks, memory, the scale check and the wire ceiling),
 * {@link BenchmarkReport} (the summary tables). This class starts the in-process sink-mode emulator, the Camel context
 * and the memory probe, generates the table, runs the selected paths in order and closes everything.
 */
public final class Benchmark {

    static final String TABLE = "bench";
    static final String SQL_TABLE = "bench_sql";

    // Result names the summary looks up.
    static final String DF = "DeltaFunnel route (driver encoder)";
    static final String DF_DIRECT = "DeltaFunnel route, bulkEncoder=direct";
    static final String DIRECT = "direct TDS writer: DirectBulkWriter over DirectTdsConnection";
    static final String PREBUILT = "driver ceiling: prebuilt Object[] rows";
    static final String RESULT_SET = "writeToServer(ResultSet) + metadata fix";
    static final String WIRE = "wire ceiling: emulator decoding recorded bytes";
    static final String WIRE_DIRECT = "wire ceiling, direct path's bytes: emulator decoding them";

    private final BenchmarkOptions o = new BenchmarkOptions();
    private final List<Result> results = new ArrayList<>();
    /** Paths that were selected but could not run, with the reason (printed in the summary). */
    private final Map<String, String> skipped = new LinkedHashMap<>();

    public static void main(String[] args) throws Exception {
        Benchmark b = new Benchmark();
        b.parse(args);
        b.run();
        System.exit(0);
    }

    void parse(String[] args) {
        o.parse(args);
    }

    void run() throws Exception {
        Runtime rt = Runtime.getRuntime();
        System.out.printf("DeltaFunnel benchmark: shape %s, %,d rows, batch %,d, %d warm-up + %d measured runs%n",
                o.shape, o.rows, o.batchSize, o.warmups, o.runs);
        System.out.printf("date %s, java %s (%s), %d CPUs, max heap %,d MB, args %s%n",
                ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME), System.getProperty("java.version"),
                System.getProperty("java.vm.name"), rt.availableProcessors(), rt.maxMemory() >> 20,
                java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
        boolean ownWorkDir = o.workDir == null;
        if (ownWorkDir) {
            o.workDir = Files.createTempDirectory("deltafunnel-bench");
        }
        MemoryProbe probe = new MemoryProbe();
        MssqlEmulator emulator = MssqlEmulator.builder().port(0).password(BenchSupport.PASSWORD).sinkMode(true)
                .start();
        // TLS off for every path: the wire ceiling replays recorded plain bytes, and the comparison stays fair.
        String url = BenchSupport.plainUrl(emulator);
        CamelContext camel = new DefaultCamelContext();
        // No autowiring: the DataSource bound for camel-sql must not replace the DeltaFunnel producer's url.
        camel.setAutowiredEnabled(false);
        camel.getRegistry().bind("benchDs", BenchSupport.dataSource(url));
        camel.start();
        try {
            Path table = o.workDir.resolve("table-" + o.shape.name().toLowerCase(Locale.ROOT) + "-" + o.rows);
            generate(table);
            String query = BenchSupport.parquetQuery(table);
            System.out.println("query: " + query);
            Harness.createTargets(emulator, o.shape);
            Harness h = new Harness(o, emulator, url, probe);
            BenchmarkPaths p = new BenchmarkPaths(o, h, camel, url, query);
            runPaths(h, p, query, probe, emulator.port());
            new BenchmarkReport(o, results, h.scaleResults(), skipped).print();
        } finally {
            camel.stop();
            emulator.close();
            probe.close();
            if (ownWorkDir) {
                BenchSupport.deleteTree(o.workDir);
            }
        }
    }

    /** The selected paths, always in this order (the wire ceilings replay what the first two recorded). */
    private void runPaths(Harness h, BenchmarkPaths p, String query, MemoryProbe probe, int emulatorPort)
            throws Exception {
        List<String> paths = o.paths;
        int runs = o.runs;
        if (paths.contains("df")) {
            results.add(h.measure(DF,
                    "deltafunnel: -> deltafunnel-mssql: transaction=run tableLock=true batch " + o.batchSize, runs,
                    true, p::runDeltaFunnel));
            if (o.scale > 1) {
                // Right after the DeltaFunnel runs, before other paths leave buffers behind.
                h.scaleCheck(DF, query, (u, sql) -> p.runDeltaFunnel(u, sql, ""));
            }
        }
        if (paths.contains("dfdirect")) {
            // Not in the default list: it needs the producer option bulkEncoder=direct.
            try {
                results.add(h.measure(DF_DIRECT, "as the driver-encoder route, producer URI + &bulkEncoder=direct",
                        runs, true, u -> p.runDeltaFunnel(u, query, "&bulkEncoder=direct")));
            } catch (Exception e) {
                String why = BenchSupport.rootMessage(e);
                int unknown = why.indexOf("Unknown parameters=");
                why = unknown >= 0 ? "the producer does not know this option yet (" + why.substring(unknown) + ")"
                        : why.length() > 200 ? why.substring(0, 200) + "…" : why;
                skipped.put(DF_DIRECT, why);
                System.out.println("  skipped: " + why);
            }
        }
        if (paths.contains("direct")) {
            results.add(h.measure(DIRECT, "ArrowBatchStream (same query, batch " + o.batchSize + ") -> one"
                    + " DirectBulkWriter.write per batch, one DirectTdsConnection, TABLOCK, BEGIN TRAN..COMMIT,"
                    + " targets from INFORMATION_SCHEMA (timed)", runs, true, u -> p.runDirect(u, query)));
            if (o.scale > 1) {
                h.scaleCheck(DIRECT, query, p::runDirect);
            }
        }
        if (paths.contains("dfnative")) {
            results.add(h.measure("DeltaFunnel route, native temporal wire mode",
                    "as above, URL sendTemporalDataTypesAsStringForBulkCopy=false (date/datetime2 sent natively)",
                    Math.min(runs, 3), true, u -> p.runDeltaFunnel(u + ";sendTemporalDataTypesAsStringForBulkCopy=false",
                            query)));
        }
        if (paths.contains("rs")) {
            results.add(h.measure(RESULT_SET,
                    "DuckDB JDBC ResultSet, DuckDbResultSets.forBulkCopy, tableLock=true", runs, true,
                    p::runResultSet));
        }
        if (paths.contains("sql")) {
            results.add(p.measureSql(probe, emulatorPort));
        }
        if (paths.contains("src")) {
            results.add(h.measure("source ceiling: DuckDB Arrow export", "ArrowBatchStream, batches discarded",
                    runs, false, u -> p.runSource(false)));
        }
        if (paths.contains("adapt")) {
            results.add(h.measure("source + ArrowBulkData, no driver",
                    "validate + getRowData for every row, nothing sent", runs, false, u -> p.runSource(true)));
        }
        if (paths.contains("prebuilt")) {
            results.add(p.measurePrebuilt());
        }
        if (paths.contains("wire") && h.recording() != null) {
            results.add(h.measureWire(h.recording(), WIRE, "raw socket replay of the DeltaFunnel load, fresh sink-mode"
                    + " emulator, no driver"));
        }
        if (paths.contains("wire") && h.directRecording() != null) {
            results.add(h.measureWire(h.directRecording(), WIRE_DIRECT, "raw socket replay of the direct path's load"
                    + " (its TDS connection, then its catalog query), fresh sink-mode emulator, no client encoding"));
        }
    }

    private void generate(Path table) throws Exception {
        long t0 = System.nanoTime();
        long bytes = BenchSupport.generate(o.shape, table, o.rows, o.files);
        if (bytes >= 0) {
            System.out.printf("generated Delta table %s: %,d rows, %d Parquet files, %,d MB, %.1f s%n", table, o.rows,
                    o.files, bytes >> 20, (System.nanoTime() - t0) / 1e9);
        }
    }

    /** The results of the last {@link #run()}, in run order. */
    List<Result> results() {
        return results;
    }
}
