package io.deltafunnel.arrow.read;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
import java.util.UUID;

import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.util.ReusableByteArray;

/**
 * The per-Arrow-type implementations of {@link ArrowColumnType}, one small class each. Instances come from
 * {@link SqlServerTypes#forField}.
 */
public final class ArrowColumnTypes {

    private ArrowColumnTypes() {
    }

    /** Fractional-second digits SQL Server keeps for an Arrow time unit: s→0, ms→3, us→6, ns→7. */
    static int fractionalDigits(TimeUnit unit) {
        return switch (unit) {
            case SECOND -> 0;
            case MILLISECOND -> 3;
            case MICROSECOND -> 6;
            case NANOSECOND -> 7;
        };
    }

    /**
     * Raw access to a Decimal128 column, so that bindings can check values without building a BigDecimal.
     * {@link #fitsLong} tells whether the unscaled value fits a long; only then is {@link #unscaled} meaningful.
     */
    public interface DecimalReader extends ColumnReader {
        int scale();

        boolean fitsLong(int row);

        long unscaled(int row);
    }

    /** Raw access to a Date32 column: days since 1970-01-01. */
    public interface EpochDayReader extends ColumnReader {
        int epochDay(int row);
    }

    /** Raw access to a UTF-8 column: the value's length in bytes (never less than its UTF-16 length). */
    public interface Utf8Reader extends ColumnReader {
        int byteLength(int row);
    }

    /** Raw access to a timestamp column without time zone: the value in its unit since the epoch. */
    public interface RawTimestampReader extends ColumnReader {
        long raw(int row);

        long unitsPerSecond();
    }

    /** Arrow stores Decimal128 little-endian; the raw fast path reads it with native-order longs. */
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    static FieldVector storage(FieldVector vector) {
        return vector instanceof ExtensionTypeVector<?> ext ? ext.getUnderlyingVector() : vector;
    }

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

    /** A reader whose nulls come from the vector's validity; subclasses add the value accessor. */
    private abstract static class VectorReader implements ColumnReader {
        private final FieldVector vector;

        VectorReader(FieldVector vector) {
            this.vector = vector;
        }

        @Override
        public boolean isNull(int row) {
            return vector.isNull(row);
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

    /** Utf8, LargeUtf8 and Utf8View → nvarchar(max). */
    static final class StringType implements ArrowColumnType {
        @Override
        public ValueKind kind() {
            return ValueKind.STRING;
        }

        @Override
        public String createTableType() {
            return "nvarchar(max)";
        }

        @Override
        public ColumnReader reader(FieldVector vector) {
            VariableWidthFieldVector v = (VariableWidthFieldVector) storage(vector);
            ReusableByteArray bytes = new ReusableByteArray();
            return new Utf8Reader() {
                @Override
                public boolean isNull(int row) {
                    return v.isNull(row);
                }

                @Override
                public int byteLength(int row) {
                    return v.getValueLength(row);
                }

                private final ShortStrings shortStrings = new ShortStrings();

                @Override
                public Object getObject(int row) {
                    // Decoded straight from a reused buffer: no byte[] copy per value.
                    v.read(row, bytes);
                    return shortStrings.decode(bytes.getBuffer(), (int) bytes.getLength());
                }
            };
        }
    }

    /**
     * UTF-8 decoding of one column's values in one batch, where equal short values share one String: codes, flags
     * and modes repeat on almost every row, and decoding each again costs a String and its array per value. A
     * direct-mapped cache of values up to 32 bytes, compared byte for byte (a hit returns a String of exactly those
     * bytes). When the column's values rarely repeat (after 1024 lookups, fewer than 1 in 4 hit), it stops
     * caching for the rest of the batch.
     */
    public static final class ShortStrings {
        private static final int SIZE = 256;
        private static final int MAX_BYTES = 32;
        private final byte[][] keys = new byte[SIZE][];
        private final String[] values = new String[SIZE];
        private boolean caching = true;
        private int lookups;
        private int hits;

        public String decode(byte[] utf8, int n) {
            if (!caching || n > MAX_BYTES) {
                return new String(utf8, 0, n, StandardCharsets.UTF_8);
            }
            int h = n;
            for (int i = 0; i < n; i++) {
                h = 31 * h + utf8[i];
            }
            int slot = (h ^ (h >>> 16)) & (SIZE - 1);
            byte[] key = keys[slot];
            lookups++;
            if (key != null && java.util.Arrays.equals(key, 0, key.length, utf8, 0, n)) {
                hits++;
                return values[slot];
            }
            String value = new String(utf8, 0, n, StandardCharsets.UTF_8);
            keys[slot] = java.util.Arrays.copyOf(utf8, n);
            values[slot] = value;
            if (lookups >= 1024 && hits < lookups / 4) {
                caching = false;
            }
            return value;
        }
    }

    /** Binary, LargeBinary, BinaryView, FixedSizeBinary → varbinary. */
    static final class BinaryType implements ArrowColumnType {
        private final int fixedWidth;

        /** @param fixedWidth the FixedSizeBinary width, or -1 for variable width */
        BinaryType(int fixedWidth) {
            this.fixedWidth = fixedWidth;
        }

        @Override
        public ValueKind kind() {
            return ValueKind.BINARY;
        }

        @Override
        public String createTableType() {
            return fixedWidth > 0 && fixedWidth <= 8000 ? "varbinary(" + fixedWidth + ")" : "varbinary(max)";
        }

        @Override
        public ColumnReader reader(FieldVector vector) {
            FieldVector v = storage(vector);
            if (v instanceof FixedSizeBinaryVector f) {
                return ColumnReader.objects(f, row -> f.get(row));
            }
            VariableWidthFieldVector w = (VariableWidthFieldVector) v;
            return ColumnReader.objects(w, row -> w.get(row));
        }
    }

    /** The arrow.uuid extension (FixedSizeBinary(16), big-endian) → uniqueidentifier. */
    static final class UuidType implements ArrowColumnType {
        @Override
        public ValueKind kind() {
            return ValueKind.UUID;
        }

        @Override
        public String createTableType() {
            return "uniqueidentifier";
        }

        @Override
        public ColumnReader reader(FieldVector vector) {
            FixedSizeBinaryVector v = (FixedSizeBinaryVector) storage(vector);
            return ColumnReader.objects(v, row -> {
                ByteBuffer bytes = ByteBuffer.wrap(v.get(row));
                return new UUID(bytes.getLong(), bytes.getLong());
            });
        }
    }

    /** Date32 (days) and Date64 (milliseconds) → date. */
    static final class DateType implements ArrowColumnType {
        @Override
        public ValueKind kind() {
            return ValueKind.DATE;
        }

        @Override
        public String createTableType() {
            return "date";
        }

        @Override
        public ColumnReader reader(FieldVector vector) {
            FieldVector v = storage(vector);
            if (v instanceof DateDayVector d) {
                return new EpochDayReader() {
                    @Override
                    public boolean isNull(int row) {
                        return d.isNull(row);
                    }

                    @Override
                    public int epochDay(int row) {
                        return d.get(row);
                    }

                    @Override
                    public Object getObject(int row) {
                        return LocalDate.ofEpochDay(d.get(row));
                    }
                };
            }
            DateMilliVector d = (DateMilliVector) v;
            return ColumnReader.objects(d, row -> {
                try {
                    return LocalDate.ofEpochDay(Math.floorDiv(d.get(row), 86_400_000L));
                } catch (DateTimeException e) {
                    throw new ValueRejected("date out of range: " + d.get(row) + " ms");
                }
            });
        }
    }

    /** Time32 (s, ms) and Time64 (us, ns) → time(n). */
    static final class TimeType implements ArrowColumnType {
        private final TimeUnit unit;

        TimeType(TimeUnit unit) {
            this.unit = unit;
        }

        @Override
        public ValueKind kind() {
            return ValueKind.TIME;
        }

        @Override
        public String createTableType() {
            return "time(" + fractionalDigits(unit) + ")";
        }

        @Override
        public ColumnReader reader(FieldVector vector) {
            FieldVector v = storage(vector);
            return ColumnReader.objects(v, row -> {
                long raw;
                long nanosPerUnit;
                if (v instanceof TimeSecVector t) {
                    raw = t.get(row);
                    nanosPerUnit = 1_000_000_000L;
                } else if (v instanceof TimeMilliVector t) {
                    raw = t.get(row);
                    nanosPerUnit = 1_000_000L;
                } else if (v instanceof TimeMicroVector t) {
                    raw = t.get(row);
                    nanosPerUnit = 1_000L;
                } else {
                    raw = ((TimeNanoVector) v).get(row);
                    nanosPerUnit = 1L;
                }
                if (raw < 0 || raw >= 86_400_000_000_000L / nanosPerUnit) {
                    throw new ValueRejected("time of day out of range: " + raw + " " + unit);
                }
                return LocalTime.ofNanoOfDay(raw * nanosPerUnit);
            });
        }
    }

    /** Timestamp without zone → datetime2(n); with zone → datetimeoffset(n). */
    static final class TimestampType implements ArrowColumnType {
        private final TimeUnit unit;
        private final String timezone;

        TimestampType(TimeUnit unit, String timezone) {
            this.unit = unit;
            this.timezone = timezone;
        }

        @Override
        public ValueKind kind() {
            return timezone == null ? ValueKind.TIMESTAMP : ValueKind.TIMESTAMP_TZ;
        }

        @Override
        public String createTableType() {
            return (timezone == null ? "datetime2(" : "datetimeoffset(") + fractionalDigits(unit) + ")";
        }

        @Override
        public ColumnReader reader(FieldVector vector) {
            TimeStampVector v = (TimeStampVector) storage(vector);
            long unitsPerSecond = switch (unit) {
                case SECOND -> 1L;
                case MILLISECOND -> 1_000L;
                case MICROSECOND -> 1_000_000L;
                case NANOSECOND -> 1_000_000_000L;
            };
            long nanosPerUnit = 1_000_000_000L / unitsPerSecond;
            ZoneRules rules = timezone == null ? null : zone(timezone).getRules();
            if (rules == null) {
                return new RawTimestampReader() {
                    @Override
                    public boolean isNull(int row) {
                        return v.isNull(row);
                    }

                    @Override
                    public long raw(int row) {
                        return v.get(row);
                    }

                    @Override
                    public long unitsPerSecond() {
                        return unitsPerSecond;
                    }

                    @Override
                    public Object getObject(int row) {
                        long raw = v.get(row);
                        try {
                            return LocalDateTime.ofEpochSecond(Math.floorDiv(raw, unitsPerSecond),
                                    (int) (Math.floorMod(raw, unitsPerSecond) * nanosPerUnit), ZoneOffset.UTC);
                        } catch (DateTimeException e) {
                            throw new ValueRejected("timestamp out of range: " + raw + " " + unit);
                        }
                    }
                };
            }
            return ColumnReader.objects(v, row -> {
                long raw = v.get(row);
                long seconds = Math.floorDiv(raw, unitsPerSecond);
                int nanos = (int) (Math.floorMod(raw, unitsPerSecond) * nanosPerUnit);
                try {
                    if (rules == null) {
                        return LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC);
                    }
                    Instant instant = Instant.ofEpochSecond(seconds, nanos);
                    return OffsetDateTime.ofInstant(instant, rules.getOffset(instant));
                } catch (DateTimeException e) {
                    throw new ValueRejected("timestamp out of range: " + raw + " " + unit);
                }
            });
        }

        private static ZoneId zone(String timezone) {
            try {
                return ZoneId.of(timezone);
            } catch (DateTimeException e) {
                throw new IllegalArgumentException("unknown time zone '" + timezone + "'", e);
            }
        }
    }

    /** List, LargeList, FixedSizeList, Struct, Map → JSON text in nvarchar(max). */
    static final class JsonType implements ArrowColumnType {
        private final org.apache.arrow.vector.types.pojo.Field field;

        JsonType(org.apache.arrow.vector.types.pojo.Field field) {
            this.field = field;
            // Fail now on any nested type that cannot be rendered.
            JsonWriter.check(field);
        }

        @Override
        public ValueKind kind() {
            return ValueKind.JSON;
        }

        @Override
        public String createTableType() {
            return "nvarchar(max)";
        }

        @Override
        public ColumnReader reader(FieldVector vector) {
            JsonWriter writer = JsonWriter.forVector(vector);
            return ColumnReader.objects(vector, row -> writer.write(row));
        }

        @Override
        public String toString() {
            return "json(" + field.getType() + ")";
        }
    }
}
