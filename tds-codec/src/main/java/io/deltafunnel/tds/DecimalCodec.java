package io.deltafunnel.tds;

import java.math.BigDecimal;
import java.math.BigInteger;

/** DECIMALN/NUMERICN values: sign byte (1 = positive) then an unsigned little-endian magnitude. */
public final class DecimalCodec {
    private DecimalCodec() {
    }

    /** Wire length (including the sign byte) of a decimal of the given precision. */
    public static int lengthForPrecision(int precision) {
        if (precision <= 9) {
            return 5;
        }
        if (precision <= 19) {
            return 9;
        }
        if (precision <= 28) {
            return 13;
        }
        return 17;
    }

    /** Decodes {@code len} bytes (sign + magnitude). */
    public static BigDecimal read(TdsReader r, int len, int scale) {
        int sign = r.readUnsignedByte();
        int n = len - 1;
        if (n <= 8) {
            long mag = r.readUnsignedLongBytes(n);
            if (mag >= 0) {
                return BigDecimal.valueOf(sign == 0 ? -mag : mag, scale);
            }
            byte[] be = new byte[9];
            for (int i = 0; i < 8; i++) {
                be[8 - i] = (byte) (mag >>> (8 * i));
            }
            BigInteger bi = new BigInteger(be);
            return new BigDecimal(sign == 0 ? bi.negate() : bi, scale);
        }
        byte[] le = r.readBytes(n);
        byte[] be = new byte[n + 1];
        for (int i = 0; i < n; i++) {
            be[n - i] = le[i];
        }
        BigInteger bi = new BigInteger(be);
        return new BigDecimal(sign == 0 ? bi.negate() : bi, scale);
    }

    /**
     * Writes length byte, sign and magnitude. The value must already have the target scale and fit in 38 digits.
     */
    public static void write(TdsWriter w, BigDecimal value, int precision) {
        int len = lengthForPrecision(precision);
        BigInteger unscaled = value.unscaledValue();
        if (unscaled.bitLength() > 127 || (len < 17 && unscaled.abs().bitLength() > 8 * (len - 1))) {
            throw new IllegalArgumentException("decimal " + value + " does not fit precision " + precision);
        }
        byte[] wire = new byte[len];
        int n = encode(unscaled.longValue(), unscaled.shiftRight(64).longValue(), len, wire, 0);
        w.writeByte(len);
        w.writeBytes(wire, 0, n);
    }

    /**
     * Encodes the unscaled value given as a 128-bit two's complement number ({@code hi:lo}) as sign byte (1 =
     * positive) plus the {@code len - 1} low bytes of its magnitude, little-endian, into {@code out} (the DECIMALN
     * value without its length byte). The caller guarantees that the magnitude fits {@code len - 1} bytes.
     *
     * @return the number of bytes written: {@code len}
     */
    public static int encode(long lo, long hi, int len, byte[] out, int at) {
        boolean negative = hi < 0;
        if (negative) {
            lo = ~lo + 1;
            hi = ~hi + (lo == 0 ? 1 : 0);
        }
        out[at] = (byte) (negative ? 0 : 1);
        int magnitude = len - 1;
        for (int i = 0; i < magnitude; i++) {
            out[at + 1 + i] = (byte) (i < 8 ? lo >>> (8 * i) : hi >>> (8 * (i - 8)));
        }
        return len;
    }
}
