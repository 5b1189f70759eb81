package io.deltafunnel.emulator.semantics;

import io.deltafunnel.tds.Collation;
import io.deltafunnel.tds.GuidCodec;
import io.deltafunnel.tds.MoneyCodec;
import io.deltafunnel.tds.TemporalCodec;
import io.deltafunnel.tds.TypeId;
import io.deltafunnel.tds.TypeInfo;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.Charset;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.UUID;

/**
 * Converts a value received from the client (decoded per its TYPE_INFO) to the value SQL Server would store in
 * the target column, applying SQL Server's rounding and checks: 8115 arithmetic overflow, 245/8114/241/8169
 * conversion failures, 242 out-of-range dates, 2628 truncation. NULL checks (515) are the caller's.
 */
public final class ValueConverter {
    private static final Charset CP1252 = Collation.SQL_LATIN1_GENERAL_CP1_CI_AS.charset();

    private final ColumnDef column;
    private final SqlType type;
    private final String tableName;
    private final TypeInfo source;
    private final String sourceName;

    public ValueConverter(ColumnDef column, String tableName, TypeInfo source) {
        this.column = column;
        this.type = column.type();
        this.tableName = tableName;
        this.source = source;
        this.sourceName = typeName(source);
    }

    public ColumnDef column() {
        return column;
    }

    static String typeName(TypeInfo t) {
        switch (t.typeId()) {
            case TypeId.INT1: return "tinyint";
            case TypeId.INT2: return "smallint";
            case TypeId.INT4: return "int";
            case TypeId.INT8: return "bigint";
            case TypeId.INTN:
                return t.maxLength() == 1 ? "tinyint" : t.maxLength() == 2 ? "smallint" : t.maxLength() == 4 ? "int"
                        : "bigint";
            case TypeId.BIT: case TypeId.BITN: return "bit";
            case TypeId.FLT4: return "real";
            case TypeId.FLT8: return "float";
            case TypeId.FLTN: return t.maxLength() == 4 ? "real" : "float";
            case TypeId.MONEY: case TypeId.MONEY4: case TypeId.MONEYN: return "money";
            case TypeId.DECIMAL: case TypeId.DECIMALN: return "numeric";
            case TypeId.NUMERIC: case TypeId.NUMERICN: return "numeric";
            case TypeId.DATEN: return "date";
            case TypeId.TIMEN: return "time";
            case TypeId.DATETIME2N: return "datetime2";
            case TypeId.DATETIMEOFFSETN: return "datetimeoffset";
            case TypeId.DATETIME: case TypeId.DATETIM4: case TypeId.DATETIMN: return "datetime";
            case TypeId.GUID: return "uniqueidentifier";
            case TypeId.NVARCHAR: case TypeId.NCHAR: case TypeId.NTEXT: return "nvarchar";
            case TypeId.BIGVARCHAR: case TypeId.BIGCHAR: case TypeId.TEXT: return "varchar";
            case TypeId.XML: return "xml";
            case TypeId.JSON: return "json";
            case TypeId.VECTOR: return "vector";
            default: return "varbinary";
        }
    }

    private SqlServerError overflow() {
        return ErrorCatalog.ARITHMETIC_OVERFLOW.error("Arithmetic overflow error converting " + sourceName
                + " to data type " + type.name() + ".");
    }

    private SqlServerError conversion(Object v) {
        String txt = String.valueOf(v);
        switch (type.base()) {
            case DECIMAL: case NUMERIC: case REAL: case FLOAT: case MONEY: case SMALLMONEY:
                return ErrorCatalog.CONVERSION_ERROR.error("Error converting data type " + sourceName + " to "
                        + type.name() + ".");
            case UNIQUEIDENTIFIER:
                return ErrorCatalog.UNIQUEIDENTIFIER_CONVERSION.error(
                        "Conversion failed when converting from a character string to uniqueidentifier.");
            case DATE: case TIME: case DATETIME: case SMALLDATETIME: case DATETIME2: case DATETIMEOFFSET:
                return TemporalText.conversionError();
            default:
                return ErrorCatalog.CONVERSION_FAILED.error("Conversion failed when converting the " + sourceName
                        + " value '" + txt + "' to data type " + type.name() + ".");
        }
    }

    private SqlServerError clash() {
        return ErrorCatalog.OPERAND_TYPE_CLASH.error("Operand type clash: " + sourceName + " is incompatible with "
                + type.name());
    }

    private SqlServerError truncation(String truncated) {
        return ErrorCatalog.STRING_TRUNCATED.error("String or binary data would be truncated in table '" + tableName
                + "', column '" + column.name() + "'. Truncated value: '" + truncated + "'.");
    }

    /** Converts a non-null value. */
    public Object convert(Object v) throws SqlServerError {
        switch (type.base()) {
            case BIT: return toBit(v);
            case TINYINT: return (int) integral(v, 0, 255);
            case SMALLINT: return (int) integral(v, Short.MIN_VALUE, Short.MAX_VALUE);
            case INT: return (int) integral(v, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case BIGINT: return integral(v, Long.MIN_VALUE, Long.MAX_VALUE);
            case REAL: {
                double d = toDouble(v);
                float f = (float) d;
                if (Float.isInfinite(f) && !Double.isInfinite(d)) {
                    throw overflow();
                }
                return f;
            }
            case FLOAT: return toDouble(v);
            case DECIMAL:
            case NUMERIC: {
                BigDecimal d = toDecimal(v).setScale(type.scale(), RoundingMode.HALF_UP);
                if (d.signum() != 0 && d.precision() - d.scale() > type.precision() - type.scale()) {
                    throw overflow();
                }
                return d;
            }
            case MONEY:
            case SMALLMONEY: {
                BigDecimal d = toDecimal(v).setScale(4, RoundingMode.HALF_UP);
                boolean money = type.base() == SqlType.Base.MONEY;
                if (d.compareTo(money ? MoneyCodec.MONEY_MIN : MoneyCodec.SMALLMONEY_MIN) < 0
                        || d.compareTo(money ? MoneyCodec.MONEY_MAX : MoneyCodec.SMALLMONEY_MAX) > 0) {
                    throw overflow();
                }
                return d;
            }
            case DATE: return toDate(v);
            case TIME: return TemporalCodec.roundToScale(toTime(v), type.scale());
            case DATETIME2: return TemporalCodec.roundToScale(toDateTime(v, 7), type.scale());
            case DATETIMEOFFSET: return TemporalCodec.roundToScale(toOffsetDateTime(v), type.scale());
            case DATETIME: {
                LocalDateTime d = TemporalCodec.roundToDateTime(toDateTime(v, 3));
                if (d.isBefore(TemporalCodec.DATETIME_MIN) || d.isAfter(TemporalCodec.DATETIME_MAX)) {
                    throw outOfRange();
                }
                return d;
            }
            case SMALLDATETIME: {
                LocalDateTime d = TemporalCodec.roundToSmallDateTime(toDateTime(v, 3));
                if (d.isBefore(TemporalCodec.SMALLDATETIME_MIN) || d.isAfter(TemporalCodec.SMALLDATETIME_MAX)) {
                    throw outOfRange();
                }
                return d;
            }
            case CHAR:
            case VARCHAR:
            case NCHAR:
            case NVARCHAR:
            case TEXT:
            case NTEXT:
                return toText(v);
            case BINARY:
            case VARBINARY:
            case IMAGE:
                return toBinary(v);
            case UNIQUEIDENTIFIER:
                return toGuid(v);
            case XML:
                // stored as sent: not parsed, not re-serialised (README: Differences from SQL Server)
                if (v instanceof String) {
                    return v;
                }
                throw clash();
            case JSON:
                if (v instanceof String) {
                    return ModernValues.json((String) v);
                }
                throw clash();
            case VECTOR:
                if (v instanceof String || v instanceof float[]) {
                    return ModernValues.vector(v, type.length());
                }
                throw clash();
            default:
                throw clash();
        }
    }

    private SqlServerError outOfRange() {
        return ErrorCatalog.DATETIME_OUT_OF_RANGE.error("The conversion of a " + sourceName + " data type to a "
                + type.name() + " data type resulted in an out-of-range value.");
    }

    private Boolean toBit(Object v) throws SqlServerError {
        if (v instanceof Boolean) {
            return (Boolean) v;
        }
        if (v instanceof Number) {
            return ((Number) v).doubleValue() != 0;
        }
        if (v instanceof String) {
            String s = ((String) v).trim();
            if (s.equalsIgnoreCase("true")) {
                return true;
            }
            if (s.equalsIgnoreCase("false")) {
                return false;
            }
            try {
                return new BigDecimal(s).signum() != 0;
            } catch (NumberFormatException e) {
                throw conversion(v);
            }
        }
        throw clash();
    }

    private long integral(Object v, long min, long max) throws SqlServerError {
        long x;
        if (v instanceof Integer || v instanceof Long || v instanceof Short) {
            x = ((Number) v).longValue();
        } else if (v instanceof Boolean) {
            x = ((Boolean) v) ? 1 : 0;
        } else if (v instanceof BigDecimal) {
            BigDecimal t = ((BigDecimal) v).setScale(0, RoundingMode.DOWN);
            if (t.compareTo(BigDecimal.valueOf(min)) < 0 || t.compareTo(BigDecimal.valueOf(max)) > 0) {
                throw overflow();
            }
            x = t.longValue();
        } else if (v instanceof Float || v instanceof Double) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || d < min || d >= max + 1.0) {
                throw overflow();
            }
            x = (long) d;
        } else if (v instanceof String) {
            try {
                x = Long.parseLong(((String) v).trim());
            } catch (NumberFormatException e) {
                throw conversion(v);
            }
        } else {
            throw clash();
        }
        if (x < min || x > max) {
            throw overflow();
        }
        return x;
    }

    private double toDouble(Object v) throws SqlServerError {
        if (v instanceof Number) {
            return ((Number) v).doubleValue();
        }
        if (v instanceof Boolean) {
            return ((Boolean) v) ? 1 : 0;
        }
        if (v instanceof String) {
            try {
                return Double.parseDouble(((String) v).trim());
            } catch (NumberFormatException e) {
                throw conversion(v);
            }
        }
        throw clash();
    }

    private BigDecimal toDecimal(Object v) throws SqlServerError {
        if (v instanceof BigDecimal) {
            return (BigDecimal) v;
        }
        if (v instanceof Integer || v instanceof Long || v instanceof Short) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        if (v instanceof Float || v instanceof Double) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw overflow();
            }
            return BigDecimal.valueOf(d);
        }
        if (v instanceof Boolean) {
            return ((Boolean) v) ? BigDecimal.ONE : BigDecimal.ZERO;
        }
        if (v instanceof String) {
            try {
                return new BigDecimal(((String) v).trim());
            } catch (NumberFormatException e) {
                throw conversion(v);
            }
        }
        throw clash();
    }

    private LocalDate toDate(Object v) throws SqlServerError {
        if (v instanceof LocalDate) {
            return (LocalDate) v;
        }
        if (v instanceof LocalDateTime) {
            return ((LocalDateTime) v).toLocalDate();
        }
        if (v instanceof OffsetDateTime) {
            return ((OffsetDateTime) v).toLocalDate();
        }
        if (v instanceof String) {
            TemporalText t = TemporalText.parse((String) v);
            if (t.date == null) {
                return LocalDate.of(1900, 1, 1);
            }
            return t.date;
        }
        throw clash();
    }

    private LocalTime toTime(Object v) throws SqlServerError {
        if (v instanceof LocalTime) {
            return (LocalTime) v;
        }
        if (v instanceof LocalDateTime) {
            return ((LocalDateTime) v).toLocalTime();
        }
        if (v instanceof OffsetDateTime) {
            return ((OffsetDateTime) v).toLocalTime();
        }
        if (v instanceof String) {
            return TemporalText.parse((String) v).timeOrMidnight();
        }
        throw clash();
    }

    private LocalDateTime toDateTime(Object v, int maxTextDigits) throws SqlServerError {
        if (v instanceof LocalDateTime) {
            return (LocalDateTime) v;
        }
        if (v instanceof LocalDate) {
            return ((LocalDate) v).atStartOfDay();
        }
        if (v instanceof OffsetDateTime) {
            return ((OffsetDateTime) v).toLocalDateTime();
        }
        if (v instanceof LocalTime) {
            return LocalDate.of(1900, 1, 1).atTime((LocalTime) v);
        }
        if (v instanceof String) {
            TemporalText t = TemporalText.parse((String) v);
            if (t.fractionDigits > maxTextDigits) {
                throw TemporalText.conversionError();
            }
            return LocalDateTime.of(t.dateOrDefault(), t.timeOrMidnight());
        }
        throw clash();
    }

    private OffsetDateTime toOffsetDateTime(Object v) throws SqlServerError {
        if (v instanceof OffsetDateTime) {
            return (OffsetDateTime) v;
        }
        if (v instanceof String) {
            TemporalText t = TemporalText.parse((String) v);
            return OffsetDateTime.of(t.dateOrDefault(), t.timeOrMidnight(),
                    t.offset == null ? ZoneOffset.UTC : t.offset);
        }
        return toDateTime(v, 7).atOffset(ZoneOffset.UTC);
    }

    private String toText(Object v) throws SqlServerError {
        String s;
        if (v instanceof String) {
            s = (String) v;
        } else if (v instanceof byte[]) {
            throw clash();
        } else if (v instanceof BigDecimal) {
            s = ((BigDecimal) v).toPlainString();
        } else {
            s = String.valueOf(v);
        }
        if (!type.isUnicode()) {
            s = new String(s.getBytes(CP1252), CP1252);
        }
        if (!type.isMax()) {
            int n = type.length();
            if (s.length() > n) {
                if (!(v instanceof String)) {
                    // number -> too short string: SQL Server reports an overflow, not a truncation
                    throw ErrorCatalog.ARITHMETIC_OVERFLOW.error(
                            "Arithmetic overflow error converting expression to data"
                            + " type " + type.name() + ".");
                }
                throw truncation(s.substring(0, n));
            }
            if (type.isFixedLengthString() && s.length() < n) {
                StringBuilder b = new StringBuilder(n).append(s);
                while (b.length() < n) {
                    b.append(' ');
                }
                s = b.toString();
            }
        }
        return s;
    }

    private byte[] toBinary(Object v) throws SqlServerError {
        byte[] b;
        if (v instanceof byte[]) {
            b = (byte[]) v;
        } else if (v instanceof UUID) {
            b = GuidCodec.toBytes((UUID) v);
        } else {
            throw clash();
        }
        if (!type.isMax()) {
            int n = type.length();
            if (b.length > n) {
                throw truncation(hex(Arrays.copyOf(b, Math.min(n, 32))));
            }
            if (type.base() == SqlType.Base.BINARY && b.length < n) {
                b = Arrays.copyOf(b, n);
            }
        }
        return b;
    }

    private static String hex(byte[] b) {
        StringBuilder s = new StringBuilder("0x");
        for (byte x : b) {
            s.append(String.format("%02X", x));
        }
        return s.toString();
    }

    private UUID toGuid(Object v) throws SqlServerError {
        if (v instanceof UUID) {
            return (UUID) v;
        }
        if (v instanceof byte[] && ((byte[]) v).length == 16) {
            return GuidCodec.fromBytes((byte[]) v);
        }
        if (v instanceof String) {
            String s = ((String) v).trim();
            if (s.startsWith("{") && s.endsWith("}")) {
                s = s.substring(1, s.length() - 1);
            }
            if (s.length() != 36 || s.charAt(8) != '-' || s.charAt(13) != '-' || s.charAt(18) != '-'
                    || s.charAt(23) != '-') {
                throw conversion(v);
            }
            try {
                return UUID.fromString(s);
            } catch (IllegalArgumentException e) {
                throw conversion(v);
            }
        }
        throw clash();
    }

    /** The source TYPE_INFO this converter reads. */
    TypeInfo source() {
        return source;
    }
}
