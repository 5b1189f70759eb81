package io.deltafunnel.mssql.direct;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ArrowColumnTypes;
import io.deltafunnel.emulator.MssqlEmulator;
import io.deltafunnel.emulator.fidelity.EmulatorServer;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.BatchCheck;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.Rejection;
import io.deltafunnel.mssql.bind.TargetBinding;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.mssql.bind.ValueOutOfRangeException;
import io.deltafunnel.mssql.channel.ArrowBulkData;
import io.deltafunnel.mssql.channel.BulkBatch;
import io.deltafunnel.tds.TypeId;
import io.deltafunnel.tds.TypeInfo;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float2Vector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt2Vector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ViewVarBinaryVector;
import org.apache.arrow.vector.ViewVarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential test of the direct writer against the mssql-jdbc path, for every (Arrow type → target type) pair
 * the producer supports.
 *
 * <p>Each pair's batch of edge values is written through the driver path ({@code SQLServerBulkCopy} with
 * {@link ArrowBulkData}, {@code sendTemporalDataTypesAsStringForBulkCopy=false}, i.e. native temporal types) into
 * one table and through {@link DirectBulkWriter} into another; both are read back over JDBC and compared row by row,
 * and against the expected values. Values that do not fit are rejected identically by both paths (same exception
 * type, column, row and reason). The emulator records both BULK_LOAD messages, and the test checks that the byte
 * streams differ only as documented here (and in {@code camel-deltafunnel/MSSQL.md}, "Direct writer: byte-level
 * differences from mssql-jdbc"):
 *
 * <ol>
 *   <li><b>DECIMALN length</b> — driver: always 17 (the largest), whatever the precision; direct: the compact
 *       length of the target precision (5/9/13/17), as SQL Server itself sends decimals. Same sign and magnitude; 4
 *       to 12 bytes less per value. Both declare decimal and numeric targets as DECIMALN (0x6A).</li>
 *   <li><b>PLP length</b> — driver: (max) values as PLP with "unknown length" (0xFFFFFFFFFFFFFFFE); direct: the
 *       known total length (the value is at hand). The chunks and terminator are the same.</li>
 *   <li><b>Wire type follows the target</b> — the driver builds TYPE_INFO from the source's declared JDBC type
 *       (the binding's), the direct writer from the target column. Seen for character and binary targets only:
 *       the driver sends every character source as NVARCHAR (n)/(max) and every binary one as BIGVARBINARY; the
 *       direct writer sends BIGVARCHAR (varchar, text), BIGCHAR (char), NCHAR (nchar), BIGBINARY (binary), with
 *       the target's length, and for char/varchar the bytes in the column's code page (ASCII, the producer's
 *       rule) instead of UTF-16, half the bytes. The driver's varchar(8000) even becomes NVARCHAR PLP (16000
 *       bytes > 8000); the direct writer keeps BIGVARCHAR(8000). Values are equal after the server's conversion
 *       (exact: ASCII, zero/space padding is the server's).</li>
 *   <li><b>uniqueidentifier</b> — driver: the value as 36-character text (CHAR/VARCHAR), converted by the server;
 *       direct: native GUID (0x24, 16 bytes, Data1..3 little-endian).</li>
 *   <li><b>ASCII nvarchar as varchar</b> — an nvarchar(n)/nvarchar(max) column whose batch is all ASCII, with a
 *       collation of a known code page: driver NVARCHAR (UTF-16); direct BIGVARCHAR(n), for (max) BIGVARCHAR PLP
 *       (values up to 8000 bytes), in the column's collation, declared so in INSERT BULK, each value its ASCII
 *       bytes, converted by the server (as it converts mssql-jdbc's varchar columns of a CSV source). Half the
 *       bytes.</li>
 * </ol>
 *
 * Identical in both streams (checked): COLMETADATA flags (nullable|updatable, or updatable for NOT NULL columns),
 * collations (the catalog's), column names, and every value of the same TYPE_INFO — integers, bit, real/float, all
 * native temporal types (DATEN, TIMEN, DATETIME2N, DATETIMEOFFSETN, DATETIMN 8 and 4), (n)varchar(n) and
 * varbinary(n) values.
 *
 * The exact differences found per pair are computed from the captured streams and must all belong to these kinds.
 */
class DirectTypesDifferentialTest {

    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(b -> b.port(0).sinkMode(false));
    private static int tableCounter;

    private BufferAllocator allocator;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeAll
    static void captureBulkLoads() {
        SERVER.emulator().captureBulkLoads(true);
    }

    @BeforeEach
    void setUp() {
        allocator = new RootAllocator();
        SERVER.emulator().clearCapturedBulkLoads();
    }

    @AfterEach
    void tearDown() throws Exception {
        Collections.reverse(closeables);
        for (AutoCloseable c : closeables) {
            c.close();
        }
        assertEquals(0, allocator.getAllocatedMemory());
        allocator.close();
    }

    // ------------------------------------------------------------------------------------------------ the pairs

    /** Arrow source types used by the pairs. */
    enum Src {
        INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64, BOOL, FLOAT16, FLOAT32, FLOAT64, DEC128, DEC256,
        UTF8, LARGE_UTF8, UTF8_VIEW, UUID, JSON_LIST, BINARY, LARGE_BINARY, BINARY_VIEW, FIXED_BINARY, DATE32,
        DATE64, TIME_S, TIME_MS, TIME_US, TIME_NS, TS_S, TS_MS, TS_US, TS_NS
    }

    /**
     * One pair: the source type (with its decimal precision/scale, fixed width, or time zone in {@code param}), the
     * target type as T-SQL, the source values and the values expected back (null: the same as the source).
     */
    record Pair(Src src, Object param, String sqlType, List<Object> values, List<Object> expected) {
        @Override
        public String toString() {
            return src + (param == null ? "" : "(" + param + ")") + " -> " + sqlType;
        }

        List<Object> expectedValues() {
            return expected == null ? values : expected;
        }
    }

    private static Pair p(Src src, Object param, String sqlType, Object... values) {
        return new Pair(src, param, sqlType, Arrays.asList(values), null);
    }

    private static Pair px(Src src, Object param, String sqlType, List<Object> values, List<Object> expected) {
        return new Pair(src, param, sqlType, values, expected);
    }

    private static final BigDecimal MAX38_10 = new BigDecimal("9999999999999999999999999999.9999999999");
    private static final String NON_BMP = "\uD834\uDD1E\uD83D\uDE00";
    private static final String MIXED = "\u00FC\u4E2D" + NON_BMP + "x"; // 7 UTF-16 units
    private static final LocalDateTime DT2_MIN = LocalDateTime.of(1, 1, 1, 0, 0);
    private static final LocalDateTime DT2_MAX7 = LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_900);

    private static byte[] bytes(int n, int seed) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }

    private static List<Object> list(Object... v) {
        return Arrays.asList(v);
    }

    static Stream<Pair> pairs() {
        BigInteger u64max = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
        String s4000 = "x".repeat(3993) + MIXED;
        String s9000 = NON_BMP + "y".repeat(9000) + MIXED;
        java.util.UUID uuid = java.util.UUID.fromString("6f9619ff-8b86-d011-b42d-00c04fc964ff");
        java.util.UUID uuid2 = java.util.UUID.fromString("00000000-0000-0000-0000-000000000001");
        ZoneId berlin = ZoneId.of("Europe/Berlin");
        Instant dstStart = Instant.parse("2024-03-31T01:00:00Z");
        return Stream.of(
                // ---- integers
                p(Src.INT8, null, "tinyint", 0L, 127L, null, 1L),
                p(Src.INT8, null, "smallint", -128L, 127L, 0L, null),
                p(Src.INT8, null, "int", -128L, 127L, null),
                p(Src.INT8, null, "bigint", -128L, 127L, null),
                p(Src.INT8, null, "decimal(3,0)", -128L, 127L, 0L, null),
                p(Src.INT8, null, "real", -128L, 127L, null),
                p(Src.INT8, null, "float", -128L, 127L, null),
                p(Src.INT8, null, "bit", 0L, 1L, null),
                p(Src.INT16, null, "tinyint", 0L, 255L, null),
                p(Src.INT16, null, "smallint", (long) Short.MIN_VALUE, (long) Short.MAX_VALUE, 0L, -1L, null),
                p(Src.INT16, null, "int", (long) Short.MIN_VALUE, (long) Short.MAX_VALUE, null),
                p(Src.INT16, null, "bigint", (long) Short.MIN_VALUE, (long) Short.MAX_VALUE, null),
                p(Src.INT16, null, "decimal(7,2)", (long) Short.MIN_VALUE, (long) Short.MAX_VALUE, 0L, null),
                p(Src.INT16, null, "numeric(5,0)", (long) Short.MIN_VALUE, (long) Short.MAX_VALUE, null),
                p(Src.INT32, null, "smallint", -32768L, 32767L, null),
                p(Src.INT32, null, "int", (long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE, 0L, -1L, null),
                p(Src.INT32, null, "bigint", (long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE, null),
                p(Src.INT32, null, "decimal(10,0)", (long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE, null),
                p(Src.INT32, null, "decimal(12,2)", (long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE, 1L, null),
                p(Src.INT32, null, "real", -(1L << 24), 1L << 24, 0L, null),
                p(Src.INT32, null, "float", (long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE, null),
                p(Src.INT32, null, "bit", 0L, 1L, null),
                p(Src.INT64, null, "bigint", Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, null),
                p(Src.INT64, null, "int", (long) Integer.MIN_VALUE, (long) Integer.MAX_VALUE, null),
                p(Src.INT64, null, "tinyint", 0L, 255L, null),
                p(Src.INT64, null, "decimal(19,0)", Long.MIN_VALUE, Long.MAX_VALUE, 0L, null),
                p(Src.INT64, null, "decimal(38,18)", Long.MIN_VALUE, Long.MAX_VALUE, -1L, null),
                p(Src.INT64, null, "numeric(38,19)", Long.MIN_VALUE, Long.MAX_VALUE, 1L, null),
                p(Src.INT64, null, "float", -(1L << 53), 1L << 53, null),
                p(Src.INT64, null, "real", -(1L << 24), 1L << 24, null),
                p(Src.UINT8, null, "tinyint", 0L, 255L, null),
                p(Src.UINT8, null, "smallint", 0L, 255L, null),
                p(Src.UINT8, null, "decimal(3,0)", 0L, 255L, null),
                p(Src.UINT16, null, "int", 0L, 65535L, null),
                p(Src.UINT16, null, "smallint", 0L, 32767L, null),
                p(Src.UINT32, null, "bigint", 0L, 4294967295L, null),
                p(Src.UINT32, null, "int", 0L, (long) Integer.MAX_VALUE, null),
                p(Src.UINT32, null, "decimal(10,0)", 0L, 4294967295L, null),
                p(Src.UINT64, null, "decimal(20,0)", BigInteger.ZERO, u64max, BigInteger.ONE.shiftLeft(63), null),
                p(Src.UINT64, null, "decimal(25,5)", BigInteger.ZERO, u64max, BigInteger.valueOf(123), null),
                p(Src.UINT64, null, "bigint", BigInteger.ZERO, BigInteger.valueOf(Long.MAX_VALUE), null),
                p(Src.UINT64, null, "int", BigInteger.ZERO, BigInteger.valueOf(Integer.MAX_VALUE), null),
                p(Src.BOOL, null, "bit", true, false, null),
                p(Src.BOOL, null, "tinyint", true, false, null),
                p(Src.BOOL, null, "int", true, false, null),
                p(Src.BOOL, null, "bigint", true, false, null),
                // ---- floating point
                p(Src.FLOAT16, null, "real", 1.5, -65504.0, 0.0, null),
                p(Src.FLOAT16, null, "float", 1.5, 65504.0, null),
                p(Src.FLOAT32, null, "real", (double) Float.MAX_VALUE, (double) -Float.MAX_VALUE,
                        (double) Float.MIN_VALUE, 0.0, -1.25, null),
                p(Src.FLOAT32, null, "float", (double) Float.MAX_VALUE, (double) -Float.MAX_VALUE,
                        (double) Float.MIN_VALUE, 0.0, null),
                p(Src.FLOAT64, null, "float", Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE, 0.0, 1.5e-300,
                        null),
                p(Src.FLOAT64, null, "real", 0.5, (double) Float.MAX_VALUE, -1.25, null),
                // ---- decimals
                p(Src.DEC128, "38,10", "decimal(38,10)", MAX38_10, MAX38_10.negate(), BigDecimal.ZERO,
                        new BigDecimal("-0.0000000001"), null),
                p(Src.DEC128, "9,2", "decimal(9,2)", new BigDecimal("9999999.99"), new BigDecimal("-9999999.99"),
                        new BigDecimal("0.01"), null),
                p(Src.DEC128, "9,2", "numeric(9,2)", new BigDecimal("9999999.99"), new BigDecimal("-0.01"), null),
                p(Src.DEC128, "18,4", "decimal(19,4)", new BigDecimal("99999999999999.9999"),
                        new BigDecimal("-99999999999999.9999"), null),
                p(Src.DEC128, "28,0", "decimal(28,0)", new BigDecimal("9999999999999999999999999999"),
                        new BigDecimal("18446744073709551616"), new BigDecimal("-18446744073709551616"), null),
                p(Src.DEC128, "10,2", "decimal(12,4)", new BigDecimal("99999999.99"), new BigDecimal("-0.01"), null),
                p(Src.DEC128, "38,0", "decimal(38,4)", new BigDecimal("1000000000000000000000000000000"),
                        new BigDecimal("-1"), null),
                p(Src.DEC128, "12,4", "decimal(10,2)", new BigDecimal("12345678.9900"),
                        new BigDecimal("-0.5000"), null),
                p(Src.DEC128, "20,0", "bigint", new BigDecimal(Long.MIN_VALUE), new BigDecimal(Long.MAX_VALUE),
                        null),
                p(Src.DEC128, "10,2", "int", new BigDecimal("5.00"), new BigDecimal("-7.00"), null),
                p(Src.DEC128, "38,20", "smallint", new BigDecimal("5.00000000000000000000"),
                        new BigDecimal("-32768"), null),
                p(Src.DEC256, "76,10", "decimal(38,10)", MAX38_10, MAX38_10.negate(), BigDecimal.ZERO, null),
                p(Src.DEC256, "40,0", "decimal(38,0)", new BigDecimal("9".repeat(38)), new BigDecimal("-1"), null),
                p(Src.DEC256, "50,20", "decimal(30,2)", new BigDecimal("1234.5"), new BigDecimal("-0.01"), null),
                p(Src.DEC256, "20,0", "bigint", new BigDecimal(Long.MIN_VALUE), new BigDecimal(Long.MAX_VALUE),
                        null),
                // ---- strings
                p(Src.UTF8, null, "nvarchar(10)", "", "0123456789", MIXED, null),
                p(Src.UTF8, null, "nvarchar(4000)", s4000, "", NON_BMP, null),
                p(Src.UTF8, null, "nvarchar(max)", s9000, "", "a", null),
                // all ASCII: varchar in the column's collation (kind 5), up to the declared length and, for (max),
                // as varchar(max) up to 8000 bytes
                p(Src.UTF8, null, "nvarchar(10)", "", "0123456789", "ascii ~!\u007f", null),
                p(Src.UTF8, null, "nvarchar(4000)", "y".repeat(4000), "", " padded  ", null),
                p(Src.UTF8, null, "nvarchar(max)", "abc", "", "x".repeat(Utf8Text.ASCII_PLP_BOUNDED), null),
                px(Src.UTF8, null, "nchar(8)", list("abc", "", MIXED, null),
                        list("abc     ", "        ", MIXED + " ", null)),
                p(Src.UTF8, null, "ntext", "abc", "", s9000, null),
                // (max) with every value within the bounded PLP encoder's limit (Utf8Text.PLP_BOUNDED_UTF8, here at
                // it: 4,000 UTF-8 bytes)
                p(Src.UTF8, null, "nvarchar(max)", "abc", "", MIXED, NON_BMP, "x".repeat(3990) + MIXED, null),
                p(Src.UTF8, null, "ntext", "abc", "", MIXED, null),
                p(Src.UTF8, null, "varchar(10)", "", "0123456789", "~!@#", null),
                p(Src.UTF8, null, "varchar(8000)", "z".repeat(8000), "", null),
                p(Src.UTF8, null, "varchar(max)", "q".repeat(10_000), "", null),
                px(Src.UTF8, null, "char(4)", list("ab", "", "abcd", null), list("ab  ", "    ", "abcd", null)),
                p(Src.UTF8, null, "text", "abc", "", "t".repeat(9000), null),
                p(Src.LARGE_UTF8, null, "nvarchar(max)", s9000, "", MIXED, null),
                p(Src.LARGE_UTF8, null, "varchar(20)", "large", "", null),
                p(Src.UTF8_VIEW, null, "nvarchar(50)", "short", "a longer view string, not inline", MIXED, "",
                        null),
                px(Src.UTF8, null, "uniqueidentifier",
                        list("6F9619FF-8B86-D011-B42D-00C04FC964FF", "00000000-0000-0000-0000-000000000001",
                                "6f9619ff-8b86-d011-b42d-00c04fc964ff", null),
                        list("6F9619FF-8B86-D011-B42D-00C04FC964FF", "00000000-0000-0000-0000-000000000001",
                                "6F9619FF-8B86-D011-B42D-00C04FC964FF", null)),
                px(Src.UUID, null, "uniqueidentifier", list(uuid, uuid2, null),
                        list("6F9619FF-8B86-D011-B42D-00C04FC964FF", "00000000-0000-0000-0000-000000000001", null)),
                px(Src.UUID, null, "nvarchar(36)", list(uuid, null), list(uuid.toString(), null)),
                px(Src.UUID, null, "varchar(40)", list(uuid2, null), list(uuid2.toString(), null)),
                px(Src.JSON_LIST, null, "nvarchar(max)", list(List.of(1, 2, 3), List.of(), null),
                        list("[1,2,3]", "[]", null)),
                px(Src.JSON_LIST, null, "varchar(100)", list(List.of(-1), null), list("[-1]", null)),
                // ---- binary
                p(Src.BINARY, null, "varbinary(10)", new byte[0], bytes(10, 1), null),
                p(Src.BINARY, null, "varbinary(8000)", bytes(8000, 2), new byte[0], null),
                p(Src.BINARY, null, "varbinary(max)", bytes(20_000, 3), new byte[0], null),
                px(Src.BINARY, null, "binary(4)", list(bytes(4, 4), new byte[] {1, 2}, null),
                        list(bytes(4, 4), new byte[] {1, 2, 0, 0}, null)),
                p(Src.BINARY, null, "image", bytes(9000, 5), new byte[0], null),
                p(Src.LARGE_BINARY, null, "varbinary(max)", bytes(10_000, 6), new byte[0], null),
                p(Src.BINARY_VIEW, null, "varbinary(40)", bytes(3, 7), bytes(40, 8), null),
                p(Src.FIXED_BINARY, 4, "binary(4)", bytes(4, 9), null),
                p(Src.FIXED_BINARY, 4, "varbinary(8)", bytes(4, 10), null),
                // ---- dates
                p(Src.DATE32, null, "date", LocalDate.of(1, 1, 1), LocalDate.of(9999, 12, 31),
                        LocalDate.of(1970, 1, 1), LocalDate.of(1969, 12, 31), null),
                px(Src.DATE32, null, "datetime2(7)", list(LocalDate.of(1, 1, 1), LocalDate.of(9999, 12, 31), null),
                        list(DT2_MIN, LocalDateTime.of(9999, 12, 31, 0, 0), null)),
                px(Src.DATE32, null, "datetime", list(LocalDate.of(1753, 1, 1), LocalDate.of(9999, 12, 31), null),
                        list(LocalDateTime.of(1753, 1, 1, 0, 0), LocalDateTime.of(9999, 12, 31, 0, 0), null)),
                px(Src.DATE32, null, "smalldatetime", list(LocalDate.of(1900, 1, 1), LocalDate.of(2079, 6, 6), null),
                        list(LocalDateTime.of(1900, 1, 1, 0, 0), LocalDateTime.of(2079, 6, 6, 0, 0), null)),
                p(Src.DATE64, null, "date", LocalDate.of(1, 1, 1), LocalDate.of(9999, 12, 31),
                        LocalDate.of(1969, 12, 31), null),
                px(Src.DATE64, null, "datetime2(0)", list(LocalDate.of(2024, 2, 29), null),
                        list(LocalDateTime.of(2024, 2, 29, 0, 0), null)),
                // ---- times
                p(Src.TIME_S, null, "time(0)", LocalTime.MIDNIGHT, LocalTime.of(23, 59, 59), null),
                p(Src.TIME_MS, null, "time(3)", LocalTime.MIDNIGHT, LocalTime.of(23, 59, 59, 999_000_000), null),
                p(Src.TIME_US, null, "time(6)", LocalTime.of(23, 59, 59, 999_999_000), LocalTime.of(0, 0, 0, 1000),
                        null),
                p(Src.TIME_NS, null, "time(7)", LocalTime.of(23, 59, 59, 999_999_900), LocalTime.MIDNIGHT,
                        LocalTime.of(12, 34, 56, 123_456_700), null),
                p(Src.TIME_US, null, "time(7)", LocalTime.of(23, 59, 59, 999_999_000), null),
                // ---- timestamps without zone
                p(Src.TS_S, null, "datetime2(0)", DT2_MIN, LocalDateTime.of(9999, 12, 31, 23, 59, 59), null),
                p(Src.TS_MS, null, "datetime2(3)", DT2_MIN, LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_000_000),
                        null),
                p(Src.TS_US, null, "datetime2(6)", DT2_MIN,
                        LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000),
                        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 123_456_000), null),
                // Timestamp(ns) spans 1677-09-21 .. 2262-04-11 only
                p(Src.TS_NS, null, "datetime2(7)", LocalDateTime.of(1677, 9, 22, 0, 0),
                        LocalDateTime.of(2262, 4, 10, 23, 59, 59, 999_999_900),
                        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_900), null),
                p(Src.TS_S, null, "datetime2(7)", LocalDateTime.of(2024, 1, 2, 3, 4, 5), null),
                p(Src.TS_MS, null, "datetime", LocalDateTime.of(1753, 1, 1, 0, 0),
                        LocalDateTime.of(9999, 12, 31, 23, 59, 59, 997_000_000),
                        LocalDateTime.of(2024, 1, 1, 0, 0, 0, 3_000_000),
                        LocalDateTime.of(2024, 1, 1, 0, 0, 0, 7_000_000),
                        LocalDateTime.of(1969, 12, 31, 23, 59, 59, 990_000_000), null),
                p(Src.TS_NS, null, "datetime", LocalDateTime.of(2262, 4, 10, 23, 59, 59, 997_000_000), null),
                p(Src.TS_US, null, "smalldatetime", LocalDateTime.of(1900, 1, 1, 0, 0),
                        LocalDateTime.of(2079, 6, 6, 23, 59), LocalDateTime.of(2024, 2, 29, 12, 34), null),
                px(Src.TS_US, null, "datetimeoffset(6)",
                        list(DT2_MIN, LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000), null),
                        list(DT2_MIN.atOffset(ZoneOffset.UTC),
                                LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000).atOffset(ZoneOffset.UTC),
                                null)),
                // ---- timestamps with zone (values are instants)
                px(Src.TS_NS, "UTC", "datetimeoffset(7)",
                        list(Instant.parse("1677-09-22T00:00:00Z"), Instant.parse("2262-04-10T23:59:59.9999999Z"),
                                null),
                        list(OffsetDateTime.parse("1677-09-22T00:00:00Z"),
                                OffsetDateTime.parse("2262-04-10T23:59:59.9999999Z"), null)),
                px(Src.TS_US, "UTC", "datetimeoffset(7)",
                        list(DT2_MIN.toInstant(ZoneOffset.UTC), Instant.parse("9999-12-31T23:59:59.999999Z"), null),
                        list(DT2_MIN.atOffset(ZoneOffset.UTC),
                                OffsetDateTime.parse("9999-12-31T23:59:59.999999Z"), null)),
                px(Src.TS_US, "+14:00", "datetimeoffset(6)",
                        list(Instant.parse("0001-01-01T00:00:00Z"), Instant.parse("9999-12-31T09:59:59.999999Z"),
                                null),
                        list(OffsetDateTime.parse("0001-01-01T14:00:00+14:00"),
                                OffsetDateTime.parse("9999-12-31T23:59:59.999999+14:00"), null)),
                px(Src.TS_US, "-14:00", "datetimeoffset(6)",
                        list(Instant.parse("0001-01-01T14:00:00Z"), Instant.parse("9999-12-31T23:59:59.999999Z"),
                                null),
                        list(OffsetDateTime.parse("0001-01-01T00:00:00-14:00"),
                                OffsetDateTime.parse("9999-12-31T09:59:59.999999-14:00"), null)),
                px(Src.TS_MS, "Europe/Berlin", "datetimeoffset(3)",
                        list(Instant.parse("2024-07-01T12:00:00Z"), Instant.parse("2024-01-01T12:00:00.123Z"),
                                dstStart, dstStart.minusMillis(1), null),
                        list(OffsetDateTime.parse("2024-07-01T14:00:00+02:00"),
                                OffsetDateTime.parse("2024-01-01T13:00:00.123+01:00"),
                                OffsetDateTime.parse("2024-03-31T03:00:00+02:00"),
                                OffsetDateTime.parse("2024-03-31T01:59:59.999+01:00"), null)),
                px(Src.TS_S, "Europe/Berlin", "datetimeoffset(0)",
                        list(Instant.parse("1950-06-01T00:00:00Z"), Instant.parse("2100-12-01T00:00:00Z"), null),
                        list(Instant.parse("1950-06-01T00:00:00Z").atZone(berlin).toOffsetDateTime(),
                                Instant.parse("2100-12-01T00:00:00Z").atZone(berlin).toOffsetDateTime(), null)),
                px(Src.TS_US, "America/New_York", "datetime2(6)",
                        list(Instant.parse("2024-07-01T12:00:00.000001Z"), Instant.parse("0001-01-01T00:00:00Z"),
                                null),
                        list(LocalDateTime.of(2024, 7, 1, 12, 0, 0, 1000), DT2_MIN, null)),
                px(Src.TS_MS, "UTC", "datetime",
                        list(Instant.parse("2024-07-01T12:00:00.997Z"), null),
                        list(LocalDateTime.of(2024, 7, 1, 12, 0, 0, 997_000_000), null)));
    }

    // ------------------------------------------------------------------------------------------------ building

    private static Field field(Pair p) {
        String[] dp = p.param() instanceof String s && s.contains(",") ? s.split(",") : null;
        String zone = p.param() instanceof String s && !s.contains(",") ? s : null;
        ArrowType type = switch (p.src()) {
            case INT8 -> new ArrowType.Int(8, true);
            case INT16 -> new ArrowType.Int(16, true);
            case INT32 -> new ArrowType.Int(32, true);
            case INT64 -> new ArrowType.Int(64, true);
            case UINT8 -> new ArrowType.Int(8, false);
            case UINT16 -> new ArrowType.Int(16, false);
            case UINT32 -> new ArrowType.Int(32, false);
            case UINT64 -> new ArrowType.Int(64, false);
            case BOOL -> ArrowType.Bool.INSTANCE;
            case FLOAT16 -> new ArrowType.FloatingPoint(FloatingPointPrecision.HALF);
            case FLOAT32 -> new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case FLOAT64 -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case DEC128 -> new ArrowType.Decimal(Integer.parseInt(dp[0]), Integer.parseInt(dp[1]), 128);
            case DEC256 -> new ArrowType.Decimal(Integer.parseInt(dp[0]), Integer.parseInt(dp[1]), 256);
            case UTF8 -> ArrowType.Utf8.INSTANCE;
            case LARGE_UTF8 -> ArrowType.LargeUtf8.INSTANCE;
            case UTF8_VIEW -> ArrowType.Utf8View.INSTANCE;
            case UUID -> new ArrowType.FixedSizeBinary(16);
            case JSON_LIST -> ArrowType.List.INSTANCE;
            case BINARY -> ArrowType.Binary.INSTANCE;
            case LARGE_BINARY -> ArrowType.LargeBinary.INSTANCE;
            case BINARY_VIEW -> ArrowType.BinaryView.INSTANCE;
            case FIXED_BINARY -> new ArrowType.FixedSizeBinary((Integer) p.param());
            case DATE32 -> new ArrowType.Date(DateUnit.DAY);
            case DATE64 -> new ArrowType.Date(DateUnit.MILLISECOND);
            case TIME_S -> new ArrowType.Time(TimeUnit.SECOND, 32);
            case TIME_MS -> new ArrowType.Time(TimeUnit.MILLISECOND, 32);
            case TIME_US -> new ArrowType.Time(TimeUnit.MICROSECOND, 64);
            case TIME_NS -> new ArrowType.Time(TimeUnit.NANOSECOND, 64);
            case TS_S -> new ArrowType.Timestamp(TimeUnit.SECOND, zone);
            case TS_MS -> new ArrowType.Timestamp(TimeUnit.MILLISECOND, zone);
            case TS_US -> new ArrowType.Timestamp(TimeUnit.MICROSECOND, zone);
            case TS_NS -> new ArrowType.Timestamp(TimeUnit.NANOSECOND, zone);
        };
        Map<String, String> metadata = p.src() == Src.UUID ? Map.of("ARROW:extension:name", "arrow.uuid") : null;
        List<Field> children = p.src() == Src.JSON_LIST
                ? List.of(Field.nullable("item", new ArrowType.Int(32, true))) : null;
        return new Field("v", new FieldType(true, type, null, metadata), children);
    }

    private static long unitsPerSecond(TimeUnit unit) {
        return switch (unit) {
            case SECOND -> 1L;
            case MILLISECOND -> 1_000L;
            case MICROSECOND -> 1_000_000L;
            case NANOSECOND -> 1_000_000_000L;
        };
    }

    private static long raw(long epochSecond, int nanos, TimeUnit unit) {
        long ups = unitsPerSecond(unit);
        return epochSecond * ups + nanos / (1_000_000_000L / ups);
    }

    /** A vector of {@code f} holding {@code values}. */
    private FieldVector vector(Field f, List<?> values) {
        FieldVector v = f.createVector(allocator);
        closeables.add(v);
        v.allocateNew();
        for (int i = 0; i < values.size(); i++) {
            Object x = values.get(i);
            if (x == null) {
                v.setNull(i);
                continue;
            }
            set(v, i, x);
        }
        v.setValueCount(values.size());
        return v;
    }

    @SuppressWarnings("unchecked")
    private static void set(FieldVector v, int i, Object x) {
        if (v instanceof TinyIntVector t) {
            t.setSafe(i, (byte) (long) (Long) x);
        } else if (v instanceof SmallIntVector t) {
            t.setSafe(i, (short) (long) (Long) x);
        } else if (v instanceof IntVector t) {
            t.setSafe(i, (int) (long) (Long) x);
        } else if (v instanceof BigIntVector t) {
            t.setSafe(i, (Long) x);
        } else if (v instanceof UInt1Vector t) {
            t.setSafe(i, (int) (long) (Long) x);
        } else if (v instanceof UInt2Vector t) {
            t.setSafe(i, (int) (long) (Long) x);
        } else if (v instanceof UInt4Vector t) {
            t.setSafe(i, (int) (long) (Long) x);
        } else if (v instanceof UInt8Vector t) {
            t.setSafe(i, ((BigInteger) x).longValue());
        } else if (v instanceof BitVector t) {
            t.setSafe(i, (Boolean) x ? 1 : 0);
        } else if (v instanceof Float2Vector t) {
            t.setSafeWithPossibleTruncate(i, (float) (double) (Double) x);
        } else if (v instanceof Float4Vector t) {
            t.setSafe(i, (float) (double) (Double) x);
        } else if (v instanceof Float8Vector t) {
            t.setSafe(i, (Double) x);
        } else if (v instanceof DecimalVector t) {
            t.setSafe(i, ((BigDecimal) x).setScale(t.getScale()));
        } else if (v instanceof Decimal256Vector t) {
            t.setSafe(i, ((BigDecimal) x).setScale(t.getScale()));
        } else if (v instanceof VarCharVector t) {
            t.setSafe(i, ((String) x).getBytes(StandardCharsets.UTF_8));
        } else if (v instanceof LargeVarCharVector t) {
            t.setSafe(i, ((String) x).getBytes(StandardCharsets.UTF_8));
        } else if (v instanceof ViewVarCharVector t) {
            t.setSafe(i, ((String) x).getBytes(StandardCharsets.UTF_8));
        } else if (v instanceof VarBinaryVector t) {
            t.setSafe(i, (byte[]) x);
        } else if (v instanceof LargeVarBinaryVector t) {
            t.setSafe(i, (byte[]) x);
        } else if (v instanceof ViewVarBinaryVector t) {
            t.setSafe(i, (byte[]) x);
        } else if (v instanceof FixedSizeBinaryVector t) {
            if (x instanceof java.util.UUID u) {
                java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(16);
                b.putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
                t.setSafe(i, b.array());
            } else {
                t.setSafe(i, (byte[]) x);
            }
        } else if (v instanceof DateDayVector t) {
            t.setSafe(i, (int) ((LocalDate) x).toEpochDay());
        } else if (v instanceof DateMilliVector t) {
            t.setSafe(i, ((LocalDate) x).toEpochDay() * 86_400_000L);
        } else if (v instanceof TimeSecVector t) {
            t.setSafe(i, ((LocalTime) x).toSecondOfDay());
        } else if (v instanceof TimeMilliVector t) {
            t.setSafe(i, (int) (((LocalTime) x).toNanoOfDay() / 1_000_000L));
        } else if (v instanceof TimeMicroVector t) {
            t.setSafe(i, ((LocalTime) x).toNanoOfDay() / 1_000L);
        } else if (v instanceof TimeNanoVector t) {
            t.setSafe(i, ((LocalTime) x).toNanoOfDay());
        } else if (v instanceof TimeStampVector t) {
            TimeUnit unit = ((ArrowType.Timestamp) t.getField().getType()).getUnit();
            Instant at = x instanceof Instant in ? in : ((LocalDateTime) x).toInstant(ZoneOffset.UTC);
            t.setSafe(i, raw(at.getEpochSecond(), at.getNano(), unit));
        } else if (v instanceof ListVector t) {
            UnionListWriter w = t.getWriter();
            w.setPosition(i);
            w.startList();
            for (Integer item : (List<Integer>) x) {
                w.writeInt(item);
            }
            w.endList();
        } else {
            throw new IllegalArgumentException("no setter for " + v.getClass().getSimpleName());
        }
    }

    private VectorSchemaRoot batch(Pair p, List<?> values) {
        IntVector id = new IntVector("id", allocator);
        closeables.add(id);
        id.allocateNew(values.size());
        for (int i = 0; i < values.size(); i++) {
            id.setSafe(i, i);
        }
        id.setValueCount(values.size());
        FieldVector v = vector(field(p), values);
        VectorSchemaRoot root = new VectorSchemaRoot(List.of(id, v));
        root.setRowCount(values.size());
        return root;
    }

    // ------------------------------------------------------------------------------------------------ the two paths

    private static Connection jdbc() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", SERVER.emulator().user());
        p.setProperty("password", SERVER.emulator().password());
        return DriverManager.getConnection(SERVER.emulator().jdbcUrl() + ";sendTemporalDataTypesAsStringForBulkCopy=false", p);
    }

    private static DirectOptions options() {
        return DirectTdsConnection.options().host("localhost").port(SERVER.emulator().port()).database("master")
                .user(SERVER.emulator().user()).password(SERVER.emulator().password()).trustServerCertificate(true);
    }

    /** The target columns as the catalog describes them (INFORMATION_SCHEMA.COLUMNS, collation included). */
    private static List<TargetColumn> describe(Connection c, String table) throws SQLException {
        List<TargetColumn> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE, CHARACTER_MAXIMUM_LENGTH,"
                + " NUMERIC_PRECISION, NUMERIC_SCALE, DATETIME_PRECISION, IS_NULLABLE, ORDINAL_POSITION,"
                + " COLLATION_NAME FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = 'dbo' AND TABLE_NAME = ?"
                + " ORDER BY ORDINAL_POSITION")) {
            ps.setString(1, table);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new TargetColumn(rs.getString(1), rs.getString(2), intOrNull(rs, 3), intOrNull(rs, 4),
                            intOrNull(rs, 5), intOrNull(rs, 6), "YES".equals(rs.getString(7)), rs.getInt(8),
                            rs.getString(9)));
                }
            }
        }
        return out;
    }

    private static Integer intOrNull(ResultSet rs, int i) throws SQLException {
        int v = rs.getInt(i);
        return rs.wasNull() ? null : v;
    }

    private static List<BoundColumn> bind(VectorSchemaRoot root, List<TargetColumn> targets) {
        List<BoundColumn> out = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            Field f = root.getSchema().getFields().get(i);
            ArrowColumnType type = ArrowColumnTypes.forField(f);
            out.add(new BoundColumn(i, f.getName(), type, targets.get(i),
                    TargetBinding.of(type.kind(), targets.get(i), false)));
        }
        return out;
    }

    /** The driver path exactly as the producer runs it: bind, validate, SQLServerBulkCopy (native temporals). */
    private static void viaDriver(Connection c, String table, VectorSchemaRoot root, List<TargetColumn> targets)
            throws SQLException {
        List<BoundColumn> columns = bind(root, targets);
        BatchCheck.requireAllFit(root, columns, 0, "", BulkLoadException.Context.of("dbo." + table, null,
                HandoffStats.ZERO));
        ArrowBulkData data = new ArrowBulkData(new BulkBatch(root, columns, 0));
        try (SQLServerBulkCopy copy = new SQLServerBulkCopy(c)) {
            copy.setDestinationTableName("[dbo].[" + table + "]");
            for (int i = 0; i < targets.size(); i++) {
                copy.addColumnMapping(i + 1, targets.get(i).name());
            }
            copy.writeToServer(data);
        }
    }

    private static long viaDirect(String table, VectorSchemaRoot root, List<TargetColumn> targets) throws Exception {
        try (DirectTdsConnection direct = DirectTdsConnection.open(options())) {
            return new DirectBulkWriter(direct).write(new TableName("dbo", table), root, targets);
        }
    }

    private static String newTable(Connection c, String sqlType) throws SQLException {
        String name = "t" + (++tableCounter);
        try (Statement st = c.createStatement()) {
            st.execute("CREATE TABLE dbo." + name + " (id int NOT NULL, v " + sqlType + " NULL)");
        }
        return name;
    }

    // ------------------------------------------------------------------------------------------------ the tests

    /** The byte-level differences found per pair, by kind (printed at the end for the documentation). */
    private static final Map<String, TreeSet<String>> DIFFERENCES = new TreeMap<>();

    @AfterAll
    static void printDifferences() {
        DIFFERENCES.forEach((k, v) -> System.out.println("[byte-diff] " + k + " <- " + v));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pairs")
    void directRowsEqualDriverRowsAndExpectedValues(Pair p) throws Exception {
        try (Connection c = jdbc()) {
            String a = newTable(c, p.sqlType());
            String b = newTable(c, p.sqlType());
            VectorSchemaRoot root = batch(p, p.values());
            closeables.add(root);
            viaDriver(c, a, root, describe(c, a));
            assertEquals(p.values().size(), viaDirect(b, root, describe(c, b)));

            List<Object> driverRows = readBack(c, a, p.sqlType());
            List<Object> directRows = readBack(c, b, p.sqlType());
            assertEquals(p.values().size(), directRows.size());
            for (int r = 0; r < directRows.size(); r++) {
                Object expected = normalize(p.expectedValues().get(r), p.sqlType());
                assertValueEquals(expected, directRows.get(r), p + " row " + r + " (direct)");
                assertValueEquals(expected, driverRows.get(r), p + " row " + r + " (driver)");
            }
            compareStreams(p, a, b);
        }
    }

    private static void assertValueEquals(Object expected, Object actual, String what) {
        if (expected instanceof byte[] e) {
            assertArrayEquals(e, (byte[]) actual, what);
        } else if (expected instanceof BigDecimal e && actual instanceof BigDecimal act) {
            assertEquals(0, e.compareTo(act), what + ": expected " + e + " but was " + act);
        } else {
            assertEquals(expected, actual, what);
        }
    }

    private static String base(String sqlType) {
        int paren = sqlType.indexOf('(');
        return paren < 0 ? sqlType : sqlType.substring(0, paren);
    }

    /** The source/expected value in the form read back by {@link #readBack}. */
    private static Object normalize(Object v, String sqlType) {
        if (v == null) {
            return null;
        }
        return switch (base(sqlType)) {
            case "tinyint", "smallint", "int", "bigint" -> v instanceof Boolean bo ? (bo ? 1L : 0L)
                    : v instanceof BigDecimal d ? d.longValueExact() : v instanceof BigInteger bi ? bi.longValueExact()
                    : ((Number) v).longValue();
            case "bit" -> v instanceof Boolean bo ? bo : ((Number) v).longValue() != 0;
            case "real", "float" -> ((Number) v).doubleValue();
            case "decimal", "numeric" -> v instanceof BigDecimal d ? d : v instanceof BigInteger bi
                    ? new BigDecimal(bi) : BigDecimal.valueOf(((Number) v).longValue());
            default -> v;
        };
    }

    /** Reads column v of every row (ordered by id) as a comparable Java value. */
    private static List<Object> readBack(Connection c, String table, String sqlType) throws SQLException {
        List<Object> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT v FROM dbo." + table + " ORDER BY id")) {
            while (rs.next()) {
                Object v = switch (base(sqlType)) {
                    case "tinyint", "smallint", "int", "bigint" -> rs.getLong(1);
                    case "bit" -> rs.getBoolean(1);
                    case "real", "float" -> rs.getDouble(1);
                    case "decimal", "numeric" -> rs.getBigDecimal(1);
                    case "varbinary", "binary", "image" -> rs.getBytes(1);
                    case "date" -> rs.getObject(1, LocalDate.class);
                    case "time" -> rs.getObject(1, LocalTime.class);
                    case "datetime2", "datetime", "smalldatetime" -> rs.getObject(1, LocalDateTime.class);
                    case "datetimeoffset" -> rs.getObject(1, OffsetDateTime.class);
                    default -> rs.getString(1);
                };
                out.add(rs.wasNull() ? null : v);
            }
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------------ byte streams

    private static BulkStreams.Stream captured(String table) {
        List<MssqlEmulator.CapturedBulkLoad> loads = SERVER.emulator().capturedBulkLoads().stream()
                .filter(l -> table.equalsIgnoreCase(l.table())).toList();
        assertEquals(1, loads.size(), "one BULK_LOAD captured for " + table);
        return BulkStreams.parse(loads.get(0).payload());
    }

    /**
     * TYPE_INFO changes allowed between the driver (left) and the direct writer (right), kind 3 and 4 of the class
     * Javadoc: the driver declares character sources as NVARCHAR and binary ones as BIGVARBINARY whatever the target,
     * the direct writer follows the target; uniqueidentifier goes as CHAR(36) text from the driver.
     */
    private static final java.util.Set<String> ALLOWED_TYPE_CHANGES = java.util.Set.of(
            "0xE7->0xA7", // nvarchar -> varchar/text (code-page bytes)
            "0xE7->0xAF", // nvarchar -> char
            "0xE7->0xEF", // nvarchar -> nchar
            "0xA5->0xAD", // varbinary -> binary
            "0xAF->0x24"); // char(36) text -> GUID

    /**
     * Compares the captured streams of both paths and checks that every difference is one of the documented kinds
     * (see the class Javadoc); records them for {@link #printDifferences()}.
     */
    private static void compareStreams(Pair p, String driverTable, String directTable) {
        BulkStreams.Stream driver = captured(driverTable);
        BulkStreams.Stream direct = captured(directTable);
        assertEquals(2, driver.columns().size());
        assertEquals(2, direct.columns().size());
        List<String> kinds = new ArrayList<>();
        for (int c = 0; c < 2; c++) {
            assertEquals(driver.columns().get(c).flags(), direct.columns().get(c).flags(), p + ": flags of " + c);
        }
        assertEquals(driver.rows().size(), direct.rows().size());
        for (int r = 0; r < driver.rows().size(); r++) {
            assertArrayEquals(driver.rows().get(r).get(0), direct.rows().get(r).get(0), p + ": id of row " + r);
        }
        TypeInfo dt = driver.columns().get(1).type();
        TypeInfo xt = direct.columns().get(1).type();
        if (dt.collation() != null && xt.collation() != null) {
            assertEquals(dt.collation(), xt.collation(), p + ": collation");
        }
        boolean valuesComparable = true;
        if (dt.typeId() == TypeId.DECIMALN && xt.typeId() == TypeId.DECIMALN) {
            assertEquals(dt.precision(), xt.precision(), p + ": precision");
            assertEquals(dt.scale(), xt.scale(), p + ": scale");
            assertEquals(17, dt.maxLength(), p + ": the driver's DECIMALN length");
            assertEquals(NumericEncoders.decimalLength(xt.precision()), xt.maxLength(), p + ": compact length");
            if (dt.maxLength() != xt.maxLength()) {
                kinds.add("1 decimal length 17 vs " + xt.maxLength());
                for (int r = 0; r < driver.rows().size(); r++) {
                    byte[] d = driver.rows().get(r).get(1);
                    byte[] x = direct.rows().get(r).get(1);
                    if (d.length == 1) {
                        assertArrayEquals(d, x, p + ": NULL decimal of row " + r);
                    } else { // same sign and magnitude, the driver's extra magnitude bytes are zero
                        assertEquals(x.length, xt.maxLength() + 1);
                        assertArrayEquals(Arrays.copyOfRange(d, 1, x.length), Arrays.copyOfRange(x, 1, x.length),
                                p + ": decimal of row " + r);
                        assertTrue(Arrays.equals(new byte[d.length - x.length],
                                Arrays.copyOfRange(d, x.length, d.length)), p + ": decimal high bytes");
                    }
                }
                valuesComparable = false;
            }
        } else if (dt.typeId() != xt.typeId() || dt.maxLength() != xt.maxLength() || dt.precision() != xt.precision()
                || dt.scale() != xt.scale()) {
            String change = String.format("0x%02X->0x%02X", dt.typeId(), xt.typeId());
            assertTrue(ALLOWED_TYPE_CHANGES.contains(change), p + ": undocumented TYPE_INFO change " + name(dt)
                    + " vs " + name(xt));
            boolean asciiAsVarchar = p.sqlType().startsWith("nvarchar") && xt.typeId() == TypeId.BIGVARCHAR;
            if (asciiAsVarchar) {
                // kind 5: the values are ASCII (so the bytes are the text in every code page) and half the length
                assertEquals(dt.isPlp() ? 0xFFFF : dt.maxLength() / 2, xt.maxLength(), p + ": varchar length");
                for (int r = 0; r < driver.rows().size(); r++) {
                    byte[] d = driver.rows().get(r).get(1);
                    byte[] x = direct.rows().get(r).get(1);
                    assertArrayEquals(asciiOfUtf16(d, dt.isPlp()), x, p + ": ASCII bytes of row " + r);
                }
            }
            kinds.add((xt.typeId() == TypeId.GUID ? "4 uniqueidentifier: "
                    : asciiAsVarchar ? "5 ASCII nvarchar as varchar: " : "3 wire type follows target: ")
                    + name(dt) + " vs " + name(xt));
            valuesComparable = false;
        }
        if (valuesComparable) {
            // same TYPE_INFO: value bytes must be identical, except the PLP total length (kind 2)
            for (int r = 0; r < driver.rows().size(); r++) {
                byte[] d = driver.rows().get(r).get(1);
                byte[] x = direct.rows().get(r).get(1);
                if (!Arrays.equals(d, x)) {
                    assertTrue(dt.isPlp() && d.length == x.length && toLong(d) == -2L
                            && toLong(x) == x.length - 8 - (x.length > 12 ? 8 : 4)
                            && Arrays.equals(Arrays.copyOfRange(d, 8, d.length), Arrays.copyOfRange(x, 8, x.length)),
                            p + " row " + r + ": value bytes differ beyond the PLP length: " + hex(d) + " vs "
                                    + hex(x));
                    kinds.add("2 PLP unknown length vs known length");
                }
            }
        }
        for (String k : kinds) {
            DIFFERENCES.computeIfAbsent(k, x -> new TreeSet<>()).add(p.toString());
        }
    }

    /**
     * The driver's value (USHORT length and UTF-16LE, or PLP of unknown length with one chunk; NULL 0xFFFF or PLP NULL)
     * as the direct writer's varchar value of the same ASCII text: one byte per character, with a USHORT length, or as
     * PLP with its known length (one chunk and the terminator, an empty value without a chunk).
     */
    private static byte[] asciiOfUtf16(byte[] value, boolean plp) {
        if (plp ? toLong(value) == -1L : (value[0] & 0xFF) == 0xFF && (value[1] & 0xFF) == 0xFF) {
            return value.clone();
        }
        int header = plp ? 12 : 2;
        int bytes = plp ? Math.max(0, value.length - 16) : (value[0] & 0xFF) | (value[1] & 0xFF) << 8;
        if (plp && bytes > 0) {
            assertEquals(bytes, (value[8] & 0xFF) | (value[9] & 0xFF) << 8 | (value[10] & 0xFF) << 16, "one chunk");
        }
        int chars = bytes / 2;
        java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(16 + chars).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        if (plp) {
            out.putLong(chars);
            if (chars > 0) {
                out.putInt(chars);
            }
        } else {
            out.putShort((short) chars);
        }
        for (int i = 0; i < chars; i++) {
            assertEquals(0, value[header + 2 * i + 1], "an ASCII character's high byte");
            out.put(value[header + 2 * i]);
        }
        if (plp) {
            out.putInt(0);
        }
        return Arrays.copyOf(out.array(), out.position());
    }

    private static boolean isDecimal(int typeId) {
        return typeId == TypeId.DECIMALN || typeId == TypeId.NUMERICN;
    }

    private static String name(TypeInfo t) {
        return String.format("0x%02X/%d/%d/%d", t.typeId(), t.maxLength(), t.precision(), t.scale());
    }

    private static long toLong(byte[] le) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (le[i] & 0xFF);
        }
        return v;
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(b.length, 24); i++) {
            sb.append(String.format("%02X", b[i]));
        }
        return sb + (b.length > 24 ? "..." : "");
    }

    // ------------------------------------------------------------------------------------------------ rejections

    /** A batch whose row {@code badRow} does not fit the target; the rows before it do. */
    record Bad(Pair pair, int badRow, String check) {
        @Override
        public String toString() {
            return pair + " row " + badRow + " " + check;
        }
    }

    /** {@code check}: the name of the client-side check that refuses row {@code badRow} ({@link Rejection}). */
    private static Bad bad(int badRow, String check, Src src, Object param, String sqlType, Object... values) {
        return new Bad(new Pair(src, param, sqlType, Arrays.asList(values), null), badRow, check);
    }

    static Stream<Bad> rejections() {
        return Stream.of(
                bad(1, Rejection.OUT_OF_RANGE, Src.INT8, null, "tinyint", 0L, -1L),
                bad(2, Rejection.OUT_OF_RANGE, Src.INT16, null, "tinyint", 0L, 255L, 256L),
                bad(1, Rejection.OUT_OF_RANGE, Src.INT32, null, "smallint", 1L, 32768L),
                bad(0, Rejection.OUT_OF_RANGE, Src.INT64, null, "int", 1L + Integer.MAX_VALUE),
                bad(1, Rejection.PRECISION, Src.INT64, null, "decimal(19,2)", 1L, Long.MAX_VALUE),
                bad(1, Rejection.INEXACT, Src.INT64, null, "real", 1L, (1L << 24) + 1),
                bad(1, Rejection.INEXACT, Src.INT64, null, "float", 1L, (1L << 53) + 1),
                bad(1, Rejection.NOT_BIT, Src.INT32, null, "bit", 1L, 2L),
                bad(1, Rejection.OUT_OF_RANGE, Src.UINT64, null, "bigint",
                        BigInteger.ONE, BigInteger.ONE.shiftLeft(63)),
                bad(1, Rejection.INEXACT, Src.FLOAT64, null, "real", 0.5, 0.1),
                bad(0, Rejection.NAN, Src.FLOAT64, null, "float", Double.NaN),
                bad(1, Rejection.NAN, Src.FLOAT32, null, "real", 1.0, (double) Float.POSITIVE_INFINITY),
                bad(1, Rejection.SCALE, Src.DEC128, "38,10", "decimal(38,2)", BigDecimal.ONE, new BigDecimal("0.001")),
                bad(1, Rejection.PRECISION, Src.DEC128, "38,0", "decimal(5,0)",
                        BigDecimal.ONE, new BigDecimal("100000")),
                bad(0, Rejection.FRACTIONAL_PART, Src.DEC128, "10,2", "int", new BigDecimal("1.50")),
                bad(1, Rejection.PRECISION, Src.DEC256, "76,0", "decimal(38,0)",
                        BigDecimal.ONE, new BigDecimal("1" + "0".repeat(38))),
                bad(1, Rejection.TOO_LONG, Src.UTF8, null, "nvarchar(5)", "fits", "too long"),
                bad(1, Rejection.TOO_LONG, Src.UTF8, null, "nvarchar(3)", "abc", "ab" + NON_BMP.substring(0, 2)),
                bad(1, Rejection.NON_ASCII, Src.UTF8, null, "varchar(10)", "ascii", "caf\u00E9"),
                bad(0, Rejection.TOO_LONG, Src.UTF8, null, "char(2)", "abc"),
                bad(1, Rejection.BAD_UUID, Src.UTF8, null, "uniqueidentifier",
                        "6F9619FF-8B86-D011-B42D-00C04FC964FF", "not-a-uuid"),
                bad(0, Rejection.TOO_LONG, Src.UUID, null, "nvarchar(10)", java.util.UUID.randomUUID()),
                bad(1, Rejection.TOO_LONG, Src.BINARY, null, "varbinary(2)", new byte[2], new byte[3]),
                bad(1, Rejection.OUT_OF_RANGE, Src.DATE32, null, "datetime",
                        LocalDate.of(1753, 1, 1), LocalDate.of(1752, 12, 31)),
                bad(1, Rejection.OUT_OF_RANGE, Src.DATE32, null, "smalldatetime",
                        LocalDate.of(2079, 6, 6), LocalDate.of(2079, 6, 7)),
                bad(0, Rejection.OUT_OF_RANGE, Src.DATE64, null, "date", LocalDate.of(10_000, 1, 1)),
                bad(1, Rejection.FRACTIONAL_SECONDS, Src.TIME_MS, null, "time(0)",
                        LocalTime.of(1, 2, 3), LocalTime.of(1, 2, 3, 500_000_000)),
                bad(0, Rejection.FRACTIONAL_SECONDS, Src.TIME_NS, null, "time(7)", LocalTime.of(1, 2, 3, 1)),
                bad(1, Rejection.FRACTIONAL_SECONDS, Src.TS_US, null, "datetime2(3)",
                        DT2_MIN, LocalDateTime.of(2024, 1, 1, 0, 0, 0, 1000)),
                bad(1, Rejection.FRACTIONAL_SECONDS, Src.TS_MS, null, "datetime",
                        LocalDateTime.of(2024, 1, 1, 0, 0, 0, 3_000_000),
                        LocalDateTime.of(2024, 1, 1, 0, 0, 0, 1_000_000)),
                bad(0, Rejection.OUT_OF_RANGE, Src.TS_MS, null, "datetime", LocalDateTime.of(1752, 12, 31, 23, 59, 59)),
                bad(1, Rejection.FRACTIONAL_SECONDS, Src.TS_US, null, "smalldatetime",
                        LocalDateTime.of(2000, 1, 1, 0, 0),
                        LocalDateTime.of(2000, 1, 1, 0, 0, 30)),
                bad(0, Rejection.OUT_OF_RANGE, Src.TS_US, null, "smalldatetime", LocalDateTime.of(2079, 6, 7, 0, 0)),
                bad(0, Rejection.OUT_OF_RANGE, Src.TS_US, "+14:00", "datetimeoffset(6)",
                        Instant.parse("9999-12-31T10:00:00Z")),
                bad(1, Rejection.OFFSET, Src.TS_S, "Europe/Paris", "datetimeoffset(0)",
                        Instant.parse("2000-01-01T00:00:00Z"),
                        Instant.parse("1900-01-01T00:00:00Z")), // LMT +00:09:21 is no whole minute
                bad(0, Rejection.FRACTIONAL_SECONDS, Src.TS_US, "UTC", "datetimeoffset(3)",
                        Instant.parse("2024-01-01T00:00:00.000001Z")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejections")
    void bothPathsRejectTheSameValueNamingColumnAndRow(Bad bad) throws Exception {
        Pair p = bad.pair();
        try (Connection c = jdbc()) {
            String a = newTable(c, p.sqlType());
            String b = newTable(c, p.sqlType());
            VectorSchemaRoot root = batch(p, p.values());
            closeables.add(root);
            ValueOutOfRangeException viaDriver = assertThrows(ValueOutOfRangeException.class,
                    () -> viaDriver(c, a, root, describe(c, a)));
            ValueOutOfRangeException viaDirect = assertThrows(ValueOutOfRangeException.class,
                    () -> viaDirect(b, root, describe(c, b)));
            assertEquals("v", viaDirect.rejection().sourceColumn());
            assertEquals(bad.badRow(), viaDirect.rejection().row());
            assertEquals(bad.check(), viaDirect.rejection().check());
            assertEquals("v", viaDirect.rejection().targetColumn());
            assertEquals(viaDriver.column(), viaDirect.column());
            assertEquals(viaDriver.rowInBatch(), viaDirect.rowInBatch());
            // the same rejection (column, row, check, reason) on both paths
            assertEquals(viaDriver.rejection(), viaDirect.rejection());
            assertEquals(viaDriver.detail(), viaDirect.detail());
            assertEquals(0, SERVER.emulator().capturedBulkLoads().size(), "nothing was sent");
            assertEquals(0, count(c, a));
            assertEquals(0, count(c, b));
        }
    }

    private static int count(Connection c, String table) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM dbo." + table)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    // ------------------------------------------------------------------------------------------------ unsupported

    @Test
    void pairTheProducerRefusesIsUnsupportedNamingColumnAndTarget() throws Exception {
        Pair p = p(Src.FLOAT32, null, "date", 1.5);
        try (Connection c = jdbc(); DirectTdsConnection direct = DirectTdsConnection.open(options())) {
            String b = newTable(c, "date");
            VectorSchemaRoot root = batch(p, p.values());
            closeables.add(root);
            List<TargetColumn> targets = describe(c, b);
            DirectUnsupportedColumnException e = assertThrows(DirectUnsupportedColumnException.class,
                    () -> new DirectBulkWriter(direct).write(new TableName("dbo", b), root, targets));
            assertEquals("v", e.column());
            assertTrue(e.getMessage().contains("date"), e.getMessage());
        }
    }

    @Test
    void varcharWithoutAKnownCollationIsUnsupportedNamingTheColumn() throws Exception {
        Pair p = p(Src.UTF8, null, "varchar(10)", "abc");
        try (Connection c = jdbc(); DirectTdsConnection direct = DirectTdsConnection.open(options())) {
            String b = newTable(c, "varchar(10)");
            VectorSchemaRoot root = batch(p, p.values());
            closeables.add(root);
            List<TargetColumn> catalog = describe(c, b);
            assertEquals("SQL_Latin1_General_CP1_CI_AS", catalog.get(1).collationName());
            TargetColumn v = catalog.get(1);
            for (String collation : new String[] {null, "Japanese_CI_AS"}) {
                List<TargetColumn> targets = List.of(catalog.get(0), new TargetColumn(v.name(), v.dataType(),
                        v.maxLength(), v.precision(), v.scale(), v.datetimePrecision(), v.nullable(), v.ordinal(),
                        collation));
                DirectUnsupportedColumnException e = assertThrows(DirectUnsupportedColumnException.class,
                        () -> new DirectBulkWriter(direct).write(new TableName("dbo", b), root, targets));
                assertEquals("v", e.column());
                assertTrue(e.getMessage().contains("collation"), e.getMessage());
            }
            assertEquals(0, count(c, b));
        }
    }

    @Test
    void byteStreamsDifferOnlyAsDocumented() throws Exception {
        // one batch with a column of each kind, and NOT NULL columns for the flags
        try (Connection c = jdbc()) {
            String columns = "(id int NOT NULL, d decimal(9,2) NOT NULL, m nvarchar(max), s varchar(10),"
                    + " g uniqueidentifier, n nvarchar(10))";
            String a = "docdiff_driver";
            String b = "docdiff_direct";
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE dbo." + a + " " + columns);
                st.execute("CREATE TABLE dbo." + b + " " + columns);
            }
            IntVector id = new IntVector("id", allocator);
            closeables.add(id);
            FieldVector d = vector(new Field("d", FieldType.notNullable(new ArrowType.Decimal(9, 2, 128)), null),
                    list(new BigDecimal("-1.50")));
            // not ASCII, so UTF-16 as PLP (kind 2); n is ASCII, so varchar (kind 5)
            FieldVector m = vector(Field.nullable("m", ArrowType.Utf8.INSTANCE), list("h\u00E9llo"));
            FieldVector s = vector(Field.nullable("s", ArrowType.Utf8.INSTANCE), list("ascii"));
            FieldVector g = vector(Field.nullable("g", ArrowType.Utf8.INSTANCE),
                    list("6F9619FF-8B86-D011-B42D-00C04FC964FF"));
            FieldVector n = vector(Field.nullable("n", ArrowType.Utf8.INSTANCE), list("plain"));
            id.allocateNew(1);
            id.setSafe(0, 7);
            id.setValueCount(1);
            VectorSchemaRoot root = new VectorSchemaRoot(List.of(id, d, m, s, g, n));
            root.setRowCount(1);
            closeables.add(root);
            viaDriver(c, a, root, describe(c, a));
            viaDirect(b, root, describe(c, b));
            BulkStreams.Stream drv = captured(a);
            BulkStreams.Stream dir = captured(b);
            // the same COLMETADATA flags, NOT NULL columns included
            for (int col = 0; col < 6; col++) {
                assertEquals(drv.columns().get(col).flags(), dir.columns().get(col).flags());
            }
            assertEquals(0x0008, dir.columns().get(0).flags());
            assertEquals(0x0009, dir.columns().get(2).flags());
            // kind 1: DECIMALN 17 vs 5: 05 00 96 00 00 00 (negative, 150)
            assertEquals(17, drv.columns().get(1).type().maxLength());
            assertEquals(5, dir.columns().get(1).type().maxLength());
            assertArrayEquals(new byte[] {5, 0, (byte) 150, 0, 0, 0}, dir.rows().get(0).get(1));
            // kind 2: PLP unknown vs known total length
            assertEquals(-2L, toLong(drv.rows().get(0).get(2)));
            assertEquals(10L, toLong(dir.rows().get(0).get(2)));
            // kind 3: nvarchar vs varchar (code-page bytes)
            assertEquals(TypeId.NVARCHAR, drv.columns().get(3).type().typeId());
            assertEquals(TypeId.BIGVARCHAR, dir.columns().get(3).type().typeId());
            assertArrayEquals(new byte[] {5, 0, 'a', 's', 'c', 'i', 'i'}, dir.rows().get(0).get(3));
            // kind 4: CHAR(36) text vs GUID
            assertEquals(TypeId.BIGCHAR, drv.columns().get(4).type().typeId());
            assertEquals(TypeId.GUID, dir.columns().get(4).type().typeId());
            assertArrayEquals(new byte[] {16, (byte) 0xFF, 0x19, (byte) 0x96, 0x6F, (byte) 0x86, (byte) 0x8B, 0x11,
                (byte) 0xD0, (byte) 0xB4, 0x2D, 0x00, (byte) 0xC0, 0x4F, (byte) 0xC9, 0x64, (byte) 0xFF},
                    dir.rows().get(0).get(4));
            // kind 5: ASCII nvarchar(10) as varchar(10) in the column's collation, one byte per character
            assertEquals(TypeId.NVARCHAR, drv.columns().get(5).type().typeId());
            assertEquals(20, drv.columns().get(5).type().maxLength());
            assertEquals(TypeId.BIGVARCHAR, dir.columns().get(5).type().typeId());
            assertEquals(10, dir.columns().get(5).type().maxLength());
            assertEquals(drv.columns().get(5).type().collation(), dir.columns().get(5).type().collation());
            assertArrayEquals(new byte[] {5, 0, 'p', 'l', 'a', 'i', 'n'}, dir.rows().get(0).get(5));
            // and the rows read back are the same
            for (String col : new String[] {"d", "m", "s", "g", "n"}) {
                try (Statement st = c.createStatement();
                        ResultSet ra = st.executeQuery("SELECT " + col + " FROM dbo." + a);
                        Statement st2 = c.createStatement();
                        ResultSet rb = st2.executeQuery("SELECT " + col + " FROM dbo." + b)) {
                    assertTrue(ra.next());
                    assertTrue(rb.next());
                    assertNotNull(rb.getString(1));
                    assertEquals(ra.getString(1), rb.getString(1), col);
                }
            }
        }
    }

    @Test
    void everyProducerPairIsCovered() {
        java.util.Set<String> targets = new java.util.TreeSet<>();
        java.util.Set<Src> sources = java.util.EnumSet.noneOf(Src.class);
        pairs().forEach(p -> {
            targets.add(base(p.sqlType()));
            sources.add(p.src());
        });
        assertEquals(java.util.EnumSet.allOf(Src.class), sources, "every Arrow source type");
        assertEquals(new java.util.TreeSet<>(List.of("bigint", "binary", "bit", "char", "date", "datetime",
                "datetime2", "datetimeoffset", "decimal", "float", "image", "int", "nchar", "ntext", "numeric",
                "nvarchar", "real", "smalldatetime", "smallint", "text", "time", "tinyint", "uniqueidentifier",
                "varbinary", "varchar")), targets, "every target type the producer accepts");
    }
}
