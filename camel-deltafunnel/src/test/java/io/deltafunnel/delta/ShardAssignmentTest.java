package io.deltafunnel.delta;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.zip.CRC32;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.deltafunnel.delta.DeltaTableWriter.commitInfo;
import static io.deltafunnel.delta.DeltaTableWriter.field;
import static io.deltafunnel.delta.DeltaTableWriter.metadata;
import static io.deltafunnel.delta.DeltaTableWriter.prim;
import static io.deltafunnel.delta.DeltaTableWriter.protocol;
import static io.deltafunnel.delta.DeltaTableWriter.schema;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The file assignment of a sharded load ({@link ShardFilter}): keyed by decoded path, so that shards that rebuild the
 * snapshot from different log segments agree; balanced by rows (or bytes).
 */
class ShardAssignmentTest extends DuckDbTestSupport {

    static final String SCHEMA = schema(field("id", prim("long")));

    /** Rows of the 16 files of the generated table: uneven on purpose. */
    static final int[] ROWS = {500, 20, 300, 45, 120, 800, 60, 75, 210, 33, 400, 90, 150, 10, 260, 640};

    private static String add(String path, long size, Long numRecords) {
        return "{\"add\":{\"path\":\"" + path + "\",\"partitionValues\":{},\"size\":" + size
                + ",\"modificationTime\":1700000000000,\"dataChange\":true"
                + (numRecords == null ? "" : ",\"stats\":\"{\\\"numRecords\\\":" + numRecords + "}\"") + "}}";
    }

    /** A 16-file table; with {@code stats} the adds carry {@code stats.numRecords}. */
    private DeltaTableWriter sixteenFiles(String name, boolean stats) {
        DeltaTableWriter t = table(name);
        List<String> actions = new ArrayList<>(List.of(commitInfo(null), protocol(1, 2), metadata(SCHEMA)));
        long first = 0;
        for (int i = 0; i < ROWS.length; i++) {
            long size = t.dataFile("f" + i + ".parquet", "SELECT range + " + first + " AS id FROM range(" + ROWS[i]
                    + ")");
            actions.add(add("f" + i + ".parquet", size, stats ? (long) ROWS[i] : null));
            first += ROWS[i];
        }
        t.commit(0, actions.toArray(String[]::new));
        return t;
    }

    private static long crcShard(String s, int n) {
        CRC32 crc = new CRC32();
        crc.update(s.getBytes(StandardCharsets.UTF_8));
        return Math.floorMod(crc.getValue(), (long) n);
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4})
    void aSixteenFileTableIsSplitWithinAQuarterOfTheMeanByRows(int n) throws Exception {
        DeltaSnapshot s = DeltaLog.snapshot(conn, sixteenFiles("t", true).root.toString(), null, null);
        assertTrue(s.files().stream().allMatch(f -> f.numRecords() != null), "stats.numRecords is read");
        Map<String, Integer> assignment = ShardFilter.assign(s.files(), n);
        assertEquals(16, assignment.size());
        long[] rows = new long[n];
        for (int i = 0; i < ROWS.length; i++) {
            rows[assignment.get("f" + i + ".parquet")] += ROWS[i];
        }
        double mean = java.util.Arrays.stream(ROWS).sum() / (double) n;
        for (int shard = 0; shard < n; shard++) {
            assertTrue(rows[shard] <= 1.25 * mean, "shard " + shard + " has " + rows[shard] + " rows, mean " + mean
                    + ": " + java.util.Arrays.toString(rows));
        }
        // the rows the shards' views read add up to the table, each row once
        long total = 0;
        Set<String> ids = new TreeSet<>();
        for (int shard = 0; shard < n; shard++) {
            DeltaViews.register(conn, List.of(new DeltaTableSpec("v", s.tablePath(), s.version(), null)), "v",
                    ShardFilter.of(shard, n, assignment));
            List<String> part = rows("SELECT id FROM v");
            total += part.size();
            ids.addAll(part);
            assertEquals(rows[shard], part.size());
        }
        assertEquals(java.util.Arrays.stream(ROWS).sum(), total);
        assertEquals(total, ids.size());
        assertEquals(assignment, ShardFilter.assign(DeltaLog.snapshot(conn, s.tablePath(), null, null).files(), n),
                "the same snapshot gives the same assignment");
    }

    @Test
    void withoutStatisticsTheSplitIsByBytes() throws Exception {
        DeltaSnapshot s = DeltaLog.snapshot(conn, sixteenFiles("t", false).root.toString(), null, null);
        assertTrue(s.files().stream().allMatch(f -> f.numRecords() == null));
        int n = 4;
        Map<String, Integer> assignment = ShardFilter.assign(s.files(), n);
        long[] bytes = new long[n];
        long all = 0;
        for (AddFile f : s.files()) {
            bytes[assignment.get(f.path())] += f.size();
            all += f.size();
        }
        for (long b : bytes) {
            assertTrue(b <= 1.25 * all / n, java.util.Arrays.toString(bytes) + " of " + all);
        }
    }

    @Test
    void greedyLargestFirstOntoTheLeastLoadedShardWithDeterministicTies() {
        List<AddFile> files = new ArrayList<>();
        for (String name : List.of("e", "d", "c", "b", "a")) {
            files.add(new AddFile(name, "/t/" + name, Map.of(), 100, 0, null, 10L));
        }
        files.add(new AddFile("big", "/t/big", Map.of(), 1, 0, null, 30L));
        // a path live twice (two deletion vectors) counts once, with both weights, and goes to one shard
        files.add(new AddFile("dv", "/t/dv", Map.of(), 1, 0, new DeletionVectorDescriptor("i", "x", null, 1, 2), 5L));
        files.add(new AddFile("dv", "/t/dv", Map.of(), 1, 0, new DeletionVectorDescriptor("i", "y", null, 1, 1), 5L));
        Map<String, Integer> a = ShardFilter.assign(files, 2);
        Map<Integer, Long> load = new HashMap<>();
        Map<String, Long> weight = Map.of("a", 10L, "b", 10L, "c", 10L, "d", 10L, "e", 10L, "big", 30L, "dv", 7L);
        a.forEach((path, shard) -> load.merge(shard, weight.get(path), Long::sum));
        assertEquals(Map.of("big", 0, "a", 1, "b", 1, "c", 1, "d", 0, "e", 1, "dv", 0), a);
        assertEquals(Map.of(0, 47L, 1, 40L), load);
    }

    @Test
    void aCheckpointThatReEncodesPathsGivesEveryFileToExactlyOneShard() throws Exception {
        DeltaTableWriter t = table("t");
        // the commit encodes '=' and ' ', the checkpoint written after planning only the space: one file, two texts
        List<String> commit = new ArrayList<>(List.of(commitInfo(null), protocol(1, 2), metadata(SCHEMA)));
        List<String> checkpoint = new ArrayList<>(List.of(protocol(1, 2), metadata(SCHEMA)));
        for (int i = 0; i < 12; i++) {
            long size = t.dataFile("p=a b/f" + i + ".parquet", "SELECT " + i + " AS id");
            commit.add(add("p%3Da%20b/f" + i + ".parquet", size, 1L));
            checkpoint.add(add("p=a%20b/f" + i + ".parquet", size, 1L));
        }
        t.commit(0, commit.toArray(String[]::new));
        t.commit(1, commitInfo(null));
        String table = t.root.toString();
        // shard A rebuilds version 1 from the JSON commits (and the plan is made from it) ...
        DeltaSnapshot fromCommits = DeltaLog.snapshot(conn, table, 1L, null);
        int n = 2;
        Map<String, Integer> recorded = ShardFilter.assign(fromCommits.files(), n);
        t.classicCheckpoint(1, checkpoint.toArray(String[]::new));
        // ... shard B from the checkpoint, written in the meantime
        DeltaSnapshot fromCheckpoint = DeltaLog.snapshot(conn, table, 1L, null);
        assertNotEquals(fromCommits.files().get(0).path(), fromCheckpoint.files().get(0).path(),
                "the two segments write the paths differently");
        assertTrue(fromCommits.files().stream().anyMatch(f -> crcShard(f.path(), n)
                        != crcShard(f.path().replace("%3D", "="), n)),
                "some file hashes to another shard as written in the checkpoint (what the split by raw path got wrong)");
        Set<String> all = fromCommits.files().stream().map(f -> ShardFilter.fileKey(f.path()))
                .collect(Collectors.toCollection(TreeSet::new));
        for (Map<String, Integer> assignment : List.of(recorded, Map.<String, Integer>of())) {
            List<List<DeltaSnapshot>> segments = List.of(List.of(fromCommits, fromCheckpoint),
                    List.of(fromCheckpoint, fromCommits), List.of(fromCommits, fromCommits),
                    List.of(fromCheckpoint, fromCheckpoint));
            for (List<DeltaSnapshot> perShard : segments) {
                Map<String, Integer> times = new HashMap<>();
                for (int shard = 0; shard < n; shard++) {
                    for (AddFile f : ShardFilter.of(shard, n, assignment).select(perShard.get(shard).files())) {
                        times.merge(ShardFilter.fileKey(f.path()), 1, Integer::sum);
                    }
                }
                assertEquals(all, new TreeSet<>(times.keySet()), "the shards together read every file");
                assertTrue(times.values().stream().allMatch(c -> c == 1), "no file is read twice: " + times);
            }
        }
        // and the rows: shard 0 from the commits, shard 1 from the checkpoint, together the table once
        List<String> ids = new ArrayList<>();
        for (int shard = 0; shard < n; shard++) {
            DeltaViews.register(conn, List.of(new DeltaTableSpec("v", table, 1L, null)), "v",
                    ShardFilter.of(shard, n, recorded));
            ids.addAll(rows("SELECT id FROM v"));
        }
        assertEquals(12, ids.size());
        assertEquals(12, new TreeSet<>(ids).size());
    }
}
