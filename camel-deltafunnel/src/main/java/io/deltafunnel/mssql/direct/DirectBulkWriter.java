package io.deltafunnel.mssql.direct;

import io.deltafunnel.tds.TdsMessageWriter;
import io.deltafunnel.tds.TlsStreams;
import java.io.IOException;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

import io.deltafunnel.mssql.ArrowBulkData;
import io.deltafunnel.mssql.ArrowColumnType;
import io.deltafunnel.mssql.BoundColumn;
import io.deltafunnel.mssql.SqlIdentifiers;
import io.deltafunnel.mssql.SqlServerTypes;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.TargetBinding;
import io.deltafunnel.mssql.TargetColumn;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Bulk-loads an Arrow batch over a {@link DirectTdsConnection}: {@code INSERT BULK} via SQL_BATCH, then one
 * BULK_LOAD message (COLMETADATA, one ROW token per row, DONE) written straight from the Arrow vectors, without
 * boxing values (except a decimal whose source scale differs from the target's).
 *
 * <p>Before anything is sent, every value is checked with the mssql-jdbc path's rules
 * ({@link ArrowBulkData#validate(long)}, {@link TargetBinding}): a value that does not fit exactly raises
 * {@link ArrowBulkData.Rejection} and nothing is sent.
 *
 * <p>Encoded pairs (Arrow → target): Int16/Int32/Int64 → smallint/int/bigint (INTN), Float64 → float (FLTN),
 * Bool → bit (BITN), Decimal128 → decimal/numeric(p,s) (DECIMALN), Utf8 → nvarchar(n) and nvarchar(max) (PLP),
 * Date32 → date (DATEN), Timestamp without zone → datetime2(n) (DATETIME2N). Anything else raises
 * {@link DirectUnsupportedColumnException} naming the column.
 *
 * <p>EXPERIMENTAL: not used by the {@code deltafunnel-mssql} producer yet.
 */
public final class DirectBulkWriter {

    private static final byte[] COLLATION = {0x09, 0x04, (byte) 0xD0, 0x00, 0x34}; // SQL_Latin1_General_CP1_CI_AS
    private static final long DAYS_0001_TO_1970 = 719_162L;

    private final DirectTdsConnection connection;
    private boolean tableLock;
    private boolean keepNulls = true;
    private boolean checkConstraints;
    private boolean fireTriggers;

    public DirectBulkWriter(DirectTdsConnection connection) {
        this.connection = connection;
    }

    /** Adds the TABLOCK hint (default off). */
    public DirectBulkWriter tableLock(boolean tableLock) {
        this.tableLock = tableLock;
        return this;
    }

    /** Adds the CHECK_CONSTRAINTS hint (default off, like SQL Server's bulk load). */
    public DirectBulkWriter checkConstraints(boolean checkConstraints) {
        this.checkConstraints = checkConstraints;
        return this;
    }

    /** Adds the FIRE_TRIGGERS hint (default off). */
    public DirectBulkWriter fireTriggers(boolean fireTriggers) {
        this.fireTriggers = fireTriggers;
        return this;
    }

    /** Adds the KEEP_NULLS hint (default on: a NULL stays NULL even where the column has a default). */
    public DirectBulkWriter keepNulls(boolean keepNulls) {
        this.keepNulls = keepNulls;
        return this;
    }

    /**
     * Writes every row of {@code root} into {@code table}.
     *
     * @param targets the target column for each Arrow field, in schema order (as read from the catalog)
     * @return the row count the server reported
     */
    public long write(TableName table, VectorSchemaRoot root, List<TargetColumn> targets) throws IOException {
        return write(table, root, targets, 0, root.getRowCount(), true);
    }

    /**
     * Writes rows {@code from} (inclusive) to {@code to} (exclusive) of {@code root} into {@code table} as one
     * INSERT BULK round, without checking the values again: the caller has validated the whole batch with
     * {@link ArrowBulkData#validate(long)} against the same target columns (as {@code BulkLoadSession} does).
     *
     * @return the row count the server reported
     */
    public long writeValidated(TableName table, VectorSchemaRoot root, List<TargetColumn> targets, int from, int to)
            throws IOException {
        return write(table, root, targets, from, to, false);
    }

    private long write(TableName table, VectorSchemaRoot root, List<TargetColumn> targets, int from, int to,
            boolean validate) throws IOException {
        List<Field> fields = root.getSchema().getFields();
        if (fields.size() != targets.size()) {
            throw new IllegalArgumentException(fields.size() + " Arrow fields but " + targets.size()
                    + " target columns");
        }
        List<BoundColumn> bound = new ArrayList<>(fields.size());
        Encoder[] encoders = new Encoder[fields.size()];
        for (int i = 0; i < fields.size(); i++) {
            Field f = fields.get(i);
            TargetColumn target = targets.get(i);
            ArrowColumnType type = SqlServerTypes.forField(f);
            TargetBinding binding;
            try {
                binding = TargetBinding.of(type.kind(), target, true);
            } catch (IllegalArgumentException e) {
                throw new DirectUnsupportedColumnException(f.getName(), e.getMessage());
            }
            bound.add(new BoundColumn(i, f.getName(), type, target, binding));
            encoders[i] = encoder(f, root.getVector(i), target);
        }
        if (validate) {
            new ArrowBulkData(root, bound).validate(0);
        }

        StringBuilder sql = new StringBuilder("INSERT BULK ").append(table.quoted()).append(" (");
        for (int i = 0; i < targets.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(SqlIdentifiers.quote(targets.get(i).name())).append(' ')
                    .append(targets.get(i).typeText());
        }
        sql.append(')');
        // The driver's hint order: CHECK_CONSTRAINTS, FIRE_TRIGGERS, KEEP_NULLS, TABLOCK.
        List<String> hints = new ArrayList<>();
        if (checkConstraints) {
            hints.add("CHECK_CONSTRAINTS");
        }
        if (fireTriggers) {
            hints.add("FIRE_TRIGGERS");
        }
        if (keepNulls) {
            hints.add("KEEP_NULLS");
        }
        if (tableLock) {
            hints.add("TABLOCK");
        }
        if (!hints.isEmpty()) {
            sql.append(" with (").append(String.join(", ", hints)).append(')');
        }
        connection.executeBatch(sql.toString());

        TdsMessageWriter w = connection.beginBulkLoad();
        w.writeByte(0x81).writeShort(encoders.length); // COLMETADATA
        for (int i = 0; i < encoders.length; i++) {
            w.writeInt(0).writeShort(0x0009); // user type; flags: nullable, updatable
            encoders[i].typeInfo(w);
            String name = targets.get(i).name();
            w.writeByte(name.length()).writeChars(name);
        }
        for (int r = from; r < to; r++) {
            w.writeByte(0xD1); // ROW
            for (Encoder e : encoders) {
                e.value(w, r);
            }
        }
        w.writeByte(0xFD).writeShort(0).writeShort(0).writeLong(0); // DONE
        w.end();
        return connection.readReply();
    }

    // ---------------------------------------------------------------- encoders

    private interface Encoder {
        void typeInfo(TdsMessageWriter w) throws IOException;

        void value(TdsMessageWriter w, int row) throws IOException;
    }

    static Encoder encoder(Field f, FieldVector v, TargetColumn t) {
        String type = t.dataType();
        ArrowType at = f.getType();
        if ((v instanceof SmallIntVector || v instanceof IntVector || v instanceof BigIntVector)
                && (type.equals("smallint") || type.equals("int") || type.equals("bigint"))) {
            return intEncoder((BaseIntVector) v, switch (type) {
                case "smallint" -> 2;
                case "int" -> 4;
                default -> 8;
            });
        }
        if (v instanceof Float8Vector fv && type.equals("float") && (t.precision() == null || t.precision() > 24)) {
            return floatEncoder(fv);
        }
        if (v instanceof BitVector bv && type.equals("bit")) {
            return bitEncoder(bv);
        }
        if (v instanceof DecimalVector dv && (type.equals("decimal") || type.equals("numeric"))) {
            return decimalEncoder(dv, t.precision(), t.scale());
        }
        if (v instanceof VarCharVector sv && type.equals("nvarchar")) {
            return stringEncoder(sv, t.maxLength());
        }
        if (v instanceof DateDayVector dv && type.equals("date")) {
            return dateEncoder(dv);
        }
        if (v instanceof TimeStampVector tv && at instanceof ArrowType.Timestamp ts && ts.getTimezone() == null
                && type.equals("datetime2")) {
            return datetime2Encoder(tv, ts.getUnit(), t.datetimePrecision() == null ? 7 : t.datetimePrecision());
        }
        throw new DirectUnsupportedColumnException(f.getName(), "the direct writer does not encode Arrow " + at
                + " into " + t.typeText() + " (use the mssql-jdbc path)");
    }

    private static Encoder intEncoder(BaseIntVector v, int width) {
        FieldVector fv = (FieldVector) v;
        return new Encoder() {
            @Override
            public void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(0x26).writeByte(width);
            }

            @Override
            public void value(TdsMessageWriter w, int row) throws IOException {
                if (fv.isNull(row)) {
                    w.writeByte(0);
                } else {
                    w.writeByte(width).writeLE(v.getValueAsLong(row), width);
                }
            }
        };
    }

    private static Encoder floatEncoder(Float8Vector v) {
        return new Encoder() {
            @Override
            public void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(0x6D).writeByte(8);
            }

            @Override
            public void value(TdsMessageWriter w, int row) throws IOException {
                if (v.isNull(row)) {
                    w.writeByte(0);
                } else {
                    w.writeByte(8).writeLong(Double.doubleToRawLongBits(v.get(row)));
                }
            }
        };
    }

    private static Encoder bitEncoder(BitVector v) {
        return new Encoder() {
            @Override
            public void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(0x68).writeByte(1);
            }

            @Override
            public void value(TdsMessageWriter w, int row) throws IOException {
                if (v.isNull(row)) {
                    w.writeByte(0);
                } else {
                    w.writeByte(1).writeByte(v.get(row));
                }
            }
        };
    }

    static int decimalLength(int precision) {
        return precision <= 9 ? 5 : precision <= 19 ? 9 : precision <= 28 ? 13 : 17;
    }

    private static Encoder decimalEncoder(DecimalVector v, int precision, int scale) {
        int len = decimalLength(precision);
        boolean sameScale = v.getScale() == scale;
        ArrowBuf data = v.getDataBuffer();
        return new Encoder() {
            @Override
            public void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(0x6A).writeByte(len).writeByte(precision).writeByte(scale);
            }

            @Override
            public void value(TdsMessageWriter w, int row) throws IOException {
                if (v.isNull(row)) {
                    w.writeByte(0);
                    return;
                }
                long lo;
                long hi;
                if (sameScale) {
                    lo = data.getLong((long) row * 16);
                    hi = data.getLong((long) row * 16 + 8);
                } else {
                    // validated beforehand: the rescale is exact
                    BigInteger u = v.getObject(row).setScale(scale, RoundingMode.UNNECESSARY).unscaledValue();
                    lo = u.longValue();
                    hi = u.shiftRight(64).longValue();
                }
                boolean negative = hi < 0;
                if (negative) {
                    lo = ~lo + 1;
                    hi = ~hi + (lo == 0 ? 1 : 0);
                }
                w.writeByte(len).writeByte(negative ? 0 : 1);
                int magnitude = len - 1;
                w.writeLE(lo, Math.min(8, magnitude));
                if (magnitude > 8) {
                    w.writeLE(hi, magnitude - 8);
                }
            }
        };
    }

    private static Encoder stringEncoder(VarCharVector v, Integer maxLength) {
        boolean plp = maxLength == null || maxLength < 0 || maxLength > 4000;
        ArrowBuf offsets = v.getOffsetBuffer();
        ArrowBuf data = v.getDataBuffer();
        return new Encoder() {
            private byte[] utf8 = new byte[256];
            private byte[] utf16 = new byte[512];

            @Override
            public void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(0xE7).writeShort(plp ? 0xFFFF : 2 * maxLength).writeBytes(COLLATION);
            }

            @Override
            public void value(TdsMessageWriter w, int row) throws IOException {
                if (v.isNull(row)) {
                    if (plp) {
                        w.writeLong(-1L);
                    } else {
                        w.writeShort(0xFFFF);
                    }
                    return;
                }
                int start = offsets.getInt((long) row * 4);
                int end = offsets.getInt((long) row * 4 + 4);
                int n = end - start;
                if (utf8.length < n) {
                    utf8 = new byte[Math.max(n, utf8.length * 2)];
                    utf16 = new byte[2 * utf8.length];
                }
                data.getBytes(start, utf8, 0, n);
                int bytes = utf8ToUtf16le(utf8, n, utf16);
                if (plp) {
                    w.writeLong(bytes);
                    if (bytes > 0) {
                        w.writeInt(bytes).writeBytes(utf16, 0, bytes);
                    }
                    w.writeInt(0);
                } else {
                    w.writeShort(bytes).writeBytes(utf16, 0, bytes);
                }
            }
        };
    }

    /** Transcodes valid UTF-8 (as Arrow guarantees) to UTF-16LE; returns the byte count written. */
    static int utf8ToUtf16le(byte[] in, int n, byte[] out) {
        int o = 0;
        int i = 0;
        while (i < n) {
            int b = in[i] & 0xFF;
            int cp;
            if (b < 0x80) {
                cp = b;
                i++;
            } else if (b < 0xE0) {
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

    private static Encoder dateEncoder(DateDayVector v) {
        return new Encoder() {
            @Override
            public void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(0x28);
            }

            @Override
            public void value(TdsMessageWriter w, int row) throws IOException {
                if (v.isNull(row)) {
                    w.writeByte(0);
                } else {
                    w.writeByte(3).writeLE(v.get(row) + DAYS_0001_TO_1970, 3);
                }
            }
        };
    }

    private static final long NANOS_PER_DAY = 86_400_000_000_000L;
    private static final long[] POW10 = {1L, 10L, 100L, 1_000L, 10_000L, 100_000L, 1_000_000L, 10_000_000L,
            100_000_000L, 1_000_000_000L};

    private static Encoder datetime2Encoder(TimeStampVector v, TimeUnit unit, int scale) {
        long nanosPerUnit = switch (unit) {
            case SECOND -> 1_000_000_000L;
            case MILLISECOND -> 1_000_000L;
            case MICROSECOND -> 1_000L;
            case NANOSECOND -> 1L;
        };
        long unitsPerDay = NANOS_PER_DAY / nanosPerUnit;
        int timeLength = scale <= 2 ? 3 : scale <= 4 ? 4 : 5;
        long tickNanos = POW10[9 - scale];
        return new Encoder() {
            @Override
            public void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(0x2A).writeByte(scale);
            }

            @Override
            public void value(TdsMessageWriter w, int row) throws IOException {
                if (v.isNull(row)) {
                    w.writeByte(0);
                    return;
                }
                long value = v.get(row);
                long day = Math.floorDiv(value, unitsPerDay);
                long nanosOfDay = Math.floorMod(value, unitsPerDay) * nanosPerUnit;
                w.writeByte(timeLength + 3).writeLE(nanosOfDay / tickNanos, timeLength)
                        .writeLE(day + DAYS_0001_TO_1970, 3);
            }
        };
    }
}
