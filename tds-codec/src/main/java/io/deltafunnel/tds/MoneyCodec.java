package io.deltafunnel.tds;

import java.math.BigDecimal;

/** money (8 bytes: high int32 then low uint32, in units of 1/10000) and smallmoney (int32). */
public final class MoneyCodec {
    public static final BigDecimal MONEY_MIN = new BigDecimal("-922337203685477.5808");
    public static final BigDecimal MONEY_MAX = new BigDecimal("922337203685477.5807");
    public static final BigDecimal SMALLMONEY_MIN = new BigDecimal("-214748.3648");
    public static final BigDecimal SMALLMONEY_MAX = new BigDecimal("214748.3647");

    private MoneyCodec() {
    }

    public static BigDecimal read(TdsReader r, int len) {
        if (len == 4) {
            return BigDecimal.valueOf(r.readInt(), 4);
        }
        long high = r.readInt();
        long low = r.readUnsignedInt();
        return BigDecimal.valueOf(high << 32 | low, 4);
    }

    /** Writes the value (already scaled to 4 decimals and in range) without a length prefix. */
    public static void write(TdsWriter w, BigDecimal value, int len) {
        long units = value.setScale(4).unscaledValue().longValueExact();
        if (len == 4) {
            w.writeInt((int) units);
        } else {
            w.writeInt((int) (units >>> 32));
            w.writeInt((int) units);
        }
    }
}
