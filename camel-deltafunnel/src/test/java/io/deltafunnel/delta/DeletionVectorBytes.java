package io.deltafunnel.delta;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.zip.CRC32;

/**
 * Test-side writer of Delta deletion vectors: the RoaringBitmapArray format (magic + 64-bit portable Roaring), the
 * on-disk DV file layout, and Z85 encoding (inline vectors, UUIDs of relative paths).
 */
final class DeletionVectorBytes {

    private static final String Z85 = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

    enum Containers { ARRAY_OR_BITMAP, RUNS }

    private DeletionVectorBytes() {
    }

    static byte[] bitmap(Containers style, long... rows) {
        TreeMap<Long, TreeSet<Integer>> buckets = new TreeMap<>();
        for (long r : rows) {
            buckets.computeIfAbsent(r >>> 32, k -> new TreeSet<>()).add((int) r);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteBuffer head = le(12);
        head.putInt(RoaringBitmapArray.MAGIC);
        head.putLong(buckets.size());
        out.writeBytes(head.array());
        for (var bucket : buckets.entrySet()) {
            ByteBuffer key = le(4);
            key.putInt(bucket.getKey().intValue());
            out.writeBytes(key.array());
            out.writeBytes(bitmap32(style, bucket.getValue()));
        }
        return out.toByteArray();
    }

    private static byte[] bitmap32(Containers style, TreeSet<Integer> lows) {
        TreeMap<Integer, List<Integer>> containers = new TreeMap<>();
        for (int v : lows) {
            containers.computeIfAbsent(v >>> 16, k -> new ArrayList<>()).add(v & 0xFFFF);
        }
        int size = containers.size();
        List<byte[]> bodies = new ArrayList<>();
        for (List<Integer> values : containers.values()) {
            if (style == Containers.RUNS) {
                List<int[]> runs = new ArrayList<>();
                for (int v : values) {
                    if (!runs.isEmpty() && runs.get(runs.size() - 1)[1] == v - 1) {
                        runs.get(runs.size() - 1)[1] = v;
                    } else {
                        runs.add(new int[] {v, v});
                    }
                }
                ByteBuffer b = le(2 + 4 * runs.size());
                b.putShort((short) runs.size());
                for (int[] run : runs) {
                    b.putShort((short) run[0]);
                    b.putShort((short) (run[1] - run[0]));
                }
                bodies.add(b.array());
            } else if (values.size() <= 4096) {
                ByteBuffer b = le(2 * values.size());
                values.forEach(v -> b.putShort((short) (int) v));
                bodies.add(b.array());
            } else {
                long[] words = new long[1024];
                for (int v : values) {
                    words[v >>> 6] |= 1L << (v & 63);
                }
                ByteBuffer b = le(8192);
                for (long w : words) {
                    b.putLong(w);
                }
                bodies.add(b.array());
            }
        }
        boolean runs = style == Containers.RUNS;
        boolean offsets = !runs || size >= 4;
        int headerSize = (runs ? 4 + (size + 7) / 8 : 8) + 4 * size + (offsets ? 4 * size : 0);
        ByteBuffer header = le(headerSize);
        if (runs) {
            header.putInt(12347 | ((size - 1) << 16));
            byte[] flags = new byte[(size + 7) / 8];
            java.util.Arrays.fill(flags, (byte) 0xFF);
            header.put(flags);
        } else {
            header.putInt(12346);
            header.putInt(size);
        }
        for (var c : containers.entrySet()) {
            header.putShort((short) (int) c.getKey());
            header.putShort((short) (c.getValue().size() - 1));
        }
        if (offsets) {
            int offset = headerSize;
            for (byte[] body : bodies) {
                header.putInt(offset);
                offset += body.length;
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(header.array());
        bodies.forEach(out::writeBytes);
        return out.toByteArray();
    }

    /** A DV file holding the given bitmaps; {@code offsets} receives each one's offset (of its size field). */
    static byte[] dvFile(List<byte[]> bitmaps, List<Integer> offsets) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(1);
        for (byte[] bitmap : bitmaps) {
            offsets.add(out.size());
            ByteBuffer size = ByteBuffer.allocate(4).putInt(bitmap.length);
            out.writeBytes(size.array());
            out.writeBytes(bitmap);
            CRC32 crc = new CRC32();
            crc.update(bitmap);
            out.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
        }
        return out.toByteArray();
    }

    static String z85(byte[] data) {
        int padded = (data.length + 3) / 4 * 4;
        byte[] in = java.util.Arrays.copyOf(data, padded);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < padded; i += 4) {
            long value = ((in[i] & 0xFFL) << 24) | ((in[i + 1] & 0xFFL) << 16) | ((in[i + 2] & 0xFFL) << 8) | (in[i + 3] & 0xFFL);
            char[] chars = new char[5];
            for (int k = 4; k >= 0; k--) {
                chars[k] = Z85.charAt((int) (value % 85));
                value /= 85;
            }
            sb.append(chars);
        }
        return sb.toString();
    }

    static String z85(UUID uuid) {
        return z85(ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits()).array());
    }

    private static ByteBuffer le(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }
}
