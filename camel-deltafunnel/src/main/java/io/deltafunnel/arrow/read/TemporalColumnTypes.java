package io.deltafunnel.arrow.read;

import static io.deltafunnel.arrow.read.ColumnReaders.fractionalDigits;
import static io.deltafunnel.arrow.read.ColumnReaders.storage;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;

import io.deltafunnel.arrow.read.ColumnReaders.EpochDayReader;
import io.deltafunnel.arrow.read.ColumnReaders.RawTimestampReader;

import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.TimeUnit;

/**
 * The dates, times of day and timestamps (with and without zone) implementations of {@link ArrowColumnType}, one small class each.
 * Instances come from {@link ArrowColumnTypes#forField}.
 */
public final class TemporalColumnTypes {

    /** The check name of a value beyond Java's own date/time range (the SQL Server side's {@code Rejection}). */
    static final String OUT_OF_RANGE = "out-of-range";

    private TemporalColumnTypes() {
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
                    throw new ValueRejected(OUT_OF_RANGE, "date out of range: " + d.get(row) + " ms");
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
                    throw new ValueRejected(OUT_OF_RANGE, "time of day out of range: " + raw + " " + unit);
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
            long unitsPerSecond = ColumnReaders.unitsPerSecond(unit);
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
                            throw new ValueRejected(OUT_OF_RANGE, "timestamp out of range: " + raw + " " + unit);
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
                    throw new ValueRejected(OUT_OF_RANGE, "timestamp out of range: " + raw + " " + unit);
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
}
