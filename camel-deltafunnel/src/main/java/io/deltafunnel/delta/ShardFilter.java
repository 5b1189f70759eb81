package io.deltafunnel.delta;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32;

/**
 * Which data files one shard of a sharded load reads: shard {@code index} of {@code count} keeps the files whose
 * {@link #shardOf(String, int) stable hash} is {@code index}. The hash is
 * {@code floorMod(CRC32(UTF-8 bytes of the path as written in the Delta log), count)}, with the CRC32 as an unsigned
 * 32-bit value, so every process and every language computes the same split. A file keeps its deletion vector (both
 * are one {@code add} entry), and the same path live twice (with two deletion vectors) goes to one shard.
 *
 * <p>{@link #nothing()} keeps no file: a shard that is already done reads nothing but still gets views with the
 * right columns.
 */
public final class ShardFilter {

    private static final ShardFilter NOTHING = new ShardFilter(-1, 1);

    private final int index;
    private final int count;

    private ShardFilter(int index, int count) {
        this.index = index;
        this.count = count;
    }

    /**
     * Shard {@code index} of {@code count}.
     *
     * @throws IllegalArgumentException unless {@code count >= 1} and {@code 0 <= index < count}
     */
    public static ShardFilter of(int index, int count) {
        if (count < 1 || index < 0 || index >= count) {
            throw new IllegalArgumentException("shard index " + index + " is not in 0.." + (count - 1)
                    + " (shard count " + count + ")");
        }
        return new ShardFilter(index, count);
    }

    /** A filter that keeps no file. */
    public static ShardFilter nothing() {
        return NOTHING;
    }

    /** The shard of {@code path} (the {@code add}/{@code cdc}/{@code remove} path as written in the log). */
    public static int shardOf(String path, int count) {
        CRC32 crc = new CRC32();
        crc.update(path.getBytes(StandardCharsets.UTF_8));
        return (int) Math.floorMod(crc.getValue(), (long) count);
    }

    /** 0-based index of the shard; -1 for {@link #nothing()}. */
    public int index() {
        return index;
    }

    public int count() {
        return count;
    }

    /** Whether this shard reads the file at {@code path} (as written in the log). */
    public boolean keeps(String path) {
        return index >= 0 && shardOf(path, count) == index;
    }

    /** The files this shard reads, in their order. */
    public List<AddFile> select(List<AddFile> files) {
        return files.stream().filter(f -> keeps(f.path())).toList();
    }

    @Override
    public String toString() {
        return index < 0 ? "no files" : "shard " + index + "/" + count;
    }
}
