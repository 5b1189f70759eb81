package io.deltafunnel.delta;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Decodes Delta's deletion-vector bitmap: magic number 1681511377 followed by a 64-bit Roaring bitmap in the
 * "portable" serialization (bucket count, then per bucket a 32-bit high key and a standard 32-bit Roaring bitmap).
 * All numbers little-endian. Returns the row indexes in ascending order.
 */
final class RoaringBitmapArray {

    static final int MAGIC = 1681511377;
    /** The older "native" layout Delta can also read: bitmap count, then per bitmap its size and a 32-bit bitmap. */
    static final int NATIVE_MAGIC = 1681511376;
    private static final int SERIAL_COOKIE_NO_RUN = 12346;
    private static final int SERIAL_COOKIE = 12347;
    private static final int NO_OFFSET_THRESHOLD = 4;

    private RoaringBitmapArray() {
    }

    static long[] decode(byte[] data, int offset, int length) {
        ByteBuffer buf = ByteBuffer.wrap(data, offset, length).slice().order(ByteOrder.LITTLE_ENDIAN);
        int magic = buf.getInt();
        LongList out = new LongList();
        if (magic == MAGIC) {
            long buckets = buf.getLong();
            if (buckets < 0 || buckets > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("bad bucket count " + buckets);
            }
            for (long b = 0; b < buckets; b++) {
                long high = Integer.toUnsignedLong(buf.getInt()) << 32;
                readBitmap32(buf, high, out);
            }
        } else if (magic == NATIVE_MAGIC) {
            int bitmaps = buf.getInt();
            for (int b = 0; b < bitmaps; b++) {
                int size = buf.getInt();
                int start = buf.position();
                readBitmap32(buf, (long) b << 32, out);
                buf.position(start + size);
            }
        } else {
            throw new IllegalArgumentException("not a Delta deletion vector: magic number " + magic + ", expected " + MAGIC);
        }
        long[] result = out.toArray();
        for (int i = 1; i < result.length; i++) {
            if (result[i] <= result[i - 1]) {
                Arrays.sort(result);
                break;
            }
        }
        return result;
    }

    private static void readBitmap32(ByteBuffer buf, long high, LongList out) {
        int cookie = buf.getInt();
        int size;
        byte[] runFlags = null;
        if ((cookie & 0xFFFF) == SERIAL_COOKIE) {
            size = (cookie >>> 16) + 1;
            runFlags = new byte[(size + 7) / 8];
            buf.get(runFlags);
        } else if (cookie == SERIAL_COOKIE_NO_RUN) {
            size = buf.getInt();
        } else {
            throw new IllegalArgumentException("bad Roaring cookie " + cookie);
        }
        int[] keys = new int[size];
        int[] cardinalities = new int[size];
        for (int i = 0; i < size; i++) {
            keys[i] = Short.toUnsignedInt(buf.getShort());
            cardinalities[i] = Short.toUnsignedInt(buf.getShort()) + 1;
        }
        if (runFlags == null || size >= NO_OFFSET_THRESHOLD) {
            buf.position(buf.position() + 4 * size); // container offsets: containers follow in order anyway
        }
        for (int i = 0; i < size; i++) {
            long base = high | ((long) keys[i] << 16);
            boolean run = runFlags != null && (runFlags[i / 8] & (1 << (i % 8))) != 0;
            if (run) {
                int runs = Short.toUnsignedInt(buf.getShort());
                for (int r = 0; r < runs; r++) {
                    int start = Short.toUnsignedInt(buf.getShort());
                    int len = Short.toUnsignedInt(buf.getShort());
                    for (int v = start; v <= start + len; v++) {
                        out.add(base | v);
                    }
                }
            } else if (cardinalities[i] <= 4096) {
                for (int k = 0; k < cardinalities[i]; k++) {
                    out.add(base | Short.toUnsignedInt(buf.getShort()));
                }
            } else {
                for (int w = 0; w < 1024; w++) {
                    long word = buf.getLong();
                    while (word != 0) {
                        int bit = Long.numberOfTrailingZeros(word);
                        out.add(base | (w * 64L + bit));
                        word &= word - 1;
                    }
                }
            }
        }
    }

    private static final class LongList {
        private long[] values = new long[16];
        private int size;

        void add(long v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }

        long[] toArray() {
            return Arrays.copyOf(values, size);
        }
    }
}
