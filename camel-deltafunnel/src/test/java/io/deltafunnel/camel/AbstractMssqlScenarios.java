package io.deltafunnel.camel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.deltafunnel.arrow.read.UnsupportedArrowTypeException;
import io.deltafunnel.handoff.IncrementalLoad;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.WorkOutcome;
import io.deltafunnel.mssql.bind.ColumnMappingException;
import io.deltafunnel.mssql.bind.ValueOutOfRangeException;
import io.deltafunnel.mssql.state.MssqlStateStore;
import io.deltafunnel.mssql.state.StateConflictException;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.camel.Exchange;
import org.apache.camel.component.mock.MockEndpoint;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** The end-to-end scenarios, run against the emulator (unit tests) and a real SQL Server (*IT). */
abstract class AbstractMssqlScenarios extends MssqlRouteTestSupport {

    @BeforeEach
    void name(TestInfo info) throws Exception {
        nameTable(info);
        exec("IF OBJECT_ID('dbo." + table + "') IS NOT NULL DROP TABLE [dbo].[" + table + "]");
    }

    /** 50 rows, ids 0..49, in 5 batches of 10. */
    static final String FIFTY = "SELECT i::INTEGER AS id, 'v' || i AS name FROM range(0, 50) t(i) ORDER BY i";

    protected void createIdName(String nameType) throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] " + nameType + " NULL)");
    }

    protected void seedOld(int rows) throws Exception {
        for (int i = 0; i < rows; i++) {
            exec("INSERT INTO [dbo].[" + table + "] ([id], [name]) VALUES (" + (1000 + i) + ", N'old')");
        }
    }

    protected List<List<Object>> contents() throws Exception {
        return query("SELECT [id], [name] FROM [dbo].[" + table + "] ORDER BY [id]");
    }

    // ---------------------------------------------------------------- types

    static final String ALL_TYPES = "SELECT * FROM ("
            + "SELECT 1::INTEGER AS id, (-128)::TINYINT AS i8, (-32768)::SMALLINT AS i16, (-2147483648)::INTEGER AS i32,"
            + " (-9223372036854775808)::BIGINT AS i64, 0::UTINYINT AS u8, 0::USMALLINT AS u16, 0::UINTEGER AS u32,"
            + " 0::UBIGINT AS u64, (-3.4028235e38)::FLOAT AS f32, (-1.7976931348623157e308)::DOUBLE AS f64,"
            + " false AS b, (-9999999999999999.99)::DECIMAL(18,2) AS d,"
            + " (-99999999999999999999999999999999999999)::HUGEINT AS h, '' AS s, 'ñ😀abcdefg' AS s10,"
            + " '\\x00'::BLOB AS bin, DATE '0001-01-01' AS dt, TIME '00:00:00' AS tm,"
            + " TIMESTAMP '0001-01-01 00:00:00' AS ts, '1900-01-01 00:00:00.0000001'::TIMESTAMP_NS AS tns,"
            + " TIMESTAMPTZ '1900-01-01 00:00:00+00' AS tz, '00000000-0000-0000-0000-000000000000'::UUID AS u,"
            + " []::INTEGER[] AS l, {'a': -1, 'b': 'x\"y'} AS st"
            + " UNION ALL SELECT 2, 127::TINYINT, 32767::SMALLINT, 2147483647::INTEGER, 9223372036854775807::BIGINT,"
            + " 255::UTINYINT, 65535::USMALLINT, 4294967295::UINTEGER, 18446744073709551615::UBIGINT,"
            + " 3.4028235e38::FLOAT, 1.7976931348623157e308::DOUBLE, true, 9999999999999999.99::DECIMAL(18,2),"
            + " 99999999999999999999999999999999999999::HUGEINT, 'snow ☃ \"q\" tab' || chr(9) || 'nl' || chr(10), 'abcdefghij',"
            + " '\\xFF\\x00\\x01'::BLOB, DATE '9999-12-31', TIME '23:59:59.999999',"
            + " TIMESTAMP '9999-12-31 23:59:59.999999', '2262-04-11 23:47:16.8547758'::TIMESTAMP_NS,"
            + " TIMESTAMPTZ '9999-12-31 23:59:59.999999+00', 'ffffffff-ffff-ffff-ffff-ffffffffffff'::UUID,"
            + " [1, NULL, 3], {'a': NULL, 'b': 'é'}"
            + " UNION ALL SELECT 3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
            + " NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL) ORDER BY id";

    static final String ALL_TYPES_DDL = "([id] int NOT NULL, [i8] smallint, [i16] smallint, [i32] int, [i64] bigint,"
            + " [u8] tinyint, [u16] int, [u32] bigint, [u64] decimal(20,0), [f32] real, [f64] float, [b] bit,"
            + " [d] decimal(18,2), [h] decimal(38,0), [s] nvarchar(max), [s10] nvarchar(10), [bin] varbinary(max),"
            + " [dt] date, [tm] time(6), [ts] datetime2(6), [tns] datetime2(7), [tz] datetimeoffset(6),"
            + " [u] uniqueidentifier, [l] nvarchar(max), [st] nvarchar(max))";

    @Test
    void everyMappedTypeRoundTripsExactly() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] " + ALL_TYPES_DDL);
        runRoute(source(ALL_TYPES, 10), mssql(""), 1, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertAllTypes();
        stopAndAssertNoArrowLeak();
    }

    @Test
    void everyMappedTypeRoundTripsExactlyWithNativeTemporals() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] " + ALL_TYPES_DDL);
        String uri = "deltafunnel-mssql:dbo." + table + "?url=RAW(" + jdbcUrl()
                + ";sendTemporalDataTypesAsStringForBulkCopy=false)&username=" + user() + "&password=RAW(" + password()
                + ")" + encoderOptions();
        runRoute(source(ALL_TYPES, 2), uri, 2, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertAllTypes();
        stopAndAssertNoArrowLeak();
    }

    /**
     * Text at the nvarchar columns' limits: ASCII batches (which the direct encoder sends as varchar in the column's
     * collation, declared so in INSERT BULK, for the server to convert) and, in the same run and transaction, a batch
     * with non-ASCII text (sent as UTF-16), into nvarchar(n) at exactly n characters, nvarchar(max) at 8,000 and
     * 8,001 characters, a column of another collation, NULLs and empty strings. Every value reads back as the source.
     */
    @Test
    void asciiAndUnicodeBatchesAtTheColumnsLimitsReadBackExactly() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [a] nvarchar(10) NULL, [m] nvarchar(max) NULL,"
                + " [c] nvarchar(12) COLLATE Latin1_General_100_CS_AS NULL)");
        // batch of ids 0-1: ASCII; 2-3: ASCII, with an (max) value beyond varchar(8000); 4-5: not ASCII
        String sql = "SELECT * FROM (VALUES"
                + " (0, '0123456789', repeat('x', 8000), 'Mixed Case'),"
                + " (1, '', '', NULL),"
                + " (2, NULL, repeat('y', 8001), '  spaces  '),"
                + " (3, '~!@$^*()_-', NULL, ''),"
                + " (4, 'caf\u00E9', 'na\u00EFve ' || repeat('z', 8000), 'Stra\u00DFe'),"
                + " (5, 'plain', 'plain', 'plain')"
                + ") t(id, a, m, c) ORDER BY id";
        runRoute(source(sql, 2), mssql(""), 3, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        List<List<Object>> rows = query("SELECT [id], [a], [m], [c] FROM [dbo].[" + table + "] ORDER BY [id]");
        assertEquals(6, rows.size());
        assertEquals(java.util.Arrays.asList(0, "0123456789", "x".repeat(8000), "Mixed Case"), rows.get(0));
        assertEquals(java.util.Arrays.asList(1, "", "", null), rows.get(1));
        assertEquals(java.util.Arrays.asList(2, null, "y".repeat(8001), "  spaces  "), rows.get(2));
        assertEquals(java.util.Arrays.asList(3, "~!@$^*()_-", null, ""), rows.get(3));
        assertEquals(java.util.Arrays.asList(4, "caf\u00E9", "na\u00EFve " + "z".repeat(8000), "Stra\u00DFe"),
                rows.get(4));
        assertEquals(java.util.Arrays.asList(5, "plain", "plain", "plain"), rows.get(5));
        assertEquals(List.of(List.of(10L, 8001L)), query("SELECT CAST(LEN([a]) AS bigint), (SELECT CAST(LEN([m]) AS"
                + " bigint) FROM [dbo].[" + table + "] WHERE [id] = 2) FROM [dbo].[" + table + "] WHERE [id] = 0"));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void bulkOptionsAreAccepted() throws Exception {
        createIdName("nvarchar(20)");
        runRoute(source(FIFTY, 10), mssql("tableLock=true&checkConstraints=true&fireTriggers=true&keepNulls=true"
                + "&bulkBatchSize=3&timeout=30&transaction=batch"), 5, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(50, count(table));
        stopAndAssertNoArrowLeak();
    }

    protected void assertAllTypes() throws Exception {
        try (Connection c = jdbc(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT * FROM [dbo].[" + table + "] ORDER BY [id]")) {
            assertTrue(rs.next());
            assertEquals(1, rs.getInt("id"));
            assertEquals(-128, rs.getShort("i8"));
            assertEquals(Short.MIN_VALUE, rs.getShort("i16"));
            assertEquals(Integer.MIN_VALUE, rs.getInt("i32"));
            assertEquals(Long.MIN_VALUE, rs.getLong("i64"));
            assertEquals(0, rs.getInt("u8"));
            assertEquals(0, rs.getInt("u16"));
            assertEquals(0L, rs.getLong("u32"));
            assertEquals(0, BigDecimal.ZERO.compareTo(rs.getBigDecimal("u64")));
            assertEquals(-3.4028235e38f, rs.getFloat("f32"));
            assertEquals(-1.7976931348623157e308, rs.getDouble("f64"));
            assertEquals(false, rs.getBoolean("b"));
            assertEquals(new BigDecimal("-9999999999999999.99"), rs.getBigDecimal("d"));
            assertEquals(new BigDecimal("-99999999999999999999999999999999999999"), rs.getBigDecimal("h"));
            assertEquals("", rs.getString("s"));
            assertEquals("ñ😀abcdefg", rs.getString("s10"));
            assertArrayEquals(new byte[] {0}, rs.getBytes("bin"));
            assertEquals(LocalDate.of(1, 1, 1), rs.getObject("dt", LocalDate.class));
            assertEquals(LocalTime.MIDNIGHT, rs.getObject("tm", LocalTime.class));
            assertEquals(LocalDateTime.of(1, 1, 1, 0, 0), rs.getObject("ts", LocalDateTime.class));
            assertEquals(LocalDateTime.of(1900, 1, 1, 0, 0, 0, 100), rs.getObject("tns", LocalDateTime.class));
            assertEquals(OffsetDateTime.of(1900, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC),
                    rs.getObject("tz", OffsetDateTime.class));
            assertEquals("00000000-0000-0000-0000-000000000000", rs.getString("u"));
            assertEquals("[]", rs.getString("l"));
            assertEquals("{\"a\":-1,\"b\":\"x\\\"y\"}", rs.getString("st"));

            assertTrue(rs.next());
            assertEquals(2, rs.getInt("id"));
            assertEquals(127, rs.getShort("i8"));
            assertEquals(Short.MAX_VALUE, rs.getShort("i16"));
            assertEquals(Integer.MAX_VALUE, rs.getInt("i32"));
            assertEquals(Long.MAX_VALUE, rs.getLong("i64"));
            assertEquals(255, rs.getInt("u8"));
            assertEquals(65535, rs.getInt("u16"));
            assertEquals(4294967295L, rs.getLong("u32"));
            assertEquals(new BigDecimal("18446744073709551615"), rs.getBigDecimal("u64"));
            assertEquals(3.4028235e38f, rs.getFloat("f32"));
            assertEquals(1.7976931348623157e308, rs.getDouble("f64"));
            assertEquals(true, rs.getBoolean("b"));
            assertEquals(new BigDecimal("9999999999999999.99"), rs.getBigDecimal("d"));
            assertEquals(new BigDecimal("99999999999999999999999999999999999999"), rs.getBigDecimal("h"));
            assertEquals("snow ☃ \"q\" tab\tnl\n", rs.getString("s"));
            assertEquals("abcdefghij", rs.getString("s10"));
            assertArrayEquals(new byte[] {(byte) 0xFF, 0, 1}, rs.getBytes("bin"));
            assertEquals(LocalDate.of(9999, 12, 31), rs.getObject("dt", LocalDate.class));
            assertEquals(LocalTime.of(23, 59, 59, 999_999_000), rs.getObject("tm", LocalTime.class));
            assertEquals(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000),
                    rs.getObject("ts", LocalDateTime.class));
            assertEquals(LocalDateTime.of(2262, 4, 11, 23, 47, 16, 854_775_800),
                    rs.getObject("tns", LocalDateTime.class));
            assertEquals(OffsetDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000, ZoneOffset.UTC),
                    rs.getObject("tz", OffsetDateTime.class));
            assertEquals("FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", rs.getString("u"));
            assertEquals("[1,null,3]", rs.getString("l"));
            assertEquals("{\"a\":null,\"b\":\"é\"}", rs.getString("st"));

            assertTrue(rs.next());
            assertEquals(3, rs.getInt("id"));
            for (int i = 2; i <= rs.getMetaData().getColumnCount(); i++) {
                assertNull(rs.getObject(i), rs.getMetaData().getColumnName(i));
            }
        }
    }

    // ---------------------------------------------------------------- legacy types and xml targets

    static final String LEGACY_DDL = "([id] int NOT NULL, [c] char(10) NULL, [vc] varchar(20) NULL,"
            + " [nc] nchar(10) NULL, [tx] text NULL, [ntx] ntext NULL, [img] image NULL, [bn] binary(4) NULL,"
            + " [dtm] datetime NULL, [sdt] smalldatetime NULL, [num] numeric(10,3) NULL, [t0] time(0) NULL,"
            + " [t1] time(1) NULL, [t2] time(2) NULL, [t3] time(3) NULL, [t4] time(4) NULL, [t5] time(5) NULL,"
            + " [t6] time(6) NULL, [t7] time(7) NULL)";

    static final String LEGACY_ROWS = "SELECT * FROM (SELECT 1::INTEGER AS id, 'abc' AS c, 'varchar' AS vc,"
            + " 'n\u00e7\u2603' AS nc, 'long ' || repeat('t', 9000) AS tx, 'ntext \u2603 ' || repeat('n', 5000) AS ntx,"
            + " '\\x01\\x02\\xFF'::BLOB AS img, '\\x0A\\x0B\\x0C\\x0D'::BLOB AS bn,"
            + " TIMESTAMP '2024-02-29 13:14:15.120' AS dtm, TIMESTAMP '2024-02-29 13:14:00' AS sdt,"
            + " 1234567.891::DECIMAL(10,3) AS num, TIME '13:14:15' AS t0, TIME '13:14:15.1' AS t1,"
            + " TIME '13:14:15.12' AS t2, TIME '13:14:15.123' AS t3, TIME '13:14:15.1234' AS t4,"
            + " TIME '13:14:15.12345' AS t5, TIME '13:14:15.123456' AS t6, TIME '23:59:59.999999' AS t7"
            + " UNION ALL SELECT 2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,"
            + " NULL, NULL, NULL, NULL, NULL) ORDER BY id";

    /**
     * char, varchar, nchar, text, ntext, image, binary, datetime, smalldatetime, numeric and time(0..7) targets, with
     * values that fit exactly and NULLs, on both encoders (text/ntext/image values longer than 8000 bytes).
     */
    @Test
    void everyLegacyTypeRoundTrips() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] " + LEGACY_DDL);
        runRoute(source(LEGACY_ROWS, 10), mssql(""), 1, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        try (Connection c = jdbc(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT * FROM [dbo].[" + table + "] ORDER BY [id]")) {
            assertTrue(rs.next());
            assertEquals("abc       ", rs.getString("c"));
            assertEquals("varchar", rs.getString("vc"));
            assertEquals("n\u00e7\u2603       ", rs.getString("nc"));
            assertEquals("long " + "t".repeat(9000), rs.getString("tx"));
            assertEquals("ntext \u2603 " + "n".repeat(5000), rs.getString("ntx"));
            assertArrayEquals(new byte[] {1, 2, (byte) 0xFF}, rs.getBytes("img"));
            assertArrayEquals(new byte[] {10, 11, 12, 13}, rs.getBytes("bn"));
            assertEquals(LocalDateTime.of(2024, 2, 29, 13, 14, 15, 120_000_000),
                    rs.getObject("dtm", LocalDateTime.class));
            assertEquals(LocalDateTime.of(2024, 2, 29, 13, 14), rs.getObject("sdt", LocalDateTime.class));
            assertEquals(new BigDecimal("1234567.891"), rs.getBigDecimal("num"));
            assertEquals(LocalTime.of(13, 14, 15), rs.getObject("t0", LocalTime.class));
            assertEquals(LocalTime.of(13, 14, 15, 100_000_000), rs.getObject("t1", LocalTime.class));
            assertEquals(LocalTime.of(13, 14, 15, 120_000_000), rs.getObject("t2", LocalTime.class));
            assertEquals(LocalTime.of(13, 14, 15, 123_000_000), rs.getObject("t3", LocalTime.class));
            assertEquals(LocalTime.of(13, 14, 15, 123_400_000), rs.getObject("t4", LocalTime.class));
            assertEquals(LocalTime.of(13, 14, 15, 123_450_000), rs.getObject("t5", LocalTime.class));
            assertEquals(LocalTime.of(13, 14, 15, 123_456_000), rs.getObject("t6", LocalTime.class));
            assertEquals(LocalTime.of(23, 59, 59, 999_999_000), rs.getObject("t7", LocalTime.class));
            assertTrue(rs.next());
            assertEquals(2, rs.getInt("id"));
            for (int i = 2; i <= rs.getMetaData().getColumnCount(); i++) {
                assertNull(rs.getObject(i), rs.getMetaData().getColumnName(i));
            }
        }
        stopAndAssertNoArrowLeak();
    }

    /** A target with an xml column the source does not map: the batch is written, the xml column stays NULL. */
    @Test
    void targetWithAnUnmappedXmlColumn() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20) NULL, [doc] xml NULL)");
        exec("INSERT INTO [dbo].[" + table + "] ([id], [name], [doc]) VALUES (-1, N'seed', N'<a>1</a>')");
        runRoute(source(FIFTY, 10), mssql(""), 5, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(51, count(table));
        assertEquals(List.of(List.of(-1, "<a>1</a>"), java.util.Arrays.asList(0, null)), query("SELECT [id],"
                + " CAST([doc] AS nvarchar(max)) FROM [dbo].[" + table + "] WHERE [id] IN (-1, 0) ORDER BY [id]"));
        stopAndAssertNoArrowLeak();
    }

    /**
     * Unmapped sql_variant and CLR (geography, hierarchyid) columns do not matter to either encoder. SQL Server only:
     * the emulator refuses these types ("not supported", see mssql-emulator/README.md), so there the test is skipped.
     */
    @Test
    void targetWithUnmappedSqlVariantAndClrColumns() throws Exception {
        try {
            exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20) NULL,"
                    + " [v] sql_variant NULL, [g] geography NULL, [h] hierarchyid NULL)");
        } catch (java.sql.SQLException e) {
            org.junit.jupiter.api.Assumptions.assumeTrue(e.getErrorCode() != 50100,
                    "the server does not support sql_variant/CLR types: " + e.getMessage());
            throw e;
        }
        runRoute(source(FIFTY, 10), mssql(""), 5, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(50, count(table));
        stopAndAssertNoArrowLeak();
    }

    /** A source column mapped to an xml column is refused before any row, naming the column; no retries. */
    @Test
    void sourceColumnMappedToAnXmlColumnFailsPermanentlyNamingIt() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [doc] xml NULL)");
        runRoute(source("SELECT 1 AS id, '<a>1</a>' AS doc", 10), mssql(""), 1, null);
        BulkLoadException e = singleFailure();
        assertInstanceOf(ColumnMappingException.class, e);
        assertEquals("doc", e.column());
        assertTrue(e.getMessage().contains("xml"), e.getMessage());
        assertEquals(0, count(table));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void createTableFromArrowSchema() throws Exception {
        runRoute(source("SELECT 1::TINYINT AS i8, 2::UBIGINT AS u64, 'x' AS s, [1] AS l,"
                + " '2024-01-02 03:04:05.1234567'::TIMESTAMP_NS AS tns, TIMESTAMPTZ '2024-01-02 03:04:05+00' AS tz,"
                + " 1.5::DECIMAL(9,3) AS d", 10), mssql("createTable=true"), 1, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        List<List<Object>> cols = query("SELECT COLUMN_NAME, DATA_TYPE, CHARACTER_MAXIMUM_LENGTH, NUMERIC_PRECISION,"
                + " NUMERIC_SCALE, DATETIME_PRECISION FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = 'dbo'"
                + " AND TABLE_NAME = '" + table + "' ORDER BY ORDINAL_POSITION");
        assertEquals(List.of("i8", "smallint"), cols.get(0).subList(0, 2));
        assertEquals(List.of("u64", "decimal"), cols.get(1).subList(0, 2));
        assertEquals(20, ((Number) cols.get(1).get(3)).intValue());
        assertEquals(List.of("s", "nvarchar", -1), cols.get(2).subList(0, 3));
        assertEquals(List.of("l", "nvarchar", -1), cols.get(3).subList(0, 3));
        assertEquals(List.of("tns", "datetime2"), cols.get(4).subList(0, 2));
        assertEquals(7, ((Number) cols.get(4).get(5)).intValue());
        assertEquals(List.of("tz", "datetimeoffset"), cols.get(5).subList(0, 2));
        assertEquals(6, ((Number) cols.get(5).get(5)).intValue());
        assertEquals(List.of("d", "decimal"), cols.get(6).subList(0, 2));
        assertEquals(3, ((Number) cols.get(6).get(4)).intValue());
        List<Object> row = query("SELECT * FROM [dbo].[" + table + "]").get(0);
        assertEquals(1, ((Number) row.get(0)).intValue());
        assertEquals("x", row.get(2));
        assertEquals("[1]", row.get(3));
        stopAndAssertNoArrowLeak();
    }

    // ---------------------------------------------------------------- write and transaction modes

    @Test
    void appendInRunTransactionWithExactStatistics() throws Exception {
        createIdName("nvarchar(20)");
        seedOld(2);
        MockEndpoint out = getMockEndpoint("mock:out");
        out.expectedMessageCount(5);
        List<String> runIds = new CopyOnWriteArrayList<>();
        runRoute(source(FIFTY, 10), mssql("transaction=run"), 5,
                e -> runIds.add(e.getMessage().getHeader(DeltaFunnelConstants.RUN_ID, String.class)));
        out.assertIsSatisfied();
        for (int i = 0; i < 5; i++) {
            Exchange e = out.getExchanges().get(i);
            assertEquals((long) (i + 1), e.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_BATCHES));
            assertEquals((long) (10 * (i + 1)), e.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_ROWS));
        }
        assertEquals(1, runIds.stream().distinct().count());
        assertEquals(new io.deltafunnel.handoff.HandoffStats(5, 50, 5, 50), out.getExchanges().get(4)
                .getProperty(DeltaFunnelConstants.HANDOFF_STATS));
        assertEquals(52, count(table));
        assertEquals(List.of(49, "v49"), contents().get(49));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void truncateEmptiesTheTargetFirst() throws Exception {
        createIdName("nvarchar(20)");
        seedOld(7);
        runRoute(source(FIFTY, 20), mssql("writeMode=truncate"), 3, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(50, count(table));
        assertEquals(List.of(0, "v0"), contents().get(0));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void replaceReaderSeesOldContentsDuringTheRunAndNewAfter() throws Exception {
        createIdName("nvarchar(20)");
        seedOld(7);
        List<Long> seen = new CopyOnWriteArrayList<>();
        runRoute(source(FIFTY, 10), mssql("writeMode=replace"), 5, e -> seen.add(count(table)));
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(List.of(7L, 7L, 7L, 7L, 50L), seen);
        assertEquals(50, count(table));
        assertEquals(List.of(), query("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE '"
                + table + "[_][_]df[_]%'"), "staging table left behind");
        stopAndAssertNoArrowLeak();
    }

    // ---------------------------------------------------------------- replace by switch (issue 26)

    /** A target with a clustered index, a nonclustered index with INCLUDE, and a CHECK; seeded with 7 old rows. */
    protected void createIndexedTarget() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20) NULL, [n] int NULL,"
                + " CONSTRAINT [ck_" + table + "] CHECK ([id] >= 0))",
                "CREATE CLUSTERED INDEX [cx] ON [dbo].[" + table + "] ([id])",
                "CREATE NONCLUSTERED INDEX [nx] ON [dbo].[" + table + "] ([name] DESC) INCLUDE ([n])");
        seedOld(7);
    }

    /**
     * A role granted SELECT on the target, made anew (a run that failed earlier may have left it); returns the
     * target's object id, which a replace must keep, and the grant with it.
     */
    protected Object grantSelectToARole() throws Exception {
        String role = "r_" + table;
        exec("DROP ROLE IF EXISTS [" + role + "]", "CREATE ROLE [" + role + "]",
                "GRANT SELECT ON [dbo].[" + table + "] TO [" + role + "]");
        assertEquals(List.of(List.of(role, "SELECT", "GRANT")), grants());
        return query("SELECT OBJECT_ID('dbo." + table + "')").get(0).get(0);
    }

    /** The target's object permissions as sys.database_permissions lists them: grantee, permission, state. */
    protected List<List<Object>> grants() throws Exception {
        return query("SELECT pr.[name], p.[permission_name], p.[state_desc] FROM sys.database_permissions AS p"
                + " JOIN sys.database_principals AS pr ON pr.[principal_id] = p.[grantee_principal_id]"
                + " WHERE p.[class] = 1 AND p.[major_id] = OBJECT_ID('dbo." + table + "')"
                + " ORDER BY pr.[name], p.[permission_name]");
    }

    /** The replace kept the target object (same object id) and with it the role's SELECT; drops the role. */
    protected void assertGrantKeptAndDropRole(Object objectId) throws Exception {
        assertEquals(objectId, query("SELECT OBJECT_ID('dbo." + table + "')").get(0).get(0), "the same object");
        assertEquals(List.of(List.of("r_" + table, "SELECT", "GRANT")), grants(), "the target keeps its grant");
        exec("DROP ROLE [r_" + table + "]");
    }

    protected List<List<Object>> indexesAndChecks() throws Exception {
        List<List<Object>> out = new ArrayList<>(query("SELECT [name], [type_desc] FROM sys.indexes WHERE [object_id]"
                + " = OBJECT_ID('dbo." + table + "') AND [type] > 0 ORDER BY [name]"));
        out.addAll(query("SELECT [name], [definition] FROM sys.check_constraints WHERE [parent_object_id] ="
                + " OBJECT_ID('dbo." + table + "') ORDER BY [name]"));
        return out;
    }

    protected void assertNoStagingOrHolding() throws Exception {
        assertEquals(List.of(), query("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE '"
                + table + "[_][_]df[_]%'"), "staging or holding table left behind");
    }

    protected static List<List<Object>> fiftyNewRows() {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            rows.add(java.util.Arrays.asList(i, "v" + i));
        }
        return rows;
    }

    @Test
    void replaceBySwitchKeepsTheTargetsIndexesCheckAndGrantAndHoldsExactlyTheNewRows() throws Exception {
        createIndexedTarget();
        Object objectId = grantSelectToARole();
        List<List<Object>> shape = indexesAndChecks();
        assertEquals(3, shape.size(), shape::toString);
        try (LogLines log = new LogLines(io.deltafunnel.mssql.session.TableSwitch.class)) {
            runRoute(source(FIFTY, 10), mssql("writeMode=replace"), 5, null);
            assertTrue(failures.isEmpty(), () -> failures.toString());
            assertEquals(1, log.containing("by ALTER TABLE ... SWITCH").size(), log.all()::toString);
            assertEquals(List.of(), log.containing("instead of switching"), log.all()::toString);
        }
        assertEquals(fiftyNewRows(), contents());
        assertEquals(shape, indexesAndChecks(), "the target keeps its indexes and CHECK");
        assertGrantKeptAndDropRole(objectId);
        assertNoStagingOrHolding();
        assertError547OnBadRow();
        stopAndAssertNoArrowLeak();
    }

    @Test
    void replaceSwitchesAgainOnTheNextRunWithExactTypes() throws Exception {
        // run 2 copies the shape of the target that run 1 switched in (its staging table, since dropped) into the
        // holding table: the types must match exactly for the switch out (decimal(12,2), not decimal(38,2))
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [amount] decimal(12,2) NULL,"
                + " [at] datetime2(3) NULL)");
        String query = "SELECT i::INTEGER AS id, (i / 4)::DECIMAL(12,2) AS amount,"
                + " TIMESTAMP '2024-01-01 00:00:00' + to_milliseconds(i) AS at FROM range(0, 50) t(i) ORDER BY i";
        try (LogLines log = new LogLines(io.deltafunnel.mssql.session.TableSwitch.class)) {
            // each run's final step may end just after its last exchange: wait for its line before the next run
            runRoute(source(query, 10), mssql("writeMode=replace"), 5, null);
            assertEquals(1, log.awaitContaining("replaced the rows of", 1, 30_000).size(), log.all()::toString);
            runRoute(source(query, 10), mssql("writeMode=replace"), 5, null);
            assertEquals(2, log.awaitContaining("replaced the rows of", 2, 30_000).size(), log.all()::toString);
            assertTrue(failures.isEmpty(), () -> failures.toString());
            assertEquals(2, log.containing("by ALTER TABLE ... SWITCH").size(), log.all()::toString);
            assertEquals(List.of(), log.containing("instead of switching"), log.all()::toString);
        }
        stopAndAssertNoArrowLeak(); // the runs have ended: their holding tables are dropped
        assertEquals(List.of(List.of(50, "12.25")), query("SELECT COUNT(*), CAST(MAX([amount]) AS varchar(20)) FROM"
                + " [dbo].[" + table + "]"));
        assertEquals(List.of(List.of("decimal", 12, 2)), query("SELECT [DATA_TYPE], [NUMERIC_PRECISION],"
                + " [NUMERIC_SCALE] FROM [INFORMATION_SCHEMA].[COLUMNS] WHERE [TABLE_NAME] = N'" + table + "'"
                + " AND [COLUMN_NAME] = N'amount'"));
        assertNoStagingOrHolding();
    }

    /** The CHECK still holds on the switched-in target. */
    private void assertError547OnBadRow() throws Exception {
        java.sql.SQLException e = assertThrows(java.sql.SQLException.class,
                () -> exec("INSERT INTO [dbo].[" + table + "] ([id], [name]) VALUES (-1, N'bad')"));
        assertEquals(547, e.getErrorCode(), e.getMessage());
    }

    @Test
    void replaceStrategyCopyCopiesAndKeepsTheShapeAndGrant() throws Exception {
        createIndexedTarget();
        Object objectId = grantSelectToARole();
        List<List<Object>> shape = indexesAndChecks();
        try (LogLines log = new LogLines(io.deltafunnel.mssql.session.TableSwitch.class)) {
            runRoute(source(FIFTY, 10), mssql("writeMode=replace&replaceStrategy=copy"), 5, null);
            assertTrue(failures.isEmpty(), () -> failures.toString());
            assertEquals(List.of(), log.containing("by ALTER TABLE ... SWITCH"), log.all()::toString);
        }
        assertEquals(fiftyNewRows(), contents());
        assertEquals(shape, indexesAndChecks());
        assertGrantKeptAndDropRole(objectId);
        assertError547OnBadRow();
        assertNoStagingOrHolding();
        stopAndAssertNoArrowLeak();
    }

    @Test
    void replaceOfATargetWithAnIdentityColumnCopiesAndLogsWhyOnce() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([rid] int IDENTITY(1,1) NOT NULL, [id] int NOT NULL,"
                + " [name] nvarchar(20) NULL)");
        seedOld(7);
        try (LogLines log = new LogLines(io.deltafunnel.mssql.session.TableSwitch.class)) {
            runRoute(source(FIFTY, 10), mssql("writeMode=replace"), 5, null);
            assertTrue(failures.isEmpty(), () -> failures.toString());
            List<String> reasons = log.containing("instead of switching");
            assertEquals(1, reasons.size(), log.all()::toString);
            assertTrue(reasons.get(0).contains("identity column rid") && reasons.get(0).contains(table),
                    reasons::toString);
        }
        assertEquals(fiftyNewRows(), contents());
        assertEquals(List.of(List.of(1, 50)), query("SELECT MIN([rid]), MAX([rid]) FROM [dbo].[" + table + "]"),
                "the copy restarts the identity at its seed, as before");
        assertNoStagingOrHolding();
        stopAndAssertNoArrowLeak();
    }

    @Test
    void replaceStrategySwitchThatIsImpossibleIsRefusedBeforeAnythingIsWritten() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([rid] int IDENTITY(1,1) NOT NULL, [id] int NOT NULL,"
                + " [name] nvarchar(20) NULL)");
        seedOld(7);
        List<List<Object>> before = contents();
        runRoute(source(FIFTY, 10), mssql("writeMode=replace&replaceStrategy=switch&maxRetries=0"), 1, null);
        BulkLoadException e = finalFailures().get(0);
        assertInstanceOf(io.deltafunnel.mssql.session.SwitchRefusedException.class, e, e::toString);
        assertTrue(e.getMessage().contains("replaceStrategy=switch") && e.getMessage().contains(table)
                && e.getMessage().contains("identity column rid"), e.getMessage());
        assertEquals(0, e.stats().outputRows(), "nothing was written");
        assertTrue(e.permanent(), "a refusal is not retried");
        assertEquals(before, contents());
        assertNoStagingOrHolding();
        stopAndAssertNoArrowLeak();
    }

    /**
     * A reader holding a shared lock on the target to the end of its transaction (HOLDLOCK) does not stop the load:
     * every batch before the last goes into the staging table; the final step (the switch, Sch-M) waits for the
     * reader, and completes once it commits.
     */
    @Test
    void aReaderHoldingTheTargetBlocksOnlyTheSwitchNotTheLoad() throws Exception {
        createIndexedTarget();
        java.util.concurrent.atomic.AtomicBoolean readerHolds = new java.util.concurrent.atomic.AtomicBoolean(true);
        List<Boolean> heldDuring = new CopyOnWriteArrayList<>();
        java.util.concurrent.CountDownLatch fourBatches = new java.util.concurrent.CountDownLatch(4);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (Connection reader = jdbc()) {
            reader.setAutoCommit(false);
            try (Statement st = reader.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM [dbo].["
                    + table + "] WITH (HOLDLOCK)")) {
                rs.next();
                assertEquals(7, rs.getInt(1));
            }
            Future<?> release = pool.submit(() -> {
                assertTrue(fourBatches.await(60, TimeUnit.SECONDS), "the load did not get past batch 4");
                readerHolds.set(false);
                reader.commit();
                return null;
            });
            runRoute(source(FIFTY, 10), mssql("writeMode=replace"), 5, e -> {
                heldDuring.add(readerHolds.get());
                fourBatches.countDown();
            });
            release.get(60, TimeUnit.SECONDS);
        } finally {
            pool.shutdownNow();
        }
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(List.of(true, true, true, true, false), heldDuring,
                "batches 1-4 were loaded while the reader held the target; the final step waited for it");
        assertEquals(fiftyNewRows(), contents());
        assertNoStagingOrHolding();
        stopAndAssertNoArrowLeak();
    }

    @Test
    void mergeUpdatesMatchedAndInsertsNewRows() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL PRIMARY KEY, [name] nvarchar(20) NULL)");
        for (int i = 0; i < 10; i++) {
            exec("INSERT INTO [dbo].[" + table + "] ([id], [name]) VALUES (" + i + ", N'old')");
        }
        runRoute(source("SELECT i::INTEGER AS id, 'new' || i AS name FROM range(5, 15) t(i) ORDER BY i", 4),
                mssql("writeMode=merge&keyColumns=id"), 3, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        List<List<Object>> rows = contents();
        assertEquals(15, rows.size());
        assertEquals(List.of(4, "old"), rows.get(4));
        assertEquals(List.of(5, "new5"), rows.get(5));
        assertEquals(List.of(14, "new14"), rows.get(14));
        stopAndAssertNoArrowLeak();
    }

    /**
     * A system-versioned temporal table is refused as the target of writeMode=history and writeMode=merge before
     * anything is written, naming the reason (sys.tables.temporal_type 2). SQL Server only: the emulator refuses
     * temporal tables (50100, mssql-emulator/README.md), so there the test is skipped.
     */
    @Test
    void historyAndMergeIntoASystemVersionedTableAreRefusedNamingTheReason() throws Exception {
        String hist = table + "_hist";
        try {
            exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL PRIMARY KEY, [name] nvarchar(20) NULL,"
                    + " [valid_from] datetime2 NOT NULL DEFAULT SYSUTCDATETIME(), [valid_to] datetime2 NULL,"
                    + " [is_current] bit NOT NULL DEFAULT 1,"
                    + " [sys_from] datetime2 GENERATED ALWAYS AS ROW START HIDDEN NOT NULL,"
                    + " [sys_to] datetime2 GENERATED ALWAYS AS ROW END HIDDEN NOT NULL,"
                    + " PERIOD FOR SYSTEM_TIME ([sys_from], [sys_to]))"
                    + " WITH (SYSTEM_VERSIONING = ON (HISTORY_TABLE = [dbo].[" + hist + "]))");
        } catch (java.sql.SQLException e) {
            org.junit.jupiter.api.Assumptions.assumeTrue(e.getErrorCode() != 50100,
                    "the server does not support system-versioned temporal tables: " + e.getMessage());
            throw e;
        }
        try {
            exec("INSERT INTO [dbo].[" + table + "] ([id], [name]) VALUES (1, N'old')");
            for (String mode : List.of("history", "merge")) {
                failures.clear();
                runRoute(source("SELECT 1 AS id, 'new' AS name", 10), mssql("writeMode=" + mode + "&keyColumns=id"),
                        1, null);
                BulkLoadException e = singleFailure();
                assertInstanceOf(ColumnMappingException.class, e);
                assertTrue(e.getMessage().contains("system-versioned temporal table"), e.getMessage());
                assertEquals(List.of(List.of(1, "old")), contents(), mode + ": nothing written");
            }
        } finally {
            exec("ALTER TABLE [dbo].[" + table + "] SET (SYSTEM_VERSIONING = OFF)");
            exec("IF OBJECT_ID('dbo." + hist + "') IS NOT NULL DROP TABLE [dbo].[" + hist + "]");
        }
        stopAndAssertNoArrowLeak();
    }

    /** Batch 3 of 5 (rows 20..29) holds a value too long for nvarchar(5) at run row 25. */
    static final String FIFTY_BAD_AT_25 = "SELECT i::INTEGER AS id, CASE WHEN i = 25 THEN 'far too long' ELSE 'v' || i"
            + " END AS name FROM range(0, 50) t(i) ORDER BY i";

    @Test
    void runTransactionDataErrorInThirdBatchLeavesTargetExactlyAsBefore() throws Exception {
        createIdName("nvarchar(5)");
        seedOld(3);
        List<List<Object>> before = contents();
        runRoute(source(FIFTY_BAD_AT_25, 10), mssql("transaction=run"), 3, null);
        assertEquals(before, contents());
        BulkLoadException e = singleFailure();
        assertInstanceOf(ValueOutOfRangeException.class, e);
        assertEquals("name", e.column());
        assertEquals(5, e.rowInBatch());
        assertEquals(25, e.rowInRun());
        assertEquals(WorkOutcome.ROLLED_BACK, e.outcome());
        assertEquals(20, e.stats().outputRows());
        assertEquals(2, e.stats().outputBatches());
        assertTrue(e.getMessage().contains("dbo." + table), e.getMessage());
        stopAndAssertNoArrowLeak();
    }

    @Test
    void batchTransactionKeepsTheBatchesCommittedBeforeAFailure() throws Exception {
        createIdName("nvarchar(5)");
        seedOld(3);
        runRoute(source(FIFTY_BAD_AT_25, 10), mssql("transaction=batch"), 3, null);
        assertEquals(23, count(table));
        BulkLoadException e = singleFailure();
        assertEquals(WorkOutcome.COMMITTED, e.outcome());
        assertEquals(20, e.stats().outputRows());
        stopAndAssertNoArrowLeak();
    }

    @Test
    void replaceFailureLeavesTargetAndNoStagingTable() throws Exception {
        createIdName("nvarchar(5)");
        seedOld(3);
        List<List<Object>> before = contents();
        runRoute(source(FIFTY_BAD_AT_25, 10), mssql("writeMode=replace&transaction=batch"), 3, null);
        assertEquals(before, contents());
        assertEquals(WorkOutcome.ROLLED_BACK, singleFailure().outcome());
        assertEquals(List.of(), query("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE '"
                + table + "[_][_]df[_]%'"));
        stopAndAssertNoArrowLeak();
    }

    protected BulkLoadException singleFailure() {
        assertEquals(1, failures.size(), () -> failures.toString());
        return failures.get(0);
    }

    // ---------------------------------------------------------------- mapping and value errors

    @Test
    void explicitColumnMapping() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([Key] int NOT NULL, [Label] nvarchar(20) NULL, [extra] int NULL)");
        runRoute(source("SELECT 7 AS a, 'seven' AS b", 10), mssql("columnMapping=a:Key,b:label"), 1, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(List.of(List.of(7, "seven")), query("SELECT [Key], [Label] FROM [dbo].[" + table + "]"));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void sourceColumnWithoutTargetFailsBeforeAnyRow() throws Exception {
        createIdName("nvarchar(20)");
        runRoute(source("SELECT 1 AS id, 'x' AS name, 3 AS surplus", 10), mssql(""), 1, null);
        BulkLoadException e = singleFailure();
        assertInstanceOf(ColumnMappingException.class, e);
        assertEquals("surplus", e.column());
        assertTrue(e.getMessage().contains("dbo." + table), e.getMessage());
        assertEquals(0, count(table));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void notNullTargetWithoutSourceFailsBeforeAnyRow() throws Exception {
        createIdName("nvarchar(20)");
        runRoute(source("SELECT 'x' AS name", 10), mssql(""), 1, null);
        BulkLoadException e = singleFailure();
        assertInstanceOf(ColumnMappingException.class, e);
        assertEquals("id", e.column());
        assertEquals(0, count(table));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void notNullTargetColumnsWithDefaultOrIdentityAreFilledByTheServer() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int IDENTITY(1,1) NOT NULL, [name] nvarchar(20) NOT NULL,"
                + " [flag] int NOT NULL DEFAULT 7, [note] nvarchar(10) NOT NULL DEFAULT 'new')");
        runRoute(source("SELECT 'n' || i AS name FROM range(0, 25) t(i)", 10), mssql(""), 3, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(25, count(table));
        List<List<Object>> rows = query("SELECT [id], [name], [flag], [note] FROM [dbo].[" + table + "] ORDER BY [id]");
        assertEquals(row(1, "n0", 7, "new"), rows.get(0));
        assertEquals(25, ((Number) rows.get(24).get(0)).intValue(), "identity values 1..25");
        assertTrue(rows.stream().allMatch(r -> r.get(2).equals(7) && r.get(3).equals("new")));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void valuesThatDoNotFitNameColumnAndRow() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [amount] decimal(5,2) NULL,"
                + " [small] tinyint NULL, [ts] datetime2(7) NULL)");
        Map<String, String> cases = Map.of(
                "amount", "SELECT i::INTEGER AS id, CASE WHEN i = 13 THEN 1234.567 ELSE 1.5 END::DECIMAL(10,3) AS amount"
                        + " FROM range(0, 20) t(i) ORDER BY i",
                "small", "SELECT i::INTEGER AS id, CASE WHEN i = 13 THEN 300 ELSE 1 END AS small"
                        + " FROM range(0, 20) t(i) ORDER BY i",
                "ts", "SELECT i::INTEGER AS id, CASE WHEN i = 13 THEN '2024-01-01 00:00:00.123456789'::TIMESTAMP_NS"
                        + " ELSE '2024-01-01 00:00:00.1234567'::TIMESTAMP_NS END AS ts FROM range(0, 20) t(i) ORDER BY i",
                "id", "SELECT CASE WHEN i = 13 THEN NULL ELSE i END::INTEGER AS id FROM range(0, 20) t(i) ORDER BY i");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            failures.clear();
            runRouteAgain(c.getValue());
            BulkLoadException e = singleFailure();
            assertInstanceOf(ValueOutOfRangeException.class, e, c.getKey());
            assertEquals(c.getKey(), e.column());
            assertEquals(3, e.rowInBatch(), c.getKey());
            assertEquals(13, e.rowInRun(), c.getKey());
            assertEquals(0, count(table), c.getKey());
        }
        stopAndAssertNoArrowLeak();
    }

    private void runRouteAgain(String sql) throws Exception {
        // Batch 0 (rows 0..9) passes, batch 1 fails at its row 3 = run row 13.
        runRoute(source(sql, 10), mssql(""), 2, null);
    }

    @Test
    void unsupportedArrowTypeFailsBeforeAnyRow() throws Exception {
        createIdName("nvarchar(20)");
        runRoute(source("SELECT 1 AS id, INTERVAL 1 DAY AS name", 10), mssql(""), 1, null);
        BulkLoadException e = singleFailure();
        assertInstanceOf(ColumnMappingException.class, e);
        assertInstanceOf(UnsupportedArrowTypeException.class, e.getCause());
        assertEquals("name", e.column());
        assertEquals(0, count(table));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void missingTableWithoutCreateTable() throws Exception {
        runRoute(source("SELECT 1 AS id", 10), mssql(""), 1, null);
        assertInstanceOf(ColumnMappingException.class, singleFailure());
        assertTrue(singleFailure().getMessage().contains("does not exist"), singleFailure().getMessage());
        stopAndAssertNoArrowLeak();
    }

    @Test
    void hostileIdentifiersAreQuoted() throws Exception {
        String odd = table + "]x;--'";
        exec("IF OBJECT_ID('dbo.[" + odd.replace("]", "]]").replace("'", "''") + "]') IS NOT NULL DROP TABLE [dbo].["
                + odd.replace("]", "]]") + "]");
        exec("CREATE TABLE [dbo].[" + odd.replace("]", "]]") + "] ([we\"ird]]col] int NOT NULL, [a;b--c] nvarchar(10))");
        DeltaFunnelMssqlEndpoint ep = context.getEndpoint(mssql("writeMode=replace"), DeltaFunnelMssqlEndpoint.class);
        ep.getConfiguration().setTable("dbo.[" + odd.replace("]", "]]") + "]");
        ep.getConfiguration().setColumnMapping("x:we\"ird]col,y:a;b--c");
        String src = source("SELECT 1 AS x, 'ok' AS y", 10);
        org.apache.camel.builder.NotifyBuilder done = new org.apache.camel.builder.NotifyBuilder(context).whenDone(1)
                .create();
        context.addRoutes(new org.apache.camel.builder.RouteBuilder() {
            @Override
            public void configure() {
                from(src).to(ep);
            }
        });
        assertTrue(done.matches(60, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(List.of(List.of(1, "ok")), query("SELECT * FROM [dbo].[" + odd.replace("]", "]]") + "]"));
        stopAndAssertNoArrowLeak();
    }

    // ---------------------------------------------------------------- identity columns

    /** The producer URI with keepIdentity=true (the direct writer hands such runs to the driver path). */
    protected String mssqlKeepIdentity(String options) {
        return mssql(options + "&keepIdentity=true").replace("bulkEncoderFallback=false", "bulkEncoderFallback=true");
    }

    protected void createIdentityTable() throws Exception {
        exec("IF OBJECT_ID('dbo." + table + "') IS NOT NULL DROP TABLE [dbo].[" + table + "]");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int IDENTITY(1,1) NOT NULL PRIMARY KEY, [name] nvarchar(20) NULL)");
        exec("INSERT INTO [dbo].[" + table + "] ([name]) VALUES (N'old')");
    }

    static final String IDS_100_TO_104 = "SELECT (100 + i)::INTEGER AS id, 'v' || i AS name FROM range(0, 5) t(i) ORDER BY i";

    @Test
    void identityColumnMappedWithoutKeepIdentityIsRefusedBeforeAnyRowInEveryWriteMode() throws Exception {
        for (String mode : List.of("append", "truncate", "replace", "merge&keyColumns=id")) {
            createIdentityTable();
            failures.clear();
            runRoute(source(IDS_100_TO_104, 10), mssql("writeMode=" + mode), 1, null);
            BulkLoadException e = singleFailure();
            assertInstanceOf(ColumnMappingException.class, e, mode);
            assertEquals("id", e.column(), mode);
            assertTrue(e.getMessage().contains("keepIdentity"), e.getMessage());
            assertEquals(List.of(row(1, "old")), contents(), mode);
        }
        assertEquals(List.of(), query("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE '"
                + table + "[_][_]df[_]%'"), "staging table left behind");
        stopAndAssertNoArrowLeak();
    }

    @Test
    void keepIdentityWritesTheSourceValuesInEveryWriteMode() throws Exception {
        Map<String, List<List<Object>>> expected = new java.util.LinkedHashMap<>();
        List<List<Object>> loaded = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            loaded.add(row(100 + i, "v" + i));
        }
        List<List<Object>> appended = new ArrayList<>(List.of(row(1, "old")));
        appended.addAll(loaded);
        expected.put("append", appended);
        expected.put("truncate", loaded);
        expected.put("replace", loaded);
        expected.put("append&transaction=batch", appended);
        for (Map.Entry<String, List<List<Object>>> c : expected.entrySet()) {
            createIdentityTable();
            failures.clear();
            runRoute(source(IDS_100_TO_104, 2), mssqlKeepIdentity("writeMode=" + c.getKey()), 3, null);
            assertTrue(failures.isEmpty(), () -> c.getKey() + ": " + failures);
            assertEquals(c.getValue(), contents(), c.getKey());
            // like SQL Server, the identity moves past the explicit values
            exec("INSERT INTO [dbo].[" + table + "] ([name]) VALUES (N'next')");
            assertEquals(row(105, "next"), contents().get(contents().size() - 1), c.getKey());
        }
        stopAndAssertNoArrowLeak();
    }

    @Test
    void keepIdentityMergeUpdatesByIdentityKeyAndInsertsExplicitValues() throws Exception {
        createIdentityTable();
        runRoute(source("SELECT CASE WHEN i = 0 THEN 1 ELSE 100 + i END::INTEGER AS id, 'v' || i AS name"
                + " FROM range(0, 5) t(i) ORDER BY i", 10), mssqlKeepIdentity("writeMode=merge&keyColumns=id"), 1, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(List.of(row(1, "v0"), row(101, "v1"), row(102, "v2"), row(103, "v3"), row(104, "v4")), contents());
        exec("INSERT INTO [dbo].[" + table + "] ([name]) VALUES (N'next')");
        assertEquals(row(105, "next"), contents().get(5));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void keepIdentityMergeWithTheIdentityOutsideTheKeyIsRefused() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int IDENTITY(1,1) NOT NULL, [name] nvarchar(20) NOT NULL"
                + " PRIMARY KEY)");
        runRoute(source(IDS_100_TO_104, 10), mssqlKeepIdentity("writeMode=merge&keyColumns=name"), 1, null);
        BulkLoadException e = singleFailure();
        assertInstanceOf(ColumnMappingException.class, e);
        assertEquals("id", e.column());
        assertTrue(e.getMessage().contains("8102"), e.getMessage());
        assertEquals(0, count(table));
        stopAndAssertNoArrowLeak();
    }

    // ---------------------------------------------------------------- errors raised by the server

    /** Runs {@code sql} into the test's table with {@code options}; returns the run's single failure. */
    protected BulkLoadException serverError(String sql, String options) throws Exception {
        failures.clear();
        runRoute(source(sql, 10), mssql("maxRetries=0" + (options.isEmpty() ? "" : "&" + options)), 1, null);
        return singleFailure();
    }

    static final String IDS_0_TO_4 = "SELECT i::INTEGER AS id, 'v' || i AS name FROM range(0, 5) t(i) ORDER BY i";

    @Test
    void duplicatePrimaryKeyIs2627AndLeavesTheTargetAsBefore() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL CONSTRAINT [PK_" + table + "] PRIMARY KEY,"
                + " [name] nvarchar(20) NULL)");
        exec("INSERT INTO [dbo].[" + table + "] ([id], [name]) VALUES (3, N'old')");
        BulkLoadException e = serverError(IDS_0_TO_4, "");
        assertEquals(2627, e.errorNumber());
        assertTrue(e.getMessage().contains("PK_" + table) && e.getMessage().contains("(3)"), e.getMessage());
        assertEquals(WorkOutcome.ROLLED_BACK, e.outcome());
        assertEquals(List.of(row(3, "old")), contents());
        stopAndAssertNoArrowLeak();
    }

    @Test
    void duplicateInAUniqueIndexIs2601() throws Exception {
        createIdName("nvarchar(20)");
        exec("CREATE UNIQUE INDEX [ux_" + table + "] ON [dbo].[" + table + "] ([id])");
        seedOld(1);
        exec("INSERT INTO [dbo].[" + table + "] ([id], [name]) VALUES (2, N'old')");
        BulkLoadException e = serverError(IDS_0_TO_4, "");
        assertEquals(2601, e.errorNumber());
        assertTrue(e.getMessage().contains("ux_" + table) && e.getMessage().contains("(2)"), e.getMessage());
        assertEquals(2, count(table));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void checkConstraintIsEnforcedOnlyWithCheckConstraints() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL CONSTRAINT [CK_" + table + "] CHECK ([id] < 3),"
                + " [name] nvarchar(20) NULL)");
        BulkLoadException e = serverError(IDS_0_TO_4, "checkConstraints=true");
        assertEquals(547, e.errorNumber());
        assertTrue(e.getMessage().contains("CK_" + table), e.getMessage());
        assertEquals(0, count(table));
        // SQL Server's bulk load skips CHECK constraints unless asked to check them
        runRoute(source(IDS_0_TO_4, 10), mssql(""), 1, null);
        assertEquals(1, failures.size(), () -> failures.toString());
        assertEquals(5, count(table));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void foreignKeyIsEnforcedOnlyWithCheckConstraintsAndBlocksTruncate() throws Exception {
        String child = table + "_c";
        exec("IF OBJECT_ID('dbo." + child + "') IS NOT NULL DROP TABLE [dbo].[" + child + "]");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL PRIMARY KEY, [name] nvarchar(20) NULL)");
        exec("CREATE TABLE [dbo].[" + child + "] ([id] int NOT NULL, [name] nvarchar(20) NULL,"
                + " CONSTRAINT [FK_" + child + "] FOREIGN KEY ([id]) REFERENCES [dbo].[" + table + "] ([id]))");
        exec("INSERT INTO [dbo].[" + table + "] ([id], [name]) VALUES (0, N'parent')");
        String uri = mssql("maxRetries=0&checkConstraints=true").replace("dbo." + table + "?", "dbo." + child + "?");
        runRoute(source(IDS_0_TO_4, 10), uri, 1, null);
        BulkLoadException e = singleFailure();
        assertEquals(547, e.errorNumber());
        assertTrue(e.getMessage().contains("FK_" + child), e.getMessage());
        assertEquals(0, count(child));
        // without checkConstraints the bulk load does not check the foreign key
        runRoute(source(IDS_0_TO_4, 10), uri.replace("checkConstraints=true", "checkConstraints=false"), 1, null);
        assertEquals(1, failures.size(), () -> failures.toString());
        assertEquals(5, count(child));
        // a referenced table cannot be truncated: writeMode=truncate and replace fail with 4712
        for (String mode : List.of("truncate", "replace")) {
            failures.clear();
            runRoute(source(IDS_0_TO_4, 10), mssql("maxRetries=0&writeMode=" + mode), 1, null);
            BulkLoadException t = singleFailure();
            assertEquals(4712, t.errorNumber(), mode);
            assertEquals(List.of(row(0, "parent")), contents(), mode);
        }
        exec("DROP TABLE [dbo].[" + child + "]");
        stopAndAssertNoArrowLeak();
    }

    @Test
    void mergeSourceWithTwoRowsForOneTargetRowIs8672() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL PRIMARY KEY, [name] nvarchar(20) NULL)");
        exec("INSERT INTO [dbo].[" + table + "] ([id], [name]) VALUES (1, N'old')");
        BulkLoadException e = serverError("SELECT 1 AS id, 'v' || i AS name FROM range(0, 2) t(i)",
                "writeMode=merge&keyColumns=id");
        assertEquals(8672, e.errorNumber());
        assertEquals(WorkOutcome.ROLLED_BACK, e.outcome());
        assertEquals(List.of(row(1, "old")), contents());
        stopAndAssertNoArrowLeak();
    }

    // ---------------------------------------------------------------- security

    @Test
    void passwordNeverShows() throws Exception {
        DeltaFunnelMssqlEndpoint ep = context.getEndpoint(mssql(""), DeltaFunnelMssqlEndpoint.class);
        assertTrue(!ep.toString().contains(password()), ep.toString());
        assertEquals(password(), ep.getConfiguration().getPassword());
        runRoute(source("SELECT 1 AS id", 10), mssql(""), 1, null);
        assertTrue(!singleFailure().getMessage().contains(password()));
        context.stop();
    }

    // ---------------------------------------------------------------- exactly-once state check under concurrency

    /**
     * Two runs planned from the same state version (0 -> 1) write at the same time. The state check
     * ({@code SELECT ... WITH (UPDLOCK, HOLDLOCK)} in the run's transaction) must let exactly one of them commit: the
     * other waits for the first's commit, then sees the moved version and rolls back with a
     * {@link StateConflictException}. A gate (this test's own UPDLOCK, HOLDLOCK read of the state row, in an open
     * transaction) holds both runs at the state check until both have written their rows; TABLOCK bulk loads into
     * a heap share the table (BU locks), so both really are inside their transactions when the gate opens.
     */
    @Test
    void concurrentRunsOfOneIncrementalStateApplyExactlyOnce() throws Exception {
        createIdName("nvarchar(20)");
        String state = table + "_state";
        exec("IF OBJECT_ID('dbo." + state + "') IS NOT NULL DROP TABLE [dbo].[" + state + "]");
        String key = "key_" + table;
        MssqlStateStore store = new MssqlStateStore(this::jdbc, "dbo." + state);
        store.loadedVersions(key); // creates the state table
        exec("INSERT INTO [dbo].[" + state + "] ([route], [source], [version], [run_id], [updated_at])"
                + " VALUES ('" + key + "', 'src', 0, 'seed', SYSUTCDATETIME())");
        IncrementalLoad load = new IncrementalLoad("dbo." + state, key, "snapshot",
                List.of(new IncrementalLoad.Source("t", "src", 0L, null, 1L, false)));
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (BufferAllocator allocator = new RootAllocator(); Connection gate = jdbc()) {
            gate.setAutoCommit(false);
            try (Statement st = gate.createStatement(); ResultSet rs = st.executeQuery("SELECT [version] FROM [dbo].["
                    + state + "] WITH (UPDLOCK, HOLDLOCK) WHERE [route] = '" + key + "' AND [source] = 'src'")) {
                assertTrue(rs.next());
                assertEquals(0L, rs.getLong(1));
            }
            List<Future<Exchange>> runs = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                // two endpoints (the timeout differs), so two producers and two connections
                String uri = mssql("tableLock=true&timeout=" + (60 + r));
                VectorSchemaRoot body = idNameBatch(allocator, 10);
                runs.add(pool.submit(() -> {
                    try {
                        Exchange e = new DefaultExchange(context);
                        e.getIn().setBody(body);
                        e.getIn().setHeader(DeltaFunnelConstants.INCREMENTAL, load);
                        return template.send(uri, e);
                    } finally {
                        body.close();
                    }
                }));
            }
            for (Future<Exchange> f : runs) {
                assertThrows(TimeoutException.class, () -> f.get(500, TimeUnit.MILLISECONDS),
                        "a run finished while the state row was locked by another transaction");
            }
            gate.commit();
            int applied = 0;
            int refused = 0;
            for (Future<Exchange> f : runs) {
                Exchange done = f.get(120, TimeUnit.SECONDS);
                Throwable t = done.getException();
                if (t == null) {
                    applied++;
                    continue;
                }
                while (t != null && !(t instanceof StateConflictException)) {
                    t = t.getCause();
                }
                assertInstanceOf(StateConflictException.class, t, () -> "expected a state conflict, got "
                        + done.getException());
                refused++;
            }
            assertEquals(1, applied, "exactly one run commits");
            assertEquals(1, refused, "the other is refused and rolled back");
            assertEquals(0, allocator.getAllocatedMemory());
        } finally {
            pool.shutdownNow();
        }
        assertEquals(10, count(table), "the rows are applied once");
        assertEquals(Map.of("src", 1L), store.loadedVersions(key));
        exec("DROP TABLE [dbo].[" + state + "]");
    }

    /** {@code rows} rows (id int, name varchar), ids 0..rows-1; the caller closes it. */
    protected static VectorSchemaRoot idNameBatch(BufferAllocator allocator, int rows) {
        IntVector id = new IntVector("id", allocator);
        VarCharVector name = new VarCharVector("name", allocator);
        id.allocateNew(rows);
        name.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
            id.set(i, i);
            name.setSafe(i, ("n" + i).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        VectorSchemaRoot root = new VectorSchemaRoot(List.of(id, name));
        root.setRowCount(rows);
        return root;
    }

    protected static List<Object> row(Object... values) {
        return new ArrayList<>(List.of(values));
    }
}
