package io.deltafunnel.mssql.direct;

import static io.deltafunnel.mssql.direct.BinaryEncoders.binary;
import static io.deltafunnel.mssql.direct.BinaryEncoders.guid;
import static io.deltafunnel.mssql.direct.NumericEncoders.bit;
import static io.deltafunnel.mssql.direct.NumericEncoders.decimal;
import static io.deltafunnel.mssql.direct.NumericEncoders.floating;
import static io.deltafunnel.mssql.direct.NumericEncoders.integer;
import static io.deltafunnel.mssql.direct.TemporalEncoders.date;
import static io.deltafunnel.mssql.direct.TemporalEncoders.dateTime;
import static io.deltafunnel.mssql.direct.TemporalEncoders.dateTime2;
import static io.deltafunnel.mssql.direct.TemporalEncoders.dateTimeOffset;
import static io.deltafunnel.mssql.direct.TemporalEncoders.time;
import static io.deltafunnel.mssql.direct.TextEncoders.text;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.Objects;

import io.deltafunnel.arrow.read.ColumnReader;
import io.deltafunnel.arrow.read.ValueKind;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.tds.Collation;
import io.deltafunnel.tds.Pow10;
import io.deltafunnel.tds.TdsMessageWriter;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The per-column encoders of {@link DirectBulkWriter}: for one (Arrow type, target column) pair, the TYPE_INFO of
 * the BULK_LOAD COLMETADATA and the value of each row, read straight from the Arrow buffers.
 *
 * <p>The wire type follows the TARGET column (MS-TDS 2.2.5.4), except for an nvarchar column whose batch is all ASCII
 * when the writer asks for it ({@link Encoder#declaredType}, {@code Utf8Text.asciiAsVarchar}): INTN/BITN/FLTN for
 * tinyint..bigint, bit, real/float; DECIMALN (also for numeric) with the compact length of the target precision;
 * BIGCHAR/BIGVARCHAR/NCHAR/NVARCHAR with the target length and collation (PLP for (max) and for text/ntext);
 * BIGBINARY/BIGVARBINARY (PLP for (max) and
 * image); GUID; DATEN, TIMEN, DATETIME2N, DATETIMEOFFSETN with the target scale; DATETIMN (8 bytes for datetime, 4
 * for smalldatetime). Every value has already been checked by {@code BulkBatch.validate} with the producer's
 * rules, so the encoders only convert exact values (nothing is rounded here).
 *
 * <p>Slow paths (a boxed value per row, documented and rare): a decimal whose unscaled value does not fit 64 bits
 * and must be rescaled, or a Decimal256 value beyond 128 bits before rescaling; a decimal with more than 18 digits
 * of scale into an integer target; an integer into decimal with a scale above 18; JSON columns (List, Struct, Map:
 * the producer's JSON text); characters outside ASCII going into a non-UTF-8 char/varchar (unreachable today: the
 * producer's rule refuses them before anything is sent).
 *
 * <p>This class holds the {@link Encoder} contract, the choice by target type ({@link #forColumn}) and the readers of
 * integer buffers the families share; the encoders are in {@link NumericEncoders}, {@link TextEncoders},
 * {@link BinaryEncoders} and {@link TemporalEncoders}.
 */
final class DirectEncoders {

    private DirectEncoders() {
    }

    /** How a NULL is written for a wire type. */
    enum NullMarker { BYTE, USHORT, PLP }

    /** One column's TYPE_INFO and values. */
    abstract static class Encoder {
        final FieldVector nulls;
        final NullMarker nullMarker;
        /** False when the batch's vector has no nulls: the per-value validity check is skipped. */
        final boolean mayBeNull;

        Encoder(FieldVector nulls, NullMarker nullMarker) {
            this.nulls = nulls;
            this.nullMarker = nullMarker;
            this.mayBeNull = nulls.getNullCount() > 0;
        }

        abstract void typeInfo(TdsMessageWriter w) throws IOException;

        /**
         * The type INSERT BULK declares for this column, COLLATE clause included, when it is not the target's own
         * ({@link DirectBulkWriter#declaredType}); null for the target's. The TYPE_INFO of {@link #typeInfo} must be
         * this type's.
         */
        String declaredType() {
            return null;
        }

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

    /**
     * An encoder whose every value (length prefix included, NULL too) fits in {@link #reserve()} bytes: it writes
     * straight into a byte array ({@link #put}) with no bounds check per field. {@link DirectBulkWriter} writes a whole
     * row that way when every column is bounded and the packet has room for the sum; otherwise each value goes through
     * {@link #write}: straight into the packet when it has room for the value, else through a scratch array.
     */
    abstract static class Bounded extends Encoder {
        private final int reserve;
        private final byte[] scratch;

        /**
         * @param reserve the most bytes {@link #put} writes at and beyond its position (8-byte stores may write past
         *                the value's end; the next value overwrites them), at least the NULL marker's length
         */
        Bounded(FieldVector nulls, NullMarker nullMarker, int reserve) {
            super(nulls, nullMarker);
            this.reserve = Math.max(reserve, 8);
            this.scratch = new byte[this.reserve];
        }

        /** The room {@link #putValue} needs. */
        final int reserve() {
            return reserve;
        }

        /**
         * Writes the non-null value at {@code row} (length prefix included) into {@code b} at {@code p}, which has
         * {@link #reserve()} bytes of room; returns the position after the value.
         */
        abstract int put(byte[] b, int p, int row);

        /** {@link #put}, or the NULL marker when the row is NULL. */
        final int putValue(byte[] b, int p, int row) {
            if (mayBeNull && nulls.isNull(row)) {
                return switch (nullMarker) {
                    case BYTE -> {
                        b[p] = 0;
                        yield p + 1;
                    }
                    case USHORT -> {
                        b[p] = (byte) 0xFF;
                        b[p + 1] = (byte) 0xFF;
                        yield p + 2;
                    }
                    default -> {
                        LE.set(b, p, -1L);
                        yield p + 8;
                    }
                };
            }
            return put(b, p, row);
        }

        @Override
        final void write(TdsMessageWriter w, int row) throws IOException {
            if (w.room() >= reserve) {
                w.position(put(w.buffer(), w.position(), row));
            } else {
                w.writeBytes(scratch, 0, put(scratch, 0, row));
            }
        }
    }

    /** Little-endian long stores into byte arrays, for {@link Bounded#put}. */
    static final java.lang.invoke.VarHandle LE = java.lang.invoke.MethodHandles
            .byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    /**
     * The bytes a ROW token takes at most when every encoder is {@link Bounded} (the token byte and each column's
     * {@link Bounded#reserve()}), else -1.
     */
    static int rowReserve(Encoder[] encoders) {
        int sum = 1;
        for (Encoder e : encoders) {
            if (!(e instanceof Bounded b)) {
                return -1;
            }
            sum += b.reserve();
        }
        return sum;
    }

    /** The encoder for {@code column} over {@code vector} (the batch's vector of that column). */
    static Encoder forColumn(BoundColumn column, FieldVector vector) {
        return forColumn(column, vector, null);
    }

    /**
     * The encoder for {@code column} over {@code vector}, the wire type following the target column;
     * {@code serverCollation} is the target column's collation as the server reported it (FMTONLY metadata), or null
     * to derive it from the catalog's collation name.
     */
    static Encoder forColumn(BoundColumn column, FieldVector vector, Collation serverCollation) {
        return forColumn(column, vector, serverCollation, false);
    }

    /**
     * {@link #forColumn(BoundColumn, FieldVector, Collation)}; with {@code asciiAsVarchar}, an nvarchar column whose
     * batch is all ASCII goes as varchar ({@link TextEncoders#text}).
     */
    static Encoder forColumn(BoundColumn column, FieldVector vector, Collation serverCollation,
            boolean asciiAsVarchar) {
        FieldVector v = vector instanceof ExtensionTypeVector<?> ext ? ext.getUnderlyingVector() : vector;
        TargetColumn t = column.target();
        ValueKind kind = column.arrowType().kind();
        Encoder e = switch (t.type()) {
            case TINYINT -> integer(v, kind, column, vector, 1);
            case SMALLINT -> integer(v, kind, column, vector, 2);
            case INT -> integer(v, kind, column, vector, 4);
            case BIGINT -> integer(v, kind, column, vector, 8);
            case BIT -> bit(v, kind);
            case REAL -> floating(v, kind, 4);
            case FLOAT -> floating(v, kind, t.precision() != null && t.precision() <= 24 ? 4 : 8);
            case DECIMAL, NUMERIC -> decimal(v, kind, column, vector, t);
            case NVARCHAR, NCHAR, NTEXT, VARCHAR, CHAR, TEXT -> text(v, kind, column, vector, t, serverCollation,
                    asciiAsVarchar);
            case VARBINARY, BINARY, IMAGE -> binary(v, kind, t);
            case UNIQUEIDENTIFIER -> guid(v, kind);
            case DATE -> kind == ValueKind.DATE ? date(v) : null;
            case TIME -> kind == ValueKind.TIME ? time(v, digits(t)) : null;
            case DATETIME2 -> dateTime2(v, kind, digits(t));
            case DATETIME -> dateTime(v, kind, false);
            case SMALLDATETIME -> dateTime(v, kind, true);
            case DATETIMEOFFSET -> dateTimeOffset(v, kind, digits(t), column.sourceName());
            case JSON -> ModernEncoders.json(v, kind, column, vector);
            case VECTOR -> ModernEncoders.vector(v, column);
            case UNSUPPORTED -> null;
        };
        if (e == null) {
            throw new DirectUnsupportedColumnException(column.sourceName(), notEncoded(vector.getField().getType(), t));
        }
        return e;
    }

    private static String notEncoded(ArrowType arrowType, TargetColumn t) {
        return "the direct writer does not encode Arrow " + arrowType + " into " + t.typeText()
                + " (use the mssql-jdbc path)";
    }

    /**
     * Why the direct writer cannot encode {@code column}, or null when it can: the question {@link #forColumn} answers
     * by building the encoder, asked of the target's {@link io.deltafunnel.mssql.bind.SqlType}, the column's value
     * kind and its Arrow type alone (no vector). {@code forColumn} over a vector of {@code arrowType} throws a
     * {@link DirectUnsupportedColumnException} with this reason exactly when it is not null ({@code
     * DirectEncodersSupportTest} checks every pair).
     *
     * @param arrowType       the column's Arrow type (as its schema field has it)
     * @param serverCollation the target column's collation as the server reported it, or null
     */
    static String cannotEncode(BoundColumn column, ArrowType arrowType, Collation serverCollation) {
        TargetColumn t = column.target();
        ValueKind kind = column.arrowType().kind();
        ArrowType a = arrowType;
        while (a instanceof ArrowType.ExtensionType ext) {
            a = ext.storageType();
        }
        if (t.type().unicode() || t.type().codePageText()) {
            // the text encoder needs the code page first, whatever the values
            String noCollation = TextEncoders.cannotEncode(column, serverCollation);
            if (noCollation != null) {
                return noCollation;
            }
        }
        boolean encodes = switch (t.type()) {
            case TINYINT, SMALLINT, INT, BIGINT -> switch (kind) {
                case INTEGER, BOOLEAN -> longs(a);
                case DECIMAL -> a instanceof ArrowType.Decimal d ? d.getBitWidth() == 128 || d.getBitWidth() == 256
                        : a instanceof ArrowType.Int i && i.getBitWidth() == 64 && !i.getIsSigned();
                default -> false;
            };
            case BIT -> (kind == ValueKind.BOOLEAN || kind == ValueKind.INTEGER) && longs(a);
            // integers as floats: the encoder reads them as longs, whatever the vector
            case REAL, FLOAT -> kind == ValueKind.INTEGER || a instanceof ArrowType.FloatingPoint;
            case DECIMAL, NUMERIC -> kind == ValueKind.INTEGER || kind == ValueKind.DECIMAL
                    && (a instanceof ArrowType.Int i && i.getBitWidth() == 64 && !i.getIsSigned()
                    || a instanceof ArrowType.Decimal d && (d.getBitWidth() == 128 || d.getBitWidth() == 256));
            case NVARCHAR, NCHAR, NTEXT, VARCHAR, CHAR, TEXT -> switch (kind) {
                case STRING, UUID -> bytes(a);
                case JSON -> true;
                default -> false;
            };
            case VARBINARY, BINARY, IMAGE -> kind == ValueKind.BINARY && bytes(a);
            case UNIQUEIDENTIFIER -> (kind == ValueKind.UUID || kind == ValueKind.STRING) && bytes(a);
            case DATE -> kind == ValueKind.DATE && a instanceof ArrowType.Date;
            case TIME -> kind == ValueKind.TIME && a instanceof ArrowType.Time;
            case DATETIME2, DATETIME, SMALLDATETIME -> kind == ValueKind.DATE ? a instanceof ArrowType.Date
                    : TemporalEncoders.isTimestamp(kind) && a instanceof ArrowType.Timestamp;
            case DATETIMEOFFSET -> TemporalEncoders.isTimestamp(kind) && a instanceof ArrowType.Timestamp;
            case JSON -> kind == ValueKind.JSON || kind == ValueKind.STRING && bytes(a);
            case VECTOR -> column.arrowType() instanceof io.deltafunnel.arrow.read.FloatListColumnType;
            case UNSUPPORTED -> false;
        };
        return encodes ? null : notEncoded(arrowType, t);
    }

    /** Whether {@link #longs(FieldVector)} reads a vector of {@code a} (integers and Bool). */
    private static boolean longs(ArrowType a) {
        return a instanceof ArrowType.Int || a instanceof ArrowType.Bool;
    }

    /** Whether {@link TextEncoders#bytes(FieldVector)} reads a vector of {@code a} (variable width, fixed binary). */
    private static boolean bytes(ArrowType a) {
        return a instanceof ArrowType.Utf8 || a instanceof ArrowType.LargeUtf8 || a instanceof ArrowType.Utf8View
                || a instanceof ArrowType.Binary || a instanceof ArrowType.LargeBinary
                || a instanceof ArrowType.BinaryView || a instanceof ArrowType.FixedSizeBinary;
    }

    static int digits(TargetColumn t) {
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
    static LongSource decimalLongs(FieldVector v, BoundColumn column, FieldVector vector) {
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
}
