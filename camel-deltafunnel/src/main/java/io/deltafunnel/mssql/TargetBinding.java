package io.deltafunnel.mssql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

import io.deltafunnel.tds.Pow10;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * How values of one {@link ValueKind} go into one target column: the JDBC type, precision and scale declared to
 * the bulk copy, the check that a value fits the column exactly, and the Java object handed to the driver.
 *
 * <p>The declared type follows the TARGET column, so SQL Server never converts with rounding: every value is
 * checked by {@link #check} first, and only values that fit exactly are sent. Temporal values are handed over as
 * text ({@code 2024-01-02 03:04:05.1234567}) that carries every fractional digit the target keeps; the driver sends
 * it as varchar (its default {@code sendTemporalDataTypesAsStringForBulkCopy=true}) or parses it into the native
 * TDS type (when that property is false). For {@code time} in native mode a {@link Timestamp} is handed over
 * instead, as the driver's text parser for time is not exact.
 */
public abstract class TargetBinding {

    /** microsoft.sql.Types.DATETIMEOFFSET. */
    static final int JDBC_DATETIMEOFFSET = -155;
    /** microsoft.sql.Types.GUID. */
    static final int JDBC_GUID = -145;
    /** Characters SQL Server allows in nvarchar(max); used as the declared length of (max) columns. */
    static final int MAX_CHARS = 1_073_741_823;
    static final int MAX_BYTES = Integer.MAX_VALUE;

    final TargetColumn target;

    TargetBinding(TargetColumn target) {
        this.target = target;
    }

    public abstract int jdbcType();

    public abstract int precision();

    public int scale() {
        return 0;
    }

    /** Throws {@link ValueRejected} when the non-null value at {@code row} does not fit the target exactly. */
    abstract void checkValue(ColumnReader reader, int row);

    /** The driver object for the non-null, already checked value at {@code row}. */
    abstract Object convert(ColumnReader reader, int row);

    /**
     * True when every value of rows 0..rowCount-1 of {@code vector} (a vector WITHOUT nulls) provably fits, found by
     * one tight pass over its raw buffers; false when that pass cannot tell, and then every value is checked by
     * {@link #checkValue} as usual (which names the value that does not fit). It only ever accepts: the values it
     * accepts are exactly those {@link #checkValue} accepts on its own fast path.
     */
    boolean allFit(FieldVector vector, int rowCount) {
        return false;
    }

    /**
     * The address of {@code buffer} when it holds {@code bytes} bytes, else 0: the column-wide passes of
     * {@link #allFit} check the size once and then read without Arrow's per-access checks.
     */
    static long address(ArrowBuf buffer, long bytes) {
        return buffer != null && buffer.capacity() >= bytes ? buffer.memoryAddress() : 0;
    }

    /**
     * True when every non-null value of {@code source} fits the target by type alone (an Int32 into int, any string
     * into nvarchar(max)): the batch's values of that column need no per-value check, only the NULL check.
     */
    boolean alwaysFits(ArrowColumnType source) {
        return false;
    }

    /** Checks the value at {@code row}, NULL included. */
    final void check(ColumnReader reader, int row) {
        if (reader.isNull(row)) {
            if (!target.nullable()) {
                throw new ValueRejected("NULL into NOT NULL column " + target.name());
            }
            return;
        }
        checkValue(reader, row);
    }

    /** The driver object for the value at {@code row}, or null. */
    final Object value(ColumnReader reader, int row) {
        return reader.isNull(row) ? null : convert(reader, row);
    }

    /**
     * The binding of {@code kind} values into {@code target}.
     *
     * @param temporalAsText the connection's sendTemporalDataTypesAsStringForBulkCopy
     * @throws IllegalArgumentException when the kind cannot go into the target's type; the message says why
     */
    public static TargetBinding of(ValueKind kind, TargetColumn target, boolean temporalAsText) {
        String type = target.dataType();
        TargetBinding binding = switch (type) {
            case "tinyint" -> new IntegerBinding(target, Types.TINYINT, 0, 255, 3);
            case "smallint" -> new IntegerBinding(target, Types.SMALLINT, Short.MIN_VALUE, Short.MAX_VALUE, 5);
            case "int" -> new IntegerBinding(target, Types.INTEGER, Integer.MIN_VALUE, Integer.MAX_VALUE, 10);
            case "bigint" -> new IntegerBinding(target, Types.BIGINT, Long.MIN_VALUE, Long.MAX_VALUE, 19);
            case "bit" -> new BitBinding(target);
            case "decimal", "numeric" -> new DecimalBinding(target);
            case "float" -> new FloatBinding(target, false);
            case "real" -> new FloatBinding(target, true);
            case "nvarchar", "nchar", "varchar", "char", "ntext", "text" -> new StringBinding(target);
            case "varbinary", "binary", "image" -> new BinaryBinding(target);
            case "uniqueidentifier" -> new GuidBinding(target);
            case "date" -> new DateBinding(target);
            case "time" -> new TimeBinding(target, temporalAsText);
            case "datetime2" -> new DateTime2Binding(target, false);
            case "datetime" -> new DateTime2Binding(target, true);
            case "smalldatetime" -> new SmallDateTimeBinding(target);
            case "datetimeoffset" -> new DateTimeOffsetBinding(target);
            default -> throw new IllegalArgumentException("target column type " + target.typeText()
                    + " is not supported by deltafunnel-mssql");
        };
        if (!binding.accepts().contains(kind)) {
            throw new IllegalArgumentException("a " + kind + " source column cannot be written to a "
                    + target.typeText() + " column (accepted sources: " + binding.accepts() + ")");
        }
        binding.kind = kind;
        return binding;
    }

    ValueKind kind;

    abstract Set<ValueKind> accepts();

    // ---- helpers shared by the bindings ----

    static BigDecimal decimalOf(ValueKind kind, ColumnReader reader, int row) {
        return kind == ValueKind.INTEGER ? BigDecimal.valueOf(reader.getLong(row))
                : (BigDecimal) reader.getObject(row);
    }

    static int utf16Length(String s) {
        return s.length();
    }

    static void checkFraction(int nanos, int digits, String what) {
        int unit = Pow10.intOf(9 - digits);
        if (nanos % unit != 0) {
            throw new ValueRejected(what + " has more fractional-second digits than the target keeps (" + digits
                    + "); it would be rounded");
        }
    }

    static void appendFraction(StringBuilder sb, int nanos, int digits) {
        if (digits == 0) {
            return;
        }
        sb.append('.');
        pad(sb, nanos / Pow10.intOf(9 - digits), digits);
    }

    static void appendDate(StringBuilder sb, LocalDate d) {
        int y = d.getYear();
        pad(sb, y, 4).append('-');
        pad(sb, d.getMonthValue(), 2).append('-');
        pad(sb, d.getDayOfMonth(), 2);
    }

    static void appendTime(StringBuilder sb, LocalTime t, int digits) {
        pad(sb, t.getHour(), 2).append(':');
        pad(sb, t.getMinute(), 2).append(':');
        pad(sb, t.getSecond(), 2);
        appendFraction(sb, t.getNano(), digits);
    }

    static StringBuilder pad(StringBuilder sb, int value, int width) {
        if (value < 0) {
            String text = Integer.toString(value);
            for (int i = text.length(); i < width; i++) {
                sb.append('0');
            }
            return sb.append(text);
        }
        // No String per number: count the digits, append the zeros, then the int itself.
        int digits = 1;
        for (int v = value; v >= 10; v /= 10) {
            digits++;
        }
        for (int i = digits; i < width; i++) {
            sb.append('0');
        }
        return sb.append(value);
    }

    static void twoDigits(char[] into, int at, int value) {
        into[at] = (char) ('0' + value / 10);
        into[at + 1] = (char) ('0' + value % 10);
    }

    /** Epoch days of 0001-01-01 and 9999-12-31: the range of date and datetime2. */
    static final long MIN_EPOCH_DAY = LocalDate.of(1, 1, 1).toEpochDay();
    static final long MAX_EPOCH_DAY = LocalDate.of(9999, 12, 31).toEpochDay();

    /**
     * The {@code yyyy-MM-dd} text of epoch days (years 1..9999), with a small direct-mapped cache: a column's
     * dates repeat a lot, and the strings are immutable, so a row can share them.
     */
    static final class DateTexts {
        private static final int SIZE = 4096;
        private final long[] days = new long[SIZE];
        private final String[] texts = new String[SIZE];
        private final StringBuilder sb = new StringBuilder(10);

        String text(long epochDay) {
            int slot = (int) epochDay & (SIZE - 1);
            String cached = texts[slot];
            if (cached != null && days[slot] == epochDay) {
                return cached;
            }
            sb.setLength(0);
            appendDate(sb, LocalDate.ofEpochDay(epochDay));
            String text = sb.toString();
            days[slot] = epochDay;
            texts[slot] = text;
            return text;
        }
    }

    static void checkYear(int year, int min, String what) {
        if (year < min || year > 9999) {
            throw new ValueRejected(what + " is outside the target's range (years " + min + " to 9999)");
        }
    }

    int datetimeDigits() {
        Integer p = target.datetimePrecision();
        return p == null ? 7 : Math.max(0, Math.min(7, p));
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
        boolean alwaysFits(ArrowColumnType source) {
            return kind == ValueKind.INTEGER && source instanceof ArrowColumnTypes.IntType type
                    && type.minValue() >= min && type.maxValue() <= max;
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
        void checkValue(ColumnReader reader, int row) {
            if (kind == ValueKind.DECIMAL) {
                BigDecimal d = (BigDecimal) reader.getObject(row);
                if (d.signum() != 0 && d.stripTrailingZeros().scale() > 0) {
                    throw new ValueRejected("value " + d.toPlainString() + " has a fractional part; "
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
            return new ValueRejected("value " + v + " is outside the range of " + target.typeText() + " (" + min
                    + " to " + max + ")");
        }

        @Override
        Object convert(ColumnReader reader, int row) {
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
        public int jdbcType() {
            return Types.BIT;
        }

        @Override
        public int precision() {
            return 1;
        }

        @Override
        void checkValue(ColumnReader reader, int row) {
            long v = reader.getLong(row);
            if (v != 0 && v != 1) {
                throw new ValueRejected("value " + v + " is not 0 or 1; bit would turn it into 1");
            }
        }

        @Override
        Object convert(ColumnReader reader, int row) {
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
        void checkValue(ColumnReader reader, int row) {
            if (kind == ValueKind.DECIMAL && reader instanceof ArrowColumnTypes.DecimalReader raw
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
                throw new ValueRejected("value " + d.toPlainString() + " has more than " + scale
                        + " decimal places; " + target.typeText() + " would round it");
            }
            BigDecimal scaled = d.setScale(scale, java.math.RoundingMode.UNNECESSARY);
            if (scaled.precision() > precision && scaled.signum() != 0) {
                throw new ValueRejected("value " + d.toPlainString() + " does not fit " + target.typeText()
                        + " (at most " + (precision - scale) + " digits before the decimal point)");
            }
        }

        @Override
        Object convert(ColumnReader reader, int row) {
            return decimalOf(kind, reader, row).setScale(scale, java.math.RoundingMode.UNNECESSARY);
        }

        @Override
        boolean allFit(FieldVector vector, int rowCount) {
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
            long limit = maxDigits >= 19 ? Long.MAX_VALUE : Pow10.of(maxDigits);
            for (int r = 0; r < rowCount; r++) {
                long lo = MemoryUtil.getLong(a + 16L * r);
                long hi = MemoryUtil.getLong(a + 16L * r + 8);
                if (hi != lo >> 63 || (maxDigits < 19 && (lo == Long.MIN_VALUE || Math.abs(lo) >= limit))) {
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
        void checkValue(ColumnReader reader, int row) {
            if (kind == ValueKind.INTEGER) {
                long v = reader.getLong(row);
                long limit = real ? (1L << 24) : (1L << 53);
                if (v > limit || v < -limit) {
                    throw new ValueRejected("integer " + v + " is not exactly representable in " + target.typeText());
                }
                return;
            }
            double d = reader.getDouble(row);
            if (!Double.isFinite(d)) {
                throw new ValueRejected("value " + d + " cannot be stored: SQL Server has no NaN or infinity");
            }
            if (real && kind == ValueKind.FLOAT64 && (double) (float) d != d) {
                throw new ValueRejected("value " + d + " is not exactly representable in real; it would be rounded");
            }
        }

        @Override
        Object convert(ColumnReader reader, int row) {
            double d = read(reader, row);
            return real ? (Object) (float) d : (Object) d;
        }
    }

    static final class StringBinding extends TargetBinding {
        private final boolean unicode;
        private final int maxLength;

        StringBinding(TargetColumn target) {
            super(target);
            String t = target.dataType();
            this.unicode = t.startsWith("n");
            Integer len = target.maxLength();
            this.maxLength = len == null || len < 0 || t.endsWith("text") ? -1 : len;
        }

        @Override
        Set<ValueKind> accepts() {
            return EnumSet.of(ValueKind.STRING, ValueKind.JSON, ValueKind.UUID);
        }

        @Override
        boolean alwaysFits(ArrowColumnType source) {
            return kind == ValueKind.STRING && unicode && maxLength < 0;
        }

        @Override
        public int jdbcType() {
            return Types.NVARCHAR;
        }

        @Override
        public int precision() {
            return maxLength < 0 ? MAX_CHARS : maxLength;
        }

        @Override
        boolean allFit(FieldVector vector, int rowCount) {
            // checkValue's fast path, column-wide: every Utf8 value has at most maxLength bytes
            if (kind != ValueKind.STRING || !unicode || maxLength < 0 || !(vector instanceof VarCharVector v)
                    || rowCount > vector.getValueCount()) {
                return false;
            }
            long a = address(v.getOffsetBuffer(), 4L * (rowCount + 1));
            if (a == 0) {
                return false;
            }
            int start = MemoryUtil.getInt(a);
            for (int r = 1; r <= rowCount; r++) {
                int end = MemoryUtil.getInt(a + 4L * r);
                if (end - start > maxLength) {
                    return false;
                }
                start = end;
            }
            return true;
        }

        @Override
        void checkValue(ColumnReader reader, int row) {
            if (kind == ValueKind.UUID) {
                if (maxLength >= 0 && maxLength < 36) {
                    throw new ValueRejected("a UUID needs 36 characters; " + target.typeText() + " would truncate it");
                }
                return;
            }
            if (kind == ValueKind.STRING && unicode && (maxLength < 0
                    || reader instanceof ArrowColumnTypes.Utf8Reader utf8 && utf8.byteLength(row) <= maxLength)) {
                // A UTF-8 value never has more UTF-16 code units than bytes: it fits without decoding it.
                return;
            }
            String s = (String) reader.getObject(row);
            if (maxLength >= 0 && s.length() > maxLength) {
                throw new ValueRejected("value of " + s.length() + " characters is longer than "
                        + target.typeText() + "; it would be truncated");
            }
            if (!unicode) {
                for (int i = 0; i < s.length(); i++) {
                    if (s.charAt(i) > 0x7F) {
                        throw new ValueRejected("non-ASCII character U+" + String.format("%04X", (int) s.charAt(i))
                                + " at position " + i + " cannot be stored safely in non-Unicode "
                                + target.typeText() + "; use nvarchar/nchar");
                    }
                }
            }
        }

        @Override
        Object convert(ColumnReader reader, int row) {
            Object v = reader.getObject(row);
            return kind == ValueKind.UUID ? v.toString() : v;
        }
    }

    static final class BinaryBinding extends TargetBinding {
        private final int maxLength;

        BinaryBinding(TargetColumn target) {
            super(target);
            Integer len = target.maxLength();
            this.maxLength = len == null || len < 0 || "image".equals(target.dataType()) ? -1 : len;
        }

        @Override
        Set<ValueKind> accepts() {
            return EnumSet.of(ValueKind.BINARY);
        }

        @Override
        public int jdbcType() {
            return Types.VARBINARY;
        }

        @Override
        public int precision() {
            return maxLength < 0 ? MAX_BYTES : maxLength;
        }

        @Override
        void checkValue(ColumnReader reader, int row) {
            byte[] b = (byte[]) reader.getObject(row);
            if (maxLength >= 0 && b.length > maxLength) {
                throw new ValueRejected("value of " + b.length + " bytes is longer than " + target.typeText()
                        + "; it would be truncated");
            }
        }

        @Override
        Object convert(ColumnReader reader, int row) {
            return reader.getObject(row);
        }
    }

    static final class GuidBinding extends TargetBinding {
        GuidBinding(TargetColumn target) {
            super(target);
        }

        @Override
        Set<ValueKind> accepts() {
            return EnumSet.of(ValueKind.UUID, ValueKind.STRING);
        }

        @Override
        public int jdbcType() {
            return JDBC_GUID;
        }

        @Override
        public int precision() {
            return 36;
        }

        @Override
        void checkValue(ColumnReader reader, int row) {
            if (kind == ValueKind.STRING) {
                parse((String) reader.getObject(row));
            }
        }

        private static UUID parse(String s) {
            if (s.length() != 36 || s.charAt(8) != '-' || s.charAt(13) != '-' || s.charAt(18) != '-'
                    || s.charAt(23) != '-') {
                throw new ValueRejected("'" + abbreviate(s) + "' is not a UUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)");
            }
            try {
                return UUID.fromString(s);
            } catch (IllegalArgumentException e) {
                throw new ValueRejected("'" + abbreviate(s) + "' is not a UUID");
            }
        }

        @Override
        Object convert(ColumnReader reader, int row) {
            Object v = reader.getObject(row);
            return (kind == ValueKind.STRING ? parse((String) v) : v).toString().toUpperCase(Locale.ROOT);
        }
    }

    static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }

    static final class DateBinding extends TargetBinding {
        private final StringBuilder sb = new StringBuilder(10);
        private final DateTexts dates = new DateTexts();

        DateBinding(TargetColumn target) {
            super(target);
        }

        @Override
        boolean allFit(FieldVector vector, int rowCount) {
            // checkValue's fast path, column-wide: every Date32 day within 0001-01-01..9999-12-31
            if (!(vector instanceof DateDayVector) || rowCount > vector.getValueCount()) {
                return false;
            }
            long a = address(vector.getDataBuffer(), 4L * rowCount);
            if (a == 0) {
                return false;
            }
            for (int r = 0; r < rowCount; r++) {
                int day = MemoryUtil.getInt(a + 4L * r);
                if (day < MIN_EPOCH_DAY || day > MAX_EPOCH_DAY) {
                    return false;
                }
            }
            return true;
        }

        @Override
        Set<ValueKind> accepts() {
            return EnumSet.of(ValueKind.DATE);
        }

        @Override
        public int jdbcType() {
            return Types.DATE;
        }

        @Override
        public int precision() {
            return 10;
        }

        @Override
        void checkValue(ColumnReader reader, int row) {
            if (reader instanceof ArrowColumnTypes.EpochDayReader days) {
                int day = days.epochDay(row);
                if (day >= MIN_EPOCH_DAY && day <= MAX_EPOCH_DAY) {
                    return;
                }
            }
            LocalDate d = (LocalDate) reader.getObject(row);
            checkYear(d.getYear(), 1, "date " + d);
        }

        @Override
        Object convert(ColumnReader reader, int row) {
            if (reader instanceof ArrowColumnTypes.EpochDayReader days) {
                return dates.text(days.epochDay(row));
            }
            sb.setLength(0);
            appendDate(sb, (LocalDate) reader.getObject(row));
            return sb.toString();
        }
    }

    static final class TimeBinding extends TargetBinding {
        private final boolean asText;
        private final int digits;
        private final StringBuilder sb = new StringBuilder(16);

        TimeBinding(TargetColumn target, boolean asText) {
            super(target);
            this.asText = asText;
            this.digits = datetimeDigits();
        }

        @Override
        Set<ValueKind> accepts() {
            return EnumSet.of(ValueKind.TIME);
        }

        @Override
        public int jdbcType() {
            return Types.TIME;
        }

        @Override
        public int precision() {
            return digits == 0 ? 8 : 9 + digits;
        }

        @Override
        public int scale() {
            return digits;
        }

        @Override
        void checkValue(ColumnReader reader, int row) {
            LocalTime t = (LocalTime) reader.getObject(row);
            checkFraction(t.getNano(), digits, "time " + t);
        }

        @Override
        Object convert(ColumnReader reader, int row) {
            LocalTime t = (LocalTime) reader.getObject(row);
            if (!asText) {
                Timestamp ts = Timestamp.valueOf(LocalDateTime.of(LocalDate.of(1970, 1, 1), t));
                return ts;
            }
            sb.setLength(0);
            appendTime(sb, t, digits);
            return sb.toString();
        }
    }

    /** datetime2(n), and datetime (3 digits, 1/300 s ticks, years from 1753). */
    static final class DateTime2Binding extends TargetBinding {
        private final boolean legacyDatetime;
        private final int digits;
        private final StringBuilder sb = new StringBuilder(27);
        private final DateTexts dates = new DateTexts();
        private final char[] text = new char[27];

        DateTime2Binding(TargetColumn target, boolean legacyDatetime) {
            super(target);
            this.legacyDatetime = legacyDatetime;
            this.digits = legacyDatetime ? 3 : datetimeDigits();
        }

        @Override
        boolean allFit(FieldVector vector, int rowCount) {
            // checkValue's fast path, column-wide: raw timestamps without zone within 0001-01-01..9999-12-31 and
            // without digits beyond the target's fraction
            if (legacyDatetime || kind != ValueKind.TIMESTAMP || !(vector instanceof TimeStampVector)
                    || !(vector.getField().getType() instanceof ArrowType.Timestamp type)
                    || rowCount > vector.getValueCount()) {
                return false;
            }
            long unitsPerSecond = switch (type.getUnit()) {
                case SECOND -> 1L;
                case MILLISECOND -> 1_000L;
                case MICROSECOND -> 1_000_000L;
                case NANOSECOND -> 1_000_000_000L;
            };
            long a = address(vector.getDataBuffer(), 8L * rowCount);
            if (a == 0) {
                return false;
            }
            // [min, max] in the unit, saturated at the long range (nanoseconds cover only 1677..2262)
            long minSecond = MIN_EPOCH_DAY * 86_400L;
            long maxSecond = (MAX_EPOCH_DAY + 1) * 86_400L - 1;
            long min = minSecond < Long.MIN_VALUE / unitsPerSecond ? Long.MIN_VALUE : minSecond * unitsPerSecond;
            long max = maxSecond > Long.MAX_VALUE / unitsPerSecond ? Long.MAX_VALUE
                    : maxSecond * unitsPerSecond + (unitsPerSecond - 1);
            // the target keeps 10^-digits s: raw values must be multiples of this many units (1 = any value)
            long nanosPerUnit = 1_000_000_000L / unitsPerSecond;
            long nanosPerTick = Pow10.of(9 - digits);
            long step = nanosPerUnit >= nanosPerTick ? 1 : nanosPerTick / nanosPerUnit;
            for (int r = 0; r < rowCount; r++) {
                long raw = MemoryUtil.getLong(a + 8L * r);
                if (raw < min || raw > max || (step != 1 && Math.floorMod(raw, step) != 0)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        Set<ValueKind> accepts() {
            return EnumSet.of(ValueKind.TIMESTAMP, ValueKind.TIMESTAMP_TZ, ValueKind.DATE);
        }

        @Override
        public int jdbcType() {
            return legacyDatetime ? Types.TIMESTAMP : Types.TIMESTAMP;
        }

        @Override
        public int precision() {
            return digits == 0 ? 19 : 20 + digits;
        }

        @Override
        public int scale() {
            return digits;
        }

        private LocalDateTime read(ColumnReader reader, int row) {
            Object v = reader.getObject(row);
            if (v instanceof LocalDateTime ldt) {
                return ldt;
            }
            if (v instanceof OffsetDateTime odt) {
                return odt.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
            }
            return ((LocalDate) v).atStartOfDay();
        }

        @Override
        void checkValue(ColumnReader reader, int row) {
            if (!legacyDatetime && kind == ValueKind.TIMESTAMP
                    && reader instanceof ArrowColumnTypes.RawTimestampReader ts) {
                long raw = ts.raw(row);
                long unitsPerSecond = ts.unitsPerSecond();
                long seconds = Math.floorDiv(raw, unitsPerSecond);
                long nanos = Math.floorMod(raw, unitsPerSecond) * (1_000_000_000L / unitsPerSecond);
                long day = Math.floorDiv(seconds, 86_400L);
                if (day >= MIN_EPOCH_DAY && day <= MAX_EPOCH_DAY && nanos % Pow10.intOf(9 - digits) == 0) {
                    return;
                }
            }
            LocalDateTime t = read(reader, row);
            checkYear(t.getYear(), legacyDatetime ? 1753 : 1, "timestamp " + t);
            checkFraction(t.getNano(), digits, "timestamp " + t);
            if (legacyDatetime) {
                int lastDigit = (t.getNano() / 1_000_000) % 10;
                if (lastDigit != 0 && lastDigit != 3 && lastDigit != 7) {
                    throw new ValueRejected("timestamp " + t + " is not exactly representable in datetime (1/300 s"
                            + " steps: milliseconds must end in 0, 3 or 7); use datetime2");
                }
            }
        }

        @Override
        Object convert(ColumnReader reader, int row) {
            if (kind == ValueKind.TIMESTAMP && reader instanceof ArrowColumnTypes.RawTimestampReader ts) {
                // Straight from the raw value (already checked): no LocalDateTime, cached date text.
                long raw = ts.raw(row);
                long unitsPerSecond = ts.unitsPerSecond();
                long seconds = Math.floorDiv(raw, unitsPerSecond);
                int nanos = (int) (Math.floorMod(raw, unitsPerSecond) * (1_000_000_000L / unitsPerSecond));
                long day = Math.floorDiv(seconds, 86_400L);
                int secondOfDay = (int) (seconds - day * 86_400L);
                // yyyy-MM-dd (years 1..9999, checked) HH:mm:ss[.fffffff], written straight into a char[].
                dates.text(day).getChars(0, 10, text, 0);
                text[10] = ' ';
                twoDigits(text, 11, secondOfDay / 3600);
                text[13] = ':';
                twoDigits(text, 14, secondOfDay / 60 % 60);
                text[16] = ':';
                twoDigits(text, 17, secondOfDay % 60);
                int length = 19;
                if (digits > 0) {
                    text[19] = '.';
                    int fraction = nanos / Pow10.intOf(9 - digits);
                    for (int i = 19 + digits; i > 19; i--) {
                        text[i] = (char) ('0' + fraction % 10);
                        fraction /= 10;
                    }
                    length = 20 + digits;
                }
                return new String(text, 0, length);
            }
            LocalDateTime t = read(reader, row);
            sb.setLength(0);
            appendDate(sb, t.toLocalDate());
            sb.append(' ');
            appendTime(sb, t.toLocalTime(), digits);
            return sb.toString();
        }
    }

    static final class SmallDateTimeBinding extends TargetBinding {
        private final StringBuilder sb = new StringBuilder(19);

        SmallDateTimeBinding(TargetColumn target) {
            super(target);
        }

        @Override
        Set<ValueKind> accepts() {
            return EnumSet.of(ValueKind.TIMESTAMP, ValueKind.DATE);
        }

        @Override
        public int jdbcType() {
            return Types.TIMESTAMP;
        }

        @Override
        public int precision() {
            return 19;
        }

        private static LocalDateTime read(ColumnReader reader, int row) {
            Object v = reader.getObject(row);
            return v instanceof LocalDateTime ldt ? ldt : ((LocalDate) v).atStartOfDay();
        }

        @Override
        void checkValue(ColumnReader reader, int row) {
            LocalDateTime t = read(reader, row);
            if (t.getSecond() != 0 || t.getNano() != 0) {
                throw new ValueRejected("timestamp " + t + " has seconds; smalldatetime would round it");
            }
            if (t.isBefore(LocalDateTime.of(1900, 1, 1, 0, 0)) || t.isAfter(LocalDateTime.of(2079, 6, 6, 23, 59))) {
                throw new ValueRejected("timestamp " + t + " is outside the range of smalldatetime");
            }
        }

        @Override
        Object convert(ColumnReader reader, int row) {
            LocalDateTime t = read(reader, row);
            sb.setLength(0);
            appendDate(sb, t.toLocalDate());
            sb.append(' ');
            appendTime(sb, t.toLocalTime(), 0);
            return sb.toString();
        }
    }

    static final class DateTimeOffsetBinding extends TargetBinding {
        private final int digits;
        private final StringBuilder sb = new StringBuilder(34);

        DateTimeOffsetBinding(TargetColumn target) {
            super(target);
            this.digits = datetimeDigits();
        }

        @Override
        Set<ValueKind> accepts() {
            return EnumSet.of(ValueKind.TIMESTAMP_TZ, ValueKind.TIMESTAMP);
        }

        @Override
        public int jdbcType() {
            return JDBC_DATETIMEOFFSET;
        }

        @Override
        public int precision() {
            return (digits == 0 ? 19 : 20 + digits) + 7;
        }

        @Override
        public int scale() {
            return digits;
        }

        private static OffsetDateTime read(ColumnReader reader, int row) {
            Object v = reader.getObject(row);
            return v instanceof OffsetDateTime odt ? odt : ((LocalDateTime) v).atOffset(ZoneOffset.UTC);
        }

        @Override
        void checkValue(ColumnReader reader, int row) {
            OffsetDateTime t = read(reader, row);
            checkYear(t.getYear(), 1, "timestamp " + t);
            checkYear(t.withOffsetSameInstant(ZoneOffset.UTC).getYear(), 1, "timestamp " + t);
            checkFraction(t.getNano(), digits, "timestamp " + t);
            int seconds = t.getOffset().getTotalSeconds();
            if (seconds % 60 != 0 || Math.abs(seconds) > 14 * 3600) {
                throw new ValueRejected("offset " + t.getOffset() + " is not a whole minute within +-14:00");
            }
        }

        @Override
        Object convert(ColumnReader reader, int row) {
            OffsetDateTime t = read(reader, row);
            sb.setLength(0);
            appendDate(sb, t.toLocalDate());
            sb.append(' ');
            appendTime(sb, t.toLocalTime(), digits);
            sb.append(' ');
            int minutes = t.getOffset().getTotalSeconds() / 60;
            sb.append(minutes < 0 ? '-' : '+');
            pad(sb, Math.abs(minutes) / 60, 2).append(':');
            pad(sb, Math.abs(minutes) % 60, 2);
            return sb.toString();
        }
    }
}
