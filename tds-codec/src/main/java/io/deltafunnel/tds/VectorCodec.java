package io.deltafunnel.tds;

import java.util.Locale;

/**
 * The bytes of one SQL Server 2025 {@code vector} value as it travels in TDS ({@link TypeId#VECTOR}, with the
 * VECTORSUPPORT feature): an 8-byte header (BYTE layout marker 0xA9, BYTE layout version 0x01, USHORT dimension
 * count, BYTE dimension type, 3 reserved zero bytes), then the elements little-endian. Only float32 elements
 * ({@link #DIMENSION_FLOAT32}) are supported: float16 ({@link #DIMENSION_FLOAT16}) is a preview feature of SQL Server
 * 2025 and is refused.
 *
 * <p>Also the JSON-array text form of a vector ({@link #toJson}, {@link #parseJson}), the form SQL Server converts
 * to and from character types and sends to clients without the feature.
 */
public final class VectorCodec {
    public static final int HEADER_LENGTH = 8;
    public static final int LAYOUT_MARKER = 0xA9;
    public static final int LAYOUT_VERSION = 0x01;
    /** Dimension type byte of TYPE_INFO and of the value header: 4-byte IEEE floats. */
    public static final int DIMENSION_FLOAT32 = 0x00;
    /** Dimension type byte of float16 (2-byte) elements: refused here. */
    public static final int DIMENSION_FLOAT16 = 0x01;
    /** The most dimensions a float32 vector may have (SQL Server's documented limit). */
    public static final int MAX_FLOAT32_DIMENSIONS = 1998;

    private VectorCodec() {
    }

    /** TYPE_INFO max length of a float32 {@code vector(dimensions)}: header + 4 bytes per element. */
    public static int maxLength(int dimensions) {
        return HEADER_LENGTH + 4 * dimensions;
    }

    /** The dimension count a float32 TYPE_INFO max length describes. */
    public static int dimensions(int maxLength) {
        if (maxLength < HEADER_LENGTH + 4 || (maxLength - HEADER_LENGTH) % 4 != 0) {
            throw new TdsProtocolException("vector TYPE_INFO length " + maxLength + " is not 8 + 4 * n");
        }
        return (maxLength - HEADER_LENGTH) / 4;
    }

    public static byte[] encode(float[] v) {
        if (v.length < 1 || v.length > MAX_FLOAT32_DIMENSIONS) {
            throw new IllegalArgumentException("a float32 vector has 1 to " + MAX_FLOAT32_DIMENSIONS
                    + " dimensions, not " + v.length);
        }
        byte[] b = new byte[maxLength(v.length)];
        writeHeader(b, 0, v.length);
        int at = HEADER_LENGTH;
        for (float f : v) {
            int bits = Float.floatToRawIntBits(f);
            b[at++] = (byte) bits;
            b[at++] = (byte) (bits >>> 8);
            b[at++] = (byte) (bits >>> 16);
            b[at++] = (byte) (bits >>> 24);
        }
        return b;
    }

    /** Writes the 8-byte header of a float32 vector of {@code dimensions} elements at {@code at}. */
    public static void writeHeader(byte[] b, int at, int dimensions) {
        b[at] = (byte) LAYOUT_MARKER;
        b[at + 1] = (byte) LAYOUT_VERSION;
        b[at + 2] = (byte) dimensions;
        b[at + 3] = (byte) (dimensions >>> 8);
        b[at + 4] = (byte) DIMENSION_FLOAT32;
        b[at + 5] = 0;
        b[at + 6] = 0;
        b[at + 7] = 0;
    }

    public static float[] decode(byte[] b) {
        if (b.length < HEADER_LENGTH) {
            throw new TdsProtocolException("vector value of " + b.length + " bytes is shorter than its header");
        }
        if ((b[0] & 0xFF) != LAYOUT_MARKER || (b[1] & 0xFF) != LAYOUT_VERSION) {
            throw new TdsProtocolException(String.format("vector value header %02X %02X, expected A9 01",
                    b[0] & 0xFF, b[1] & 0xFF));
        }
        int n = (b[2] & 0xFF) | (b[3] & 0xFF) << 8;
        int type = b[4] & 0xFF;
        if (type != DIMENSION_FLOAT32) {
            throw new TdsProtocolException("vector dimension type 0x" + Integer.toHexString(type)
                    + " is not float32 (float16 vectors are a SQL Server preview feature and are not supported)");
        }
        if (b.length != maxLength(n)) {
            throw new TdsProtocolException("vector value of " + b.length + " bytes for " + n + " float32 dimensions");
        }
        float[] v = new float[n];
        int at = HEADER_LENGTH;
        for (int i = 0; i < n; i++) {
            int bits = (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8 | (b[at + 2] & 0xFF) << 16 | (b[at + 3] & 0xFF) << 24;
            v[i] = Float.intBitsToFloat(bits);
            at += 4;
        }
        return v;
    }

    /**
     * The vector as SQL Server converts it to a character type: a JSON array, each element in scientific notation
     * with 7 decimals and a signed 3-digit exponent ({@code [1.0000000e+000,-2.5000000e-001]}).
     */
    public static String toJson(float[] v) {
        StringBuilder sb = new StringBuilder(v.length * 15 + 2).append('[');
        for (int i = 0; i < v.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            String s = String.format(Locale.ROOT, "%.7e", (double) v[i]);
            int e = s.indexOf('e');
            int exp = Integer.parseInt(s.substring(e + 1));
            sb.append(s, 0, e).append('e').append(exp < 0 ? '-' : '+')
                    .append(String.format(Locale.ROOT, "%03d", Math.abs(exp)));
        }
        return sb.append(']').toString();
    }

    /**
     * The elements of a JSON array of numbers (whitespace around the array and its elements allowed), or null when
     * the text is not such an array. Values that do not fit a float32 (infinite after rounding) are not numbers here.
     */
    public static float[] parseJson(String text) {
        String s = text.trim();
        if (s.length() < 2 || s.charAt(0) != '[' || s.charAt(s.length() - 1) != ']') {
            return null;
        }
        String body = s.substring(1, s.length() - 1).trim();
        if (body.isEmpty()) {
            return new float[0];
        }
        String[] parts = body.split(",", -1);
        float[] v = new float[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i].trim();
            if (!p.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?")) {
                return null;
            }
            float f = Float.parseFloat(p);
            if (Float.isInfinite(f)) {
                return null;
            }
            v[i] = f;
        }
        return v;
    }
}
