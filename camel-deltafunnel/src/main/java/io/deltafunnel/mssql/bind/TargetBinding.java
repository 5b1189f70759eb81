package io.deltafunnel.mssql.bind;

import java.math.BigDecimal;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Set;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ColumnReader;
import io.deltafunnel.arrow.read.ValueKind;
import io.deltafunnel.arrow.read.ValueRejected;
import io.deltafunnel.mssql.bind.NumericBindings.BitBinding;
import io.deltafunnel.mssql.bind.NumericBindings.DecimalBinding;
import io.deltafunnel.mssql.bind.NumericBindings.FloatBinding;
import io.deltafunnel.mssql.bind.NumericBindings.IntegerBinding;
import io.deltafunnel.mssql.bind.TemporalBindings.DateBinding;
import io.deltafunnel.mssql.bind.TemporalBindings.DateTime2Binding;
import io.deltafunnel.mssql.bind.TemporalBindings.DateTimeOffsetBinding;
import io.deltafunnel.mssql.bind.TemporalBindings.SmallDateTimeBinding;
import io.deltafunnel.mssql.bind.TemporalBindings.TimeBinding;
import io.deltafunnel.mssql.bind.TextBindings.BinaryBinding;
import io.deltafunnel.mssql.bind.TextBindings.GuidBinding;
import io.deltafunnel.mssql.bind.TextBindings.StringBinding;
import io.deltafunnel.tds.Pow10;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

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
 *
 * <p>This class holds the contract, {@link #of} (the choice by target type) and the helpers the bindings share; the
 * bindings themselves are in {@link NumericBindings}, {@link TextBindings} and {@link TemporalBindings}.
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

    /**
     * Throws {@link ValueRejected} when the non-null value at {@code row} does not fit the target exactly; called by
     * {@link BatchCheck} only, which reports a {@link Rejection}.
     */
    abstract void checkValue(ColumnReader reader, int row);

    /** The driver object for the non-null, already checked value at {@code row}. */
    public abstract Object convert(ColumnReader reader, int row);

    /**
     * True when every non-null value of rows 0..rowCount-1 of {@code vector} provably fits, found by one tight pass
     * over its raw buffers; false when that pass cannot tell, and then every value is checked by {@link #checkValue}
     * as usual (which names the value that does not fit). It only ever accepts: the values it accepts are exactly
     * those {@link #checkValue} accepts on its own fast path. Most passes read a NULL's slot too rather than its
     * validity bit: Arrow leaves its contents undefined (DuckDB writes zeros), so a NULL over a slot that would not
     * fit only sends the column to the value-by-value check, which skips it. NULLs themselves are
     * {@link BatchCheck}'s to refuse.
     */
    public boolean allFit(FieldVector vector, int rowCount) {
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
    public boolean alwaysFits(ArrowColumnType source) {
        return false;
    }

    /** Checks the value at {@code row}, NULL included (for {@link BatchCheck}). */
    final void check(ColumnReader reader, int row) {
        if (reader.isNull(row)) {
            if (!target.nullable()) {
                throw new ValueRejected(Rejection.NOT_NULL, "NULL into NOT NULL column " + target.name());
            }
            return;
        }
        checkValue(reader, row);
    }

    /** The driver object for the value at {@code row}, or null. */
    public final Object value(ColumnReader reader, int row) {
        return reader.isNull(row) ? null : convert(reader, row);
    }

    /**
     * The binding of {@code kind} values into {@code target}.
     *
     * @param temporalAsText the connection's sendTemporalDataTypesAsStringForBulkCopy
     * @throws IllegalArgumentException when the kind cannot go into the target's type; the message says why
     */
    public static TargetBinding of(ValueKind kind, TargetColumn target, boolean temporalAsText) {
        TargetBinding binding = switch (target.type()) {
            case TINYINT -> new IntegerBinding(target, Types.TINYINT, 0, 255, 3);
            case SMALLINT -> new IntegerBinding(target, Types.SMALLINT, Short.MIN_VALUE, Short.MAX_VALUE, 5);
            case INT -> new IntegerBinding(target, Types.INTEGER, Integer.MIN_VALUE, Integer.MAX_VALUE, 10);
            case BIGINT -> new IntegerBinding(target, Types.BIGINT, Long.MIN_VALUE, Long.MAX_VALUE, 19);
            case BIT -> new BitBinding(target);
            case DECIMAL, NUMERIC -> new DecimalBinding(target);
            case FLOAT -> new FloatBinding(target, false);
            case REAL -> new FloatBinding(target, true);
            case NVARCHAR, NCHAR, VARCHAR, CHAR, NTEXT, TEXT -> new StringBinding(target);
            case VARBINARY, BINARY, IMAGE -> new BinaryBinding(target);
            case UNIQUEIDENTIFIER -> new GuidBinding(target);
            case DATE -> new DateBinding(target);
            case TIME -> new TimeBinding(target, temporalAsText);
            case DATETIME2 -> new DateTime2Binding(target, false);
            case DATETIME -> new DateTime2Binding(target, true);
            case SMALLDATETIME -> new SmallDateTimeBinding(target);
            case DATETIMEOFFSET -> new DateTimeOffsetBinding(target);
            case JSON -> new ModernBindings.JsonBinding(target);
            case VECTOR -> new ModernBindings.VectorBinding(target);
            case UNSUPPORTED -> throw new IllegalArgumentException("target column type " + target.typeText()
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

    /**
     * Refuses, with {@link IllegalArgumentException} saying why, a source whose Arrow type the value kind alone does
     * not decide (a vector target takes only lists of floats); called once when the column is bound.
     */
    public void checkSource(ArrowColumnType source) {
    }

    // ---- helpers shared by the bindings ----

    static BigDecimal decimalOf(ValueKind kind, ColumnReader reader, int row) {
        return kind == ValueKind.INTEGER ? BigDecimal.valueOf(reader.getLong(row))
                : (BigDecimal) reader.getObject(row);
    }

    static int utf16Length(String s) {
        return s.length();
    }

    /**
     * Rejects {@code nanos} with digits beyond {@code digits}; the message names the value as {@code what value}, built
     * only when it is rejected.
     */
    static void checkFraction(int nanos, int digits, String what, Object value) {
        int unit = Pow10.intOf(9 - digits);
        if (nanos % unit != 0) {
            throw new ValueRejected(Rejection.FRACTIONAL_SECONDS,
                    what + " " + value + " has more fractional-second digits than the target keeps (" + digits
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

    /**
     * Rejects a year outside {@code min..9999}; the message names the value as {@code what value}, built only when it
     * is rejected.
     */
    static void checkYear(int year, int min, String what, Object value) {
        if (year < min || year > 9999) {
            throw new ValueRejected(Rejection.OUT_OF_RANGE,
                    what + " " + value + " is outside the target's range (years " + min + " to 9999)");
        }
    }

    int datetimeDigits() {
        Integer p = target.datetimePrecision();
        return p == null ? 7 : Math.max(0, Math.min(7, p));
    }

    static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }
}
