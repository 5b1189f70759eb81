package io.deltafunnel.mssql.channel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ArrowColumnTypes;
import io.deltafunnel.arrow.read.ValueKind;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.bind.BatchCheck;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.TargetBinding;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.mssql.bind.ValueOutOfRangeException;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.UInt1Vector;
import org.apache.arrow.vector.UInt8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.complex.writer.BaseWriter;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ArrowBulkDataTest {

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

    static TargetColumn col(String name, String type, Integer len, Integer prec, Integer scale, Integer dtp,
            boolean nullable) {
        return new TargetColumn(name, type, len, prec, scale, dtp, nullable, 1);
    }

    static TargetColumn col(String name, String type) {
        return col(name, type, null, null, null, null, true);
    }

    /** Binds vector i to target t (temporal as text, the driver default). */
    private static List<BoundColumn> bind(VectorSchemaRoot root, TargetColumn... targets) {
        return bind(root, true, targets);
    }

    private static List<BoundColumn> bind(VectorSchemaRoot root, boolean asText, TargetColumn... targets) {
        List<BoundColumn> out = new ArrayList<>();
        for (int i = 0; i < targets.length; i++) {
            Field f = root.getSchema().getFields().get(i);
            ArrowColumnType type = ArrowColumnTypes.forField(f);
            out.add(new BoundColumn(i, f.getName(), type, targets[i], TargetBinding.of(type.kind(), targets[i], asText)));
        }
        return out;
    }

    private VectorSchemaRoot root(int rows, FieldVector... vs) {
        for (FieldVector v : vs) {
            v.setValueCount(rows);
        }
        VectorSchemaRoot root = new VectorSchemaRoot(Arrays.asList(vs));
        root.setRowCount(rows);
        return root;
    }

    private static List<Object[]> rows(ArrowBulkData data) throws Exception {
        List<Object[]> out = new ArrayList<>();
        while (data.next()) {
            out.add(data.getRowData().clone());
        }
        return out;
    }

    @Test
    void integersAndBooleans() throws Exception {
        TinyIntVector i8 = track(new TinyIntVector("i8", allocator));
        SmallIntVector i16 = track(new SmallIntVector("i16", allocator));
        IntVector i32 = track(new IntVector("i32", allocator));
        BigIntVector i64 = track(new BigIntVector("i64", allocator));
        UInt1Vector u8 = track(new UInt1Vector("u8", allocator));
        UInt8Vector u64 = track(new UInt8Vector("u64", allocator));
        BitVector b = track(new BitVector("b", allocator));
        i8.set(0, -128);
        i16.set(0, Short.MIN_VALUE);
        i32.set(0, Integer.MIN_VALUE);
        i64.set(0, Long.MIN_VALUE);
        u8.set(0, (byte) 0xFF);
        u64.set(0, -1L);
        b.set(0, 1);
        i8.setNull(1);
        i16.setNull(1);
        i32.setNull(1);
        i64.setNull(1);
        u8.setNull(1);
        u64.setNull(1);
        b.setNull(1);
        VectorSchemaRoot root = root(2, i8, i16, i32, i64, u8, u64, b);
        ArrowBulkData data = new ArrowBulkData(new BulkBatch(root, bind(root, col("i8", "smallint"), col("i16", "smallint"),
                col("i32", "int"), col("i64", "bigint"), col("u8", "tinyint"),
                col("u64", "decimal", null, 20, 0, null, true), col("b", "bit")), 0));
        assertNull(BatchCheck.first(root, data.columns()));
        assertEquals(Types.SMALLINT, data.getColumnType(1));
        assertEquals(Types.TINYINT, data.getColumnType(5));
        assertEquals(Types.DECIMAL, data.getColumnType(6));
        assertEquals(20, data.getPrecision(6));
        assertEquals("i32", data.getColumnName(3));
        List<Object[]> rows = rows(data);
        assertArrayEquals(new Object[] {(short) -128, Short.MIN_VALUE, Integer.MIN_VALUE, Long.MIN_VALUE, (short) 255,
            new BigDecimal("18446744073709551615"), true}, rows.get(0));
        assertArrayEquals(new Object[7], rows.get(1));
    }

    @Test
    void rowArrayIsReused() throws Exception {
        IntVector v = track(new IntVector("v", allocator));
        v.set(0, 1);
        v.set(1, 2);
        VectorSchemaRoot root = root(2, v);
        ArrowBulkData data = new ArrowBulkData(new BulkBatch(root, bind(root, col("v", "int")), 0));
        assertTrue(data.next());
        Object[] first = data.getRowData();
        assertEquals(1, first[0]);
        assertTrue(data.next());
        assertTrue(first == data.getRowData());
        assertEquals(2, first[0]);
        assertFalse(data.next());
    }

    @Test
    void decimalsFloatsStringsBinary() throws Exception {
        DecimalVector d = track(new DecimalVector("d", allocator, 18, 2));
        Decimal256Vector d256 = track(new Decimal256Vector("d256", allocator, 40, 3));
        Float4Vector f4 = track(new Float4Vector("f4", allocator));
        Float8Vector f8 = track(new Float8Vector("f8", allocator));
        VarCharVector s = track(new VarCharVector("s", allocator));
        VarBinaryVector bin = track(new VarBinaryVector("bin", allocator));
        d.set(0, new BigDecimal("-9999999999999999.99"));
        d256.set(0, new BigDecimal("12345678901234567890123456789012345.678"));
        f4.set(0, 0.1f);
        f8.set(0, Double.MIN_VALUE);
        s.setSafe(0, "héllo 😀".getBytes(StandardCharsets.UTF_8));
        bin.setSafe(0, new byte[] {0, 1, (byte) 0xFF});
        VectorSchemaRoot root = root(1, d, d256, f4, f8, s, bin);
        ArrowBulkData data = new ArrowBulkData(new BulkBatch(root, bind(root, col("d", "decimal", null, 18, 2, null, true),
                col("d256", "decimal", null, 38, 3, null, true), col("f4", "real"), col("f8", "float"),
                col("s", "nvarchar", 8, null, null, null, true), col("bin", "varbinary", 3, null, null, null, true)), 0));
        assertNull(BatchCheck.first(root, data.columns()));
        Object[] row = rows(data).get(0);
        assertEquals(new BigDecimal("-9999999999999999.99"), row[0]);
        assertEquals(new BigDecimal("12345678901234567890123456789012345.678"), row[1]);
        assertEquals(0.1f, row[2]);
        assertEquals(Double.MIN_VALUE, row[3]);
        assertEquals("héllo 😀", row[4]);
        assertArrayEquals(new byte[] {0, 1, (byte) 0xFF}, (byte[]) row[5]);
        assertEquals(Types.NVARCHAR, data.getColumnType(5));
        assertEquals(8, data.getPrecision(5));
    }

    @Test
    void temporalAsText() throws Exception {
        DateDayVector date = track(new DateDayVector("date", allocator));
        TimeNanoVector time = track(new TimeNanoVector("time", allocator));
        TimeStampNanoVector ts = track(new TimeStampNanoVector("ts", allocator));
        TimeStampMicroTZVector tz = track(new TimeStampMicroTZVector("tz", allocator, "+01:30"));
        TimeStampMicroVector old = track(new TimeStampMicroVector("old", allocator));
        date.set(0, (int) java.time.LocalDate.of(2024, 2, 29).toEpochDay());
        time.set(0, java.time.LocalTime.of(13, 14, 15, 123_456_700).toNanoOfDay());
        ts.set(0, java.time.LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_700)
                .toEpochSecond(java.time.ZoneOffset.UTC) * 1_000_000_000L + 123_456_700);
        tz.set(0, java.time.Instant.parse("2024-01-02T03:04:05.123456Z").getEpochSecond() * 1_000_000L + 123_456);
        old.set(0, java.time.LocalDateTime.of(1, 1, 1, 0, 0).toEpochSecond(java.time.ZoneOffset.UTC) * 1_000_000L);
        VectorSchemaRoot root = root(1, date, time, ts, tz, old);
        ArrowBulkData data = new ArrowBulkData(new BulkBatch(root, bind(root, col("date", "date"),
                col("time", "time", null, null, null, 7, true), col("ts", "datetime2", null, null, null, 7, true),
                col("tz", "datetimeoffset", null, null, null, 7, true),
                col("old", "datetime2", null, null, null, 0, true)), 0));
        assertNull(BatchCheck.first(root, data.columns()));
        Object[] row = rows(data).get(0);
        assertEquals("2024-02-29", row[0]);
        assertEquals("13:14:15.1234567", row[1]);
        assertEquals("2024-01-02 03:04:05.1234567", row[2]);
        assertEquals("2024-01-02 04:34:05.1234560 +01:30", row[3]);
        assertEquals("0001-01-01 00:00:00", row[4]);
        assertEquals(Types.TIMESTAMP, data.getColumnType(3));
        assertEquals(7, data.getScale(3));
        assertEquals(27, data.getPrecision(3));
        assertEquals(34, data.getPrecision(4));
        assertEquals(16, data.getPrecision(2));
    }

    @Test
    void nativeTimeIsATimestampWithAllNanos() throws Exception {
        TimeMicroVector time = track(new TimeMicroVector("time", allocator));
        time.set(0, java.time.LocalTime.of(23, 59, 59, 999_999_000).toNanoOfDay() / 1000);
        VectorSchemaRoot root = root(1, time);
        ArrowBulkData data = new ArrowBulkData(new BulkBatch(root,
                bind(root, false, col("time", "time", null, null, null, 6, true)), 0));
        Object v = rows(data).get(0)[0];
        assertTrue(v instanceof Timestamp, String.valueOf(v));
        assertEquals(999_999_000, ((Timestamp) v).getNanos());
    }

    @Test
    void uuidsFromStringsAndExtension() throws Exception {
        VarCharVector s = track(new VarCharVector("s", allocator));
        FixedSizeBinaryVector raw = new FixedSizeBinaryVector(new Field("u",
                new org.apache.arrow.vector.types.pojo.FieldType(true, new org.apache.arrow.vector.types.pojo.ArrowType
                        .FixedSizeBinary(16), null, java.util.Map.of(ArrowColumnTypes.EXTENSION_NAME_KEY, "arrow.uuid")),
                null), allocator);
        track(raw);
        java.util.UUID uuid = java.util.UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e");
        s.setSafe(0, uuid.toString().getBytes(StandardCharsets.UTF_8));
        raw.set(0, java.nio.ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits())
                .putLong(uuid.getLeastSignificantBits()).array());
        VectorSchemaRoot root = root(1, s, raw);
        ArrowBulkData data = new ArrowBulkData(new BulkBatch(root, bind(root, col("s", "uniqueidentifier"),
                col("u", "uniqueidentifier")), 0));
        assertNull(BatchCheck.first(root, data.columns()));
        Object[] row = rows(data).get(0);
        assertEquals("0F8FAD5B-D9CB-469F-A165-70867728950E", row[0]);
        assertEquals("0F8FAD5B-D9CB-469F-A165-70867728950E", row[1]);
    }

    @Test
    void listsAndStructsAsJson() throws Exception {
        ListVector list = ListVector.empty("l", allocator);
        vectors.add(list);
        UnionListWriter w = list.getWriter();
        w.setPosition(0);
        w.startList();
        w.writeInt(1);
        w.writeInt(2);
        w.endList();
        w.setPosition(1);
        w.startList();
        w.endList();
        list.setNull(2);
        StructVector struct = StructVector.empty("st", allocator);
        vectors.add(struct);
        BaseWriter.StructWriter sw = struct.getWriter();
        for (int i = 0; i < 3; i++) {
            sw.setPosition(i);
            sw.start();
            sw.integer("a").writeInt(i);
            sw.end();
        }
        struct.setValueCount(3);
        VectorSchemaRoot root = new VectorSchemaRoot(List.of(list, struct));
        list.setValueCount(3);
        root.setRowCount(3);
        ArrowBulkData data = new ArrowBulkData(new BulkBatch(root, bind(root, col("l", "nvarchar", -1, null, null, null, true),
                col("st", "nvarchar", -1, null, null, null, true)), 0));
        List<Object[]> rows = rows(data);
        assertEquals("[1,2]", rows.get(0)[0]);
        assertEquals("[]", rows.get(1)[0]);
        assertNull(rows.get(2)[0]);
        assertEquals("{\"a\":0}", rows.get(0)[1]);
    }

    @Test
    void remainingArrowTypes() throws Exception {
        org.apache.arrow.vector.DateMilliVector d64 = track(new org.apache.arrow.vector.DateMilliVector("d64", allocator));
        org.apache.arrow.vector.TimeSecVector t32 = track(new org.apache.arrow.vector.TimeSecVector("t32", allocator));
        org.apache.arrow.vector.TimeStampSecVector tsec = track(new org.apache.arrow.vector.TimeStampSecVector("tsec",
                allocator));
        org.apache.arrow.vector.TimeStampMilliVector tms = track(new org.apache.arrow.vector.TimeStampMilliVector("tms",
                allocator));
        org.apache.arrow.vector.Float2Vector f16 = track(new org.apache.arrow.vector.Float2Vector("f16", allocator));
        org.apache.arrow.vector.LargeVarCharVector large = track(new org.apache.arrow.vector.LargeVarCharVector("large",
                allocator));
        FixedSizeBinaryVector fixed = track(new FixedSizeBinaryVector("fixed", allocator, 2));
        org.apache.arrow.vector.UInt2Vector u16 = track(new org.apache.arrow.vector.UInt2Vector("u16", allocator));
        org.apache.arrow.vector.UInt4Vector u32 = track(new org.apache.arrow.vector.UInt4Vector("u32", allocator));
        d64.set(0, 86_400_000L * 19_782);
        t32.set(0, 3661);
        tsec.set(0, -1);
        tms.set(0, 1_500);
        f16.setWithPossibleTruncate(0, 1.5f);
        large.setSafe(0, "large".getBytes(StandardCharsets.UTF_8));
        fixed.set(0, new byte[] {7, 8});
        u16.set(0, 65_535);
        u32.set(0, -1);
        VectorSchemaRoot root = root(1, d64, t32, tsec, tms, f16, large, fixed, u16, u32);
        ArrowBulkData data = new ArrowBulkData(new BulkBatch(root, bind(root, col("d64", "date"),
                col("t32", "time", null, null, null, 0, true), col("tsec", "datetime2", null, null, null, 0, true),
                col("tms", "datetime", null, null, null, 3, true), col("f16", "real"), col("large", "nvarchar", -1,
                        null, null, null, true), col("fixed", "binary", 2, null, null, null, true), col("u16", "int"),
                col("u32", "bigint")), 0));
        assertNull(BatchCheck.first(root, data.columns()));
        Object[] row = rows(data).get(0);
        assertEquals("2024-02-29", row[0]);
        assertEquals("01:01:01", row[1]);
        assertEquals("1969-12-31 23:59:59", row[2]);
        assertEquals("1970-01-01 00:00:01.500", row[3]);
        assertEquals(1.5f, row[4]);
        assertEquals("large", row[5]);
        assertArrayEquals(new byte[] {7, 8}, (byte[]) row[6]);
        assertEquals(65_535, row[7]);
        assertEquals(4_294_967_295L, row[8]);
    }

    @Test
    void mapsAsJsonObjects() throws Exception {
        org.apache.arrow.vector.complex.MapVector map = org.apache.arrow.vector.complex.MapVector.empty("m", allocator,
                false);
        vectors.add(map);
        org.apache.arrow.vector.complex.impl.UnionMapWriter w = map.getWriter();
        w.setPosition(0);
        w.startMap();
        w.startEntry();
        w.key().integer().writeInt(1);
        w.value().varChar().writeVarChar("a\"b");
        w.endEntry();
        w.endMap();
        w.setValueCount(1);
        VectorSchemaRoot root = new VectorSchemaRoot(List.of(map));
        root.setRowCount(1);
        ArrowBulkData data = new ArrowBulkData(new BulkBatch(root,
                bind(root, col("m", "nvarchar", -1, null, null, null, true)), 0));
        assertEquals("{\"1\":\"a\\\"b\"}", rows(data).get(0)[0]);
    }

    @Test
    void datetimeTargetsOnlyTakeExactValues() {
        TimeStampMicroVector ts = track(new TimeStampMicroVector("ts", allocator));
        ts.set(0, 3_000);
        ts.set(1, 7_000);
        ts.set(2, 1_000);
        ValueOutOfRangeException r = reject(root(3, ts), col("ts", "datetime", null, null, null, 3, true), 0);
        assertEquals(2, r.rejection().row());
    }

    // ---- validation: every failure names column and row ----

    private static final BulkLoadException.Context CONTEXT = BulkLoadException.Context.of("dbo.t", null,
            HandoffStats.ZERO);

    /** The failure for the first value that does not fit (the batch's first row is row firstRowInRun of the run). */
    private ValueOutOfRangeException reject(VectorSchemaRoot root, TargetColumn target, long firstRowInRun) {
        List<BoundColumn> columns = bind(root, target);
        ValueOutOfRangeException e = assertThrows(ValueOutOfRangeException.class,
                () -> BatchCheck.requireAllFit(root, columns, firstRowInRun, "", CONTEXT));
        assertEquals(BatchCheck.first(root, columns), e.rejection());
        assertEquals(e.rejection().row(), e.rowInBatch());
        assertEquals(e.rejection().sourceColumn(), e.column());
        return e;
    }

    @Test
    void stringLongerThanTarget() {
        VarCharVector s = track(new VarCharVector("name", allocator));
        s.setSafe(0, "0123456789".getBytes(StandardCharsets.UTF_8));
        s.setSafe(1, "01234567890".getBytes(StandardCharsets.UTF_8));
        ValueOutOfRangeException r = reject(root(2, s), col("name", "nvarchar", 10, null, null, null, true), 100);
        assertEquals("name", r.rejection().sourceColumn());
        assertEquals(1, r.rejection().row());
        assertEquals(101, r.rowInRun());
        assertTrue(r.getMessage().contains("nvarchar(10)"), r.getMessage());
    }

    @Test
    void decimalScaleAndPrecision() {
        DecimalVector d = track(new DecimalVector("amount", allocator, 10, 3));
        d.set(0, new BigDecimal("123.450"));
        d.set(1, new BigDecimal("1234.567"));
        ValueOutOfRangeException r = reject(root(2, d), col("amount", "decimal", null, 5, 2, null, true), 0);
        assertEquals(1, r.rejection().row());
        assertTrue(r.getMessage().contains("round"), r.getMessage());

        DecimalVector big = track(new DecimalVector("big", allocator, 10, 2));
        big.set(0, new BigDecimal("1234.50"));
        ValueOutOfRangeException r2 = reject(root(1, big), col("big", "decimal", null, 5, 2, null, true), 0);
        assertEquals(0, r2.rejection().row());
        assertTrue(r2.getMessage().contains("decimal(5,2)"), r2.getMessage());
    }

    @Test
    void decimal256BeyondThirtyEightDigits() {
        Decimal256Vector d = track(new Decimal256Vector("d", allocator, 40, 0));
        d.set(0, new BigDecimal("1234567890123456789012345678901234567890"));
        ValueOutOfRangeException r = reject(root(1, d), col("d", "decimal", null, 38, 0, null, true), 0);
        assertEquals("d", r.rejection().sourceColumn());
    }

    @Test
    void subHundredNanosecondDigits() {
        TimeStampNanoVector ts = track(new TimeStampNanoVector("ts", allocator));
        ts.set(0, 1_700_000_000_123_456_700L);
        ts.set(1, 1_700_000_000_123_456_789L);
        ValueOutOfRangeException r = reject(root(2, ts), col("ts", "datetime2", null, null, null, 7, true), 5);
        assertEquals(1, r.rejection().row());
        assertEquals(6, r.rowInRun());
        assertTrue(r.getMessage().contains("fractional"), r.getMessage());
    }

    @Test
    void tinyintRangeAndNotNull() {
        IntVector v = track(new IntVector("small", allocator));
        v.set(0, 255);
        v.set(1, 300);
        ValueOutOfRangeException r = reject(root(2, v), col("small", "tinyint"), 0);
        assertEquals(1, r.rejection().row());
        assertTrue(r.getMessage().contains("300"), r.getMessage());

        IntVector n = track(new IntVector("req", allocator));
        n.set(0, 1);
        n.setNull(1);
        ValueOutOfRangeException r2 = reject(root(2, n), col("req", "int", null, null, null, null, false), 0);
        assertEquals(1, r2.rejection().row());
        assertTrue(r2.getMessage().contains("NOT NULL"), r2.getMessage());
    }

    @Test
    void floatsWithoutSqlServerRepresentation() {
        Float8Vector f = track(new Float8Vector("f", allocator));
        f.set(0, Double.NaN);
        assertEquals(0, reject(root(1, f), col("f", "float"), 0).rejection().row());
        Float8Vector g = track(new Float8Vector("g", allocator));
        g.set(0, 0.5);
        g.set(1, 0.1);
        assertEquals(1, reject(root(2, g), col("g", "real"), 0).rejection().row());
    }

    @Test
    void incompatibleTargetTypeIsRefusedAtBinding() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TargetBinding.of(ValueKind.STRING, col("x", "int"), true));
        assertTrue(e.getMessage().contains("int"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> TargetBinding.of(ValueKind.INTEGER, col("x", "xml"), true));
    }
}
