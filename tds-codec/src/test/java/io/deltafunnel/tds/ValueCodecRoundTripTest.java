package io.deltafunnel.tds;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every TYPE_INFO the codec writes reads back as itself, and every value of every writable type, edge values and
 * NULL included, reads back equal. Wire bytes are pinned where MS-TDS fixes them.
 */
class ValueCodecRoundTripTest {

    private static final Collation CI_AS = Collation.SQL_LATIN1_GENERAL_CP1_CI_AS;

    record Case(TypeInfo type, Object value) {
    }

    private static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        TypeInfo tiny = TypeInfo.of(TypeId.INTN, 1);
        TypeInfo small = TypeInfo.of(TypeId.INTN, 2);
        TypeInfo integer = TypeInfo.of(TypeId.INTN, 4);
        TypeInfo big = TypeInfo.of(TypeId.INTN, 8);
        for (Object v : new Object[] {0, 255, null}) {
            c.add(new Case(tiny, v));
        }
        for (Object v : new Object[] {(int) Short.MIN_VALUE, (int) Short.MAX_VALUE, null}) {
            c.add(new Case(small, v));
        }
        for (Object v : new Object[] {Integer.MIN_VALUE, Integer.MAX_VALUE, -1, null}) {
            c.add(new Case(integer, v));
        }
        for (Object v : new Object[] {Long.MIN_VALUE, Long.MAX_VALUE, null}) {
            c.add(new Case(big, v));
        }
        TypeInfo bit = TypeInfo.of(TypeId.BITN, 1);
        c.add(new Case(bit, true));
        c.add(new Case(bit, false));
        c.add(new Case(bit, null));
        c.add(new Case(TypeInfo.of(TypeId.FLTN, 4), Float.MAX_VALUE));
        c.add(new Case(TypeInfo.of(TypeId.FLTN, 4), -0.0f));
        c.add(new Case(TypeInfo.of(TypeId.FLTN, 8), Double.MIN_VALUE));
        c.add(new Case(TypeInfo.of(TypeId.FLTN, 8), null));
        c.add(new Case(TypeInfo.of(TypeId.MONEYN, 8), MoneyCodec.MONEY_MIN));
        c.add(new Case(TypeInfo.of(TypeId.MONEYN, 8), MoneyCodec.MONEY_MAX));
        c.add(new Case(TypeInfo.of(TypeId.MONEYN, 4), MoneyCodec.SMALLMONEY_MIN));
        c.add(new Case(TypeInfo.of(TypeId.MONEYN, 4), MoneyCodec.SMALLMONEY_MAX));
        c.add(new Case(TypeInfo.of(TypeId.MONEYN, 8), null));
        c.add(new Case(TypeInfo.of(TypeId.DATETIMN, 8), TemporalCodec.DATETIME_MIN));
        c.add(new Case(TypeInfo.of(TypeId.DATETIMN, 8), TemporalCodec.DATETIME_MAX));
        c.add(new Case(TypeInfo.of(TypeId.DATETIMN, 4), TemporalCodec.SMALLDATETIME_MIN));
        c.add(new Case(TypeInfo.of(TypeId.DATETIMN, 4), TemporalCodec.SMALLDATETIME_MAX));
        c.add(new Case(TypeInfo.of(TypeId.DATETIMN, 8), null));
        for (int p : new int[] {1, 9, 10, 19, 20, 28, 29, 38}) {
            int len = DecimalCodec.lengthForPrecision(p);
            TypeInfo dec = new TypeInfo(TypeId.DECIMALN, len, p, Math.min(p, 2), null);
            BigDecimal max = BigDecimal.TEN.pow(p).subtract(BigDecimal.ONE).movePointLeft(dec.scale());
            c.add(new Case(dec, max));
            c.add(new Case(dec, max.negate()));
            c.add(new Case(dec, BigDecimal.ZERO.setScale(dec.scale())));
            c.add(new Case(dec, null));
        }
        c.add(new Case(new TypeInfo(TypeId.DATEN, 3, 0, 0, null), LocalDate.of(1, 1, 1)));
        c.add(new Case(new TypeInfo(TypeId.DATEN, 3, 0, 0, null), LocalDate.of(9999, 12, 31)));
        c.add(new Case(new TypeInfo(TypeId.DATEN, 3, 0, 0, null), null));
        for (int s = 0; s <= 7; s++) {
            long unit = (long) Math.pow(10, 9 - s);
            LocalTime maxTime = LocalTime.ofNanoOfDay((LocalTime.MAX.toNanoOfDay() / unit) * unit);
            c.add(new Case(new TypeInfo(TypeId.TIMEN, 0, 0, s, null), maxTime));
            c.add(new Case(new TypeInfo(TypeId.TIMEN, 0, 0, s, null), LocalTime.MIDNIGHT));
            c.add(new Case(new TypeInfo(TypeId.DATETIME2N, 0, 0, s, null),
                    LocalDateTime.of(LocalDate.of(9999, 12, 31), maxTime)));
            c.add(new Case(new TypeInfo(TypeId.DATETIME2N, 0, 0, s, null), LocalDateTime.of(1, 1, 1, 0, 0)));
            c.add(new Case(new TypeInfo(TypeId.DATETIMEOFFSETN, 0, 0, s, null),
                    OffsetDateTime.of(LocalDateTime.of(LocalDate.of(2024, 2, 29), maxTime), ZoneOffset.ofHours(14))));
            c.add(new Case(new TypeInfo(TypeId.DATETIMEOFFSETN, 0, 0, s, null),
                    OffsetDateTime.of(1, 1, 1, 0, 0, 0, 0, ZoneOffset.ofHoursMinutes(-14, 0))));
        }
        c.add(new Case(new TypeInfo(TypeId.TIMEN, 0, 0, 7, null), null));
        c.add(new Case(TypeInfo.of(TypeId.GUID, 16), UUID.fromString("6f9619ff-8b86-d011-b42d-00c04fc964ff")));
        c.add(new Case(TypeInfo.of(TypeId.GUID, 16), null));
        TypeInfo nvarchar = new TypeInfo(TypeId.NVARCHAR, 40, 0, 0, CI_AS);
        TypeInfo nvarcharMax = new TypeInfo(TypeId.NVARCHAR, TypeId.USHORT_MAX, 0, 0, CI_AS);
        TypeInfo varchar = new TypeInfo(TypeId.BIGVARCHAR, 20, 0, 0, CI_AS);
        TypeInfo nchar = new TypeInfo(TypeId.NCHAR, 6, 0, 0, CI_AS);
        for (Object v : new Object[] {"", "ñ😀 snow ☃", null}) {
            c.add(new Case(nvarchar, v));
            c.add(new Case(nvarcharMax, v));
        }
        c.add(new Case(nvarcharMax, "x".repeat(20_000))); // three PLP chunks
        c.add(new Case(varchar, "café, naïve"));
        c.add(new Case(varchar, null));
        c.add(new Case(nchar, "abc"));
        TypeInfo varbinary = TypeInfo.of(TypeId.BIGVARBINARY, 8000);
        TypeInfo varbinaryMax = TypeInfo.of(TypeId.BIGVARBINARY, TypeId.USHORT_MAX);
        TypeInfo binary = TypeInfo.of(TypeId.BIGBINARY, 3);
        for (Object v : new Object[] {new byte[0], new byte[] {0, (byte) 0xFF, 1}, null}) {
            c.add(new Case(varbinary, v));
            c.add(new Case(varbinaryMax, v));
        }
        c.add(new Case(binary, new byte[] {9, 8, 7}));
        return c;
    }

    @Test
    void typeInfoReadsBackAsWritten() {
        for (Case k : cases()) {
            TdsWriter w = new TdsWriter();
            k.type().write(w);
            TdsReader r = new TdsReader(w.toByteArray());
            TypeInfo back = TypeInfo.read(r);
            assertTrue(r.atEnd(), () -> "TYPE_INFO fully consumed: " + k.type());
            assertEquals(k.type().typeId(), back.typeId(), k.type().toString());
            assertEquals(k.type().scale(), back.scale(), k.type().toString());
            assertEquals(k.type().precision(), back.precision(), k.type().toString());
            assertEquals(k.type().isPlp(), back.isPlp(), k.type().toString());
            if (TypeId.isCharacter(k.type().typeId())) {
                assertEquals(k.type().maxLength(), back.maxLength(), k.type().toString());
                assertArrayEquals(k.type().collation().bytes(), back.collation().bytes(), k.type().toString());
            }
        }
    }

    @Test
    void everyValueReadsBackEqual() {
        for (Case k : cases()) {
            TdsWriter w = new TdsWriter();
            ValueCodec.write(w, k.type(), k.value());
            TdsReader r = new TdsReader(w.toByteArray());
            Object back = ValueCodec.read(r, k.type());
            assertTrue(r.atEnd(), () -> "value fully consumed: " + k);
            String what = k.type() + " " + (k.value() instanceof String s && s.length() > 40 ? "long string" : k.value());
            if (k.value() instanceof byte[] b) {
                assertArrayEquals(b, (byte[]) back, what);
            } else if (k.value() instanceof String s && k.type().typeId() == TypeId.NCHAR) {
                assertEquals(s, ((String) back).stripTrailing(), what);
            } else {
                assertEquals(k.value(), back, what);
            }
        }
    }

    @Test
    void nullEncodingsFollowMsTds() {
        // fixed-length nullable types: length byte 0; ushort-length types: 0xFFFF; PLP: 0xFFFFFFFFFFFFFFFF
        TdsWriter w = new TdsWriter();
        ValueCodec.write(w, TypeInfo.of(TypeId.INTN, 4), null);
        assertArrayEquals(new byte[] {0}, w.toByteArray());
        w = new TdsWriter();
        ValueCodec.write(w, new TypeInfo(TypeId.NVARCHAR, 40, 0, 0, CI_AS), null);
        assertArrayEquals(new byte[] {(byte) 0xFF, (byte) 0xFF}, w.toByteArray());
        w = new TdsWriter();
        ValueCodec.write(w, TypeInfo.of(TypeId.BIGVARBINARY, TypeId.USHORT_MAX), null);
        byte[] plpNull = new byte[8];
        Arrays.fill(plpNull, (byte) 0xFF);
        assertArrayEquals(plpNull, w.toByteArray());
    }

    @Test
    void intnIsLittleEndianAfterItsLength() {
        TdsWriter w = new TdsWriter();
        ValueCodec.write(w, TypeInfo.of(TypeId.INTN, 4), 0x01020304);
        assertArrayEquals(new byte[] {4, 4, 3, 2, 1}, w.toByteArray());
    }

    @Test
    void nvarcharIsUtf16LittleEndianWithByteLength() {
        TdsWriter w = new TdsWriter();
        ValueCodec.write(w, new TypeInfo(TypeId.NVARCHAR, 40, 0, 0, CI_AS), "Aé");
        assertArrayEquals(new byte[] {4, 0, 'A', 0, (byte) 0xE9, 0}, w.toByteArray());
        assertEquals("Aé", new String(Arrays.copyOfRange(w.toByteArray(), 2, 6), StandardCharsets.UTF_16LE));
    }

    @Test
    void unknownTypeIdIsAProtocolError() {
        assertThrows(TdsProtocolException.class, () -> TypeInfo.read(new TdsReader(new byte[] {0x01})));
        assertThrows(TdsProtocolException.class,
                () -> TypeInfo.read(new TdsReader(new byte[] {(byte) TypeId.TIMEN, 8})), "time scale 8");
    }

    @Test
    void plpWithUnknownLengthAndMismatchedTotal() {
        TdsWriter w = new TdsWriter();
        w.writeLong(Plp.UNKNOWN_LENGTH).writeInt(2).writeBytes(new byte[] {1, 2}).writeInt(1)
                .writeBytes(new byte[] {3}).writeInt(0);
        assertArrayEquals(new byte[] {1, 2, 3}, Plp.read(new TdsReader(w.toByteArray())));

        TdsWriter bad = new TdsWriter();
        bad.writeLong(5).writeInt(2).writeBytes(new byte[] {1, 2}).writeInt(0);
        assertThrows(TdsProtocolException.class, () -> Plp.read(new TdsReader(bad.toByteArray())));

        TdsWriter nul = new TdsWriter();
        nul.writeLong(Plp.NULL);
        assertNull(Plp.read(new TdsReader(nul.toByteArray())));
    }
}
