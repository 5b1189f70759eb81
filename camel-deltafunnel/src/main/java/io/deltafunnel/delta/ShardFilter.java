package io.deltafunnel.delta;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32;

/**
 * Which data files one shard of a sharded load reads. Files are keyed as the log's reconciliation keys them: by the
 * <b>percent-decoded</b> path ({@link #fileKey}), so that the same file written differently in two log segments (a
 * checkpoint that re-encodes paths) is one file.
 *
 * <ul>
 *   <li>With a recorded assignment ({@link #assign}, made once, when the plan is made, from the pinned snapshot, and
 *       stored in the plan): shard {@code index} keeps the files the assignment gives it. The assignment is balanced:
 *       by rows where every file has {@code stats.numRecords}, else by file size; largest first onto the least
 *       loaded shard.</li>
 *   <li>A file the assignment does not list (a change file, an add or remove of a later commit in
 *       {@code changes} mode), or no assignment at all: the stable hash
 *       {@code floorMod(CRC32(UTF-8 bytes of the decoded path), count)}, the CRC32 as an unsigned 32-bit value, so
 *       every process and every language computes the same split.</li>
 * </ul>
 *
 * A file keeps its deletion vector (both are one {@code add} entry), and the same path live twice (with two deletion
 * vectors) goes to one shard. {@link #nothing()} keeps no file: a shard that is already done reads nothing but still
 * gets views with the right columns.
 */
public final class ShardFilter {

    private static final ShardFilter NOTHING = new ShardFilter(-1, 1, Map.of());

    private final int index;
    private final int count;
    private final Map<String, Integer> assignment;

    private ShardFilter(int index, int count, Map<String, Integer> assignment) {
        this.index = index;
        this.count = count;
        this.assignment = assignment;
    }

    /**
     * Shard {@code index} of {@code count}, by the hash of each file's decoded path.
     *
     * @throws IllegalArgumentException unless {@code count >= 1} and {@code 0 <= index < count}
     */
    public static ShardFilter of(int index, int count) {
        return of(index, count, Map.of());
    }

    /**
     * Shard {@code index} of {@code count} with a recorded assignment (decoded path to shard, from {@link #assign});
     * files it does not list go by the hash.
     *
     * @throws IllegalArgumentException unless {@code count >= 1}, {@code 0 <= index < count} and every assigned
     *                                  shard is in range
     */
    public static ShardFilter of(int index, int count, Map<String, Integer> assignment) {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("shard index " + index + " is not in 0.." + (count - 1)
                    + " (shard count " + count + ")");
        }
        for (Map.Entry<String, Integer> e : assignment.entrySet()) {
            if (e.getValue() == null || e.getValue() < 0 || e.getValue() >= count) {
                throw new IllegalArgumentException("the recorded assignment gives " + e.getKey() + " to shard "
                        + e.getValue() + ", not in 0.." + (count - 1));
            }
        }
        return new ShardFilter(index, count, Map.copyOf(assignment));
    }

    /** A filter that keeps no file. */
    public static ShardFilter nothing() {
        return NOTHING;
    }

    /** How files are keyed: the path as the log writes it ({@code add}/{@code cdc}/{@code remove}), percent-decoded. */
    public static String fileKey(String path) {
        return TablePaths.percentDecode(path);
    }

    /** The shard of {@code path} by the hash of its {@linkplain #fileKey decoded} form. */
    public static int shardOf(String path, int count) {
        CRC32 crc = new CRC32();
        crc.update(fileKey(path).getBytes(StandardCharsets.UTF_8));
        return (int) Math.floorMod(crc.getValue(), (long) count);
    }

    /**
     * The balanced assignment of {@code files} (a snapshot's live files) to {@code count} shards, keyed by
     * {@linkplain #fileKey decoded path}: a path live twice counts once, with the weight of both entries. The weight
     * is the file's live rows ({@code stats.numRecords} less its deletion vector) when every file has
     * {@code numRecords}, else its size in bytes. Greedy: largest weight first (ties: the smaller decoded path),
     * onto the shard with the least weight so far (ties: the smaller index). Deterministic for a given snapshot.
     */
    public static Map<String, Integer> assign(List<AddFile> files, int count) {
        if (count < 1) {
            throw new IllegalArgumentException("shard count " + count);
        }
        boolean byRows = !files.isEmpty() && files.stream().allMatch(f -> f.numRecords() != null);
        Map<String, Long> weights = new TreeMap<>();
        for (AddFile f : files) {
            long w = byRows ? f.liveRecords() : Math.max(0, f.size());
            weights.merge(fileKey(f.path()), w, Long::sum);
        }
        List<Map.Entry<String, Long>> order = new ArrayList<>(weights.entrySet());
        order.sort(Comparator.<Map.Entry<String, Long>>comparingLong(Map.Entry::getValue).reversed()
                .thenComparing(Map.Entry::getKey));
        long[] load = new long[count];
        Map<String, Integer> out = new LinkedHashMap<>();
        for (Map.Entry<String, Long> e : order) {
            int best = 0;
            for (int s = 1; s < count; s++) {
                if (load[s] < load[best]) {
                    best = s;
                }
            }
            load[best] += e.getValue();
            out.put(e.getKey(), best);
        }
        return out;
    }

    /** 0-based index of the shard; -1 for {@link #nothing()}. */
    public int index() {
        return index;
    }

    public int count() {
        return count;
    }

    /** The recorded assignment (decoded path to shard); empty when the split is by hash alone. */
    public Map<String, Integer> assignment() {
        return assignment;
    }

    /** Whether this shard reads the file at {@code path} (as written in the log). */
    public boolean keeps(String path) {
        if (index < 0) {
            return false;
        }
        Integer assigned = assignment.isEmpty() ? null : assignment.get(fileKey(path));
        return (assigned != null ? assigned : shardOf(path, count)) == index;
    }

    /** The files this shard reads, in their order. */
    public List<AddFile> select(List<AddFile> files) {
        return files.stream().filter(f -> keeps(f.path())).toList();
    }

    @Override
    public String toString() {
        return index < 0 ? "no files" : "shard " + index + "/" + count
                + (assignment.isEmpty() ? "" : " (recorded assignment of " + assignment.size() + " files)");
    }
}
