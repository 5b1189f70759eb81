package io.deltafunnel.emulator;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/**
 * The all-types table used by the round-trip tests: column declarations, input rows (as Java values a client would
 * send) and the values SQL Server would store (after its rounding / padding rules).
 */
final class TypeFixture {
    static final int MAX = Integer.MAX_VALUE;
    static final String NINES38 = "99999999999999999999999999999999999999";

    /** How a column is declared, sent by bulk copy and read back. */
    enum Kind { BIT, INT, REAL, FLOAT, DECIMAL, DATE, TIME, DATETIME, DTO, STRING, BINARY, GUID }

    static final class Col {
        final String name;
        final String decl;
        final int jdbcType;
        final int precision;
        final int scale;
        final Kind kind;

        Col(String name, String decl, int jdbcType, int precision, int scale, Kind kind) {
            this.name = name;
            this.decl = decl;
            this.jdbcType = jdbcType;
            this.precision = precision;
            this.scale = scale;
            this.kind = kind;
        }
    }

    static final List<Col> COLS = List.of(
            new Col("id", "INT NOT NULL PRIMARY KEY", Types.INTEGER, 10, 0, Kind.INT),
            new Col("c_bit", "BIT NULL", Types.BIT, 1, 0, Kind.BIT),
            new Col("c_tinyint", "TINYINT NULL", Types.TINYINT, 3, 0, Kind.INT),
            new Col("c_smallint", "SMALLINT NULL", Types.SMALLINT, 5, 0, Kind.INT),
            new Col("c_int", "INT NULL", Types.INTEGER, 10, 0, Kind.INT),
            new Col("c_bigint", "BIGINT NULL", Types.BIGINT, 19, 0, Kind.INT),
            new Col("c_real", "REAL NULL", Types.REAL, 7, 0, Kind.REAL),
            new Col("c_float", "FLOAT NULL", Types.DOUBLE, 15, 0, Kind.FLOAT),
            new Col("c_dec38_0", "DECIMAL(38,0) NULL", Types.DECIMAL, 38, 0, Kind.DECIMAL),
            new Col("c_dec38_38", "DECIMAL(38,38) NULL", Types.DECIMAL, 38, 38, Kind.DECIMAL),
            new Col("c_num38_10", "NUMERIC(38,10) NULL", Types.NUMERIC, 38, 10, Kind.DECIMAL),
            new Col("c_dec18_2", "DECIMAL(18,2) NULL", Types.DECIMAL, 18, 2, Kind.DECIMAL),
            new Col("c_money", "MONEY NULL", Types.DECIMAL, 19, 4, Kind.DECIMAL),
            new Col("c_smallmoney", "SMALLMONEY NULL", Types.DECIMAL, 10, 4, Kind.DECIMAL),
            new Col("c_date", "DATE NULL", Types.DATE, 10, 0, Kind.DATE),
            new Col("c_time7", "TIME(7) NULL", Types.TIME, 16, 7, Kind.TIME),
            new Col("c_time0", "TIME(0) NULL", Types.TIME, 16, 7, Kind.TIME),
            new Col("c_datetime", "DATETIME NULL", Types.TIMESTAMP, 23, 3, Kind.DATETIME),
            new Col("c_sdt", "SMALLDATETIME NULL", Types.TIMESTAMP, 23, 3, Kind.DATETIME),
            new Col("c_dt2_7", "DATETIME2(7) NULL", Types.TIMESTAMP, 27, 7, Kind.DATETIME),
            new Col("c_dt2_3", "DATETIME2(3) NULL", Types.TIMESTAMP, 27, 7, Kind.DATETIME),
            new Col("c_dto7", "DATETIMEOFFSET(7) NULL", microsoft.sql.Types.DATETIMEOFFSET, 34, 7, Kind.DTO),
            new Col("c_dto2", "DATETIMEOFFSET(2) NULL", microsoft.sql.Types.DATETIMEOFFSET, 34, 7, Kind.DTO),
            new Col("c_char", "CHAR(10) NULL", Types.CHAR, 10, 0, Kind.STRING),
            new Col("c_varchar", "VARCHAR(8000) NULL", Types.VARCHAR, 8000, 0, Kind.STRING),
            new Col("c_nchar", "NCHAR(10) NULL", Types.NCHAR, 10, 0, Kind.STRING),
            new Col("c_nvarchar", "NVARCHAR(4000) NULL", Types.NVARCHAR, 4000, 0, Kind.STRING),
            new Col("c_vmax", "VARCHAR(MAX) NULL", Types.VARCHAR, MAX, 0, Kind.STRING),
            new Col("c_nvmax", "NVARCHAR(MAX) NULL", Types.NVARCHAR, MAX, 0, Kind.STRING),
            new Col("c_binary", "BINARY(8) NULL", Types.BINARY, 8, 0, Kind.BINARY),
            new Col("c_varbinary", "VARBINARY(8000) NULL", Types.VARBINARY, 8000, 0, Kind.BINARY),
            new Col("c_vbmax", "VARBINARY(MAX) NULL", Types.VARBINARY, MAX, 0, Kind.BINARY),
            new Col("c_guid", "UNIQUEIDENTIFIER NULL", microsoft.sql.Types.GUID, 36, 0, Kind.GUID));

    /** A row: logical input values (one per column) and the expected stored values. */
    static final class Row {
        final Object[] in;
        final Object[] expected;

        Row(Object[] in, Object[] expected) {
            this.in = in;
            this.expected = expected;
        }
    }

    private TypeFixture() {
    }

    static String createTable(String name) {
        StringBuilder b = new StringBuilder("CREATE TABLE [dbo].[" + name + "] (");
        for (int i = 0; i < COLS.size(); i++) {
            b.append(i > 0 ? ", " : "").append('[').append(COLS.get(i).name).append("] ").append(COLS.get(i).decl);
        }
        return b.append(')').toString();
    }

    static String repeat(String s, int n) {
        return s.repeat(n);
    }

    static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }

    static LocalDateTime ldt(String s) {
        return LocalDateTime.parse(s.replace(' ', 'T'));
    }

    static OffsetDateTime odt(String s) {
        return OffsetDateTime.parse(s);
    }

    static String padRight(String s, int n) {
        StringBuilder b = new StringBuilder(s);
        while (b.length() < n) {
            b.append(' ');
        }
        return b.toString();
    }

    static final UUID GUID1 = UUID.fromString("6F9619FF-8B86-D011-B42D-00C04FC964FF");
    static final UUID GUID2 = UUID.fromString("00000000-0000-0000-0000-000000000000");

    static List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        String nv4000 = "😀" + repeat("n", 3996) + "𝄞";
        String vmax = repeat("v", 100_000);
        String nvmax = repeat("😀𝄞ü", 20_000);
        byte[] vb8000 = bytes(8000, 3);
        byte[] vbmax = bytes(100_001, 5);
        // minimum values
        Object[] minIn = {1, false, 0, (short) -32768, Integer.MIN_VALUE, Long.MIN_VALUE, -3.4028235E38f,
            -1.7976931348623157E308, new BigDecimal("-" + NINES38), new BigDecimal("-0." + NINES38),
            new BigDecimal("-9999999999999999999999999999.9999999999"), new BigDecimal("-9999999999999999.99"),
            new BigDecimal("-922337203685477.5808"), new BigDecimal("-214748.3648"), LocalDate.of(1, 1, 1),
            LocalTime.MIDNIGHT, LocalTime.MIDNIGHT, ldt("1753-01-01 00:00:00"), ldt("1900-01-01 00:00:00"),
            ldt("0001-01-01 00:00:00"), ldt("0001-01-01 00:00:00"), odt("2024-06-30T23:59:59.9999999+14:00"),
            odt("2024-06-30T23:59:59.994-14:00"), "", "", "", "", "", "", new byte[0], new byte[0], new byte[0],
            GUID2};
        Object[] minOut = minIn.clone();
        minOut[22] = odt("2024-06-30T23:59:59.99-14:00");
        minOut[23] = padRight("", 10);
        minOut[25] = padRight("", 10);
        minOut[29] = new byte[8];
        rows.add(new Row(minIn, minOut));
        // maximum values
        Object[] maxIn = {2, true, 255, (short) 32767, Integer.MAX_VALUE, Long.MAX_VALUE, 3.4028235E38f,
            1.7976931348623157E308, new BigDecimal(NINES38), new BigDecimal("0." + NINES38),
            new BigDecimal("9999999999999999999999999999.9999999999"), new BigDecimal("9999999999999999.99"),
            new BigDecimal("922337203685477.5807"), new BigDecimal("214748.3647"), LocalDate.of(9999, 12, 31),
            LocalTime.parse("23:59:59.9999999"), LocalTime.parse("23:59:59"), ldt("9999-12-31 23:59:59.997"),
            ldt("2079-06-06 23:59:00"), ldt("9999-12-31 23:59:59.9999999"), ldt("9999-12-31 23:59:59.9994"),
            odt("2024-01-01T00:00:00-14:00"), odt("9999-12-31T09:59:59.99-14:00"), "abcdefghij",
            repeat("x", 8000), "😀𝄞abcdef", nv4000, vmax, nvmax, bytes(8, 1), vb8000, vbmax, GUID1};
        Object[] maxOut = maxIn.clone();
        maxOut[20] = ldt("9999-12-31 23:59:59.999");
        rows.add(new Row(maxIn, maxOut));
        // all NULL
        Object[] nullIn = new Object[COLS.size()];
        nullIn[0] = 3;
        rows.add(new Row(nullIn, nullIn.clone()));
        // rounding, padding, code page, boundaries
        Object[] rIn = {4, true, 7, (short) 0, 0, 0L, 1.5f, 0.1, new BigDecimal("0"), new BigDecimal("0.5"),
            new BigDecimal("123.4567890123"), new BigDecimal("-0.01"), new BigDecimal("12.3456"),
            new BigDecimal("-1.5"), LocalDate.of(2024, 2, 29), LocalTime.parse("13:14:15.1234567"),
            LocalTime.parse("13:14:15.5"), ldt("2024-01-02 03:04:05.005"), ldt("2024-01-02 03:04:29.999"),
            ldt("2024-01-02 03:04:05.1234567"), ldt("2024-01-02 03:04:05.9995"),
            odt("2024-01-02T04:34:05.1234567+01:30"), odt("2024-01-02T04:34:05.125+01:30"), "ab", "é€x",
            "x", "😀𝄞", repeat("y", 8001), repeat("z", 4001), new byte[] {1, 2}, new byte[] {0},
            bytes(8001, 7), UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e")};
        Object[] rOut = rIn.clone();
        rOut[16] = LocalTime.parse("13:14:16");
        rOut[17] = ldt("2024-01-02 03:04:05.007");
        rOut[18] = ldt("2024-01-02 03:05:00");
        rOut[20] = ldt("2024-01-02 03:04:06");
        rOut[22] = odt("2024-01-02T04:34:05.13+01:30");
        rOut[23] = padRight("ab", 10);
        rOut[25] = padRight("x", 10);
        rOut[29] = new byte[] {1, 2, 0, 0, 0, 0, 0, 0};
        rows.add(new Row(rIn, rOut));
        return rows;
    }

    /** Reads column i (1-based) as the canonical value used in the expected arrays. */
    static Object read(ResultSet rs, int i, Col c) throws SQLException {
        Object v;
        switch (c.kind) {
            case BIT: v = rs.getBoolean(i); break;
            case INT:
                v = c.jdbcType == Types.BIGINT ? (Object) rs.getLong(i) : (Object) rs.getInt(i);
                break;
            case REAL: v = rs.getFloat(i); break;
            case FLOAT: v = rs.getDouble(i); break;
            case DECIMAL: v = rs.getBigDecimal(i); break;
            case DATE: v = rs.getObject(i, LocalDate.class); break;
            case TIME: v = rs.getObject(i, LocalTime.class); break;
            case DATETIME: v = rs.getObject(i, LocalDateTime.class); break;
            case DTO: v = rs.getObject(i, OffsetDateTime.class); break;
            case STRING: v = rs.getString(i); break;
            case BINARY: v = rs.getBytes(i); break;
            case GUID: {
                String s = rs.getString(i);
                v = s == null ? null : UUID.fromString(s);
                break;
            }
            default: throw new IllegalStateException();
        }
        return rs.wasNull() ? null : v;
    }

    /** Normalises an expected value for comparison with {@link #read}. */
    static Object normalize(Object v, Col c) {
        if (v == null) {
            return null;
        }
        switch (c.kind) {
            case INT:
                return c.jdbcType == Types.BIGINT ? (Object) ((Number) v).longValue() : (Object) ((Number) v).intValue();
            case DECIMAL:
                return ((BigDecimal) v).setScale(c.name.equals("c_money") || c.name.equals("c_smallmoney") ? 4
                        : Integer.parseInt(c.decl.replaceAll(".*,(\\d+)\\).*", "$1")));
            case DTO:
                return v;
            case BINARY:
                return HexFormat.of().formatHex((byte[]) v);
            default:
                return v;
        }
    }

    static String describe(Object v) {
        if (v instanceof byte[]) {
            return HexFormat.of().formatHex((byte[]) v);
        }
        String s = String.valueOf(v);
        return s.length() > 80 ? s.substring(0, 80) + "...(" + s.length() + ")" : s;
    }

    static boolean same(Object expected, Object actual, Col c) {
        Object e = normalize(expected, c);
        Object a = actual instanceof byte[] ? HexFormat.of().formatHex((byte[]) actual) : actual;
        if (e instanceof OffsetDateTime && a instanceof OffsetDateTime) {
            return ((OffsetDateTime) e).isEqual((OffsetDateTime) a)
                    && ((OffsetDateTime) e).getOffset().equals(((OffsetDateTime) a).getOffset());
        }
        return e == null ? a == null : e.equals(a);
    }

    /** Bulk-copy input for a logical value of column c (text temporals are produced by the driver). */
    static Object bulkValue(Object v, Col c, boolean nativeTemporals) {
        if (v == null) {
            return null;
        }
        switch (c.kind) {
            case INT:
                if (c.jdbcType == Types.TINYINT || c.jdbcType == Types.SMALLINT) {
                    return ((Number) v).shortValue();
                }
                return c.jdbcType == Types.BIGINT ? (Object) ((Number) v).longValue()
                        : (Object) ((Number) v).intValue();
            case DATETIME:
                return Timestamp.valueOf((LocalDateTime) v);
            case TIME: {
                // text mode: SQL Server accepts at most 7 fraction digits; native mode: the driver reads the digits
                // after '.' as nanoseconds, so it needs all 9
                LocalTime t = (LocalTime) v;
                String frac = String.format("%09d", t.getNano());
                return String.format("%02d:%02d:%02d.", t.getHour(), t.getMinute(), t.getSecond())
                        + (nativeTemporals ? frac : frac.substring(0, 7));
            }
            case DTO:
                return microsoft.sql.DateTimeOffset.valueOf((OffsetDateTime) v);
            default:
                return v;
        }
    }

    static String columnList() {
        StringBuilder b = new StringBuilder();
        for (Col c : COLS) {
            b.append(b.length() > 0 ? ", " : "").append('[').append(c.name).append(']');
        }
        return b.toString();
    }

    static ZoneOffset utc() {
        return ZoneOffset.UTC;
    }

    static String arrays(Object[] a) {
        return Arrays.toString(a);
    }
}
