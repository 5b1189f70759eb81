package io.deltafunnel.benchmark;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client-CPU metric end to end on a tiny table: the emulator's jar started as a separate sink-mode process, every
 * path on both shapes (several batches each), one warm-up and one measured run. Checks that every path loaded
 * exactly the table's rows and that the report carries every row and field; no timing is asserted.
 */
class ClientCpuSmokeTest {

    @Test
    void reportsEveryPathOnBothShapes(@TempDir Path dir) throws Exception {
        ClientCpu cpu = new ClientCpu();
        cpu.parse(new String[] {"--rows", "5000", "--runs", "1", "--warmups", "1", "--batch-size", "2048",
                "--work-dir", dir.toString()});
        cpu.run();
        List<ClientCpu.PathResult> results = cpu.results();
        assertEquals(8, results.size(), "4 paths × 2 shapes");
        for (Shape shape : Shape.values()) {
            for (String path : ClientCpu.ALL_PATHS) {
                ClientCpu.PathResult r = results.stream().filter(x -> x.shape() == shape && x.path().equals(path))
                        .findFirst().orElseThrow(() -> new AssertionError("no result for " + shape + " " + path));
                assertEquals(5000, r.rows());
                assertEquals(1, r.clientNsPerRow().length);
                assertTrue(Double.isFinite(r.clientNs()) && r.clientNs() > 0, shape + " " + path + ": client CPU");
                // Linux (where this runs) has /proc/self/task: the compilers' share is known and within the client's
                assertTrue(r.jitNs() >= 0 && r.jitNs() <= r.clientNs(), shape + " " + path + ": JIT CPU " + r.jitNs());
                if (path.equals("direct") || path.equals("driver")) {
                    assertTrue(Double.isFinite(r.emulatorNs()), shape + " " + path + ": emulator CPU read");
                }
            }
        }
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        cpu.report(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        String report = buffer.toString(StandardCharsets.UTF_8);
        for (String field : List.of("| shape | path | client CPU ns/row | ratio to source |", "| of it JIT | less JIT |",
                "- the same less each run's JIT compiler time:", "emulator CPU ns/row",
                "wall rows/s", "emulator: java", "### LINEITEM", "### NARROW", "direct route / source:",
                "driver route, split: source", "ours (ArrowBulkData validate + getRowData)", "mssql-jdbc")) {
            assertTrue(report.contains(field), "report lacks '" + field + "':\n" + report);
        }
        for (Shape shape : Shape.values()) {
            for (String path : ClientCpu.ALL_PATHS) {
                assertTrue(report.contains("| " + shape + " | " + ClientCpu.describe(path) + " |"),
                        "no table row for " + shape + " " + path + ":\n" + report);
            }
        }
    }

    /** {@code --paths src,direct,direct-rej,driver,driver-rej}: the routes with maxRejectedRows beside the plain ones. */
    @Test
    void runsTheRejectPathsBesideThePlainRoutes(@TempDir Path dir) throws Exception {
        ClientCpu cpu = new ClientCpu();
        cpu.parse(new String[] {"--rows", "3000", "--runs", "1", "--warmups", "0", "--batch-size", "1024",
                "--shapes", "LINEITEM", "--paths", "src,direct,direct-rej,driver,driver-rej", "--work-dir",
                dir.toString()});
        cpu.run();
        assertEquals(List.of("src", "direct", "direct-rej", "driver", "driver-rej"),
                cpu.results().stream().map(ClientCpu.PathResult::path).toList());
        for (ClientCpu.PathResult r : cpu.results()) {
            assertEquals(3000, r.rows(), r.path());
        }
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        cpu.report(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        String report = buffer.toString(StandardCharsets.UTF_8);
        for (String field : List.of("direct route with maxRejectedRows (nothing rejected) − without:",
                "driver route with maxRejectedRows (nothing rejected) − without:",
                "| LINEITEM | " + ClientCpu.describe("direct-rej") + " |",
                "| LINEITEM | " + ClientCpu.describe("driver-rej") + " |")) {
            assertTrue(report.contains(field), "report lacks '" + field + "':\n" + report);
        }
    }

    /** {@code --alternate true}: every path gets each of its measured runs, taken round by round; JFR refused with it. */
    @Test
    void alternatingRunsMeasureEveryPathEveryRound(@TempDir Path dir) throws Exception {
        ClientCpu cpu = new ClientCpu();
        cpu.parse(new String[] {"--rows", "3000", "--runs", "2", "--warmups", "0", "--batch-size", "1024",
                "--shapes", "LINEITEM", "--paths", "src,direct,direct-rej", "--alternate", "true", "--work-dir",
                dir.toString()});
        cpu.run();
        assertEquals(List.of("src", "direct", "direct-rej"),
                cpu.results().stream().map(ClientCpu.PathResult::path).toList());
        for (ClientCpu.PathResult r : cpu.results()) {
            assertEquals(3000, r.rows(), r.path());
            assertEquals(2, r.clientNsPerRow().length, r.path());
            for (double ns : r.clientNsPerRow()) {
                assertTrue(ns > 0, r.path() + ": every round measured");
            }
        }
        // the report pairs each round's direct run with that round's source run
        ClientCpu.PathResult src = cpu.results().get(0);
        ClientCpu.PathResult direct = cpu.results().get(1);
        String paired = BenchSupport.PairedRatios.of(direct.clientNsPerRow(), src.clientNsPerRow()).text();
        assertTrue(paired.matches("\\d+\\.\\d\\d× \\[\\d+\\.\\d\\d–\\d+\\.\\d\\d×\\]"), paired);
        java.io.ByteArrayOutputStream buffer = new java.io.ByteArrayOutputStream();
        cpu.report(new java.io.PrintStream(buffer, true, java.nio.charset.StandardCharsets.UTF_8));
        String report = buffer.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(report.contains("- paired by round (each round's direct run ÷ the same round's source run, median"
                + " [min–max] over 2 rounds): " + paired + "; less each run's JIT time: "), report);
        ClientCpu jfr = new ClientCpu();
        assertThrows(IllegalArgumentException.class, () -> jfr.parse(new String[] {"--alternate", "true", "--jfr",
                dir.resolve("jfr").toString()}));
    }
}
