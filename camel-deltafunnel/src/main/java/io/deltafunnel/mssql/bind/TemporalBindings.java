package io.deltafunnel.mssql.bind;

import java.sql.Timestamp;
import java.sql.Types;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;
import java.util.EnumSet;
import java.util.Set;

import io.deltafunnel.arrow.read.ColumnReader;
import io.deltafunnel.arrow.read.ColumnReaders;
import io.deltafunnel.arrow.read.ValueKind;
import io.deltafunnel.arrow.read.ValueRejected;
import io.deltafunnel.tds.Pow10;

import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The {@link TargetBinding}s of the date and time targets: date, time, datetime2, datetime, smalldatetime,
 * datetimeoffset; values as exact text or, for time in native mode, a {@link java.sql.Timestamp}.
 */
final class TemporalBindings {

    private TemporalBindings() {
    }

    /**
     * One tight pass over the raw values of a {@link TimeStampVector} (rows {@code 0..rowCount-1}, all non-NULL):
     * true when each value, read in UTC and also shifted by {@code offsetSeconds}, lies within
     * 0001-01-01..9999-12-31 and has no digits beyond {@code digits} fractional-second digits. False whenever it cannot
     * tell (another vector, a buffer too small): the value-by-value check then decides.
     */
    static boolean rawTimestampsFit(FieldVector vector, int rowCount, int digits, long offsetSeconds) {
        if (!(vector instanceof TimeStampVector) || !(vector.getField().getType() instanceof ArrowType.Timestamp type)
                || rowCount > vector.getValueCount()) {
            return false;
        }
        long unitsPerSecond = ColumnReaders.unitsPerSecond(type.getUnit());
        long a = TargetBinding.address(vector.getDataBuffer(), 8L * rowCount);
        if (a == 0) {
            return false;
        }
        // [min, max] in the unit, saturated at the long range (nanoseconds cover only 1677..2262): the UTC second and
        // the second shifted by the offset both within the years 1..9999
        long first = TargetBinding.MIN_EPOCH_DAY * 86_400L;
        long last = (TargetBinding.MAX_EPOCH_DAY + 1) * 86_400L - 1;
        long minSecond = Math.max(first, first - offsetSeconds);
        long maxSecond = Math.min(last, last - offsetSeconds);
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

    static final class DateBinding extends TargetBinding {
        private final StringBuilder sb = new StringBuilder(10);
        private final DateTexts dates = new DateTexts();

        DateBinding(TargetColumn target) {
            super(target);
        }

        @Override
        public boolean allFit(FieldVector vector, int rowCount) {
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
        public void checkValue(ColumnReader reader, int row) {
            if (reader instanceof ColumnReaders.EpochDayReader days) {
                int day = days.epochDay(row);
                if (day >= MIN_EPOCH_DAY && day <= MAX_EPOCH_DAY) {
                    return;
                }
            }
            LocalDate d = (LocalDate) reader.getObject(row);
            checkYear(d.getYear(), 1, "date", d);
        }

        @Override
        public Object convert(ColumnReader reader, int row) {
            if (reader instanceof ColumnReaders.EpochDayReader days) {
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
        public void checkValue(ColumnReader reader, int row) {
            LocalTime t = (LocalTime) reader.getObject(row);
            checkFraction(t.getNano(), digits, "time", t);
        }

        @Override
        public Object convert(ColumnReader reader, int row) {
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

    /** The epoch day of 1753-01-01, datetime's first day. */
    static final long FIRST_DATETIME_DAY = LocalDate.of(1753, 1, 1).toEpochDay();

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
        public boolean allFit(FieldVector vector, int rowCount) {
            // checkValue's fast path, column-wide: raw timestamps without zone within 0001-01-01..9999-12-31 and
            // without digits beyond the target's fraction
            if (kind != ValueKind.TIMESTAMP) {
                return false;
            }
            return legacyDatetime ? datetimesFit(vector, rowCount) : rawTimestampsFit(vector, rowCount, digits, 0);
        }

        /**
         * checkValue for datetime, column-wide: raw timestamps without zone from 1753-01-01 to 9999-12-31, in whole
         * milliseconds whose last digit is 0, 3 or 7 (datetime's 1/300 s steps hold exactly those).
         */
        private static boolean datetimesFit(FieldVector vector, int rowCount) {
            if (!(vector instanceof TimeStampVector)
                    || !(vector.getField().getType() instanceof ArrowType.Timestamp type)
                    || type.getTimezone() != null || rowCount > vector.getValueCount()) {
                return false;
            }
            long unitsPerSecond = ColumnReaders.unitsPerSecond(type.getUnit());
            long nanosPerUnit = 1_000_000_000L / unitsPerSecond;
            long a = TargetBinding.address(vector.getDataBuffer(), 8L * rowCount);
            if (a == 0) {
                return false;
            }
            for (int r = 0; r < rowCount; r++) {
                long raw = MemoryUtil.getLong(a + 8L * r);
                long day = Math.floorDiv(Math.floorDiv(raw, unitsPerSecond), 86_400L);
                long nanos = Math.floorMod(raw, unitsPerSecond) * nanosPerUnit;
                long lastDigit = nanos / 1_000_000 % 10;
                if (day < FIRST_DATETIME_DAY || day > MAX_EPOCH_DAY || nanos % 1_000_000 != 0
                        || lastDigit != 0 && lastDigit != 3 && lastDigit != 7) {
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
        public void checkValue(ColumnReader reader, int row) {
            if (!legacyDatetime && kind == ValueKind.TIMESTAMP
                    && reader instanceof ColumnReaders.RawTimestampReader ts) {
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
            checkYear(t.getYear(), legacyDatetime ? 1753 : 1, "timestamp", t);
            checkFraction(t.getNano(), digits, "timestamp", t);
            if (legacyDatetime) {
                int lastDigit = (t.getNano() / 1_000_000) % 10;
                if (lastDigit != 0 && lastDigit != 3 && lastDigit != 7) {
                    throw new ValueRejected(Rejection.FRACTIONAL_SECONDS,
                            "timestamp " + t + " is not exactly representable in datetime (1/300 s"
                            + " steps: milliseconds must end in 0, 3 or 7); use datetime2");
                }
            }
        }

        @Override
        public Object convert(ColumnReader reader, int row) {
            if (kind == ValueKind.TIMESTAMP && reader instanceof ColumnReaders.RawTimestampReader ts) {
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
        public void checkValue(ColumnReader reader, int row) {
            LocalDateTime t = read(reader, row);
            if (t.getSecond() != 0 || t.getNano() != 0) {
                throw new ValueRejected(Rejection.FRACTIONAL_SECONDS,
                        "timestamp " + t + " has seconds; smalldatetime would round it");
            }
            if (t.isBefore(LocalDateTime.of(1900, 1, 1, 0, 0)) || t.isAfter(LocalDateTime.of(2079, 6, 6, 23, 59))) {
                throw new ValueRejected(Rejection.OUT_OF_RANGE,
                        "timestamp " + t + " is outside the range of smalldatetime");
            }
        }

        @Override
        public Object convert(ColumnReader reader, int row) {
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
        public boolean allFit(FieldVector vector, int rowCount) {
            // checkValue, column-wide: the values' offset is fixed (no zone: +00:00; a zone with one fixed offset,
            // such as UTC) and a whole minute within +-14:00, and every value within the years 1..9999 both in UTC
            // and at that offset, without digits beyond the target's fraction. A zone with rules (daylight saving,
            // historical offsets) is checked value by value.
            if (!(vector.getField().getType() instanceof ArrowType.Timestamp type)) {
                return false;
            }
            long offset = 0;
            if (type.getTimezone() != null) {
                ZoneRules rules;
                try {
                    rules = ZoneId.of(type.getTimezone()).getRules();
                } catch (DateTimeException e) {
                    return false; // the reader reports the unknown zone
                }
                if (!rules.isFixedOffset()) {
                    return false;
                }
                offset = rules.getOffset(Instant.EPOCH).getTotalSeconds();
                if (offset % 60 != 0 || Math.abs(offset) > 14 * 3600) {
                    return false;
                }
            }
            return rawTimestampsFit(vector, rowCount, digits, offset);
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
        public void checkValue(ColumnReader reader, int row) {
            OffsetDateTime t = read(reader, row);
            checkYear(t.getYear(), 1, "timestamp", t);
            checkYear(t.withOffsetSameInstant(ZoneOffset.UTC).getYear(), 1, "timestamp", t);
            checkFraction(t.getNano(), digits, "timestamp", t);
            int seconds = t.getOffset().getTotalSeconds();
            if (seconds % 60 != 0 || Math.abs(seconds) > 14 * 3600) {
                throw new ValueRejected(Rejection.OFFSET,
                        "offset " + t.getOffset() + " is not a whole minute within +-14:00");
            }
        }

        @Override
        public Object convert(ColumnReader reader, int row) {
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
