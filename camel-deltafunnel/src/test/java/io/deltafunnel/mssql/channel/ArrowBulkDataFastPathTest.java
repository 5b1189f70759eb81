package io.deltafunnel.mssql.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ArrowColumnTypes;
import io.deltafunnel.arrow.read.TextColumnTypes;
import io.deltafunnel.mssql.bind.BatchCheck;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.Rejection;
import io.deltafunnel.mssql.bind.TargetBinding;
import io.deltafunnel.mssql.bind.TargetColumn;

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
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The raw-value fast paths of the adapter (Decimal128 read as longs, UTF-8 length check without decoding, epoch-day
 * dates, raw microsecond timestamps) give exactly what the general path gives, and every value the fast path does not
 * accept still reaches the general check with its message.
 */
class ArrowBulkDataFastPathTest {

    private final BufferAllocator allocator = new RootAllocator();
    private final List<FieldVector> vectors = new ArrayList<>();

    @AfterEach
    void tearDown() {
        vectors.forEach(FieldVector::close);
        allocator.close();
    }

    private <V extends FieldVector> V track(V v) {
        v.allocateNew();
        vectors.add(v);
        return v;
    }

    private static TargetColumn col(String type, Integer len, Integer prec, Integer scale, Integer dtp) {
        return new TargetColumn("c", type, len, prec, scale, dtp, true, 1);
    }

    /** Validates and reads the single column of {@code v} (rows values) into {@code target}. */
    private static List<Object> load(FieldVector v, int rows, TargetColumn target) throws Exception {
        v.setValueCount(rows);
        VectorSchemaRoot root = new VectorSchemaRoot(List.of(v));
        root.setRowCount(rows);
        Field f = v.getField();
        ArrowColumnType type = ArrowColumnTypes.forField(f);
        BoundColumn bound = new BoundColumn(0, f.getName(), type, target, TargetBinding.of(type.kind(), target, true));
        Rejection rejected = BatchCheck.first(root, List.of(bound));
        if (rejected != null) {
            throw new Rejected(rejected);
        }
        ArrowBulkData data = new ArrowBulkData(new BulkBatch(root, List.of(bound), 0));
        List<Object> out = new ArrayList<>();
        while (data.next()) {
            out.add(data.getRowData()[0]);
        }
        return out;
    }

    /** What {@link #load} fails with when the batch check rejects a value. */
    private static final class Rejected extends RuntimeException {
        final transient Rejection rejection;

        Rejected(Rejection rejection) {
            super(rejection.reason());
            this.rejection = rejection;
        }
    }

    private static String rejection(FieldVector v, int rows, TargetColumn target) {
        return assertThrows(Rejected.class, () -> load(v, rows, target)).getMessage();
    }

    @Test
    void decimalsFromLongsAndBeyond() throws Exception {
        DecimalVector d = track(new DecimalVector("d", allocator, 38, 2));
        d.set(0, new BigDecimal("0.05"));
        d.set(1, new BigDecimal("-0.05"));
        d.set(2, new BigDecimal("9999999999999.99"));
        d.set(3, new BigDecimal("-9999999999999.99"));
        d.set(4, new BigDecimal("0.05"));
        d.setNull(5);
        List<Object> out = load(d, 6, col("decimal", null, 15, 2, null));
        assertEquals(List.of(new BigDecimal("0.05"), new BigDecimal("-0.05"), new BigDecimal("9999999999999.99"),
                new BigDecimal("-9999999999999.99"), new BigDecimal("0.05")), out.subList(0, 5));
        assertEquals(2, ((BigDecimal) out.get(0)).scale());
        assertSame(out.get(0), out.get(4), "equal values share one BigDecimal");
        assertEquals(null, out.get(5));
    }

    @Test
    void decimalTooWideStillRejected() {
        DecimalVector d = track(new DecimalVector("d", allocator, 38, 2));
        d.set(0, new BigDecimal("10000000000000.00"));
        assertTrue(rejection(d, 1, col("decimal", null, 15, 2, null)).contains("does not fit decimal(15,2)"));
    }

    @Test
    void decimalBeyondLongUsesArrowPath() throws Exception {
        DecimalVector d = track(new DecimalVector("d", allocator, 38, 2));
        BigDecimal big = new BigDecimal("123456789012345678901234567890.12");
        d.set(0, big);
        d.set(1, big.negate());
        assertEquals(List.of(big, big.negate()), load(d, 2, col("decimal", null, 38, 2, null)));
        DecimalVector e = track(new DecimalVector("e", allocator, 38, 2));
        e.set(0, big);
        assertTrue(rejection(e, 1, col("decimal", null, 30, 2, null)).contains("does not fit decimal(30,2)"));
    }

    @Test
    void decimalScaleChanges() throws Exception {
        DecimalVector d = track(new DecimalVector("d", allocator, 10, 2));
        d.set(0, new BigDecimal("12.34"));
        List<Object> out = load(d, 1, col("decimal", null, 10, 4, null));
        assertEquals(new BigDecimal("12.3400"), out.get(0));
        assertEquals(4, ((BigDecimal) out.get(0)).scale());
        DecimalVector narrow = track(new DecimalVector("n", allocator, 10, 2));
        narrow.set(0, new BigDecimal("123.45"));
        // decimal(6,4) keeps 2 digits before the point: 123.45 needs 3.
        assertTrue(rejection(narrow, 1, col("decimal", null, 6, 4, null)).contains("does not fit decimal(6,4)"));
        DecimalVector fine = track(new DecimalVector("f", allocator, 10, 3));
        fine.set(0, new BigDecimal("1.230"));
        fine.set(1, new BigDecimal("1.234"));
        fine.setValueCount(1);
        assertEquals(new BigDecimal("1.23"), load(fine, 1, col("decimal", null, 10, 2, null)).get(0));
        assertTrue(rejection(fine, 2, col("decimal", null, 10, 2, null)).contains("more than 2 decimal places"));
    }

    @Test
    void stringsCheckedByByteLengthThenByCharacters() throws Exception {
        VarCharVector s = track(new VarCharVector("s", allocator));
        s.setSafe(0, "abc".getBytes(StandardCharsets.UTF_8));
        s.setSafe(1, "äöü".getBytes(StandardCharsets.UTF_8)); // 6 bytes, 3 characters
        s.setSafe(2, "😀".getBytes(StandardCharsets.UTF_8)); // 4 bytes, 2 UTF-16 units
        assertEquals(List.of("abc", "äöü", "😀"), load(s, 3, col("nvarchar", 3, null, null, null)));
        assertEquals(List.of("abc", "äöü", "😀"), load(s, 3, col("nvarchar", -1, null, null, null)));
        VarCharVector t = track(new VarCharVector("t", allocator));
        t.setSafe(0, "abcd".getBytes(StandardCharsets.UTF_8));
        assertTrue(rejection(t, 1, col("nvarchar", 3, null, null, null)).contains("longer than nvarchar(3)"));
        VarCharVector u = track(new VarCharVector("u", allocator));
        u.setSafe(0, "ä".getBytes(StandardCharsets.UTF_8));
        assertTrue(rejection(u, 1, col("varchar", 3, null, null, null)).contains("non-ASCII"));
    }

    @Test
    void datesFromEpochDays() throws Exception {
        DateDayVector d = track(new DateDayVector("d", allocator));
        d.set(0, (int) LocalDate.of(2024, 2, 29).toEpochDay());
        d.set(1, (int) LocalDate.of(1, 1, 1).toEpochDay());
        d.set(2, (int) LocalDate.of(9999, 12, 31).toEpochDay());
        d.set(3, (int) LocalDate.of(1969, 12, 31).toEpochDay());
        d.set(4, (int) LocalDate.of(2024, 2, 29).toEpochDay() + 4096); // same cache slot, other day
        assertEquals(List.of("2024-02-29", "0001-01-01", "9999-12-31", "1969-12-31", LocalDate.of(2024, 2, 29).plusDays(4096).toString()),
                load(d, 5, col("date", null, null, null, null)));
        DateDayVector late = track(new DateDayVector("late", allocator));
        late.set(0, (int) LocalDate.of(10000, 1, 1).toEpochDay());
        assertTrue(rejection(late, 1, col("date", null, null, null, null)).contains("outside the target's range"));
    }

    /** A one-column binding of {@code v} into {@code target}, for the column-wide checks. */
    private static TargetBinding binding(FieldVector v, TargetColumn target) {
        return TargetBinding.of(ArrowColumnTypes.forField(v.getField()).kind(), target, true);
    }

    @Test
    void columnWidePassesAcceptOnlyWhatTheValueChecksAccept() {
        int rows = 1000;
        DecimalVector d = track(new DecimalVector("d", allocator, 38, 2));
        VarCharVector s = track(new VarCharVector("s", allocator));
        DateDayVector days = track(new DateDayVector("days", allocator));
        for (int r = 0; r < rows; r++) {
            d.set(r, new BigDecimal(r % 2 == 0 ? "9999999999999.99" : "-9999999999999.99")); // decimal(15,2)'s limits
            s.setSafe(r, (r % 2 == 0 ? "äöü" : "abcdef").getBytes(StandardCharsets.UTF_8)); // 6 bytes each
            days.set(r, (int) (r % 2 == 0 ? LocalDate.of(1, 1, 1) : LocalDate.of(9999, 12, 31)).toEpochDay());
        }
        d.setValueCount(rows);
        s.setValueCount(rows);
        days.setValueCount(rows);
        TargetColumn dec = col("decimal", null, 15, 2, null);
        TargetColumn nv6 = col("nvarchar", 6, null, null, null);
        TargetColumn date = col("date", null, null, null, null);
        assertTrue(binding(d, dec).allFit(d, rows));
        assertTrue(binding(s, nv6).allFit(s, rows));
        assertTrue(binding(days, date).allFit(days, rows));
        // one value beyond the limit, deep in the column: the pass cannot accept, the per-value check names it
        d.set(737, new BigDecimal("10000000000000.00"));
        s.setSafe(737, "abcdefg".getBytes(StandardCharsets.UTF_8));
        s.setValueCount(rows);
        days.set(737, (int) LocalDate.of(10000, 1, 1).toEpochDay());
        assertFalse(binding(d, dec).allFit(d, rows));
        assertFalse(binding(s, nv6).allFit(s, rows));
        assertFalse(binding(days, date).allFit(days, rows));
        for (FieldVector v : List.<FieldVector>of(d, s, days)) {
            TargetColumn target = v == d ? dec : v == s ? nv6 : date;
            Rejected e = assertThrows(Rejected.class, () -> load(v, rows, target));
            assertEquals(737, e.rejection.row(), v.getName());
        }
        // more UTF-8 bytes than characters: the pass counts the characters
        VarCharVector wide = track(new VarCharVector("wide", allocator));
        wide.setSafe(0, "äöüäöü".getBytes(StandardCharsets.UTF_8)); // 12 bytes, 6 characters
        wide.setValueCount(1);
        assertTrue(binding(wide, nv6).allFit(wide, 1));
        assertFalse(binding(wide, col("nvarchar", 5, null, null, null)).allFit(wide, 1));
        // a decimal with a larger source scale is never accepted by the pass (it may need rounding)
        DecimalVector fine = track(new DecimalVector("fine", allocator, 10, 3));
        fine.set(0, new BigDecimal("1.230"));
        fine.setValueCount(1);
        assertFalse(binding(fine, col("decimal", null, 10, 2, null)).allFit(fine, 1));
    }

    @Test
    void decimalsBeyondALongAreProvedColumnWideOn128Bits() throws Exception {
        int rows = 1000;
        java.math.BigInteger max38 = java.math.BigInteger.TEN.pow(38).subtract(java.math.BigInteger.ONE);
        DecimalVector d = track(new DecimalVector("d", allocator, 38, 18));
        for (int r = 0; r < rows; r++) {
            java.math.BigInteger u = switch (r % 4) {
                case 0 -> max38; // decimal(38,18)'s limits
                case 1 -> max38.negate();
                case 2 -> java.math.BigInteger.valueOf(r).shiftLeft(70); // beyond a long
                default -> java.math.BigInteger.valueOf(-r);
            };
            d.setBigEndian(r, u.toByteArray());
        }
        d.setValueCount(rows);
        TargetColumn dec38 = col("decimal", null, 38, 18, null);
        assertTrue(binding(d, dec38).allFit(d, rows));
        assertFalse(binding(d, col("decimal", null, 37, 18, null)).allFit(d, rows), "10^38 - 1 needs 38 digits");
        assertEquals(rows, load(d, rows, dec38).size());
        // one past the limit (10^38, beyond decimal(38,18) though within 128 bits), then -2^127: the pass cannot
        // accept, the per-value check names the row
        for (java.math.BigInteger bad : List.of(max38.add(java.math.BigInteger.ONE),
                java.math.BigInteger.ONE.shiftLeft(127).negate())) {
            d.setBigEndian(737, bad.toByteArray());
            assertFalse(binding(d, dec38).allFit(d, rows), bad.toString());
            assertEquals(737, assertThrows(Rejected.class, () -> load(d, rows, dec38)).rejection.row(),
                    bad.toString());
        }
        // a smaller scale in the source: scaled up by 10^4, so 34 digits of it at most
        DecimalVector up = track(new DecimalVector("up", allocator, 38, 14));
        up.setBigEndian(0, java.math.BigInteger.TEN.pow(34).subtract(java.math.BigInteger.ONE).toByteArray());
        up.setBigEndian(1, java.math.BigInteger.TEN.pow(34).negate().toByteArray());
        up.setValueCount(2);
        assertTrue(binding(up, dec38).allFit(up, 1));
        assertFalse(binding(up, dec38).allFit(up, 2), "-10^34 scaled by 10^4 has 39 digits");
    }

    @Test
    void varcharAndBinaryColumnsAreProvedColumnWide() throws Exception {
        int rows = 1000;
        VarCharVector s = track(new VarCharVector("s", allocator));
        org.apache.arrow.vector.VarBinaryVector bin = track(new org.apache.arrow.vector.VarBinaryVector("b", allocator));
        for (int r = 0; r < rows; r++) {
            s.setSafe(r, (r % 2 == 0 ? "abcde" : "").getBytes(StandardCharsets.UTF_8)); // varchar(5)'s limit
            bin.setSafe(r, new byte[r % 5]); // 0..4 bytes
        }
        s.setValueCount(rows);
        bin.setValueCount(rows);
        TargetColumn varchar5 = col("varchar", 5, null, null, null);
        TargetColumn varcharMax = col("varchar", -1, null, null, null);
        TargetColumn varbinary4 = col("varbinary", 4, null, null, null);
        assertTrue(binding(s, varchar5).allFit(s, rows));
        assertTrue(binding(s, varcharMax).allFit(s, rows));
        assertTrue(binding(bin, varbinary4).allFit(bin, rows));
        assertFalse(binding(bin, col("varbinary", 3, null, null, null)).allFit(bin, rows));
        assertTrue(binding(bin, col("varbinary", -1, null, null, null))
                .alwaysFits(ArrowColumnTypes.forField(bin.getField())));
        // deep in the column: a value one byte too long, a character no code page holds the same: the pass cannot
        // accept, the per-value check names the row
        s.setSafe(737, "abcdef".getBytes(StandardCharsets.UTF_8));
        s.setValueCount(rows);
        assertFalse(binding(s, varchar5).allFit(s, rows));
        assertTrue(binding(s, varcharMax).allFit(s, rows));
        assertEquals(737, assertThrows(Rejected.class, () -> load(s, rows, varchar5)).rejection.row());
        s.setSafe(737, "abcé".getBytes(StandardCharsets.UTF_8));
        s.setValueCount(rows);
        assertFalse(binding(s, varchar5).allFit(s, rows));
        assertFalse(binding(s, varcharMax).allFit(s, rows));
        assertEquals(Rejection.NON_ASCII, assertThrows(Rejected.class, () -> load(s, rows, varcharMax)).rejection
                .check());
        bin.setSafe(737, new byte[5]);
        bin.setValueCount(rows);
        assertFalse(binding(bin, varbinary4).allFit(bin, rows));
        assertEquals(737, assertThrows(Rejected.class, () -> load(bin, rows, varbinary4)).rejection.row());
        org.apache.arrow.vector.FixedSizeBinaryVector fixed = track(
                new org.apache.arrow.vector.FixedSizeBinaryVector("f", allocator, 16));
        fixed.setSafe(0, new byte[16]);
        fixed.setValueCount(1);
        assertTrue(binding(fixed, col("binary", 16, null, null, null)).allFit(fixed, 1));
        assertFalse(binding(fixed, col("varbinary", 8, null, null, null)).allFit(fixed, 1));
    }

    @Test
    void uuidTextIsCheckedValueByValue() throws Exception {
        int rows = 1000;
        VarCharVector s = track(new VarCharVector("s", allocator));
        java.util.Random random = new java.util.Random(36);
        for (int r = 0; r < rows; r++) {
            String u = new java.util.UUID(random.nextLong(), random.nextLong()).toString();
            s.setSafe(r, (r % 2 == 0 ? u : u.toUpperCase(java.util.Locale.ROOT)).getBytes(StandardCharsets.UTF_8));
        }
        s.setNull(5);
        s.setValueCount(rows);
        TargetColumn guid = col("uniqueidentifier", null, null, null, null);
        assertFalse(binding(s, guid).allFit(s, rows), "UUID text is checked value by value (parsing it is as cheap)");
        assertEquals(rows, load(s, rows, guid).size());
        // deep in the column: a letter beyond f, a dash one place off, one character short
        for (String bad : List.of("0123456g-89ab-cdef-0123-456789abcdef", "01234567-89abc-def-0123-456789abcdef",
                "01234567-89ab-cdef-0123-456789abcde")) {
            s.setSafe(737, bad.getBytes(StandardCharsets.UTF_8));
            s.setValueCount(rows);
            assertEquals(737, assertThrows(Rejected.class, () -> load(s, rows, guid)).rejection.row(), bad);
        }
    }

    @Test
    void textLongerInUtf8ThanTheColumnIsCountedColumnWide() throws Exception {
        int rows = 1000;
        VarCharVector s = track(new VarCharVector("s", allocator));
        String[] texts = {"中文字符中文字符中文", "Москва ул", "αβγδεζηθικ", "ab😀cdefgh", "short"};
        for (int r = 0; r < rows; r++) {
            s.setSafe(r, texts[r % texts.length].getBytes(StandardCharsets.UTF_8)); // at most 10 UTF-16 units
        }
        s.setValueCount(rows);
        TargetColumn nv10 = col("nvarchar", 10, null, null, null);
        assertTrue(binding(s, nv10).allFit(s, rows), "up to 30 UTF-8 bytes, at most 10 characters");
        assertFalse(binding(s, col("nvarchar", 9, null, null, null)).allFit(s, rows));
        assertEquals(rows, load(s, rows, nv10).size());
        // one character too many, deep in the column: the pass cannot accept, the per-value check names it
        s.setSafe(737, "中文字符中文字符中文字".getBytes(StandardCharsets.UTF_8));
        s.setValueCount(rows);
        assertFalse(binding(s, nv10).allFit(s, rows));
        assertEquals(737, assertThrows(Rejected.class, () -> load(s, rows, nv10)).rejection.row());
        // bytes that are not UTF-8 (a lone continuation byte): the pass leaves them to the per-value check, which
        // decodes as Java does (one replacement character each)
        s.setSafe(737, new byte[] {(byte) 0xE4, (byte) 0xB8, (byte) 0xAD, (byte) 0x80, (byte) 0x80, (byte) 0x80,
            (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80});
        s.setValueCount(rows);
        assertFalse(binding(s, nv10).allFit(s, rows));
        assertEquals(rows, load(s, rows, nv10).size(), "9 units as Java decodes it: it fits");
    }

    @Test
    void integersIntoNarrowerColumnsAreProvedColumnWide() throws Exception {
        int rows = 1000;
        BigIntVector big = track(new BigIntVector("big", allocator));
        IntVector small = track(new IntVector("small", allocator));
        for (int r = 0; r < rows; r++) {
            big.set(r, r % 2 == 0 ? Integer.MIN_VALUE : Integer.MAX_VALUE); // int's limits
            small.set(r, r % 2 == 0 ? 0 : 255); // tinyint's limits
        }
        big.setValueCount(rows);
        small.setValueCount(rows);
        TargetColumn integer = col("int", null, null, null, null);
        TargetColumn tinyint = col("tinyint", null, null, null, null);
        assertFalse(binding(big, integer).alwaysFits(ArrowColumnTypes.forField(big.getField())));
        assertTrue(binding(big, integer).allFit(big, rows));
        assertTrue(binding(small, tinyint).allFit(small, rows));
        // one value beyond the limit, deep in the column: the pass cannot accept, the per-value check names it
        big.set(737, Integer.MAX_VALUE + 1L);
        small.set(737, -1);
        assertFalse(binding(big, integer).allFit(big, rows));
        assertFalse(binding(small, tinyint).allFit(small, rows));
        assertEquals(737, assertThrows(Rejected.class, () -> load(big, rows, integer)).rejection.row());
        assertEquals(737, assertThrows(Rejected.class, () -> load(small, rows, tinyint)).rejection.row());
        // a boolean fits every integer type by type alone
        BitVector b = track(new BitVector("b", allocator));
        b.set(0, 1);
        assertTrue(binding(b, tinyint).alwaysFits(ArrowColumnTypes.forField(b.getField())));
        assertEquals(List.of((short) 1), load(b, 1, tinyint));
    }

    @Test
    void floatAndBitColumnsAreProvedColumnWide() throws Exception {
        int rows = 1000;
        double[] doubles = {0.0, -0.0, 0.5, -1.25, Double.MAX_VALUE, -Double.MIN_VALUE, 1e300, 0.1};
        double[] floats = {0.0, -0.0, 0.5, -1.25, Float.MAX_VALUE, -Float.MIN_VALUE, 0.1f};
        Float8Vector d = track(new Float8Vector("d", allocator));
        Float8Vector exact = track(new Float8Vector("exact", allocator));
        Float4Vector f = track(new Float4Vector("f", allocator));
        for (int r = 0; r < rows; r++) {
            d.set(r, doubles[r % doubles.length]);
            exact.set(r, floats[r % floats.length]); // every value exactly a float
            f.set(r, (float) doubles[r % 4] * 3.5f);
        }
        d.setValueCount(rows);
        exact.setValueCount(rows);
        f.setValueCount(rows);
        TargetColumn float53 = col("float", null, 53, null, null);
        TargetColumn real = col("real", null, 24, null, null);
        assertTrue(binding(d, float53).allFit(d, rows));
        assertFalse(binding(d, real).allFit(d, rows), "0.1 and 1e300 are not exactly floats");
        assertTrue(binding(exact, real).allFit(exact, rows));
        assertTrue(binding(f, real).allFit(f, rows));
        assertTrue(binding(f, float53).allFit(f, rows));
        // one value the column cannot hold, deep in the column: the pass cannot accept, the per-value check names it
        assertEquals(4, assertThrows(Rejected.class, () -> load(d, rows, real)).rejection.row(),
                "Double.MAX_VALUE at row 4 is no float");
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            d.set(737, bad);
            f.set(737, (float) bad);
            assertFalse(binding(d, float53).allFit(d, rows), String.valueOf(bad));
            assertFalse(binding(f, real).allFit(f, rows), String.valueOf(bad));
            for (FieldVector v : List.<FieldVector>of(d, f)) {
                Rejected e = assertThrows(Rejected.class, () -> load(v, rows, float53));
                assertEquals(737, e.rejection.row(), v.getName() + " " + bad);
                assertEquals(Rejection.NAN, e.rejection.check());
            }
        }
        d.set(737, 2.0);
        assertEquals(2.0, load(d, rows, float53).get(737));
        // a boolean is always 0 or 1; an integer into bit is checked value by value
        BitVector b = track(new BitVector("b", allocator));
        IntVector i = track(new IntVector("i", allocator));
        b.set(0, 1);
        b.set(1, 0);
        i.set(0, 1);
        i.set(1, 2);
        TargetColumn bit = col("bit", null, null, null, null);
        assertTrue(binding(b, bit).alwaysFits(ArrowColumnTypes.forField(b.getField())));
        assertFalse(binding(i, bit).alwaysFits(ArrowColumnTypes.forField(i.getField())));
        assertEquals(List.of(Boolean.TRUE, Boolean.FALSE), load(b, 2, bit));
        assertEquals(1, assertThrows(Rejected.class, () -> load(i, 2, bit)).rejection.row());
    }

    @Test
    void shortStringsShareEqualValuesAndStopCachingWhenValuesDoNotRepeat() {
        TextColumnTypes.ShortStrings strings = new TextColumnTypes.ShortStrings();
        byte[] a = "AIR".getBytes(StandardCharsets.UTF_8);
        byte[] b = "äir".getBytes(StandardCharsets.UTF_8);
        String first = strings.decode(a, a.length);
        assertEquals("AIR", first);
        assertSame(first, strings.decode("AIRxx".getBytes(StandardCharsets.UTF_8), 3), "equal bytes, one String");
        assertEquals("äir", strings.decode(b, b.length));
        assertEquals("", strings.decode(new byte[0], 0));
        assertEquals("AI", strings.decode(a, 2), "a prefix is another value");
        String longer = "x".repeat(40);
        assertEquals(longer, strings.decode(longer.getBytes(StandardCharsets.UTF_8), 40));
        // values that never repeat: every one still decodes exactly, and caching switches itself off
        TextColumnTypes.ShortStrings distinct = new TextColumnTypes.ShortStrings();
        for (int i = 0; i < 5000; i++) {
            byte[] v = ("v" + i).getBytes(StandardCharsets.UTF_8);
            assertEquals("v" + i, distinct.decode(v, v.length));
        }
        byte[] again = "v4999".getBytes(StandardCharsets.UTF_8);
        assertNotSame(distinct.decode(again, again.length), distinct.decode(again, again.length));
    }

    private static long micros(LocalDateTime t) {
        return t.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + t.getNano() / 1_000;
    }

    @Test
    void timestampsFromRawMicros() throws Exception {
        TimeStampMicroVector ts = track(new TimeStampMicroVector("ts", allocator));
        ts.set(0, micros(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_000)));
        ts.set(1, micros(LocalDateTime.of(1960, 5, 6, 7, 8, 9, 1_000)));
        ts.set(2, micros(LocalDateTime.of(1, 1, 1, 0, 0, 0)));
        ts.set(3, micros(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000)));
        assertEquals(List.of("2024-01-02 03:04:05.123456", "1960-05-06 07:08:09.000001", "0001-01-01 00:00:00.000000",
                "9999-12-31 23:59:59.999999"), load(ts, 4, col("datetime2", null, null, null, 6)));
        assertEquals("2024-01-02 03:04:05.1234560",
                load(ts, 1, col("datetime2", null, null, null, 7)).get(0));
        assertTrue(rejection(ts, 1, col("datetime2", null, null, null, 3)).contains("fractional-second digits"));
        assertEquals(List.of("2024-01-02 03:04:05"), load(whole(), 1, col("datetime2", null, null, null, 0)));
        TimeStampMicroVector late = track(new TimeStampMicroVector("late", allocator));
        late.set(0, micros(LocalDateTime.of(10000, 1, 1, 0, 0)));
        assertTrue(rejection(late, 1, col("datetime2", null, null, null, 6)).contains("outside the target's range"));
        // datetime has rules of its own (from 1753, 1/300 s steps)
        TimeStampMicroVector legacy = track(new TimeStampMicroVector("legacy", allocator));
        legacy.set(0, micros(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 3_000_000)));
        assertEquals("2024-01-02 03:04:05.003", load(legacy, 1, col("datetime", null, null, null, 3)).get(0));
        legacy.set(0, micros(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 4_000_000)));
        assertTrue(rejection(legacy, 1, col("datetime", null, null, null, 3)).contains("not exactly representable"));
    }

    @Test
    void timestampColumnPassAtTheLimits() {
        TimeStampMicroVector ts = track(new TimeStampMicroVector("ts", allocator));
        ts.set(0, micros(LocalDateTime.of(1, 1, 1, 0, 0, 0)));
        ts.set(1, micros(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000)));
        ts.set(2, micros(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_000_000)));
        ts.setValueCount(3);
        TargetColumn dt3 = col("datetime2", null, null, null, 3);
        TargetColumn dt6 = col("datetime2", null, null, null, 6);
        assertTrue(binding(ts, dt6).allFit(ts, 3));
        assertFalse(binding(ts, dt3).allFit(ts, 3), "9999-12-31 23:59:59.999999 has 6 digits");
        assertTrue(binding(ts, dt3).allFit(ts, 1));
        ts.set(0, micros(LocalDateTime.of(1, 1, 1, 0, 0, 0)) - 1); // one microsecond before 0001-01-01
        assertFalse(binding(ts, dt6).allFit(ts, 3));
        assertTrue(rejection(ts, 3, dt6).contains("outside the target's range"));
        ts.set(0, micros(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000)) + 1); // year 10000
        assertFalse(binding(ts, dt6).allFit(ts, 3));
        assertFalse(binding(ts, col("datetime", null, null, null, 3)).allFit(ts, 3), "year 10000: beyond datetime too");
    }

    @Test
    void datetimeColumnPassAtItsLimitsAndSteps() {
        TimeStampMicroVector ts = track(new TimeStampMicroVector("ts", allocator));
        ts.set(0, micros(LocalDateTime.of(1753, 1, 1, 0, 0, 0)));
        ts.set(1, micros(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 997_000_000)));
        ts.set(2, micros(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_000_000)));
        ts.set(3, micros(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 370_000_000)));
        ts.setValueCount(4);
        TargetColumn datetime = col("datetime", null, null, null, 3);
        assertTrue(binding(ts, datetime).allFit(ts, 4));
        // each one step beyond what datetime holds: the pass cannot accept, the per-value check refuses the row
        for (LocalDateTime bad : List.of(LocalDateTime.of(1752, 12, 31, 23, 59, 59, 997_000_000),
                LocalDateTime.of(2024, 1, 2, 3, 4, 5, 124_000_000), // milliseconds ending in 4
                LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_400_000))) { // a fraction below the millisecond
            ts.set(2, micros(bad));
            assertFalse(binding(ts, datetime).allFit(ts, 4), bad.toString());
            assertEquals(2, assertThrows(Rejected.class, () -> load(ts, 4, datetime)).rejection.row(), bad.toString());
        }
        ts.set(2, micros(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 997_000_000)) + 3_000); // year 10000
        assertFalse(binding(ts, datetime).allFit(ts, 4));
        TimeStampMicroTZVector zoned = track(new TimeStampMicroTZVector("z", allocator, "UTC"));
        zoned.set(0, 0);
        zoned.setValueCount(1);
        assertFalse(binding(zoned, datetime).allFit(zoned, 1), "a zoned timestamp is checked value by value");
    }

    @Test
    void datetimeoffsetColumnPassAcceptsOnlyWhatTheValueCheckAccepts() throws Exception {
        long first = micros(LocalDateTime.of(1, 1, 1, 0, 0, 0));
        long last = micros(LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_000));
        TargetColumn dto6 = col("datetimeoffset", null, null, null, 6);
        TargetColumn dto3 = col("datetimeoffset", null, null, null, 3);
        // zone UTC and no zone (read as +00:00): the whole range of years 1..9999, in UTC
        for (String zone : new String[] {"UTC", null}) {
            FieldVector ts = zoned(zone, first, last, micros(LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_000_000)));
            assertTrue(binding(ts, dto6).allFit(ts, 3), String.valueOf(zone));
            assertFalse(binding(ts, dto3).allFit(ts, 3), "9999-12-31 23:59:59.999999 has 6 digits");
            assertTrue(rejection(ts, 3, dto3).contains("fractional-second digits"));
            assertTrue(binding(ts, dto3).allFit(ts, 1));
            assertEquals(3, load(ts, 3, dto6).size());
        }
        // a fixed offset moves the local years: 9999-12-31 23:00 UTC is year 10000 at +14:00, and 0001-01-01 00:00
        // UTC is year 0 at -01:00; the pass refuses both, and the value check rejects them
        FieldVector east = zoned("+14:00", micros(LocalDateTime.of(9999, 12, 31, 23, 0)));
        assertFalse(binding(east, dto6).allFit(east, 1));
        assertTrue(rejection(east, 1, dto6).contains("outside the target's range"));
        FieldVector west = zoned("-01:00", first);
        assertFalse(binding(west, dto6).allFit(west, 1));
        assertTrue(rejection(west, 1, dto6).contains("outside the target's range"));
        FieldVector inside = zoned("+14:00", micros(LocalDateTime.of(9999, 12, 31, 9, 59, 59)), first);
        assertTrue(binding(inside, dto6).allFit(inside, 2));
        assertEquals(List.of("9999-12-31 23:59:59.000000 +14:00", "0001-01-01 14:00:00.000000 +14:00"),
                load(inside, 2, dto6));
        // a zone with rules (daylight saving, historical offsets that are not whole minutes) is never proved by the
        // pass: the value check decides (Kolkata kept Madras time, +05:21:10, until 1906)
        FieldVector amsterdam = zoned("Europe/Amsterdam", micros(LocalDateTime.of(2024, 6, 1, 12, 0)));
        assertFalse(binding(amsterdam, dto6).allFit(amsterdam, 1));
        assertEquals(List.of("2024-06-01 14:00:00.000000 +02:00"), load(amsterdam, 1, dto6));
        FieldVector old = zoned("Asia/Kolkata", micros(LocalDateTime.of(1900, 6, 1, 12, 0)));
        assertFalse(binding(old, dto6).allFit(old, 1));
        assertTrue(rejection(old, 1, dto6).contains("not a whole minute"));
    }

    /** Microsecond timestamps with {@code zone} (null: none) and the given UTC values. */
    private FieldVector zoned(String zone, long... utcMicros) {
        if (zone == null) {
            TimeStampMicroVector v = track(new TimeStampMicroVector("plain", allocator));
            for (int r = 0; r < utcMicros.length; r++) {
                v.set(r, utcMicros[r]);
            }
            v.setValueCount(utcMicros.length);
            return v;
        }
        TimeStampMicroTZVector v = track(new TimeStampMicroTZVector("zoned", allocator, zone));
        for (int r = 0; r < utcMicros.length; r++) {
            v.set(r, utcMicros[r]);
        }
        v.setValueCount(utcMicros.length);
        return v;
    }

    private TimeStampMicroVector whole() {
        TimeStampMicroVector ts = track(new TimeStampMicroVector("whole", allocator));
        ts.set(0, micros(LocalDateTime.of(2024, 1, 2, 3, 4, 5)));
        return ts;
    }
}
