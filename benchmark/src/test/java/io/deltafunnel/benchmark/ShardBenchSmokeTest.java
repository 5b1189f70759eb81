package io.deltafunnel.benchmark;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The shard benchmark end to end on a tiny table: the emulator's jar as a separate sink-mode process, 1, 2 and 4
 * shards with both encoders on both shapes, one warm-up and one measured run each. {@code ShardBench} itself fails a
 * run unless the routes saw exactly the table's rows and, for N &gt; 1, the load's rows in the state tables say
 * {@code done} with N done shards whose rows match; this test checks every configuration was measured and that the
 * report carries every row and field. No timing is asserted.
 */
class ShardBenchSmokeTest {

    @Test
    void measuresOneTwoAndFourShardsWithBothEncoders(@TempDir Path dir) throws Exception {
        assumeTrue(ShardBench.missingShardOptions().isEmpty(), "the deltafunnel: consumer lacks the shard options "
                + ShardBench.missingShardOptions() + " (issue #17's consumer part, branch shard-consumer, not merged)");
        ShardBench bench = new ShardBench();
        bench.parse(new String[] {"--rows", "6000", "--runs", "1", "--warmups", "1", "--batch-size", "1024",
                "--files", "8", "--work-dir", dir.toString()});
        bench.run();
        List<ShardBench.ShardResult> results = bench.results();
        assertEquals(2 * 2 * 3, results.size(), "2 shapes × 2 encoders × 3 shard counts");
        for (Shape shape : Shape.values()) {
            for (String encoder : ShardBench.ENCODERS) {
                for (int n : List.of(1, 2, 4)) {
                    ShardBench.ShardResult r = results.stream().filter(x -> x.shape() == shape
                            && x.encoder().equals(encoder) && x.shards() == n).findFirst()
                            .orElseThrow(() -> new AssertionError("no result for " + shape + " " + encoder + " " + n));
                    assertEquals(n, r.rowsPerShard().length);
                    assertEquals(6000, Arrays.stream(r.rowsPerShard()).sum(), shape + " " + encoder + " " + n);
                    assertTrue(Double.isFinite(r.clientNs()) && r.clientNs() > 0, "client CPU of " + r);
                    assertTrue(Double.isFinite(r.rate()) && r.rate() > 0, "rows/s of " + r);
                    assertTrue(r.largestShare() >= 1.0, "largest share of " + r);
                    // Linux (where this runs) reports the kernel's part and the faults; a JVM faults pages in.
                    assertTrue(r.faultsPerKiloRow() > 0, "minor faults of " + r);
                    assertTrue(r.systemNs() >= 0, "system CPU of " + r);
                    assertTrue(r.jitNs() >= 0 && r.jitNs() <= r.clientNs(), "JIT CPU within the client's of " + r);
                    assertEquals(1, r.warmups(), "--warmups 1 runs one warm-up: " + r);
                    assertEquals(r.clientNsPerRow()[0] - r.jitNsPerRow()[0], r.clientLessJitNs(), 1e-9, "one run: " + r);
                }
            }
        }
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        bench.report(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        String report = buffer.toString(StandardCharsets.UTF_8);
        assertFalse(report.contains("Paired by round"), "runs are paired only when they alternate:\n" + report);
        for (String field : List.of("| shape | encoder | shards | rows/s (median) | vs 1 shard | largest share |"
                + " client CPU ns/row | vs 1 shard | of it system | of it JIT | less JIT | vs 1 shard | warm-ups | minor faults per 1k rows |",
                "emulator CPU ns/row", "Conditions:", "load average")) {
            assertTrue(report.contains(field), "report lacks '" + field + "':\n" + report);
        }
        for (Shape shape : Shape.values()) {
            for (String encoder : ShardBench.ENCODERS) {
                for (int n : List.of(1, 2, 4)) {
                    assertTrue(report.contains("| " + shape + " | " + encoder + " | " + n + " | "),
                            "no table row for " + shape + " " + encoder + " " + n + ":\n" + report);
                }
            }
        }
    }

    @Test
    void alternatingRunsEveryShardCountInEachRound(@TempDir Path dir) throws Exception {
        assumeTrue(ShardBench.missingShardOptions().isEmpty(), "the deltafunnel: consumer lacks the shard options");
        ShardBench bench = new ShardBench();
        bench.parse(new String[] {"--rows", "4000", "--runs", "2", "--warmups", "1", "--batch-size", "1024",
                "--files", "4", "--shapes", "NARROW", "--shards", "1,2", "--encoders", "none", "--alternate", "true",
                "--work-dir", dir.toString()});
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream console = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            bench.run();
        } finally {
            System.setOut(console);
        }
        String log = out.toString(StandardCharsets.UTF_8);
        // round 1 runs 1 and 2 shards before round 2 runs either
        int round1 = log.indexOf("round 1 of 2");
        int round2 = log.indexOf("round 2 of 2");
        assertTrue(round1 >= 0 && round2 > round1, log);
        assertTrue(log.indexOf("1 shard(s) run 1") > round1 && log.indexOf("2 shard(s) run 1") < round2, log);
        assertTrue(log.indexOf("1 shard(s) run 2") > round2 && log.indexOf("2 shard(s) run 2") > round2, log);
        assertEquals(List.of(1, 2), bench.results().stream().map(ShardBench.ShardResult::shards).toList());
        for (ShardBench.ShardResult r : bench.results()) {
            assertEquals(2, r.clientNsPerRow().length, "two measured runs of " + r);
            assertEquals(4000, Arrays.stream(r.rowsPerShard()).sum(), "rows of " + r);
        }
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        bench.report(new PrintStream(report, true, StandardCharsets.UTF_8));
        String text = report.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("shard counts alternating round by round"), text);
        // each round's 2-shard run over the same round's 1-shard run
        ShardBench.ShardResult one = bench.results().get(0);
        ShardBench.ShardResult two = bench.results().get(1);
        BenchSupport.PairedRatios paired = ShardBench.pairedClient(two, one);
        double r1 = two.clientNsPerRow()[0] / one.clientNsPerRow()[0];
        double r2 = two.clientNsPerRow()[1] / one.clientNsPerRow()[1];
        assertEquals(Math.min(r1, r2), paired.min(), 1e-12);
        assertEquals(Math.max(r1, r2), paired.max(), 1e-12);
        assertEquals((r1 + r2) / 2, paired.median(), 1e-12);
        assertTrue(text.contains("Paired by round") && text.contains("| NARROW | none | 2 | " + paired.text() + " | "
                + ShardBench.pairedLessJit(two, one).text() + " |"), text);
    }

    @Test
    void aWarmUpIsSteadyWhenTheJitTookAtMostTwoPercentOfItsCpu() {
        assertTrue(ShardBench.warm(300, 6));
        assertFalse(ShardBench.warm(300, 6.1));
        assertFalse(ShardBench.warm(400, 60));
        assertTrue(ShardBench.warm(300, Double.NaN), "no /proc: one warm-up, counted as steady");
    }

    @Test
    void warmUpsAreOneUnlessCountedOrAutomatic() {
        ShardBench byDefault = new ShardBench();
        byDefault.parse(new String[] {"--rows", "1000"});
        assertEquals(1, byDefault.warmups);
        ShardBench explicitAuto = new ShardBench();
        explicitAuto.parse(new String[] {"--warmups", "auto"});
        assertEquals(ShardBench.AUTO_WARMUPS, explicitAuto.warmups);
        ShardBench three = new ShardBench();
        three.parse(new String[] {"--warmups", "3"});
        assertEquals(3, three.warmups);
    }
}
