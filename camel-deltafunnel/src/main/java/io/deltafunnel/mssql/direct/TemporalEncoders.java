package io.deltafunnel.mssql.direct;

import static io.deltafunnel.mssql.direct.DirectEncoders.LE;
import static io.deltafunnel.mssql.direct.DirectEncoders.rawAddress;

import java.io.IOException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.Objects;

import io.deltafunnel.arrow.read.ColumnReaders;
import io.deltafunnel.arrow.read.ValueKind;
import io.deltafunnel.mssql.direct.DirectEncoders.Bounded;
import io.deltafunnel.mssql.direct.DirectEncoders.Encoder;
import io.deltafunnel.mssql.direct.DirectEncoders.LongSource;
import io.deltafunnel.mssql.direct.DirectEncoders.NullMarker;
import io.deltafunnel.tds.TdsMessageWriter;
import io.deltafunnel.tds.Pow10;
import io.deltafunnel.tds.TemporalCodec;
import io.deltafunnel.tds.TypeId;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The {@link DirectEncoders} of the date and time targets: date, time, datetime2, datetime, smalldatetime and
 * datetimeoffset from Arrow dates, times and timestamps (zoned ones as their UTC instant).
 */
final class TemporalEncoders {

    private static final long NANOS_PER_DAY = 86_400_000_000_000L;

    private TemporalEncoders() {
    }

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
            long nanosPerUnit = 1_000_000_000L / ColumnReaders.unitsPerSecond(ts.getUnit());
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

        /**
         * time(n)'s units (10^-scale s) of the day of {@code raw}, whose epoch day is {@code day}, as
         * {@code TemporalCodec.timeUnits(nanoOfDay(raw), scale)} but without its division where the timestamps' unit
         * is a multiple of the target's (microseconds into datetime2(6) or (7)); {@code step} from {@link #step}.
         */
        long timeUnits(long raw, long day, long step) {
            long units = raw - day * unitsPerDay;
            return step > 0 ? units * step : units / -step;
        }

        /**
         * What {@link #timeUnits} multiplies the day's units by (positive), or minus what it divides them by: the
         * timestamps' unit over 10^-scale s, both powers of ten.
         */
        long step(int scale) {
            long target = Pow10.of(9 - scale);
            return nanosPerUnit >= target ? nanosPerUnit / target : -(target / nanosPerUnit);
        }
    }

    static boolean isTimestamp(ValueKind kind) {
        return kind == ValueKind.TIMESTAMP || kind == ValueKind.TIMESTAMP_TZ;
    }

    static Encoder date(FieldVector v) {
        if (v instanceof DateDayVector && rawAddress(v, 4) != 0) {
            return new DateDays(v, null);
        }
        LongSource days = epochDays(v);
        return days == null ? null : new DateDays(v, days);
    }

    /**
     * DATEN: from a Date32 vector read at its buffer's address (the common date column) when {@code days} is null,
     * else from {@code days}; a class of its own so that the row loop's call to it is not shared with other encoders.
     */
    static final class DateDays extends Bounded {
        private final LongSource days;
        private final long address;
        private final int count;

        DateDays(FieldVector v, LongSource days) {
            super(v, NullMarker.BYTE, 9);
            this.days = days;
            this.address = days == null ? rawAddress(v, 4) : 0;
            this.count = v.getValueCount();
        }

        @Override
        void typeInfo(TdsMessageWriter w) throws IOException {
            w.writeByte(TypeId.DATEN);
        }

        @Override
        int put(byte[] b, int p, int row) {
            long epochDay = days == null ? MemoryUtil.getInt(address + 4L * Objects.checkIndex(row, count))
                    : days.get(row);
            return write(b, p, epochDay);
        }

        private static int write(byte[] b, int p, long epochDay) {
            b[p] = 3;
            LE.set(b, p + 1, TemporalCodec.dateDays(epochDay));
            return p + 4;
        }

        /** Whether the days are read straight from a 32-bit day vector ({@link #putColumn} needs that). */
        boolean raw() {
            return days == null;
        }

        /** The bytes of a value: its length byte and 3 bytes of days. */
        int size() {
            return 4;
        }

        /**
         * {@link #put} of {@code k} rows at once from the raw day vector, as
         * {@link NumericEncoders.RawInteger#putColumn}.
         */
        void putColumn(byte[] b, int[] cur, int[] pos, int row0, int k, boolean keep) {
            Objects.checkFromIndexSize(row0, k, count);
            for (int j = 0; j < k; j++) {
                if (mayBeNull && nulls.isNull(row0 + j)) {
                    b[cur[j]++] = 0; // the NULL marker: one byte, nothing past it
                    continue;
                }
                long kept = keep ? (long) LE.get(b, pos[j + 1]) : 0L;
                cur[j] = write(b, cur[j], MemoryUtil.getInt(address + 4L * (row0 + j)));
                if (keep) {
                    LE.set(b, pos[j + 1], kept);
                }
            }
        }
    }

    static Encoder time(FieldVector v, int scale) {
        LongSource nanos = nanosOfDay(v);
        if (nanos == null) {
            return null;
        }
        int length = TemporalCodec.timeLength(scale);
        return new Bounded(v, NullMarker.BYTE, 1 + 8) {
            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(TypeId.TIMEN).writeByte(scale);
            }

            @Override
            int put(byte[] b, int p, int row) {
                b[p] = (byte) length;
                LE.set(b, p + 1, TemporalCodec.timeUnits(nanos.get(row), scale));
                return p + 1 + length;
            }
        };
    }

    /** datetime2(n) from Date32/Date64 (midnight) or timestamps (zoned ones as their UTC time). */
    static Encoder dateTime2(FieldVector v, ValueKind kind, int scale) {
        int timeLength = TemporalCodec.timeLength(scale);
        if (kind == ValueKind.DATE) {
            LongSource days = epochDays(v);
            return days == null ? null : new Bounded(v, NullMarker.BYTE, 1 + timeLength + 8) {
                @Override
                void typeInfo(TdsMessageWriter w) throws IOException {
                    w.writeByte(TypeId.DATETIME2N).writeByte(scale);
                }

                @Override
                int put(byte[] b, int p, int row) {
                    b[p] = (byte) (timeLength + 3);
                    LE.set(b, p + 1, 0L);
                    LE.set(b, p + 1 + timeLength, TemporalCodec.dateDays(days.get(row)));
                    return p + 1 + timeLength + 3;
                }
            };
        }
        Timestamps ts = isTimestamp(kind) ? Timestamps.of(v) : null;
        if (ts == null) {
            return null;
        }
        return new Bounded(v, NullMarker.BYTE, 1 + timeLength + 8) {
            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(TypeId.DATETIME2N).writeByte(scale);
            }

            private final long step = ts.step(scale);

            @Override
            int put(byte[] b, int p, int row) {
                long raw = ts.raw(row);
                long day = ts.epochDay(raw);
                b[p] = (byte) (timeLength + 3);
                LE.set(b, p + 1, ts.timeUnits(raw, day, step));
                LE.set(b, p + 1 + timeLength, TemporalCodec.dateDays(day));
                return p + 1 + timeLength + 3;
            }
        };
    }

    /** DATETIMN: datetime (8 bytes: days, 1/300 s ticks) or smalldatetime (4 bytes: days, minutes). */
    static Encoder dateTime(FieldVector v, ValueKind kind, boolean small) {
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
        return new Bounded(v, NullMarker.BYTE, 1 + half + 8) {
            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(TypeId.DATETIMN).writeByte(length);
            }

            @Override
            int put(byte[] b, int p, int row) {
                // each half as an 8-byte store of which the next store (or the next value) overwrites the rest
                b[p] = (byte) length;
                LE.set(b, p + 1, TemporalCodec.days1900(days.get(row)));
                LE.set(b, p + 1 + half, time.get(row));
                return p + 1 + length;
            }
        };
    }

    /**
     * datetimeoffset(n): the UTC time and date, then the offset in minutes: +00:00 for timestamps without zone, the
     * zone's offset at that instant for zoned ones (looked up once per offset period, not per row).
     */
    static Encoder dateTimeOffset(FieldVector v, ValueKind kind, int scale, String column) {
        Timestamps ts = isTimestamp(kind) ? Timestamps.of(v) : null;
        if (ts == null) {
            return null;
        }
        String zone = ((ArrowType.Timestamp) v.getField().getType()).getTimezone();
        Offsets offsets = kind == ValueKind.TIMESTAMP_TZ && zone != null ? new Offsets(ZoneId.of(zone).getRules())
                : null;
        int timeLength = TemporalCodec.timeLength(scale);
        return new Bounded(v, NullMarker.BYTE, 1 + timeLength + 3 + 8) {
            @Override
            void typeInfo(TdsMessageWriter w) throws IOException {
                w.writeByte(TypeId.DATETIMEOFFSETN).writeByte(scale);
            }

            private final long step = ts.step(scale);

            @Override
            int put(byte[] b, int p, int row) {
                long raw = ts.raw(row);
                long day = ts.epochDay(raw);
                int minutes = offsets == null ? 0 : offsets.minutes(Math.floorDiv(raw, ts.unitsPerSecond()));
                // time, date (3 bytes) and offset (2 bytes): 8-byte stores of which the next overwrites the rest
                b[p] = (byte) (timeLength + 5);
                LE.set(b, p + 1, ts.timeUnits(raw, day, step));
                LE.set(b, p + 1 + timeLength, TemporalCodec.dateDays(day));
                int at = p + 1 + timeLength + 3;
                b[at] = (byte) minutes;
                b[at + 1] = (byte) (minutes >>> 8);
                return at + 2;
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
