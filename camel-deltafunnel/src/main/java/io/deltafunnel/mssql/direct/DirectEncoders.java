package io.deltafunnel.mssql.direct;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.Objects;

import io.deltafunnel.mssql.BoundColumn;
import io.deltafunnel.mssql.ColumnReader;
import io.deltafunnel.mssql.TargetColumn;
import io.deltafunnel.mssql.ValueKind;
import io.deltafunnel.tds.Pow10;
import io.deltafunnel.tds.Collation;
import io.deltafunnel.tds.DecimalCodec;
import io.deltafunnel.tds.GuidCodec;
import io.deltafunnel.tds.TdsMessageWriter;
import io.deltafunnel.tds.TemporalCodec;
import io.deltafunnel.tds.TypeId;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BigIntVector;
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
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.util.ReusableByteArray;

/**
 * The per-column encoders of {@link DirectBulkWriter}: for one (Arrow type, target column) pair, the TYPE_INFO of
 * the BULK_LOAD COLMETADATA and the value of each row, read straight from the Arrow buffers.
 *
 * <p>The wire type always follows the TARGET column (MS-TDS 2.2.5.4): INTN/BITN/FLTN for tinyint..bigint, bit,
 * real/float; DECIMALN (also for numeric) with the compact length of the target precision; BIGCHAR/BIGVARCHAR/NCHAR/NVARCHAR
 * with the target length and collation (PLP for (max) and for text/ntext); BIGBINARY/BIGVARBINARY (PLP for (max) and
 * image); GUID; DATEN, TIMEN, DATETIME2N, DATETIMEOFFSETN with the target scale; DATETIMN (8 bytes for datetime, 4
 * for smalldatetime). Every value has already been checked by {@code ArrowBulkData.validate} with the producer's
 * rules, so the encoders only convert exact values (nothing is rounded here).
 *
 * <p>Slow paths (a boxed value per row, documented and rare): a decimal whose unscaled value does not fit 64 bits
 * and must be rescaled, or a Decimal256 value beyond 128 bits before rescaling; a decimal with more than 18 digits
 * of scale into an integer target; an integer into decimal with a scale above 18; JSON columns (List, Struct, Map:
 * the producer's JSON text); characters outside ASCII going into a non-UTF-8 char/varchar (unreachable today: the
 * producer's rule refuses them before anything is sent).
 */
final class DirectEncoders {

    private static final long NANOS_PER_DAY = 86_400_000_000_000L;
    private static final java.lang.invoke.VarHandle LONGS = java.lang.invoke.MethodHandles
            .byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    private DirectEncoders() {
    }

    /** How a NULL is written for a wire type. */
    private enum NullMarker { BYTE, USHORT, PLP }

    /** One column's TYPE_INFO and values. */
    abstract static class Encoder {
        private final FieldVector nulls;
        private final NullMarker nullMarker;
        /** False when the batch's vector has no nulls: the per-value validity check is skipped. */
        private final boolean mayBeNull;

        Encoder(FieldVector nulls, NullMarker nullMarker) {
            this.nulls = nulls;
            this.nullMarker = nullMarker;
            this.mayBeNull = nulls.getNullCount() > 0;
        }

        abstract void typeInfo(TdsMessageWriter w) throws IOException;

        /** Writes the non-null value at {@code row}, length prefix included. */
        abstract void write(TdsMessageWriter w, int row) throws IOException;

        final void value(TdsMessageWriter w, int row) throws IOException {
            if (mayBeNull && nulls.isNull(row)) {
                switch (nullMarker) {
                    case BYTE -> w.writeByte(0);
                    case USHORT -> w.writeShort(0xFFFF);
                    default -> w.writeLong(-1L);
                }
            } else {
                write(w, row);
            }
        }
    }

    /** The encoder for {@code column} over {@code vector} (the batch's vector of that column). */
    static Encoder forColumn(BoundColumn column, FieldVector vector) {
        return forColumn(column, vector, null);
    }

    /**
     * The encoder for {@code column} over {@code vector}; {@code serverCollation} is the target column's collation
     * as the server reported it (FMTONLY metadata), or null to derive it from the catalog's collation name.
     */
    static Encoder forColumn(BoundColumn column, FieldVector vector, Collation serverCollation) {
        FieldVector v = vector instanceof ExtensionTypeVector<?> ext ? ext.getUnderlyingVector() : vector;
        TargetColumn t = column.target();
        ValueKind kind = column.arrowType().kind();
        Encoder e = switch (t.dataType()) {
            case "tinyint" -> integer(v, kind, column, vector, 1);
            case "smallint" -> integer(v, kind, column, vector, 2);
            case "int" -> integer(v, kind, column, vector, 4);
            case "bigint" -> integer(v, kind, column, vector, 8);
            case "bit" -> bit(v, kind);
            case "real" -> floating(v, kind, 4);
            case "float" -> floating(v, kind, t.precision() != null && t.precision() <= 24 ? 4 : 8);
            case "decimal", "numeric" -> decimal(v, kind, column, vector, t);
            case "nvarchar", "nchar", "ntext", "varchar", "char", "text" ->
                    text(v, kind, column, vector, t, serverCollation);
            case "varbinary", "binary", "image" -> binary(v, kind, t);
            case "uniqueidentifier" -> guid(v, kind);
            case "date" -> kind == ValueKind.DATE ? date(v) : null;
            case "time" -> kind == ValueKind.TIME ? time(v, digits(t)) : null;
            case "datetime2" -> dateTime2(v, kind, digits(t));
            case "datetime" -> dateTime(v, kind, false);
            case "smalldatetime" -> dateTime(v, kind, true);
            case "datetimeoffset" -> dateTimeOffset(v, kind, digits(t), column.sourceName());
            default -> null;
        };
        if (e == null) {
            throw new DirectUnsupportedColumnException(column.sourceName(), "the direct writer does not encode Arrow "
                    + vector.getField().getType() + " into " + t.typeText() + " (use the mssql-jdbc path)");
        }
        return e;
    }

    private static int digits(TargetColumn t) {
        Integer p = t.datetimePrecision();
        return p == null ? 7 : Math.max(0, Math.min(7, p));
    }

    // ---------------------------------------------------------------- sources read straight from Arrow buffers

    /** An integer value of a row (NULL already excluded). */
    @FunctionalInterface
    interface LongSource {
        long get(int row);
    }

    /**
     * The address of {@code v}'s data buffer when it holds {@code width} bytes for each of the vector's values, else
     * 0. The hot columns read their fixed-width values at this address: the buffer's size is checked here once per
     * batch and each row index against the value count ({@link Objects#checkIndex}), instead of Arrow's per-access
     * bounds and reference-count checks. The batch stays open (owned by the caller) while it is written.
     */
    static long rawAddress(FieldVector v, int width) {
        ArrowBuf d = v.getDataBuffer();
        return d != null && d.capacity() >= (long) v.getValueCount() * width ? d.memoryAddress() : 0;
    }

    /** Integer and Bool vectors as longs; UInt64 as its (unsigned) bits. Null for any other vector. */
    static LongSource longs(FieldVector v) {
        ArrowBuf d = v.getDataBuffer();
        int count = v.getValueCount();
        if (v instanceof IntVector && rawAddress(v, 4) != 0) {
            long a = rawAddress(v, 4);
            return r -> MemoryUtil.getInt(a + 4L * Objects.checkIndex(r, count));
        }
        if ((v instanceof BigIntVector || v instanceof UInt8Vector) && rawAddress(v, 8) != 0) {
            long a = rawAddress(v, 8);
            return r -> MemoryUtil.getLong(a + 8L * Objects.checkIndex(r, count));
        }
        if (v instanceof TinyIntVector) {
            return r -> d.getByte(r);
        }
        if (v instanceof SmallIntVector) {
            return r -> d.getShort((long) r * 2);
        }
        if (v instanceof IntVector) {
            return r -> d.getInt((long) r * 4);
        }
        if (v instanceof BigIntVector || v instanceof UInt8Vector) {
            return r -> d.getLong((long) r * 8);
        }
        if (v instanceof UInt1Vector) {
            return r -> d.getByte(r) & 0xFFL;
        }
        if (v instanceof UInt2Vector) {
            return r -> d.getShort((long) r * 2) & 0xFFFFL;
        }
        if (v instanceof UInt4Vector) {
            return r -> d.getInt((long) r * 4) & 0xFFFF_FFFFL;
        }
        if (v instanceof BitVector) {
            return r -> (d.getByte(r >>> 3) >>> (r & 7)) & 1;
        }
        return null;
    }

    /**
     * A decimal column (Decimal128, Decimal256, UInt64) as exact longs, for integer targets: the producer has
     * checked that every value is integral and in range.
     */
    private static LongSource decimalLongs(FieldVector v, BoundColumn column, FieldVector vector) {
        if (v instanceof UInt8Vector) {
            return longs(v);
        }
        ColumnReader reader = column.reader(vector);
        if (v instanceof DecimalVector || v instanceof Decimal256Vector) {
            ArrowBuf d = v.getDataBuffer();
            int width = v instanceof DecimalVector ? 16 : 32;
            int scale = v instanceof DecimalVector dv ? dv.getScale() : ((Decimal256Vector) v).getScale();
            return r -> {
                long at = (long) r * width;
                long lo = d.getLong(at);
                if (scale <= 18 && fitsLong(d, at, width, lo)) {
                    return lo / Pow10.of(scale);
                }
                // slow path: an unscaled value beyond 64 bits (a large scale)
                return ((BigDecimal) reader.getObject(r)).longValueExact();
            };
        }
        return null;
    }

    private static boolean fitsLong(ArrowBuf d, long at, int width, long lo) {
        long sign = lo >> 63;
        for (int i = 8; i < width; i += 8) {
            if (d.getLong(at + i) != sign) {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- integers, bit, floats

    private static Encoder integer(FieldVector v, ValueKind kind, BoundColumn column, FieldVector vector, int width) {
        LongSource src = switch (kind) {
            case INTEGER, BOOLEAN -> longs(v);
            case DECIMAL -> decimalLongs(v, column, vector);
            default -> null;
        };
        if (src == null) {
            return null;
        }
        return new Encoder(v, NullMarker.BYTE) {
            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(TypeId.INTN).writeByte(width);
            }

            @Override
            void write(TdsMessageWriter w, int row) throws IOException {
                w.writeByte(width).writeLE(src.get(row), width);
            }
        };
    }

    private static Encoder bit(FieldVector v, ValueKind kind) {
        LongSource src = kind == ValueKind.BOOLEAN || kind == ValueKind.INTEGER ? longs(v) : null;
        if (src == null) {
            return null;
        }
        return new Encoder(v, NullMarker.BYTE) {
            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(TypeId.BITN).writeByte(1);
            }

            @Override
            void write(TdsMessageWriter w, int row) throws IOException {
                w.writeByte(1).writeByte(src.get(row) != 0 ? 1 : 0);
            }
        };
    }

    /** FLTN 4 (real) or 8 (float); the value's IEEE bits. */
    private static Encoder floating(FieldVector v, ValueKind kind, int width) {
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
        return new Encoder(v, NullMarker.BYTE) {
            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(TypeId.FLTN).writeByte(width);
            }

            @Override
            void write(TdsMessageWriter w, int row) throws IOException {
                w.writeByte(width).writeLE(bits.get(row), width);
            }
        };
    }

    // ---------------------------------------------------------------- decimal / numeric

    /** Wire length of DECIMALN for a precision (compact, as SQL Server itself sends it). */
    static int decimalLength(int precision) {
        return DecimalCodec.lengthForPrecision(precision);
    }

    private static Encoder decimal(FieldVector v, ValueKind kind, BoundColumn column, FieldVector vector,
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
            src = decimals(v, column.reader(vector), scale);
        } else {
            return null;
        }
        return new Encoder(v, NullMarker.BYTE) {
            private final Int128 value = new Int128();
            private final byte[] wire = new byte[17];

            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                // DECIMALN for numeric too (the same encoding), as mssql-jdbc declares it
                w.writeByte(TypeId.DECIMALN).writeByte(len).writeByte(precision).writeByte(scale);
            }

            @Override
            void write(TdsMessageWriter w, int row) throws IOException {
                src.load(row, value);
                if (len <= 9) {
                    // precision <= 19: the magnitude fits the low 64 bits; sign byte (1 = positive), magnitude LE
                    boolean negative = value.hi < 0;
                    w.writeByte(len).writeByte(negative ? 0 : 1).writeLE(negative ? -value.lo : value.lo, len - 1);
                } else {
                    w.writeByte(len).writeBytes(wire, 0, DecimalCodec.encode(value.lo, value.hi, len, wire, 0));
                }
            }
        };
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

    private static Int128Source scaledLongs(LongSource longs, int scale) {
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

    // ---------------------------------------------------------------- character data

    /** Copies a row's UTF-8 (or binary) bytes into a reused array; returns the byte count. */
    @FunctionalInterface
    interface BytesSource {
        int read(int row, ReusableByteArray into);
    }

    /** Variable-width vectors (Utf8, LargeUtf8, Utf8View, Binary, LargeBinary, BinaryView) and FixedSizeBinary. */
    private static BytesSource bytes(FieldVector v) {
        if (v instanceof FixedSizeBinaryVector f) {
            int width = f.getByteWidth();
            ArrowBuf d = f.getDataBuffer();
            return (row, into) -> {
                into.set(d, (long) row * width, width);
                return width;
            };
        }
        if (v instanceof VariableWidthFieldVector w) {
            return (row, into) -> {
                w.read(row, into);
                return (int) into.getLength();
            };
        }
        return null;
    }

    private static Encoder text(FieldVector v, ValueKind kind, BoundColumn column, FieldVector vector,
            TargetColumn t, Collation serverCollation) {
        String type = t.dataType();
        boolean unicode = type.startsWith("n");
        Integer max = t.maxLength();
        boolean plp = type.endsWith("text") || max == null || max < 0 || max > (unicode ? 4000 : 8000);
        int typeId = switch (type) {
            case "nchar" -> TypeId.NCHAR;
            case "char" -> TypeId.BIGCHAR;
            case "nvarchar", "ntext" -> TypeId.NVARCHAR;
            default -> TypeId.BIGVARCHAR;
        };
        int maxBytes = plp ? 0xFFFF : (unicode ? 2 * max : max);
        Collation named = Collation.forName(t.collationName());
        Collation collation = serverCollation != null ? serverCollation : named;
        // Non-ASCII text into char/varchar is encoded only where the code page is known (1252 family, UTF-8);
        // the producer's rules refuse it before that anyway (varchar/char take ASCII only, unless UTF-8).
        boolean charsetKnown = collation != null && (collation.isUtf8() || named != null);
        if (collation == null) {
            if (!unicode) {
                throw new DirectUnsupportedColumnException(column.sourceName(), "the direct writer needs the"
                        + " collation of " + t.typeText() + " column " + t.name() + " to encode it; "
                        + (t.collationName() == null ? "the target column carries none"
                                : "collation " + t.collationName() + " is not known to tds-codec's Collation"));
            }
            // nvarchar/nchar data is UTF-16 whatever the collation; the server's default collation is declared
            collation = Collation.SQL_LATIN1_GENERAL_CP1_CI_AS;
        }
        byte[] collationBytes = collation.bytes();
        Charset charset = collation.charset();
        boolean utf8Collation = collation.isUtf8();
        String columnName = column.sourceName();
        TextSource src = switch (kind) {
            case STRING -> utf8Text(bytes(v));
            case UUID -> uuidText(bytes(v));
            case JSON -> jsonText(column.reader(vector));
            default -> null;
        };
        if (src == null) {
            return null;
        }
        return new Encoder(v, plp ? NullMarker.PLP : NullMarker.USHORT) {
            private final ReusableByteArray in = new ReusableByteArray();
            private byte[] out = new byte[512];

            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(typeId).writeShort(maxBytes).writeBytes(collationBytes);
            }

            @Override
            void write(TdsMessageWriter w, int row) throws IOException {
                int n = src.read(row, in);
                byte[] utf8 = in.getBuffer();
                int bytes;
                byte[] data;
                if (unicode && isAscii(utf8, n)) {
                    // ASCII: UTF-16LE is each byte and a zero, widened straight into the packet
                    if (plp) {
                        w.writeLong(2L * n);
                        if (n > 0) {
                            w.writeInt(2 * n).writeAsciiAsUtf16le(utf8, 0, n);
                        }
                        w.writeInt(0);
                    } else {
                        w.writeShort(2 * n).writeAsciiAsUtf16le(utf8, 0, n);
                    }
                    return;
                }
                if (unicode) {
                    if (out.length < 2 * n) {
                        out = new byte[Math.max(2 * n, 2 * out.length)];
                    }
                    bytes = utf8ToUtf16le(utf8, n, out);
                    data = out;
                } else if (utf8Collation || isAscii(utf8, n)) {
                    bytes = n; // ASCII is the same in every code page SQL Server uses; UTF-8 collations take UTF-8
                    data = utf8;
                } else if (charsetKnown) {
                    data = encode(utf8, n, charset, columnName, row);
                    bytes = data.length;
                } else {
                    throw new IllegalStateException("column '" + columnName + "', row " + row + ": non-ASCII text"
                            + " for a " + t.typeText() + " column with collation " + t.collationName()
                            + ", whose code page the direct writer does not map");
                }
                if (plp) {
                    writePlp(w, data, bytes);
                } else {
                    w.writeShort(bytes).writeBytes(data, 0, bytes);
                }
            }
        };
    }

    /** A row's text as UTF-8 bytes in a reused array; returns the byte count. */
    @FunctionalInterface
    interface TextSource {
        int read(int row, ReusableByteArray into);
    }

    private static TextSource utf8Text(BytesSource bytes) {
        return bytes == null ? null : bytes::read;
    }

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    /** arrow.uuid values as the producer's text: 36 lower-case characters (UUID.toString). */
    private static TextSource uuidText(BytesSource bytes) {
        if (bytes == null) {
            return null;
        }
        ReusableByteArray raw = new ReusableByteArray();
        byte[] text = new byte[36];
        return (row, into) -> {
            bytes.read(row, raw);
            byte[] b = raw.getBuffer();
            int o = 0;
            for (int i = 0; i < 16; i++) {
                if (i == 4 || i == 6 || i == 8 || i == 10) {
                    text[o++] = '-';
                }
                text[o++] = HEX[(b[i] >>> 4) & 0xF];
                text[o++] = HEX[b[i] & 0xF];
            }
            into.set(text, 0, 36);
            return 36;
        };
    }

    /** Slow path: the producer's JSON text of a List/Struct/Map value (a String per row). */
    private static TextSource jsonText(ColumnReader reader) {
        return (row, into) -> {
            byte[] utf8 = ((String) reader.getObject(row)).getBytes(StandardCharsets.UTF_8);
            into.set(utf8, 0, utf8.length);
            return utf8.length;
        };
    }

    static boolean isAscii(byte[] b, int n) {
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            if (((long) LONGS.get(b, i) & 0x8080_8080_8080_8080L) != 0) {
                return false;
            }
        }
        for (; i < n; i++) {
            if (b[i] < 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Slow path, unreachable under the producer's rules (they refuse non-ASCII text for char/varchar before anything
     * is sent): non-ASCII text into a single-byte code page, refusing characters the code page lacks.
     */
    private static byte[] encode(byte[] utf8, int n, Charset charset, String column, int row) {
        CharsetEncoder encoder = charset.newEncoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            ByteBuffer out = encoder.encode(CharBuffer.wrap(new String(utf8, 0, n, StandardCharsets.UTF_8)));
            byte[] b = new byte[out.remaining()];
            out.get(b);
            return b;
        } catch (CharacterCodingException e) {
            throw new IllegalStateException("column '" + column + "', row " + row + ": a character is not"
                    + " representable in code page " + charset.name());
        }
    }

    /** PLP with its known total length, one chunk, and the terminator. */
    private static void writePlp(TdsMessageWriter w, byte[] data, int n) throws IOException {
        w.writeLong(n);
        if (n > 0) {
            w.writeInt(n).writeBytes(data, 0, n);
        }
        w.writeInt(0);
    }

    /** Transcodes valid UTF-8 (as Arrow guarantees) to UTF-16LE; returns the byte count written. */
    static int utf8ToUtf16le(byte[] in, int n, byte[] out) {
        int o = 0;
        int i = 0;
        while (i < n) {
            int b = in[i];
            if (b >= 0) { // ASCII fast path
                out[o] = (byte) b;
                out[o + 1] = 0;
                o += 2;
                i++;
                continue;
            }
            b &= 0xFF;
            int cp;
            if (b < 0xE0) {
                cp = (b & 0x1F) << 6 | (in[i + 1] & 0x3F);
                i += 2;
            } else if (b < 0xF0) {
                cp = (b & 0x0F) << 12 | (in[i + 1] & 0x3F) << 6 | (in[i + 2] & 0x3F);
                i += 3;
            } else {
                cp = (b & 0x07) << 18 | (in[i + 1] & 0x3F) << 12 | (in[i + 2] & 0x3F) << 6 | (in[i + 3] & 0x3F);
                i += 4;
            }
            if (cp >= 0x10000) {
                int hi = Character.highSurrogate(cp);
                int lo = Character.lowSurrogate(cp);
                out[o++] = (byte) hi;
                out[o++] = (byte) (hi >>> 8);
                out[o++] = (byte) lo;
                out[o++] = (byte) (lo >>> 8);
            } else {
                out[o++] = (byte) cp;
                out[o++] = (byte) (cp >>> 8);
            }
        }
        return o;
    }

    // ---------------------------------------------------------------- binary, uniqueidentifier

    private static Encoder binary(FieldVector v, ValueKind kind, TargetColumn t) {
        BytesSource src = kind == ValueKind.BINARY ? bytes(v) : null;
        if (src == null) {
            return null;
        }
        Integer max = t.maxLength();
        boolean plp = "image".equals(t.dataType()) || max == null || max < 0 || max > 8000;
        int typeId = "binary".equals(t.dataType()) ? TypeId.BIGBINARY : TypeId.BIGVARBINARY;
        return new Encoder(v, plp ? NullMarker.PLP : NullMarker.USHORT) {
            private final ReusableByteArray in = new ReusableByteArray();

            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(typeId).writeShort(plp ? 0xFFFF : max);
            }

            @Override
            void write(TdsMessageWriter w, int row) throws IOException {
                int n = src.read(row, in);
                if (plp) {
                    writePlp(w, in.getBuffer(), n);
                } else {
                    w.writeShort(n).writeBytes(in.getBuffer(), 0, n);
                }
            }
        };
    }

    private static Encoder guid(FieldVector v, ValueKind kind) {
        BytesSource src = kind == ValueKind.UUID || kind == ValueKind.STRING ? bytes(v) : null;
        if (src == null) {
            return null;
        }
        boolean text = kind == ValueKind.STRING;
        return new Encoder(v, NullMarker.BYTE) {
            private final ReusableByteArray in = new ReusableByteArray();
            private final byte[] bigEndian = new byte[16];
            private final byte[] wire = new byte[16];

            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(TypeId.GUID).writeByte(16);
            }

            @Override
            void write(TdsMessageWriter w, int row) throws IOException {
                src.read(row, in);
                byte[] b = in.getBuffer();
                if (text) {
                    parseUuid(b, bigEndian); // 36 characters, checked by the producer
                    b = bigEndian;
                }
                GuidCodec.fromBigEndian(b, 0, wire, 0);
                w.writeByte(16).writeBytes(wire, 0, 16);
            }
        };
    }

    /** The 16 big-endian bytes of a checked xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx text (ASCII bytes). */
    static void parseUuid(byte[] text, byte[] out) {
        int o = 0;
        for (int i = 0; i < 36; ) {
            if (text[i] == '-') {
                i++;
                continue;
            }
            out[o++] = (byte) (hex(text[i]) << 4 | hex(text[i + 1]));
            i += 2;
        }
    }

    private static int hex(byte c) {
        return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    }

    // ---------------------------------------------------------------- temporal types

    /** Date32 / Date64 as days since 1970-01-01. */
    private static LongSource epochDays(FieldVector v) {
        ArrowBuf d = v.getDataBuffer();
        if (v instanceof DateDayVector && rawAddress(v, 4) != 0) {
            long a = rawAddress(v, 4);
            int count = v.getValueCount();
            return r -> MemoryUtil.getInt(a + 4L * Objects.checkIndex(r, count));
        }
        if (v instanceof DateDayVector) {
            return r -> d.getInt((long) r * 4);
        }
        if (v instanceof DateMilliVector) {
            return r -> Math.floorDiv(d.getLong((long) r * 8), 86_400_000L);
        }
        return null;
    }

    /** Time32 / Time64 as nanoseconds of the day. */
    private static LongSource nanosOfDay(FieldVector v) {
        ArrowBuf d = v.getDataBuffer();
        if (v instanceof TimeSecVector) {
            return r -> d.getInt((long) r * 4) * 1_000_000_000L;
        }
        if (v instanceof TimeMilliVector) {
            return r -> d.getInt((long) r * 4) * 1_000_000L;
        }
        if (v instanceof TimeMicroVector) {
            return r -> d.getLong((long) r * 8) * 1_000L;
        }
        if (v instanceof TimeNanoVector) {
            return r -> d.getLong((long) r * 8);
        }
        return null;
    }

    /** A timestamp column's raw values and unit (UTC instants for zoned timestamps). */
    private record Timestamps(ArrowBuf data, long unitsPerDay, long nanosPerUnit, long unitsPerSecond, long address,
            int count) {
        static Timestamps of(FieldVector v) {
            if (!(v instanceof TimeStampVector) || !(v.getField().getType() instanceof ArrowType.Timestamp ts)) {
                return null;
            }
            long nanosPerUnit = switch (ts.getUnit()) {
                case SECOND -> 1_000_000_000L;
                case MILLISECOND -> 1_000_000L;
                case MICROSECOND -> 1_000L;
                case NANOSECOND -> 1L;
            };
            return new Timestamps(v.getDataBuffer(), NANOS_PER_DAY / nanosPerUnit, nanosPerUnit,
                    1_000_000_000L / nanosPerUnit, rawAddress(v, 8), v.getValueCount());
        }

        long raw(int row) {
            return address != 0 ? MemoryUtil.getLong(address + 8L * Objects.checkIndex(row, count))
                    : data.getLong((long) row * 8);
        }

        long epochDay(long raw) {
            return Math.floorDiv(raw, unitsPerDay);
        }

        long nanoOfDay(long raw) {
            return Math.floorMod(raw, unitsPerDay) * nanosPerUnit;
        }
    }

    private static boolean isTimestamp(ValueKind kind) {
        return kind == ValueKind.TIMESTAMP || kind == ValueKind.TIMESTAMP_TZ;
    }

    private static Encoder date(FieldVector v) {
        LongSource days = epochDays(v);
        if (days == null) {
            return null;
        }
        return new Encoder(v, NullMarker.BYTE) {
            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(TypeId.DATEN);
            }

            @Override
            void write(TdsMessageWriter w, int row) throws IOException {
                w.writeByte(3).writeLE(TemporalCodec.dateDays(days.get(row)), 3);
            }
        };
    }

    private static Encoder time(FieldVector v, int scale) {
        LongSource nanos = nanosOfDay(v);
        if (nanos == null) {
            return null;
        }
        int length = TemporalCodec.timeLength(scale);
        return new Encoder(v, NullMarker.BYTE) {
            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(TypeId.TIMEN).writeByte(scale);
            }

            @Override
            void write(TdsMessageWriter w, int row) throws IOException {
                w.writeByte(length).writeLE(TemporalCodec.timeUnits(nanos.get(row), scale), length);
            }
        };
    }

    /** datetime2(n) from Date32/Date64 (midnight) or timestamps (zoned ones as their UTC time). */
    private static Encoder dateTime2(FieldVector v, ValueKind kind, int scale) {
        int timeLength = TemporalCodec.timeLength(scale);
        if (kind == ValueKind.DATE) {
            LongSource days = epochDays(v);
            return days == null ? null : new Encoder(v, NullMarker.BYTE) {
                @Override
                void typeInfo(TdsMessageWriter w) throws IOException {
                    w.writeByte(TypeId.DATETIME2N).writeByte(scale);
                }

                @Override
                void write(TdsMessageWriter w, int row) throws IOException {
                    w.writeByte(timeLength + 3).writeLE(0, timeLength)
                            .writeLE(TemporalCodec.dateDays(days.get(row)), 3);
                }
            };
        }
        Timestamps ts = isTimestamp(kind) ? Timestamps.of(v) : null;
        if (ts == null) {
            return null;
        }
        return new Encoder(v, NullMarker.BYTE) {
            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(TypeId.DATETIME2N).writeByte(scale);
            }

            @Override
            void write(TdsMessageWriter w, int row) throws IOException {
                long raw = ts.raw(row);
                w.writeByte(timeLength + 3).writeLE(TemporalCodec.timeUnits(ts.nanoOfDay(raw), scale), timeLength)
                        .writeLE(TemporalCodec.dateDays(ts.epochDay(raw)), 3);
            }
        };
    }

    /** DATETIMN: datetime (8 bytes: days, 1/300 s ticks) or smalldatetime (4 bytes: days, minutes). */
    private static Encoder dateTime(FieldVector v, ValueKind kind, boolean small) {
        int length = small ? 4 : 8;
        int half = length / 2;
        LongSource days;
        LongSource time;
        if (kind == ValueKind.DATE) {
            days = epochDays(v);
            time = r -> 0;
        } else if (isTimestamp(kind) && Timestamps.of(v) != null) {
            Timestamps ts = Timestamps.of(v);
            days = r -> ts.epochDay(ts.raw(r));
            time = small ? r -> ts.nanoOfDay(ts.raw(r)) / 60_000_000_000L
                    : r -> TemporalCodec.dateTimeTicks(ts.nanoOfDay(ts.raw(r)) / 1_000_000L);
        } else {
            return null;
        }
        if (days == null) {
            return null;
        }
        return new Encoder(v, NullMarker.BYTE) {
            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(TypeId.DATETIMN).writeByte(length);
            }

            @Override
            void write(TdsMessageWriter w, int row) throws IOException {
                w.writeByte(length).writeLE(TemporalCodec.days1900(days.get(row)), half).writeLE(time.get(row), half);
            }
        };
    }

    /**
     * datetimeoffset(n): the UTC time and date, then the offset in minutes: +00:00 for timestamps without zone, the
     * zone's offset at that instant for zoned ones (looked up once per offset period, not per row).
     */
    private static Encoder dateTimeOffset(FieldVector v, ValueKind kind, int scale, String column) {
        Timestamps ts = isTimestamp(kind) ? Timestamps.of(v) : null;
        if (ts == null) {
            return null;
        }
        String zone = ((ArrowType.Timestamp) v.getField().getType()).getTimezone();
        Offsets offsets = kind == ValueKind.TIMESTAMP_TZ && zone != null ? new Offsets(ZoneId.of(zone).getRules())
                : null;
        int timeLength = TemporalCodec.timeLength(scale);
        return new Encoder(v, NullMarker.BYTE) {
            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(TypeId.DATETIMEOFFSETN).writeByte(scale);
            }

            @Override
            void write(TdsMessageWriter w, int row) throws IOException {
                long raw = ts.raw(row);
                int minutes = offsets == null ? 0 : offsets.minutes(Math.floorDiv(raw, ts.unitsPerSecond()));
                w.writeByte(timeLength + 5).writeLE(TemporalCodec.timeUnits(ts.nanoOfDay(raw), scale), timeLength)
                        .writeLE(TemporalCodec.dateDays(ts.epochDay(raw)), 3).writeShort(minutes);
            }
        };
    }

    /** A zone's offset in minutes by epoch second, cached for the period between two transitions. */
    static final class Offsets {
        private final ZoneRules rules;
        private long from = 1;
        private long until = 0;
        private int minutes;

        Offsets(ZoneRules rules) {
            this.rules = rules;
        }

        int minutes(long epochSecond) {
            if (epochSecond >= from && epochSecond < until) {
                return minutes;
            }
            Instant at = Instant.ofEpochSecond(epochSecond);
            minutes = rules.getOffset(at).getTotalSeconds() / 60; // whole minutes: checked by the producer
            ZoneOffsetTransition previous = rules.previousTransition(at.plusSeconds(1));
            ZoneOffsetTransition next = rules.nextTransition(at);
            from = previous == null ? Long.MIN_VALUE : previous.toEpochSecond();
            until = next == null ? Long.MAX_VALUE : next.toEpochSecond();
            return minutes;
        }
    }
}
