package io.deltafunnel.mssql.direct;

import static io.deltafunnel.mssql.direct.DirectEncoders.LE;
import static io.deltafunnel.mssql.direct.DirectEncoders.decimalLongs;
import static io.deltafunnel.mssql.direct.DirectEncoders.longs;
import static io.deltafunnel.mssql.direct.DirectEncoders.rawAddress;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Objects;

import io.deltafunnel.arrow.read.ColumnReader;
import io.deltafunnel.arrow.read.ValueKind;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.mssql.direct.DirectEncoders.Bounded;
import io.deltafunnel.mssql.direct.DirectEncoders.Encoder;
import io.deltafunnel.mssql.direct.DirectEncoders.LongSource;
import io.deltafunnel.mssql.direct.DirectEncoders.NullMarker;
import io.deltafunnel.tds.DecimalCodec;
import io.deltafunnel.tds.Pow10;
import io.deltafunnel.tds.TdsMessageWriter;
import io.deltafunnel.tds.TypeId;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.UInt8Vector;

/**
 * The {@link DirectEncoders} of the numeric targets: tinyint..bigint (INTN), bit (BITN), real/float (FLTN) and
 * decimal/numeric (DECIMALN) from Arrow integers, Bool, floats and decimals.
 */
final class NumericEncoders {

    private NumericEncoders() {
    }

    static Encoder integer(FieldVector v, ValueKind kind, BoundColumn column, FieldVector vector, int width) {
        if (kind == ValueKind.INTEGER && v instanceof IntVector && rawAddress(v, 4) != 0) {
            return new RawInteger(v, width, false);
        }
        if (kind == ValueKind.INTEGER && (v instanceof BigIntVector || v instanceof UInt8Vector)
                && rawAddress(v, 8) != 0) {
            return new RawInteger(v, width, true);
        }
        LongSource src = switch (kind) {
            case INTEGER, BOOLEAN -> longs(v);
            case DECIMAL -> decimalLongs(v, column, vector);
            default -> null;
        };
        if (src == null) {
            return null;
        }
        return new Bounded(v, NullMarker.BYTE, 9) {
            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(TypeId.INTN).writeByte(width);
            }

            @Override
            int put(byte[] b, int p, int row) {
                b[p] = (byte) width;
                LE.set(b, p + 1, src.get(row));
                return p + 1 + width;
            }
        };
    }

    /**
     * INTN from an Int32 or Int64 (UInt64 as its bits) vector read at its buffer's address
     * ({@link DirectEncoders#rawAddress}): the common integer column, a class of its own so that the row loop's call
     * to it is not shared with the encoders that call a per-source lambda.
     */
    static final class RawInteger extends Bounded {
        private final int width;
        private final boolean int64;
        private final long address;
        private final int count;

        RawInteger(FieldVector v, int width, boolean int64) {
            super(v, NullMarker.BYTE, 9);
            this.width = width;
            this.int64 = int64;
            this.address = rawAddress(v, int64 ? 8 : 4);
            this.count = v.getValueCount();
        }

        @Override
        void typeInfo(TdsMessageWriter w) throws IOException {
            w.writeByte(TypeId.INTN).writeByte(width);
        }

        @Override
        int put(byte[] b, int p, int row) {
            return write(b, p, Objects.checkIndex(row, count));
        }

        /** {@link #put} of a row already checked to be within the vector. */
        private int write(byte[] b, int p, int r) {
            b[p] = (byte) width;
            LE.set(b, p + 1, int64 ? MemoryUtil.getLong(address + 8L * r) : MemoryUtil.getInt(address + 4L * r));
            return p + 1 + width;
        }

        /** The bytes of a value: its length byte and the integer. */
        int size() {
            return 1 + width;
        }

        /**
         * {@link #put} of rows {@code row0 .. row0 + k - 1} at {@code cur[j]}, each position advanced past its value
         * ({@link ColumnTiles}); with {@code keep}, the 8 bytes at {@code pos[j + 1]} (the next row's start, which an
         * 8-byte store may reach) are kept as they were. {@link RawDecimal128} and {@link TemporalEncoders.DateDays}
         * have the same loop of their own: a loop shared through a common method would call {@code write} through
         * one call site for every class, which the JIT does not inline.
         */
        void putColumn(byte[] b, int[] cur, int[] pos, int row0, int k, boolean keep) {
            Objects.checkFromIndexSize(row0, k, count);
            for (int j = 0; j < k; j++) {
                if (mayBeNull && nulls.isNull(row0 + j)) {
                    b[cur[j]++] = 0; // the NULL marker: one byte, nothing past it
                    continue;
                }
                long kept = keep ? (long) LE.get(b, pos[j + 1]) : 0L;
                cur[j] = write(b, cur[j], row0 + j);
                if (keep) {
                    LE.set(b, pos[j + 1], kept);
                }
            }
        }
    }

    static Encoder bit(FieldVector v, ValueKind kind) {
        LongSource src = kind == ValueKind.BOOLEAN || kind == ValueKind.INTEGER ? longs(v) : null;
        if (src == null) {
            return null;
        }
        return new Bounded(v, NullMarker.BYTE, 2) {
            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(TypeId.BITN).writeByte(1);
            }

            @Override
            int put(byte[] b, int p, int row) {
                b[p] = 1;
                b[p + 1] = (byte) (src.get(row) != 0 ? 1 : 0);
                return p + 2;
            }
        };
    }

    /** FLTN 4 (real) or 8 (float); the value's IEEE bits. */
    static Encoder floating(FieldVector v, ValueKind kind, int width) {
        ArrowBuf d = v.getDataBuffer();
        LongSource bits;
        if (kind == ValueKind.INTEGER) {
            LongSource src = longs(v);
            bits = width == 8 ? r -> Double.doubleToRawLongBits(src.get(r))
                    : r -> Float.floatToRawIntBits(src.get(r));
        } else if (v instanceof Float8Vector) {
            // real from Float64: checked to be exactly representable
            bits = width == 8 ? r -> d.getLong((long) r * 8)
                    : r -> Float.floatToRawIntBits((float) d.getDouble((long) r * 8));
        } else if (v instanceof Float4Vector) {
            bits = width == 8 ? r -> Double.doubleToRawLongBits(d.getFloat((long) r * 4))
                    : r -> d.getInt((long) r * 4);
        } else if (v instanceof Float2Vector f2) {
            bits = width == 8 ? r -> Double.doubleToRawLongBits(f2.getValueAsFloat(r))
                    : r -> Float.floatToRawIntBits(f2.getValueAsFloat(r));
        } else {
            return null;
        }
        return new Bounded(v, NullMarker.BYTE, 9) {
            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(TypeId.FLTN).writeByte(width);
            }

            @Override
            int put(byte[] b, int p, int row) {
                b[p] = (byte) width;
                LE.set(b, p + 1, bits.get(row));
                return p + 1 + width;
            }
        };
    }

    // ---------------------------------------------------------------- decimal / numeric

    /** Wire length of DECIMALN for a precision (compact, as SQL Server itself sends it). */
    static int decimalLength(int precision) {
        return DecimalCodec.lengthForPrecision(precision);
    }

    static Encoder decimal(FieldVector v, ValueKind kind, BoundColumn column, FieldVector vector,
            TargetColumn t) {
        int precision = t.precision() == null ? 18 : t.precision();
        int scale = t.scale() == null ? 0 : t.scale();
        int len = decimalLength(precision);
        Int128Source src;
        if (kind == ValueKind.INTEGER) {
            LongSource longs = longs(v);
            src = scaledLongs(longs, scale);
        } else if (kind == ValueKind.DECIMAL && v instanceof UInt8Vector) {
            LongSource longs = longs(v);
            Int128Source signed = scaledLongs(longs, scale);
            src = (row, out) -> {
                long u = longs.get(row);
                if (u >= 0) {
                    signed.load(row, out);
                } else { // slow path: above Long.MAX_VALUE
                    out.set(new BigInteger(Long.toUnsignedString(u)).multiply(BigInteger.TEN.pow(scale)));
                }
            };
        } else if (kind == ValueKind.DECIMAL && (v instanceof DecimalVector || v instanceof Decimal256Vector)) {
            if (v instanceof DecimalVector dv && dv.getScale() == scale && rawAddress(v, 16) != 0) {
                return new RawDecimal128(v, len, precision, scale);
            }
            src = decimals(v, column.reader(vector), scale);
        } else {
            return null;
        }
        return new Bounded(v, NullMarker.BYTE, Math.max(10, 1 + len)) {
            private final Int128 value = new Int128();

            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                // DECIMALN for numeric too (the same encoding), as mssql-jdbc declares it
                w.writeByte(TypeId.DECIMALN).writeByte(len).writeByte(precision).writeByte(scale);
            }

            @Override
            int put(byte[] b, int p, int row) {
                src.load(row, value);
                b[p] = (byte) len;
                if (len <= 9) {
                    // precision <= 19: the magnitude fits the low 64 bits; sign byte (1 = positive), magnitude LE
                    boolean negative = value.hi < 0;
                    b[p + 1] = (byte) (negative ? 0 : 1);
                    LE.set(b, p + 2, negative ? -value.lo : value.lo);
                    return p + 1 + len;
                }
                return p + 1 + DecimalCodec.encode(value.lo, value.hi, len, b, p + 1);
            }
        };
    }

    /**
     * DECIMALN (5, 9, 13 or 17 bytes) from a Decimal128 vector of the target's scale read at its buffer's address:
     * the common decimal column, no rescale, the sign and the magnitude, its low 64 bits up to precision 19, else all
     * 128 (the producer has checked that the value has at most {@code precision} digits, so a 13-byte value's top
     * four magnitude bytes, stored past its end, are zeros the next value overwrites).
     */
    static final class RawDecimal128 extends Bounded {
        private final int len;
        private final int precision;
        private final int scale;
        private final long address;
        private final int count;

        RawDecimal128(FieldVector v, int len, int precision, int scale) {
            super(v, NullMarker.BYTE, len <= 9 ? 10 : 18);
            this.len = len;
            this.precision = precision;
            this.scale = scale;
            this.address = rawAddress(v, 16);
            this.count = v.getValueCount();
        }

        @Override
        void typeInfo(TdsMessageWriter w) throws IOException {
            w.writeByte(TypeId.DECIMALN).writeByte(len).writeByte(precision).writeByte(scale);
        }

        @Override
        int put(byte[] b, int p, int row) {
            return write(b, p, Objects.checkIndex(row, count));
        }

        /** {@link #put} of a row already checked to be within the vector. */
        private int write(byte[] b, int p, int r) {
            long at = address + 16L * r;
            long lo = MemoryUtil.getLong(at);
            long hi = MemoryUtil.getLong(at + 8);
            boolean negative = hi < 0;
            b[p] = (byte) len;
            b[p + 1] = (byte) (negative ? 0 : 1);
            LE.set(b, p + 2, negative ? -lo : lo);
            if (len > 9) {
                // the magnitude's high 64 bits (two's complement negation of the 128 bits when negative)
                LE.set(b, p + 10, negative ? (lo == 0 ? -hi : ~hi) : hi);
            }
            return p + 1 + len;
        }

        /** The bytes of a value: its length byte, the sign and the magnitude. */
        int size() {
            return 1 + len;
        }

        /** {@link #put} of {@code k} rows at once, as {@link RawInteger#putColumn}. */
        void putColumn(byte[] b, int[] cur, int[] pos, int row0, int k, boolean keep) {
            Objects.checkFromIndexSize(row0, k, count);
            for (int j = 0; j < k; j++) {
                if (mayBeNull && nulls.isNull(row0 + j)) {
                    b[cur[j]++] = 0; // the NULL marker: one byte, nothing past it
                    continue;
                }
                long kept = keep ? (long) LE.get(b, pos[j + 1]) : 0L;
                cur[j] = write(b, cur[j], row0 + j);
                if (keep) {
                    LE.set(b, pos[j + 1], kept);
                }
            }
        }
    }

    /** A mutable 128-bit two's complement integer (hi:lo). */
    static final class Int128 {
        long lo;
        long hi;

        void set(BigInteger v) {
            lo = v.longValue();
            hi = v.shiftRight(64).longValue();
        }
    }

    /** The unscaled value of a row at the target scale. */
    @FunctionalInterface
    interface Int128Source {
        void load(int row, Int128 out);
    }

    static Int128Source scaledLongs(LongSource longs, int scale) {
        if (scale == 0) {
            return (row, out) -> {
                long x = longs.get(row);
                out.lo = x;
                out.hi = x >> 63;
            };
        }
        if (scale <= 18) {
            long p = Pow10.of(scale);
            return (row, out) -> {
                long x = longs.get(row);
                out.lo = x * p;
                out.hi = Math.multiplyHigh(x, p);
            };
        }
        BigInteger factor = BigInteger.TEN.pow(scale);
        return (row, out) -> out.set(BigInteger.valueOf(longs.get(row)).multiply(factor)); // slow path
    }

    /** Decimal128/Decimal256 values rescaled to {@code scale} (exact: checked by the producer). */
    private static Int128Source decimals(FieldVector v, ColumnReader reader, int scale) {
        ArrowBuf d = v.getDataBuffer();
        int width = v instanceof DecimalVector ? 16 : 32;
        int sourceScale = v instanceof DecimalVector dv ? dv.getScale() : ((Decimal256Vector) v).getScale();
        int up = scale - sourceScale;
        long factor = up >= 0 && up <= 18 ? Pow10.of(up) : 0;
        long a = width == 16 ? rawAddress(v, 16) : 0;
        int count = v.getValueCount();
        if (a != 0) {
            // Decimal128, the common case: read at the buffer's address (see rawAddress)
            return (row, out) -> {
                long at = a + 16L * Objects.checkIndex(row, count);
                long lo = MemoryUtil.getLong(at);
                long hi = MemoryUtil.getLong(at + 8);
                if (up == 0) {
                    out.lo = lo;
                    out.hi = hi;
                } else if (factor != 0 && hi == lo >> 63) {
                    out.lo = lo * factor;
                    out.hi = Math.multiplyHigh(lo, factor);
                } else {
                    // slow path: scale reduction (trailing zeros), or a rescale of a value beyond 64 bits
                    out.set(((BigDecimal) reader.getObject(row)).setScale(scale, RoundingMode.UNNECESSARY)
                            .unscaledValue());
                }
            };
        }
        return (row, out) -> {
            long at = (long) row * width;
            long lo = d.getLong(at);
            long hi = d.getLong(at + 8);
            boolean fits128 = width == 16 || (d.getLong(at + 16) == hi >> 63 && d.getLong(at + 24) == hi >> 63);
            if (up == 0 && fits128) {
                out.lo = lo;
                out.hi = hi;
            } else if (factor != 0 && hi == lo >> 63 && fits128) {
                out.lo = lo * factor;
                out.hi = Math.multiplyHigh(lo, factor);
            } else {
                // slow path: scale reduction (trailing zeros), or a rescale of a value beyond 64 bits
                out.set(((BigDecimal) reader.getObject(row)).setScale(scale, RoundingMode.UNNECESSARY)
                        .unscaledValue());
            }
        };
    }
}
