package io.deltafunnel.mssql.direct;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ArrowColumnTypes;
import io.deltafunnel.emulator.fidelity.EmulatorServer;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.BatchCheck;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.Rejection;
import io.deltafunnel.mssql.bind.TargetBinding;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.mssql.bind.ValueOutOfRangeException;
import io.deltafunnel.mssql.channel.ArrowBulkData;
import io.deltafunnel.mssql.channel.BulkBatch;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The experimental direct writer against the emulator, differentially against the mssql-jdbc path. */
class DirectBulkWriterTest {

    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(b -> b.port(0).sinkMode(false));

    private BufferAllocator allocator;
    private final List<FieldVector> vectors = new ArrayList<>();

    @BeforeEach
    void setUp() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void tearDown() {
        vectors.forEach(FieldVector::close);
        assertEquals(0, allocator.getAllocatedMemory());
        allocator.close();
    }

    private <V extends FieldVector> V track(V v) {
        v.allocateNew();
        vectors.add(v);
        return v;
    }

    private static DirectOptions options() {
        return DirectTdsConnection.options().host("localhost").port(SERVER.emulator().port()).database("master")
                .user(SERVER.emulator().user()).password(SERVER.emulator().password()).trustServerCertificate(true);
    }

    private static Connection jdbc() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", SERVER.emulator().user());
        p.setProperty("password", SERVER.emulator().password());
        return DriverManager.getConnection(SERVER.emulator().jdbcUrl(), p);
    }

    private static final String COLUMNS = "(id int NOT NULL, i16 smallint, i32 int, i64 bigint, f64 float, b bit,"
            + " d38 decimal(38,10), d9 decimal(9,2), d18 decimal(18,4), d28 decimal(28,0), s nvarchar(4000),"
            + " m nvarchar(max), dt date, ts datetime2(6))";

    private static List<TargetColumn> targets() {
        int[] ord = {0};
        java.util.function.Function<Object[], TargetColumn> c = a -> new TargetColumn((String) a[0],
                (String) a[1], (Integer) a[2], (Integer) a[3], (Integer) a[4], (Integer) a[5], a.length < 7,
                ++ord[0]);
        return List.of(
                c.apply(new Object[] {"id", "int", null, 10, 0, null, false}),
                c.apply(new Object[] {"i16", "smallint", null, 5, 0, null}),
                c.apply(new Object[] {"i32", "int", null, 10, 0, null}),
                c.apply(new Object[] {"i64", "bigint", null, 19, 0, null}),
                c.apply(new Object[] {"f64", "float", null, 53, null, null}),
                c.apply(new Object[] {"b", "bit", null, null, null, null}),
                c.apply(new Object[] {"d38", "decimal", null, 38, 10, null}),
                c.apply(new Object[] {"d9", "decimal", null, 9, 2, null}),
                c.apply(new Object[] {"d18", "decimal", null, 18, 4, null}),
                c.apply(new Object[] {"d28", "decimal", null, 28, 0, null}),
                c.apply(new Object[] {"s", "nvarchar", 4000, null, null, null}),
                c.apply(new Object[] {"m", "nvarchar", -1, null, null, null}),
                c.apply(new Object[] {"dt", "date", null, null, null, null}),
                c.apply(new Object[] {"ts", "datetime2", null, null, null, 6}));
    }

    private static final String SUPPLEMENTARY = "\uD834\uDD1E clef \uD83D\uDE00 smile \u00FC\u4E2D";

    private VectorSchemaRoot edgeBatch() {
        IntVector id = track(new IntVector("id", allocator));
        SmallIntVector i16 = track(new SmallIntVector("i16", allocator));
        IntVector i32 = track(new IntVector("i32", allocator));
        BigIntVector i64 = track(new BigIntVector("i64", allocator));
        Float8Vector f64 = track(new Float8Vector("f64", allocator));
        BitVector b = track(new BitVector("b", allocator));
        DecimalVector d38 = track(new DecimalVector("d38", allocator, 38, 10));
        DecimalVector d9 = track(new DecimalVector("d9", allocator, 9, 2));
        DecimalVector d18 = track(new DecimalVector("d18", allocator, 18, 4));
        DecimalVector d28 = track(new DecimalVector("d28", allocator, 28, 0));
        VarCharVector s = track(new VarCharVector("s", allocator));
        VarCharVector m = track(new VarCharVector("m", allocator));
        DateDayVector dt = track(new DateDayVector("dt", allocator));
        TimeStampMicroVector ts = track(new TimeStampMicroVector("ts", allocator));

        BigDecimal max38 = new BigDecimal("9999999999999999999999999999.9999999999");
        // row 0: minimums
        id.setSafe(0, 0);
        i16.setSafe(0, Short.MIN_VALUE);
        i32.setSafe(0, Integer.MIN_VALUE);
        i64.setSafe(0, Long.MIN_VALUE);
        f64.setSafe(0, -Double.MAX_VALUE);
        b.setSafe(0, 0);
        d38.setSafe(0, max38.negate());
        d9.setSafe(0, new BigDecimal("-9999999.99"));
        d18.setSafe(0, new BigDecimal("-99999999999999.9999"));
        d28.setSafe(0, new BigDecimal("-9999999999999999999999999999"));
        s.setSafe(0, new byte[0]);
        m.setSafe(0, new byte[0]);
        dt.setSafe(0, (int) LocalDate.of(1, 1, 1).toEpochDay());
        ts.setSafe(0, micros(LocalDateTime.of(1, 1, 1, 0, 0, 0)));
        // row 1: maximums
        id.setSafe(1, 1);
        i16.setSafe(1, Short.MAX_VALUE);
        i32.setSafe(1, Integer.MAX_VALUE);
        i64.setSafe(1, Long.MAX_VALUE);
        f64.setSafe(1, Double.MAX_VALUE);
        b.setSafe(1, 1);
        d38.setSafe(1, max38);
        d9.setSafe(1, new BigDecimal("9999999.99"));
        d18.setSafe(1, new BigDecimal("99999999999999.9999"));
        d28.setSafe(1, new BigDecimal("9999999999999999999999999999"));
        s.setSafe(1, "x".repeat(3990).concat(SUPPLEMENTARY.substring(0, 10)).getBytes(StandardCharsets.UTF_8));
        m.setSafe(1, (SUPPLEMENTARY + "y".repeat(9000) + SUPPLEMENTARY).getBytes(StandardCharsets.UTF_8));
        dt.setSafe(1, (int) LocalDate.of(9999, 12, 31).toEpochDay());
        ts.setSafe(1, micros(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000)));
        // row 2: NULLs everywhere but id
        id.setSafe(2, 2);
        for (FieldVector v : List.of(i16, i32, i64, f64, b, d38, d9, d18, d28, s, m, dt, ts)) {
            v.setNull(2);
        }
        // row 3: ordinary values
        id.setSafe(3, 3);
        i16.setSafe(3, (short) -1);
        i32.setSafe(3, 0);
        i64.setSafe(3, 1L << 40);
        f64.setSafe(3, 1.5e-300);
        b.setSafe(3, 1);
        d38.setSafe(3, new BigDecimal("-0.0000000001"));
        d9.setSafe(3, new BigDecimal("0.01"));
        d18.setSafe(3, new BigDecimal("12345.6789"));
        d28.setSafe(3, new BigDecimal("18446744073709551616")); // 2^64: crosses the low word
        s.setSafe(3, SUPPLEMENTARY.getBytes(StandardCharsets.UTF_8));
        m.setSafe(3, "a".getBytes(StandardCharsets.UTF_8));
        dt.setSafe(3, (int) LocalDate.of(2024, 2, 29).toEpochDay());
        ts.setSafe(3, micros(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 123_456_000)));
        List<FieldVector> all = List.of(id, i16, i32, i64, f64, b, d38, d9, d18, d28, s, m, dt, ts);
        for (FieldVector v : all) {
            v.setValueCount(4);
        }
        VectorSchemaRoot root = new VectorSchemaRoot(all);
        root.setRowCount(4);
        return root;
    }

    private static long micros(LocalDateTime t) {
        return Math.addExact(Math.multiplyExact(t.toEpochSecond(ZoneOffset.UTC), 1_000_000L), t.getNano() / 1000);
    }

    private static List<BoundColumn> bind(VectorSchemaRoot root, List<TargetColumn> targets) {
        List<BoundColumn> out = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            Field f = root.getSchema().getFields().get(i);
            ArrowColumnType type = ArrowColumnTypes.forField(f);
            out.add(new BoundColumn(i, f.getName(), type, targets.get(i),
                    TargetBinding.of(type.kind(), targets.get(i), true)));
        }
        return out;
    }

    private static List<List<Object>> readBack(Connection c, String table) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM " + table
                + " ORDER BY id")) {
            ResultSetMetaData md = rs.getMetaData();
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= md.getColumnCount(); i++) {
                    row.add(rs.getObject(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    @Test
    void directRowsAreIdenticalToTheDriverPath() throws Exception {
        try (VectorSchemaRoot root = edgeBatch(); Connection c = jdbc()) {
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE dbo.diff_driver " + COLUMNS);
                st.execute("CREATE TABLE dbo.diff_direct " + COLUMNS);
            }
            List<TargetColumn> targets = targets();
            ArrowBulkData data = new ArrowBulkData(new BulkBatch(root, bind(root, targets), 0));
            assertNull(BatchCheck.first(root, data.columns()));
            try (SQLServerBulkCopy copy = new SQLServerBulkCopy(c)) {
                copy.setDestinationTableName("[dbo].[diff_driver]");
                for (int i = 0; i < targets.size(); i++) {
                    copy.addColumnMapping(i + 1, targets.get(i).name());
                }
                copy.writeToServer(data);
            }
            try (DirectTdsConnection direct = DirectTdsConnection.open(options())) {
                long rows = new DirectBulkWriter(direct).tableLock(true)
                        .write(new TableName("dbo", "diff_direct"), root, targets);
                assertEquals(4, rows);
            }
            List<List<Object>> viaDriver = readBack(c, "dbo.diff_driver");
            List<List<Object>> viaDirect = readBack(c, "dbo.diff_direct");
            assertEquals(4, viaDirect.size());
            assertEquals(viaDriver, viaDirect);
            // and both equal the source, not merely each other
            assertEquals(new BigDecimal("-9999999999999999999999999999.9999999999"), viaDirect.get(0).get(6));
            assertEquals(new BigDecimal("18446744073709551616"), viaDirect.get(3).get(9));
            assertEquals(Long.MIN_VALUE, viaDirect.get(0).get(3));
            assertEquals("", viaDirect.get(0).get(10));
            assertEquals(SUPPLEMENTARY, viaDirect.get(3).get(10));
            assertEquals(4000, ((String) viaDirect.get(1).get(10)).length());
            assertEquals(SUPPLEMENTARY + "y".repeat(9000) + SUPPLEMENTARY, viaDirect.get(1).get(11));
            assertEquals(java.sql.Date.valueOf("0001-01-01").toString(), viaDirect.get(0).get(12).toString());
            assertEquals("9999-12-31 23:59:59.999999", viaDirect.get(1).get(13).toString());
            assertEquals("1969-12-31 23:59:59.123456", viaDirect.get(3).get(13).toString());
            for (int i = 1; i < 14; i++) {
                assertEquals(null, viaDirect.get(2).get(i));
            }
        }
    }

    /**
     * An nvarchar column whose batch is all ASCII goes as varchar in the column's collation (declared so in INSERT
     * BULK, or the server would answer 4816), one byte per character; a column with non-ASCII text, and every column
     * with {@code asciiAsVarchar(false)}, as UTF-16. Both read back as the source.
     */
    @Test
    void asciiNvarcharGoesAsVarcharInTheColumnsCollationAndReadsBackAsTheSource() throws Exception {
        String columns = "(id int NOT NULL, a nvarchar(10), b nvarchar(max), c nvarchar(12) COLLATE"
                + " Latin1_General_100_CS_AS, d nvarchar(20))";
        List<String> a = java.util.Arrays.asList("abc", "", null, "0123456789");
        List<String> b = java.util.Arrays.asList("x".repeat(8000), "short", null, "");
        List<String> c = java.util.Arrays.asList("Mixed Case", "  spaces  ", "tab\there", null);
        List<String> d = java.util.Arrays.asList("plain", "caf\u00E9", null, "z");
        SERVER.emulator().captureBulkLoads(true);
        try (Connection jdbc = jdbc()) {
            for (boolean asVarchar : new boolean[] {true, false}) {
                String table = asVarchar ? "ascii_varchar" : "ascii_utf16";
                try (Statement st = jdbc.createStatement()) {
                    st.execute("CREATE TABLE dbo." + table + " " + columns);
                }
                IntVector id = track(new IntVector("id", allocator));
                List<FieldVector> all = new ArrayList<>(List.of(id));
                for (String name : new String[] {"a", "b", "c", "d"}) {
                    all.add(track(new VarCharVector(name, allocator)));
                }
                List<List<String>> values = List.of(a, b, c, d);
                for (int r = 0; r < 4; r++) {
                    id.setSafe(r, r);
                    for (int k = 0; k < 4; k++) {
                        String v = values.get(k).get(r);
                        VarCharVector vector = (VarCharVector) all.get(k + 1);
                        if (v == null) {
                            vector.setNull(r);
                        } else {
                            vector.setSafe(r, v.getBytes(StandardCharsets.UTF_8));
                        }
                    }
                }
                all.forEach(v -> v.setValueCount(4));
                VectorSchemaRoot root = new VectorSchemaRoot(all);
                root.setRowCount(4);
                List<TargetColumn> targets = List.of(
                        new TargetColumn("id", "int", null, 10, 0, null, false, 1),
                        new TargetColumn("a", "nvarchar", 10, null, null, null, true, 2,
                                "SQL_Latin1_General_CP1_CI_AS"),
                        new TargetColumn("b", "nvarchar", -1, null, null, null, true, 3,
                                "SQL_Latin1_General_CP1_CI_AS"),
                        new TargetColumn("c", "nvarchar", 12, null, null, null, true, 4,
                                "Latin1_General_100_CS_AS"),
                        new TargetColumn("d", "nvarchar", 20, null, null, null, true, 5,
                                "SQL_Latin1_General_CP1_CI_AS"));
                try (DirectTdsConnection direct = DirectTdsConnection.open(options())) {
                    assertEquals(4, new DirectBulkWriter(direct).asciiAsVarchar(asVarchar)
                            .write(new TableName("dbo", table), root, targets));
                }
                BulkStreams.Stream stream = BulkStreams.parse(SERVER.emulator().capturedBulkLoads().stream()
                        .filter(l -> table.equalsIgnoreCase(l.table())).findFirst().orElseThrow().payload());
                int[] varcharLengths = {10, 0xFFFF, 12};
                for (int k = 0; k < 3; k++) {
                    io.deltafunnel.tds.TypeInfo t = stream.columns().get(k + 1).type();
                    assertEquals(asVarchar ? io.deltafunnel.tds.TypeId.BIGVARCHAR : io.deltafunnel.tds.TypeId.NVARCHAR,
                            t.typeId(), table + ": column " + (k + 1));
                    if (asVarchar) {
                        assertEquals(varcharLengths[k], t.maxLength(), table + ": varchar length of " + (k + 1));
                    }
                }
                assertEquals(io.deltafunnel.tds.Collation.forName("Latin1_General_100_CS_AS"),
                        stream.columns().get(3).type().collation(), "the column's own collation");
                assertEquals(io.deltafunnel.tds.TypeId.NVARCHAR, stream.columns().get(4).type().typeId(),
                        "a column with non-ASCII text stays UTF-16");
                if (asVarchar) {
                    org.junit.jupiter.api.Assertions.assertArrayEquals(new byte[] {3, 0, 'a', 'b', 'c'},
                            stream.rows().get(0).get(1));
                    org.junit.jupiter.api.Assertions.assertArrayEquals(new byte[] {(byte) 0xFF, (byte) 0xFF},
                            stream.rows().get(2).get(1), "NULL");
                }
                List<List<Object>> rows = readBack(jdbc, "dbo." + table);
                assertEquals(4, rows.size());
                for (int r = 0; r < 4; r++) {
                    for (int k = 0; k < 4; k++) {
                        assertEquals(values.get(k).get(r), rows.get(r).get(k + 1), table + " row " + r + " column "
                                + (k + 1));
                    }
                }
                root.close();
            }
        } finally {
            SERVER.emulator().captureBulkLoads(false);
        }
    }

    @Test
    void tlsIsOnByDefaultAndCountedByTheServer() throws Exception {
        int before = SERVER.emulator().encryptedSessions();
        try (DirectTdsConnection direct = DirectTdsConnection.open(options())) {
            assertTrue(direct.encrypted());
            assertEquals(0, direct.executeBatch("SET NOCOUNT ON"));
            assertEquals(8000, direct.packetSize());
        }
        assertTrue(SERVER.emulator().encryptedSessions() > before);
    }

    @Test
    void encryptOffStaysPlaintext() throws Exception {
        try (DirectTdsConnection direct = DirectTdsConnection.open(options().encrypt(false))) {
            assertFalse(direct.encrypted());
            assertEquals(0, direct.executeBatch("SET NOCOUNT ON"));
        }
    }

    @Test
    void selfSignedCertificateIsRefusedWithoutTrustServerCertificate() {
        assertThrows(javax.net.ssl.SSLException.class,
                () -> DirectTdsConnection.open(options().trustServerCertificate(false)).close());
    }

    @Test
    void wrongPasswordIsATypedErrorWithoutThePassword() {
        String secret = "Wr0ng-Secret-" + System.nanoTime();
        DirectTdsException e = assertThrows(DirectTdsException.class,
                () -> DirectTdsConnection.open(options().password(secret)).close());
        assertEquals(18456, e.number());
        assertEquals(14, e.severity());
        assertFalse(e.getMessage().contains(secret));
        assertTrue(e.getMessage().contains("Login failed"), e.getMessage());
    }

    @Test
    void unsupportedPairNamesTheColumn() throws Exception {
        Float4Vector r = track(new Float4Vector("r32", allocator));
        r.setSafe(0, 1.5f);
        r.setValueCount(1);
        try (VectorSchemaRoot root = new VectorSchemaRoot(List.<FieldVector>of(r));
                DirectTdsConnection direct = DirectTdsConnection.open(options())) {
            root.setRowCount(1);
            DirectUnsupportedColumnException e = assertThrows(DirectUnsupportedColumnException.class,
                    () -> new DirectBulkWriter(direct).write(new TableName("dbo", "nothing"), root,
                            List.of(new TargetColumn("r32", "date", null, null, null, null, true, 1))));
            assertEquals("r32", e.column());
        }
    }

    @Test
    void valueThatDoesNotFitIsRejectedBeforeAnythingIsSent() throws Exception {
        VarCharVector s = track(new VarCharVector("s", allocator));
        s.setSafe(0, "fits".getBytes(StandardCharsets.UTF_8));
        s.setSafe(1, "too long".getBytes(StandardCharsets.UTF_8));
        s.setValueCount(2);
        try (VectorSchemaRoot root = new VectorSchemaRoot(List.<FieldVector>of(s)); Connection c = jdbc();
                DirectTdsConnection direct = DirectTdsConnection.open(options())) {
            root.setRowCount(2);
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE dbo.short_text (s nvarchar(5))");
            }
            ValueOutOfRangeException e = assertThrows(ValueOutOfRangeException.class,
                    () -> new DirectBulkWriter(direct).write(new TableName("dbo", "short_text"), root,
                            List.of(new TargetColumn("s", "nvarchar", 5, null, null, null, true, 1))));
            assertEquals(1, e.rowInBatch());
            assertEquals(Rejection.TOO_LONG, e.rejection().check());
            assertEquals("s", e.rejection().targetColumn());
            assertEquals(0, count(c, "dbo.short_text"));
            // the connection is still usable
            s.setSafe(1, "ok".getBytes(StandardCharsets.UTF_8));
            assertEquals(2, new DirectBulkWriter(direct).write(new TableName("dbo", "short_text"), root,
                    List.of(new TargetColumn("s", "nvarchar", 5, null, null, null, true, 1))));
            assertEquals(2, count(c, "dbo.short_text"));
        }
    }

    private static int count(Connection c, String table) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM " + table)) {
            rs.next();
            return rs.getInt(1);
        }
    }

    @Test
    void manyRandomRowsOverSmallPacketsMatchTheDriverPath() throws Exception {
        int n = 3000;
        java.util.Random rnd = new java.util.Random(42);
        IntVector id = track(new IntVector("id", allocator));
        BigIntVector i64 = track(new BigIntVector("i64", allocator));
        DecimalVector d20 = track(new DecimalVector("d20", allocator, 20, 5));
        DecimalVector widened = track(new DecimalVector("widened", allocator, 10, 2));
        VarCharVector s = track(new VarCharVector("s", allocator));
        TimeStampMicroVector ts = track(new TimeStampMicroVector("ts", allocator));
        DateDayVector dt = track(new DateDayVector("dt", allocator));
        Float8Vector f = track(new Float8Vector("f", allocator));
        BitVector b = track(new BitVector("b", allocator));
        String alphabet = "abcXYZ \u00E9\u4E2D\uD83D\uDE00\uD834\uDD1E";
        for (int r = 0; r < n; r++) {
            id.setSafe(r, r);
            if (rnd.nextInt(10) == 0) {
                for (FieldVector v : List.of(i64, d20, widened, s, ts, dt, f, b)) {
                    v.setNull(r);
                }
                continue;
            }
            i64.setSafe(r, rnd.nextLong());
            d20.setSafe(r, new BigDecimal(new java.math.BigInteger(60, rnd), 5).multiply(
                    BigDecimal.valueOf(rnd.nextBoolean() ? 1 : -1)));
            widened.setSafe(r, BigDecimal.valueOf(rnd.nextInt(), 2));
            StringBuilder sb = new StringBuilder();
            int len = rnd.nextInt(20);
            while (sb.length() < len) {
                int cp = alphabet.codePointAt(alphabet.offsetByCodePoints(0,
                        rnd.nextInt(alphabet.codePointCount(0, alphabet.length()))));
                sb.appendCodePoint(cp);
            }
            s.setSafe(r, sb.toString().getBytes(StandardCharsets.UTF_8));
            ts.setSafe(r, (rnd.nextLong() % 200_000_000_000L) * 1000L); // whole milliseconds, around 1970
            dt.setSafe(r, rnd.nextInt(2_000_000) - 700_000);
            f.setSafe(r, rnd.nextGaussian() * 1e10);
            b.setSafe(r, rnd.nextInt(2));
        }
        List<FieldVector> all = List.of(id, i64, d20, widened, s, ts, dt, f, b);
        for (FieldVector v : all) {
            v.setValueCount(n);
        }
        List<TargetColumn> targets = List.of(
                new TargetColumn("id", "int", null, 10, 0, null, false, 1),
                new TargetColumn("i64", "bigint", null, 19, 0, null, true, 2),
                new TargetColumn("d20", "decimal", null, 20, 5, null, true, 3),
                new TargetColumn("widened", "numeric", null, 12, 4, null, true, 4),
                new TargetColumn("s", "nvarchar", 50, null, null, null, true, 5),
                new TargetColumn("ts", "datetime2", null, null, null, 3, true, 6),
                new TargetColumn("dt", "date", null, null, null, null, true, 7),
                new TargetColumn("f", "float", null, 53, null, null, true, 8),
                new TargetColumn("b", "bit", null, null, null, null, true, 9));
        String columns = "(id int NOT NULL, i64 bigint, d20 decimal(20,5), widened numeric(12,4), s nvarchar(50),"
                + " ts datetime2(3), dt date, f float, b bit)";
        try (VectorSchemaRoot root = new VectorSchemaRoot(all); Connection c = jdbc()) {
            root.setRowCount(n);
            try (Statement st = c.createStatement()) {
                st.execute("CREATE TABLE dbo.rnd_driver " + columns);
                st.execute("CREATE TABLE dbo.rnd_direct " + columns);
            }
            ArrowBulkData data = new ArrowBulkData(new BulkBatch(root, bind(root, targets), 0));
            assertNull(BatchCheck.first(root, data.columns()));
            try (SQLServerBulkCopy copy = new SQLServerBulkCopy(c)) {
                copy.setDestinationTableName("[dbo].[rnd_driver]");
                for (int i = 0; i < targets.size(); i++) {
                    copy.addColumnMapping(i + 1, targets.get(i).name());
                }
                copy.writeToServer(data);
            }
            try (DirectTdsConnection direct = DirectTdsConnection.open(options().packetSize(512))) {
                assertEquals(512, direct.packetSize());
                assertEquals(n, new DirectBulkWriter(direct).write(new TableName("dbo", "rnd_direct"), root, targets));
            }
            List<List<Object>> viaDriver = readBack(c, "dbo.rnd_driver");
            List<List<Object>> viaDirect = readBack(c, "dbo.rnd_direct");
            assertEquals(n, viaDirect.size());
            assertEquals(viaDriver, viaDirect);
        }
    }

    @Test
    void serverErrorDuringBulkLoadIsTyped() throws Exception {
        IntVector v = track(new IntVector("missing_col", allocator));
        v.setSafe(0, 1);
        v.setValueCount(1);
        try (VectorSchemaRoot root = new VectorSchemaRoot(List.<FieldVector>of(v));
                DirectTdsConnection direct = DirectTdsConnection.open(options())) {
            root.setRowCount(1);
            DirectTdsException e = assertThrows(DirectTdsException.class,
                    () -> new DirectBulkWriter(direct).write(new TableName("dbo", "no_such_table"), root,
                            List.of(new TargetColumn("missing_col", "int", null, 10, 0, null, true, 1))));
            assertTrue(e.number() > 0, e.getMessage());
        }
    }
}
