package io.deltafunnel.query;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.UUID;

/**
 * A test-side writer of the Parquet Variant binary encoding (apache/parquet-format {@code VariantEncoding.md}),
 * written from the specification independently of the decoder, to generate variant values and metadata: every
 * primitive type, short and long strings, objects and arrays with chosen id / offset widths and {@code is_large}.
 */
public final class VariantBytes {

    private VariantBytes() {
    }

    /** Metadata (version 1) with the given dictionary; {@code sorted} sets the sorted_strings bit. */
    public static byte[] metadata(boolean sorted, int offsetSize, String... keys) {
        ByteArrayOutputStream strings = new ByteArrayOutputStream();
        int[] offsets = new int[keys.length + 1];
        for (int i = 0; i < keys.length; i++) {
            byte[] k = keys[i].getBytes(StandardCharsets.UTF_8);
            strings.writeBytes(k);
            offsets[i + 1] = offsets[i] + k.length;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(1 | (sorted ? 1 << 4 : 0) | ((offsetSize - 1) << 6));
        le(out, keys.length, offsetSize);
        for (int o : offsets) {
            le(out, o, offsetSize);
        }
        out.writeBytes(strings.toByteArray());
        return out.toByteArray();
    }

    public static byte[] metadata(String... keys) {
        return metadata(true, 1, keys);
    }

    public static byte[] primitive(int typeId, byte[] data) {
        byte[] v = new byte[1 + data.length];
        v[0] = (byte) (typeId << 2);
        System.arraycopy(data, 0, v, 1, data.length);
        return v;
    }

    public static byte[] nul() {
        return primitive(0, new byte[0]);
    }

    public static byte[] bool(boolean b) {
        return primitive(b ? 1 : 2, new byte[0]);
    }

    public static byte[] int8(int v) {
        return primitive(3, le(v, 1));
    }

    public static byte[] int16(int v) {
        return primitive(4, le(v, 2));
    }

    public static byte[] int32(int v) {
        return primitive(5, le(v, 4));
    }

    public static byte[] int64(long v) {
        return primitive(6, le(v, 8));
    }

    public static byte[] dbl(double d) {
        return primitive(7, le(Double.doubleToRawLongBits(d), 8));
    }

    public static byte[] flt(float f) {
        return primitive(14, le(Float.floatToRawIntBits(f), 4));
    }

    public static byte[] decimal4(int unscaled, int scale) {
        return primitive(8, concat(new byte[] {(byte) scale}, le(unscaled, 4)));
    }

    public static byte[] decimal8(long unscaled, int scale) {
        return primitive(9, concat(new byte[] {(byte) scale}, le(unscaled, 8)));
    }

    public static byte[] decimal16(BigInteger unscaled, int scale) {
        byte[] be = unscaled.toByteArray();
        byte[] le = new byte[16];
        for (int i = 0; i < 16; i++) {
            int from = be.length - 1 - i;
            le[i] = from >= 0 ? be[from] : (byte) (unscaled.signum() < 0 ? 0xFF : 0);
        }
        return primitive(10, concat(new byte[] {(byte) scale}, le));
    }

    public static byte[] date(int days) {
        return primitive(11, le(days, 4));
    }

    public static byte[] timestamp(long micros) {
        return primitive(12, le(micros, 8));
    }

    public static byte[] timestampNtz(long micros) {
        return primitive(13, le(micros, 8));
    }

    public static byte[] binary(byte[] b) {
        return primitive(15, concat(le(b.length, 4), b));
    }

    /** A long string (primitive type 16), whatever its length. */
    public static byte[] string(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return primitive(16, concat(le(b.length, 4), b));
    }

    /** A short string (basic type 1), at most 63 bytes. */
    public static byte[] shortString(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length > 63) {
            throw new IllegalArgumentException("short strings hold at most 63 bytes");
        }
        return concat(new byte[] {(byte) (1 | (b.length << 2))}, b);
    }

    public static byte[] timeNtz(long micros) {
        return primitive(17, le(micros, 8));
    }

    public static byte[] timestampNanos(long nanos) {
        return primitive(18, le(nanos, 8));
    }

    public static byte[] timestampNtzNanos(long nanos) {
        return primitive(19, le(nanos, 8));
    }

    public static byte[] uuid(UUID u) {
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (u.getMostSignificantBits() >>> (56 - 8 * i));
            b[8 + i] = (byte) (u.getLeastSignificantBits() >>> (56 - 8 * i));
        }
        return primitive(20, b);
    }

    /**
     * An object of fields {@code ids[i] -> values[i]}; the ids must already be in key order (the caller's job, as the
     * specification says). The values are laid out in reverse order when {@code reverseLayout}, so that the offsets
     * are not monotonic (allowed by the specification).
     */
    public static byte[] object(int idSize, int offsetSize, boolean large, boolean reverseLayout, int[] ids,
            byte[]... values) {
        int n = ids.length;
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        int[] offsets = new int[n];
        for (int k = 0; k < n; k++) {
            int i = reverseLayout ? n - 1 - k : k;
            offsets[i] = data.size();
            data.writeBytes(values[i]);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(2 | (((large ? 1 : 0) << 4 | (idSize - 1) << 2 | (offsetSize - 1)) << 2));
        le(out, n, large ? 4 : 1);
        for (int id : ids) {
            le(out, id, idSize);
        }
        for (int o : offsets) {
            le(out, o, offsetSize);
        }
        le(out, data.size(), offsetSize);
        out.writeBytes(data.toByteArray());
        return out.toByteArray();
    }

    public static byte[] object(int[] ids, byte[]... values) {
        return object(1, 1, false, false, ids, values);
    }

    public static byte[] array(int offsetSize, boolean large, byte[]... elements) {
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(3 | (((large ? 1 : 0) << 2 | (offsetSize - 1)) << 2));
        le(out, elements.length, large ? 4 : 1);
        for (byte[] e : elements) {
            le(out, data.size(), offsetSize);
            data.writeBytes(e);
        }
        le(out, data.size(), offsetSize);
        out.writeBytes(data.toByteArray());
        return out.toByteArray();
    }

    public static byte[] array(byte[]... elements) {
        return array(1, false, elements);
    }

    /** A DuckDB BLOB literal of the bytes: {@code from_hex('..')}. */
    public static String sql(byte[] bytes) {
        return "from_hex('" + HexFormat.of().formatHex(bytes) + "')";
    }

    static byte[] le(long v, int size) {
        byte[] b = new byte[size];
        for (int i = 0; i < size; i++) {
            b[i] = (byte) (v >>> (8 * i));
        }
        return b;
    }

    private static void le(ByteArrayOutputStream out, long v, int size) {
        out.writeBytes(le(v, size));
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] r = new byte[a.length + b.length];
        System.arraycopy(a, 0, r, 0, a.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
