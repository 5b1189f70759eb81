package io.deltafunnel.benchmark;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The benchmark's {@code direct} path end to end at a small size: DuckDB → ArrowBatchStream → DirectBulkWriter →
 * the sink-mode emulator. Several batches (batch size below the row count), one warm-up (through the counting
 * proxy) and one measured run; {@code Harness.timed} fails the run unless the emulator decoded exactly the rows the
 * server reported, and this test checks that count is the table's. No timing is asserted.
 */
class DirectPathSmokeTest {

    @ParameterizedTest
    @EnumSource(Shape.class)
    void directPathLoadsExactlyTheTableRows(Shape shape, @TempDir Path dir) throws Exception {
        Benchmark b = new Benchmark();
        b.parse(new String[] {"--rows", "10000", "--shape", shape.name(), "--paths", "direct", "--runs", "1",
                "--warmups", "1", "--scale", "0", "--batch-size", "4096", "--work-dir", dir.toString()});
        b.run();
        List<Measurements.Result> results = b.results();
        assertEquals(1, results.size());
        assertEquals(Benchmark.DIRECT, results.get(0).path());
        assertEquals(10_000, results.get(0).rowsPerRun());
        // the warm-up went through the proxy: direct wire bytes were counted
        assertEquals(false, Double.isNaN(results.get(0).wireBytesPerRow()));
    }

    /**
     * The wire ceiling replays what the direct path's warm-up recorded into a fresh emulator: every recorded row must
     * be decoded again (the replay patches the transaction descriptors the new server hands out).
     */
    @ParameterizedTest
    @EnumSource(Shape.class)
    void wireCeilingReplaysEveryRecordedRow(Shape shape, @TempDir Path dir) throws Exception {
        Benchmark b = new Benchmark();
        b.parse(new String[] {"--rows", "10000", "--shape", shape.name(), "--paths", "direct,wire", "--runs", "2",
                "--warmups", "1", "--scale", "0", "--batch-size", "4096", "--work-dir", dir.toString()});
        b.run();
        List<Measurements.Result> results = b.results();
        assertEquals(List.of(Benchmark.DIRECT, Benchmark.WIRE_DIRECT), results.stream().map(Measurements.Result::path)
                .toList());
        assertEquals(10_000, results.get(1).rowsPerRun());
        assertEquals(results.get(0).wireBytesPerRow(), results.get(1).wireBytesPerRow(), 1e-9,
                "the replay sends exactly the recorded bytes");
    }
}
