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
        byte[] be = unscaled.abs().toByteArray();
        int magLen = len - 1;
        int significant = be.length;
        int start = 0;
        while (significant > 0 && be[start] == 0) {
            start++;
            significant--;
        }
        if (significant > magLen) {
            throw new IllegalArgumentException("decimal " + value + " does not fit precision " + precision);
        }
        w.writeByte(len);
        w.writeByte(unscaled.signum() < 0 ? 0 : 1);
        for (int i = 0; i < magLen; i++) {
            int idx = be.length - 1 - i;
            w.writeByte(idx >= start ? be[idx] : 0);
        }
    }
}
