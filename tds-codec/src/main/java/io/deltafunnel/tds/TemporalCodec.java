package io.deltafunnel.tds;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Wire encodings of date, time(n), datetime2(n), datetimeoffset(n), datetime and smalldatetime, plus the
 * SQL Server rounding rules used when a value is converted to one of those types.
 */
public final class TemporalCodec {
    private static final long EPOCH_0001 = LocalDate.of(1, 1, 1).toEpochDay();
    private static final long EPOCH_1900 = LocalDate.of(1900, 1, 1).toEpochDay();
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;

    public static final LocalDateTime DATETIME_MIN = LocalDateTime.of(1753, 1, 1, 0, 0);
    public static final LocalDateTime DATETIME_MAX = LocalDateTime.of(9999, 12, 31, 23, 59, 59, 997_000_000);
    public static final LocalDateTime SMALLDATETIME_MIN = LocalDateTime.of(1900, 1, 1, 0, 0);
    public static final LocalDateTime SMALLDATETIME_MAX = LocalDateTime.of(2079, 6, 6, 23, 59);

    private TemporalCodec() {
    }

    /** Bytes used by the time part of time/datetime2/datetimeoffset at the given scale. */
    public static int timeLength(int scale) {
        return scale <= 2 ? 3 : scale <= 4 ? 4 : 5;
    }

    // ---- date ---------------------------------------------------------------------------------------------------

    public static LocalDate readDate(TdsReader r) {
        return LocalDate.ofEpochDay(EPOCH_0001 + r.readUnsignedLongBytes(3));
    }

    public static void writeDate(TdsWriter w, LocalDate d) {
        w.writeLongBytes(dateDays(d.toEpochDay()), 3);
    }

    /** The 3-byte wire value of a date (and of the date part of datetime2/datetimeoffset): days since 0001-01-01. */
    public static long dateDays(long epochDay) {
        return epochDay - EPOCH_0001;
    }

    // ---- time(n) ------------------------------------------------------------------------------------------------

    public static LocalTime readTime(TdsReader r, int scale) {
        long units = r.readUnsignedLongBytes(timeLength(scale));
        long nanos = units * Pow10.of(9 - scale);
        if (nanos >= NANOS_PER_DAY) {
            throw new TdsProtocolException("time value out of range: " + units + " at scale " + scale);
        }
        return LocalTime.ofNanoOfDay(nanos);
    }

    /** Writes a time already rounded to the scale. */
    public static void writeTime(TdsWriter w, LocalTime t, int scale) {
        w.writeLongBytes(timeUnits(t.toNanoOfDay(), scale), timeLength(scale));
    }

    /**
     * The wire value of a time of day (and of the time part of datetime2/datetimeoffset): units of 10^-scale s since
     * midnight. The nanoseconds must already be a multiple of the unit (rounded or checked by the caller).
     */
    public static long timeUnits(long nanoOfDay, int scale) {
        return nanoOfDay / Pow10.of(9 - scale);
    }

    // ---- datetime2(n) -------------------------------------------------------------------------------------------

    public static LocalDateTime readDateTime2(TdsReader r, int scale) {
        LocalTime t = readTime(r, scale);
        LocalDate d = readDate(r);
        return LocalDateTime.of(d, t);
    }

    public static void writeDateTime2(TdsWriter w, LocalDateTime v, int scale) {
        writeTime(w, v.toLocalTime(), scale);
        writeDate(w, v.toLocalDate());
    }

    // ---- datetimeoffset(n) --------------------------------------------------------------------------------------

    public static OffsetDateTime readDateTimeOffset(TdsReader r, int scale) {
        LocalDateTime utc = readDateTime2(r, scale);
        int minutes = r.readShort();
        if (minutes < -840 || minutes > 840) {
            throw new TdsProtocolException("datetimeoffset offset out of range: " + minutes);
        }
        ZoneOffset off = ZoneOffset.ofTotalSeconds(minutes * 60);
        return utc.atOffset(ZoneOffset.UTC).withOffsetSameInstant(off);
    }

    public static void writeDateTimeOffset(TdsWriter w, OffsetDateTime v, int scale) {
        LocalDateTime utc = v.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
        writeDateTime2(w, utc, scale);
        w.writeShort(v.getOffset().getTotalSeconds() / 60);
    }

    // ---- datetime / smalldatetime -------------------------------------------------------------------------------

    /** datetime: int32 days since 1900-01-01, uint32 ticks of 1/300 s. Ticks map to whole milliseconds. */
    public static LocalDateTime readDateTime(TdsReader r) {
        int days = r.readInt();
        long ticks = r.readUnsignedInt();
        long millis = (ticks * 10 + 1) / 3;
        return LocalDate.ofEpochDay(EPOCH_1900 + days).atStartOfDay().plusNanos(millis * 1_000_000L);
    }

    /** Writes a value already rounded with {@link #roundToDateTime}. */
    public static void writeDateTime(TdsWriter w, LocalDateTime v) {
        w.writeInt((int) days1900(v.toLocalDate().toEpochDay()));
        w.writeInt((int) dateTimeTicks(v.toLocalTime().toNanoOfDay() / 1_000_000L));
    }

    /** The day part of datetime (int32) and smalldatetime (uint16): days since 1900-01-01. */
    public static long days1900(long epochDay) {
        return epochDay - EPOCH_1900;
    }

    /**
     * The time part of datetime: 1/300 s ticks since midnight for a millisecond of the day already on the datetime
     * grid (.000/.003/.007, see {@link #roundToDateTime}).
     */
    public static long dateTimeTicks(long millisOfDay) {
        return (millisOfDay * 3 + 5) / 10;
    }

    public static LocalDateTime readSmallDateTime(TdsReader r) {
        int days = r.readUnsignedShort();
        int minutes = r.readUnsignedShort();
        return LocalDate.ofEpochDay(EPOCH_1900 + days).atStartOfDay().plusMinutes(minutes);
    }

    public static void writeSmallDateTime(TdsWriter w, LocalDateTime v) {
        w.writeShort((int) days1900(v.toLocalDate().toEpochDay()));
        w.writeShort(v.getHour() * 60 + v.getMinute());
    }

    // ---- rounding rules -----------------------------------------------------------------------------------------

    /** Rounds nanoseconds half-up to {@code scale} fractional digits (may carry into the next day). */
    public static LocalDateTime roundToScale(LocalDateTime v, int scale) {
        long unit = Pow10.of(9 - scale);
        long nanos = v.getNano();
        long rounded = (nanos + unit / 2) / unit * unit;
        return v.withNano(0).plusNanos(rounded);
    }

    /** Same for a time of day; a carry past midnight wraps as SQL Server does for time(n). */
    public static LocalTime roundToScale(LocalTime v, int scale) {
        long unit = Pow10.of(9 - scale);
        long nod = v.toNanoOfDay();
        long rounded = (nod + unit / 2) / unit * unit;
        return LocalTime.ofNanoOfDay(rounded % NANOS_PER_DAY);
    }

    public static OffsetDateTime roundToScale(OffsetDateTime v, int scale) {
        return OffsetDateTime.of(roundToScale(v.toLocalDateTime(), scale), v.getOffset());
    }

    /** datetime rounding: nearest 1/300 s tick, expressed as .000/.003/.007 milliseconds. */
    public static LocalDateTime roundToDateTime(LocalDateTime v) {
        long nod = v.toLocalTime().toNanoOfDay();
        long ticks = (nod * 3 + 5_000_000L) / 10_000_000L;
        long millis = (ticks * 10 + 1) / 3;
        return v.toLocalDate().atStartOfDay().plusNanos(millis * 1_000_000L);
    }

    /** smalldatetime rounding: to datetime first, then to the nearest minute (29.998 s down, 29.999 s up). */
    public static LocalDateTime roundToSmallDateTime(LocalDateTime v) {
        LocalDateTime dt = roundToDateTime(v);
        LocalDateTime minute = dt.withSecond(0).withNano(0);
        return dt.getSecond() >= 30 ? minute.plusMinutes(1) : minute;
    }
}
