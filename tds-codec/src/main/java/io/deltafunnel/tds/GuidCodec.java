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
        b[0] = be[3];
        b[1] = be[2];
        b[2] = be[1];
        b[3] = be[0];
        b[4] = be[5];
        b[5] = be[4];
        b[6] = be[7];
        b[7] = be[6];
        System.arraycopy(be, 8, b, 8, 8);
        return b;
    }
}
