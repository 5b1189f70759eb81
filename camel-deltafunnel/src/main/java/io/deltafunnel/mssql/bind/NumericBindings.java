package io.deltafunnel.mssql.bind;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Types;
import java.util.EnumSet;
import java.util.Set;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ColumnReader;
import io.deltafunnel.arrow.read.ColumnReaders;
import io.deltafunnel.arrow.read.NumericColumnTypes;
import io.deltafunnel.arrow.read.ValueKind;
import io.deltafunnel.arrow.read.ValueRejected;
import io.deltafunnel.tds.Pow10;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;

/**
 * The {@link TargetBinding}s of the numeric targets: tinyint..bigint, bit, decimal/numeric, real/float.
 */
final class NumericBindings {

    private NumericBindings() {
    }

    // ---- integer targets ----

    static final class IntegerBinding extends TargetBinding {
        private final int jdbcType;
        private final long min;
        private final long max;
        private final int precision;

        IntegerBinding(TargetColumn target, int jdbcType, long min, long max, int precision) {
            super(target);
            this.jdbcType = jdbcType;
            this.min = min;
            this.max = max;
            this.precision = precision;
        }

        @Override
        Set<ValueKind> accepts() {
            return EnumSet.of(ValueKind.INTEGER, ValueKind.DECIMAL, ValueKind.BOOLEAN);
        }

        @Override
        public boolean alwaysFits(ArrowColumnType source) {
            // a boolean is 0 or 1, which every integer type holds
            return kind == ValueKind.BOOLEAN || kind == ValueKind.INTEGER
                    && source instanceof NumericColumnTypes.IntType type
                    && type.minValue() >= min && type.maxValue() <= max;
        }

        @Override
        public boolean allFit(FieldVector vector, int rowCount) {
            // checkValue, column-wide: signed integers (a narrower target, e.g. bigint values into int) within
            // [min, max]
            int width = vector instanceof BigIntVector ? 8 : vector instanceof IntVector ? 4
                    : vector instanceof SmallIntVector ? 2 : vector instanceof TinyIntVector ? 1 : 0;
            if (kind != ValueKind.INTEGER || width == 0 || rowCount > vector.getValueCount()) {
                return false;
            }
            long a = address(vector.getDataBuffer(), (long) width * rowCount);
            if (a == 0) {
                return false;
            }
            for (int r = 0; r < rowCount; r++) {
                long at = a + (long) width * r;
                long v = width == 8 ? MemoryUtil.getLong(at) : width == 4 ? MemoryUtil.getInt(at)
                        : width == 2 ? MemoryUtil.getShort(at) : MemoryUtil.getByte(at);
                if (v < min || v > max) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int jdbcType() {
            return jdbcType;
        }

        @Override
        public int precision() {
            return precision;
        }

        @Override
        public void checkValue(ColumnReader reader, int row) {
            if (kind == ValueKind.DECIMAL) {
                BigDecimal d = (BigDecimal) reader.getObject(row);
                if (d.signum() != 0 && d.stripTrailingZeros().scale() > 0) {
                    throw new ValueRejected(Rejection.FRACTIONAL_PART,
                            "value " + d.toPlainString() + " has a fractional part; "
                            + target.typeText() + " would drop it");
                }
                BigInteger i = d.toBigInteger();
                if (i.compareTo(BigInteger.valueOf(min)) < 0 || i.compareTo(BigInteger.valueOf(max)) > 0) {
                    throw outOfRange(d.toPlainString());
                }
                return;
            }
            long v = reader.getLong(row);
            if (v < min || v > max) {
                throw outOfRange(Long.toString(v));
            }
        }

        private ValueRejected outOfRange(String v) {
            return new ValueRejected(Rejection.OUT_OF_RANGE,
                    "value " + v + " is outside the range of " + target.typeText() + " (" + min
                    + " to " + max + ")");
        }

        @Override
        public Object convert(ColumnReader reader, int row) {
            long v = kind == ValueKind.DECIMAL ? ((BigDecimal) reader.getObject(row)).longValueExact()
                    : reader.getLong(row);
            return switch (jdbcType) {
                case Types.TINYINT, Types.SMALLINT -> (short) v;
                case Types.INTEGER -> (int) v;
                default -> v;
            };
        }
    }

    static final class BitBinding extends TargetBinding {
        BitBinding(TargetColumn target) {
            super(target);
        }

        @Override
        Set<ValueKind> accepts() {
            return EnumSet.of(ValueKind.BOOLEAN, ValueKind.INTEGER);
        }

        @Override
        public boolean alwaysFits(ArrowColumnType source) {
            // a boolean is 0 or 1
            return kind == ValueKind.BOOLEAN;
        }

        @Override
        public int jdbcType() {
            return Types.BIT;
        }

        @Override
        public int precision() {
            return 1;
        }

        @Override
        public void checkValue(ColumnReader reader, int row) {
            long v = reader.getLong(row);
            if (v != 0 && v != 1) {
                throw new ValueRejected(Rejection.NOT_BIT, "value " + v + " is not 0 or 1; bit would turn it into 1");
            }
        }

        @Override
        public Object convert(ColumnReader reader, int row) {
            return reader.getLong(row) != 0 ? Boolean.TRUE : Boolean.FALSE;
        }
    }

    static final class DecimalBinding extends TargetBinding {
        private final int precision;
        private final int scale;

        DecimalBinding(TargetColumn target) {
            super(target);
            this.precision = target.precision() == null ? 18 : target.precision();
            this.scale = target.scale() == null ? 0 : target.scale();
        }

        @Override
        Set<ValueKind> accepts() {
            return EnumSet.of(ValueKind.DECIMAL, ValueKind.INTEGER);
        }

        @Override
        public int jdbcType() {
            return Types.DECIMAL;
        }

        @Override
        public int precision() {
            return precision;
        }

        @Override
        public int scale() {
            return scale;
        }

        @Override
        public void checkValue(ColumnReader reader, int row) {
            if (kind == ValueKind.DECIMAL && reader instanceof ColumnReaders.DecimalReader raw
                    && raw.scale() <= scale && raw.fitsLong(row)) {
                // No rounding possible (source scale <= target scale): only the digits before the point count.
                int maxDigits = precision - scale + raw.scale();
                long unscaled = raw.unscaled(row);
                if (maxDigits >= 19 || (unscaled != Long.MIN_VALUE && Math.abs(unscaled) < Pow10.of(maxDigits))) {
                    return;
                }
            }
            BigDecimal d = decimalOf(kind, reader, row);
            if (d.scale() > scale && d.signum() != 0 && d.stripTrailingZeros().scale() > scale) {
                throw new ValueRejected(Rejection.SCALE, "value " + d.toPlainString() + " has more than " + scale
                        + " decimal places; " + target.typeText() + " would round it");
            }
            BigDecimal scaled = d.setScale(scale, java.math.RoundingMode.UNNECESSARY);
            if (scaled.precision() > precision && scaled.signum() != 0) {
                throw new ValueRejected(Rejection.PRECISION,
                        "value " + d.toPlainString() + " does not fit " + target.typeText()
                        + " (at most " + (precision - scale) + " digits before the decimal point)");
            }
        }

        @Override
        public Object convert(ColumnReader reader, int row) {
            return decimalOf(kind, reader, row).setScale(scale, java.math.RoundingMode.UNNECESSARY);
        }

        @Override
        public boolean allFit(FieldVector vector, int rowCount) {
            // checkValue's fast path, column-wide: source scale <= target scale, unscaled values within a long
            // and within the digits before the point
            if (kind != ValueKind.DECIMAL || !(vector instanceof DecimalVector dv) || dv.getScale() > scale
                    || rowCount > vector.getValueCount()) {
                return false;
            }
            long a = address(dv.getDataBuffer(), (long) rowCount * DecimalVector.TYPE_WIDTH);
            if (a == 0) {
                return false;
            }
            int maxDigits = precision - scale + dv.getScale();
            if (maxDigits >= 19) {
                // more digits than a long holds (decimal(38,18), Spark's default): the values' 128 bits
                return allFit128(a, rowCount, BigInteger.TEN.pow(Math.min(maxDigits, 38)));
            }
            long limit = Pow10.of(maxDigits);
            for (int r = 0; r < rowCount; r++) {
                long lo = MemoryUtil.getLong(a + 16L * r);
                long hi = MemoryUtil.getLong(a + 16L * r + 8);
                if (hi != lo >> 63 || lo == Long.MIN_VALUE || Math.abs(lo) >= limit) {
                    return false;
                }
            }
            return true;
        }

        /**
         * Whether every two's-complement 128-bit value of the {@code rowCount} at native address {@code a} is smaller
         * in magnitude than {@code limit} (at most 10^38, below 2^127).
         */
        private static boolean allFit128(long a, int rowCount, BigInteger limit) {
            long limitLo = limit.longValue();
            long limitHi = limit.shiftRight(64).longValue();
            for (int r = 0; r < rowCount; r++) {
                long lo = MemoryUtil.getLong(a + 16L * r);
                long hi = MemoryUtil.getLong(a + 16L * r + 8);
                if (hi < 0) {
                    // the magnitude: two's complement negation of the 128 bits (-2^127 stays itself, too large)
                    lo = -lo;
                    hi = lo == 0 ? -hi : ~hi;
                }
                if (Long.compareUnsigned(hi, limitHi) > 0 || hi == limitHi && Long.compareUnsigned(lo, limitLo) >= 0) {
                    return false;
                }
            }
            return true;
        }
    }

    static final class FloatBinding extends TargetBinding {
        private final boolean real;

        FloatBinding(TargetColumn target, boolean real) {
            super(target);
            this.real = real;
        }

        @Override
        Set<ValueKind> accepts() {
            return EnumSet.of(ValueKind.FLOAT32, ValueKind.FLOAT64, ValueKind.INTEGER);
        }

        @Override
        public int jdbcType() {
            return real ? Types.REAL : Types.DOUBLE;
        }

        @Override
        public int precision() {
            return real ? 7 : 15;
        }

        private double read(ColumnReader reader, int row) {
            return kind == ValueKind.INTEGER ? reader.getLong(row) : reader.getDouble(row);
        }

        @Override
        public boolean allFit(FieldVector vector, int rowCount) {
            // checkValue, column-wide: finite values only (SQL Server has no NaN or infinity), and a double into real
            // only where it is exactly a float
            if (rowCount > vector.getValueCount()) {
                return false;
            }
            if (kind == ValueKind.FLOAT64 && vector instanceof Float8Vector) {
                long a = address(vector.getDataBuffer(), 8L * rowCount);
                if (a == 0) {
                    return false;
                }
                for (int r = 0; r < rowCount; r++) {
                    double d = Double.longBitsToDouble(MemoryUtil.getLong(a + 8L * r));
                    if (!Double.isFinite(d) || real && (double) (float) d != d) {
                        return false;
                    }
                }
                return true;
            }
            if (kind == ValueKind.FLOAT32 && vector instanceof Float4Vector) {
                long a = address(vector.getDataBuffer(), 4L * rowCount);
                if (a == 0) {
                    return false;
                }
                for (int r = 0; r < rowCount; r++) {
                    if (!Float.isFinite(Float.intBitsToFloat(MemoryUtil.getInt(a + 4L * r)))) {
                        return false;
                    }
                }
                return true;
            }
            return false;
        }

        @Override
        public void checkValue(ColumnReader reader, int row) {
            if (kind == ValueKind.INTEGER) {
                long v = reader.getLong(row);
                long limit = real ? (1L << 24) : (1L << 53);
                if (v > limit || v < -limit) {
                    throw new ValueRejected(Rejection.INEXACT,
                            "integer " + v + " is not exactly representable in " + target.typeText());
                }
                return;
            }
            double d = reader.getDouble(row);
            if (!Double.isFinite(d)) {
                throw new ValueRejected(Rejection.NAN,
                        "value " + d + " cannot be stored: SQL Server has no NaN or infinity");
            }
            if (real && kind == ValueKind.FLOAT64 && (double) (float) d != d) {
                throw new ValueRejected(Rejection.INEXACT,
                        "value " + d + " is not exactly representable in real; it would be rounded");
            }
        }

        @Override
        public Object convert(ColumnReader reader, int row) {
            double d = read(reader, row);
            return real ? (Object) (float) d : (Object) d;
        }
    }
}
