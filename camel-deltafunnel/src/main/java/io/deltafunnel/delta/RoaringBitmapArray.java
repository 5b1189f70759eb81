package io.deltafunnel.delta;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.roaringbitmap.RoaringBitmap;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Decodes Delta's deletion-vector bitmap ("RoaringBitmapArray", PROTOCOL.md): a little-endian magic number, then
 * either the 64-bit Roaring bitmap in the portable serialization ({@value #MAGIC}: what
 * {@link Roaring64NavigableMap#deserializePortable} reads) or the older native layout ({@value #NATIVE_MAGIC}: a
 * bitmap count, then per bitmap its size and a standard 32-bit {@link RoaringBitmap}). The Roaring containers are
 * decoded by the org.roaringbitmap library. Returns the deleted row indexes in ascending order; malformed bytes fail
 * with an {@link IllegalArgumentException} that the caller reports as a corrupt log.
 */
final class RoaringBitmapArray {

    static final int MAGIC = 1681511377;
    /** The older "native" layout Delta can also read: bitmap count, then per bitmap its size and a 32-bit bitmap. */
    static final int NATIVE_MAGIC = 1681511376;

    private RoaringBitmapArray() {
    }

    static long[] decode(byte[] data, int offset, int length) {
        ByteBuffer buf = ByteBuffer.wrap(data, offset, length).slice().order(ByteOrder.LITTLE_ENDIAN);
        int magic = buf.getInt();
        if (magic == MAGIC) {
            Roaring64NavigableMap map = new Roaring64NavigableMap();
            try {
                map.deserializePortable(new DataInputStream(new ByteArrayInputStream(data, offset + 4, length - 4)));
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException("malformed deletion vector bitmap: " + e, e);
            }
            return map.toArray();
        }
        if (magic == NATIVE_MAGIC) {
            int bitmaps = buf.getInt();
            if (bitmaps < 0) {
                throw new IllegalArgumentException("bad bitmap count " + bitmaps);
            }
            Roaring64NavigableMap map = new Roaring64NavigableMap();
            for (int b = 0; b < bitmaps; b++) {
                int size = buf.getInt();
                int start = buf.position();
                RoaringBitmap bitmap = new RoaringBitmap();
                try {
                    bitmap.deserialize(buf.slice().order(ByteOrder.LITTLE_ENDIAN));
                } catch (IOException | RuntimeException e) {
                    throw new IllegalArgumentException("malformed 32-bit bitmap " + b + ": " + e, e);
                }
                long high = (long) b << 32;
                bitmap.forEach((int low) -> map.addLong(high | Integer.toUnsignedLong(low)));
                buf.position(start + size);
            }
            return map.toArray();
        }
        throw new IllegalArgumentException("not a Delta deletion vector: magic number " + magic + ", expected " + MAGIC);
    }
}
