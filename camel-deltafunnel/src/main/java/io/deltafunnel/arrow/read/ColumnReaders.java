package io.deltafunnel.arrow.read;

import java.math.BigDecimal;

import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.TimeUnit;

/**
 * What the per-type readers share: the raw reader interfaces that bindings and encoders use for fast paths
 * ({@link DecimalReader}, {@link EpochDayReader}, {@link Utf8Reader}, {@link RawTimestampReader}), the vector
 * reader base and small helpers. The readers themselves are in {@link NumericColumnTypes}, {@link TextColumnTypes}
 * and {@link TemporalColumnTypes}; {@link ArrowColumnTypes#forField} picks one.
 */
public final class ColumnReaders {

    private ColumnReaders() {
    }

    /** How many of {@code unit} make one second: s→1, ms→10^3, us→10^6, ns→10^9. */
    public static long unitsPerSecond(TimeUnit unit) {
        return switch (unit) {
            case SECOND -> 1L;
            case MILLISECOND -> 1_000L;
            case MICROSECOND -> 1_000_000L;
            case NANOSECOND -> 1_000_000_000L;
        };
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

    static FieldVector storage(FieldVector vector) {
        return vector instanceof ExtensionTypeVector<?> ext ? ext.getUnderlyingVector() : vector;
    }

    /** A reader whose nulls come from the vector's validity; subclasses add the value accessor. */
    abstract static class VectorReader implements ColumnReader {
        private final FieldVector vector;

        VectorReader(FieldVector vector) {
            this.vector = vector;
        }

        @Override
        public boolean isNull(int row) {
            return vector.isNull(row);
        }
    }

}
