package io.deltafunnel.delta;

import java.nio.ByteBuffer;
import java.util.UUID;

/** Z85 (ZeroMQ base-85) decoding as used by Delta deletion-vector descriptors. */
final class Z85 {

    private static final String ALPHABET =
            "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";
    private static final int[] DECODE = new int[128];

    static {
        java.util.Arrays.fill(DECODE, -1);
        for (int i = 0; i < ALPHABET.length(); i++) {
            DECODE[ALPHABET.charAt(i)] = i;
        }
    }

    private Z85() {
    }

    /** Decodes a Z85 string whose length is a multiple of 5 into 4 bytes per 5 characters. */
    static byte[] decode(String text) {
        if (text.length() % 5 != 0) {
            throw new IllegalArgumentException("Z85 text length " + text.length() + " is not a multiple of 5");
        }
        byte[] out = new byte[text.length() / 5 * 4];
        for (int i = 0, o = 0; i < text.length(); i += 5, o += 4) {
            long value = 0;
            for (int k = 0; k < 5; k++) {
                char c = text.charAt(i + k);
                int d = c < 128 ? DECODE[c] : -1;
                if (d < 0) {
                    throw new IllegalArgumentException("invalid Z85 character '" + c + "'");
                }
                value = value * 85 + d;
            }
            if (value > 0xFFFFFFFFL) {
                throw new IllegalArgumentException("Z85 group out of range");
            }
            out[o] = (byte) (value >>> 24);
            out[o + 1] = (byte) (value >>> 16);
            out[o + 2] = (byte) (value >>> 8);
            out[o + 3] = (byte) value;
        }
        return out;
    }

    /** Decodes the 20-character Z85 form of a UUID (16 bytes, big-endian). */
    static UUID decodeUuid(String text) {
        ByteBuffer buf = ByteBuffer.wrap(decode(text));
        return new UUID(buf.getLong(), buf.getLong());
    }
}
