package io.deltafunnel.arrow.read;

import static io.deltafunnel.arrow.read.ColumnReaders.storage;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;

import io.deltafunnel.arrow.read.ColumnReaders.DecimalReader;
import io.deltafunnel.arrow.read.ColumnReaders.VectorReader;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;

/**
 * The integers (signed up to 64 bits, unsigned 64-bit), floating point, booleans and decimals implementations of {@link ArrowColumnType}, one small class each.
 * Instances come from {@link ArrowColumnTypes#forField}.
 */
public final class NumericColumnTypes {

    private NumericColumnTypes() {
    }

    /** Arrow stores Decimal128 little-endian; the raw fast path reads it with native-order longs. */
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    /** Signed and unsigned integers up to 32 bits, and signed 64-bit. */
    public static final class IntType implements ArrowColumnType {
        private final int bitWidth;
        private final boolean signed;

        IntType(int bitWidth, boolean signed) {
            this.bitWidth = bitWidth;
            this.signed = signed;
        }

        /** The smallest value this Arrow type can hold. */
        public long minValue() {
            return signed ? (bitWidth >= 64 ? Long.MIN_VALUE : -(1L << (bitWidth - 1))) : 0;
        }

        /** The largest value this Arrow type can hold (UInt64 is {@link UInt64Type}, never here). */
        public long maxValue() {
            return signed ? (bitWidth >= 64 ? Long.MAX_VALUE : (1L << (bitWidth - 1)) - 1) : (1L << bitWidth) - 1;
        }

        @Override
        public ValueKind kind() {
            return ValueKind.INTEGER;
        }

        @Override
        public String createTableType() {
            if (signed) {
                // SQL Server tinyint is unsigned (0..255): Int8 needs smallint.
                return switch (bitWidth) {
                    case 8, 16 -> "smallint";
                    case 32 -> "int";
                    default -> "bigint";
                };
            }
            return switch (bitWidth) {
                case 8 -> "tinyint";
                case 16 -> "int";
                default -> "bigint";
            };
        }

        @Override
        public ColumnReader reader(FieldVector vector) {
            FieldVector v = storage(vector);
            if (v instanceof UInt1Vector u1) {
                return new VectorReader(v) {
                    @Override
                    public long getLong(int row) {
                        return Byte.toUnsignedInt(u1.get(row));
                    }
                };
            }
            if (v instanceof UInt2Vector u2) {
                return new VectorReader(v) {
                    @Override
                    public long getLong(int row) {
                        return u2.get(row);
                    }
                };
            }
            if (v instanceof UInt4Vector u4) {
                return new VectorReader(v) {
                    @Override
                    public long getLong(int row) {
                        return Integer.toUnsignedLong(u4.get(row));
                    }
                };
            }
            BaseIntVector ints = (BaseIntVector) v;
            return new VectorReader(v) {
                @Override
                public long getLong(int row) {
                    return ints.getValueAsLong(row);
                }
            };
        }
    }

    /** UInt64: does not fit bigint, so it is read as an exact decimal and created as decimal(20,0). */
    static final class UInt64Type implements ArrowColumnType {
        @Override
        public ValueKind kind() {
            return ValueKind.DECIMAL;
        }

        @Override
        public String createTableType() {
            return "decimal(20,0)";
        }

        @Override
        public ColumnReader reader(FieldVector vector) {
            UInt8Vector v = (UInt8Vector) storage(vector);
            return ColumnReader.objects(v, row -> {
                long raw = v.get(row);
                return raw >= 0 ? BigDecimal.valueOf(raw)
                        : new BigDecimal(new BigInteger(Long.toUnsignedString(raw)));
            });
        }
    }

    /** Float16, Float32 and Float64. */
    static final class FloatType implements ArrowColumnType {
        private final boolean doublePrecision;

        FloatType(boolean doublePrecision) {
            this.doublePrecision = doublePrecision;
        }

        @Override
        public ValueKind kind() {
            return doublePrecision ? ValueKind.FLOAT64 : ValueKind.FLOAT32;
        }

        @Override
        public String createTableType() {
            return doublePrecision ? "float" : "real";
        }

        @Override
        public ColumnReader reader(FieldVector vector) {
            FieldVector v = storage(vector);
            if (v instanceof Float8Vector f8) {
                return new VectorReader(v) {
                    @Override
                    public double getDouble(int row) {
                        return f8.get(row);
                    }
                };
            }
            if (v instanceof Float4Vector f4) {
                return new VectorReader(v) {
                    @Override
                    public double getDouble(int row) {
                        return f4.get(row);
                    }
                };
            }
            Float2Vector f2 = (Float2Vector) v;
            return new VectorReader(v) {
                @Override
                public double getDouble(int row) {
                    return f2.getValueAsFloat(row);
                }
            };
        }
    }

    /** Bool → bit. */
    static final class BoolType implements ArrowColumnType {
        @Override
        public ValueKind kind() {
            return ValueKind.BOOLEAN;
        }

        @Override
        public String createTableType() {
            return "bit";
        }

        @Override
        public ColumnReader reader(FieldVector vector) {
            BitVector v = (BitVector) storage(vector);
            return new VectorReader(v) {
                @Override
                public long getLong(int row) {
                    return v.get(row);
                }
            };
        }
    }

    /** Decimal128 and Decimal256 → decimal(p,s), p capped at 38 (values are checked against the target). */
    static final class DecimalType implements ArrowColumnType {
        private final int precision;
        private final int scale;

        DecimalType(int precision, int scale) {
            this.precision = precision;
            this.scale = scale;
        }

        @Override
        public ValueKind kind() {
            return ValueKind.DECIMAL;
        }

        @Override
        public String createTableType() {
            int p = Math.min(precision, 38);
            int s = Math.min(scale, p);
            return "decimal(" + p + "," + s + ")";
        }

        @Override
        public ColumnReader reader(FieldVector vector) {
            FieldVector v = storage(vector);
            if (v instanceof DecimalVector d) {
                return LITTLE_ENDIAN ? new Decimal128Reader(d) : ColumnReader.objects(d, row -> d.getObjectNotNull(row));
            }
            Decimal256Vector d = (Decimal256Vector) v;
            return ColumnReader.objects(d, row -> d.getObjectNotNull(row));
        }
    }

    /**
     * Decimal128 values read as two longs. A value whose unscaled form fits a long becomes
     * {@code BigDecimal.valueOf(unscaled, scale)} (no byte[]/BigInteger per value), and equal values within a
     * batch share one BigDecimal instance (a small direct-mapped cache): BigDecimal caches its own toString and
     * precision, which mssql-jdbc computes for every decimal it sends. Other values take Arrow's own path.
     */
    static final class Decimal128Reader implements DecimalReader {
        private static final int CACHE_SIZE = 1024;
        private final DecimalVector vector;
        private final ArrowBuf data;
        private final int scale;
        private final long[] keys = new long[CACHE_SIZE];
        private final BigDecimal[] values = new BigDecimal[CACHE_SIZE];

        Decimal128Reader(DecimalVector vector) {
            this.vector = vector;
            this.data = vector.getDataBuffer();
            this.scale = vector.getScale();
        }

        @Override
        public boolean isNull(int row) {
            return vector.isNull(row);
        }

        @Override
        public int scale() {
            return scale;
        }

        @Override
        public boolean fitsLong(int row) {
            long offset = (long) row * DecimalVector.TYPE_WIDTH;
            return data.getLong(offset + 8) == (data.getLong(offset) >> 63);
        }

        @Override
        public long unscaled(int row) {
            return data.getLong((long) row * DecimalVector.TYPE_WIDTH);
        }

        @Override
        public Object getObject(int row) {
            if (!fitsLong(row)) {
                return vector.getObjectNotNull(row);
            }
            long unscaled = unscaled(row);
            int slot = (int) (unscaled ^ (unscaled >>> 29)) & (CACHE_SIZE - 1);
            BigDecimal cached = values[slot];
            if (cached != null && keys[slot] == unscaled) {
                return cached;
            }
            BigDecimal value = BigDecimal.valueOf(unscaled, scale);
            keys[slot] = unscaled;
            values[slot] = value;
            return value;
        }
    }
}
