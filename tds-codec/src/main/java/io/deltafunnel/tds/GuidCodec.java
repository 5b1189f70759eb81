package io.deltafunnel.tds;

import java.util.UUID;

/** uniqueidentifier: Data1/Data2/Data3 little-endian, Data4 as is. */
public final class GuidCodec {
    private GuidCodec() {
    }

    public static UUID fromBytes(byte[] b) {
        long msb = (b[3] & 0xFFL) << 56 | (b[2] & 0xFFL) << 48 | (b[1] & 0xFFL) << 40 | (b[0] & 0xFFL) << 32
                | (b[5] & 0xFFL) << 24 | (b[4] & 0xFFL) << 16 | (b[7] & 0xFFL) << 8 | (b[6] & 0xFFL);
        long lsb = 0;
        for (int i = 8; i < 16; i++) {
            lsb = lsb << 8 | (b[i] & 0xFFL);
        }
        return new UUID(msb, lsb);
    }

    public static byte[] toBytes(UUID u) {
        byte[] be = new byte[16];
        long msb = u.getMostSignificantBits();
        long lsb = u.getLeastSignificantBits();
        for (int i = 0; i < 8; i++) {
            be[i] = (byte) (msb >>> (56 - 8 * i));
            be[8 + i] = (byte) (lsb >>> (56 - 8 * i));
        }
        byte[] b = new byte[16];
        fromBigEndian(be, 0, b, 0);
        return b;
    }

    /**
     * Reorders the 16 bytes of a UUID in RFC 4122 (big-endian) order, as Arrow's {@code arrow.uuid} stores it, into
     * the wire order of uniqueidentifier (Data1..Data3 little-endian, Data4 as is).
     */
    public static void fromBigEndian(byte[] be, int from, byte[] out, int to) {
        out[to] = be[from + 3];
        out[to + 1] = be[from + 2];
        out[to + 2] = be[from + 1];
        out[to + 3] = be[from];
        out[to + 4] = be[from + 5];
        out[to + 5] = be[from + 4];
        out[to + 6] = be[from + 7];
        out[to + 7] = be[from + 6];
        System.arraycopy(be, from + 8, out, to + 8, 8);
    }
}
