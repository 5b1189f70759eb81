package io.deltafunnel.query;

import static io.deltafunnel.query.VariantBytes.array;
import static io.deltafunnel.query.VariantBytes.binary;
import static io.deltafunnel.query.VariantBytes.bool;
import static io.deltafunnel.query.VariantBytes.date;
import static io.deltafunnel.query.VariantBytes.dbl;
import static io.deltafunnel.query.VariantBytes.decimal16;
import static io.deltafunnel.query.VariantBytes.decimal4;
import static io.deltafunnel.query.VariantBytes.decimal8;
import static io.deltafunnel.query.VariantBytes.flt;
import static io.deltafunnel.query.VariantBytes.int16;
import static io.deltafunnel.query.VariantBytes.int32;
import static io.deltafunnel.query.VariantBytes.int64;
import static io.deltafunnel.query.VariantBytes.int8;
import static io.deltafunnel.query.VariantBytes.metadata;
import static io.deltafunnel.query.VariantBytes.nul;
import static io.deltafunnel.query.VariantBytes.object;
import static io.deltafunnel.query.VariantBytes.primitive;
import static io.deltafunnel.query.VariantBytes.shortString;
import static io.deltafunnel.query.VariantBytes.string;
import static io.deltafunnel.query.VariantBytes.timeNtz;
import static io.deltafunnel.query.VariantBytes.timestamp;
import static io.deltafunnel.query.VariantBytes.timestampNanos;
import static io.deltafunnel.query.VariantBytes.timestampNtz;
import static io.deltafunnel.query.VariantBytes.timestampNtzNanos;
import static io.deltafunnel.query.VariantBytes.uuid;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

import org.junit.jupiter.api.Test;

/**
 * The Parquet Variant binary encoding decoded into JSON text, value by value, with Spark's {@code to_json}
 * rendering conventions (apache/spark {@code common/variant/.../Variant.java} {@code toJsonImpl}): every primitive
 * type, short strings, objects with sorted and unsorted dictionaries and every id / offset width, arrays, nesting,
 * and malformed input.
 */
class VariantJsonTest {

    private static final byte[] EMPTY_METADATA = metadata();

    private static String json(byte[] metadata, byte[] value) {
        JsonText out = new JsonText();
        VariantJson.append(out, new VariantJson.Metadata(metadata), value);
        return out.toString();
    }

    private static String json(byte[] value) {
        return json(EMPTY_METADATA, value);
    }

    private static long micros(LocalDateTime t) {
        return ChronoUnit.MICROS.between(LocalDateTime.of(1970, 1, 1, 0, 0), t);
    }

    @Test
    void nullAndBooleans() {
        assertEquals("null", json(nul()));
        assertEquals("true", json(bool(true)));
        assertEquals("false", json(bool(false)));
    }

    @Test
    void integersOfEveryWidth() {
        assertEquals("-128", json(int8(-128)));
        assertEquals("127", json(int8(127)));
        assertEquals("-300", json(int16(-300)));
        assertEquals("32767", json(int16(32767)));
        assertEquals("2147483647", json(int32(Integer.MAX_VALUE)));
        assertEquals("-2147483648", json(int32(Integer.MIN_VALUE)));
        assertEquals("-9223372036854775808", json(int64(Long.MIN_VALUE)));
        assertEquals("1234567890123", json(int64(1234567890123L)));
    }

    @Test
    void doublesAndFloatsAsJavaPrintsThemNaNAndInfinitiesBareAsSparkDoes() {
        assertEquals("1.5", json(dbl(1.5)));
        assertEquals("1.0E10", json(dbl(1e10)));
        assertEquals("-0.0", json(dbl(-0.0)));
        assertEquals("1.0E-5", json(dbl(1e-5)));
        assertEquals("NaN", json(dbl(Double.NaN)));
        assertEquals("Infinity", json(dbl(Double.POSITIVE_INFINITY)));
        assertEquals("-Infinity", json(dbl(Double.NEGATIVE_INFINITY)));
        assertEquals("0.1", json(flt(0.1f)), "judged at float precision, not widened to double");
        assertEquals("3.4028235E38", json(flt(Float.MAX_VALUE)));
        assertEquals("NaN", json(flt(Float.NaN)));
        assertEquals("-Infinity", json(flt(Float.NEGATIVE_INFINITY)));
    }

    @Test
    void decimalsPlainWithTheirScale() {
        assertEquals("123.45", json(decimal4(12345, 2)));
        assertEquals("-0.005", json(decimal4(-5, 3)));
        assertEquals("7", json(decimal4(7, 0)));
        assertEquals("1.00", json(decimal8(100, 2)));
        assertEquals("-92233720368.54775808", json(decimal8(Long.MIN_VALUE, 8)));
        assertEquals("10000000000000000000000000.00001", json(decimal16(BigInteger.TEN.pow(30).add(BigInteger.ONE), 5)));
        assertEquals("-1", json(decimal16(BigInteger.ONE.negate(), 0)));
        assertEquals("0.00000000000000000000000000000000000001", json(decimal16(BigInteger.ONE, 38)));
        assertEquals("-99999999999999999999999999999999999999",
                json(decimal16(BigInteger.TEN.pow(38).subtract(BigInteger.ONE).negate(), 0)));
    }

    @Test
    void datesAndTimestampsQuotedIsoUtc() {
        assertEquals("\"2024-02-29\"", json(date((int) LocalDate.of(2024, 2, 29).toEpochDay())));
        assertEquals("\"1969-12-31\"", json(date(-1)));
        LocalDateTime t = LocalDateTime.of(2024, 2, 29, 12, 34, 56, 789_000_000);
        assertEquals("\"2024-02-29 12:34:56.789+00:00\"", json(timestamp(micros(t))));
        assertEquals("\"2024-02-29 12:34:56.789\"", json(timestampNtz(micros(t))));
        assertEquals("\"2024-02-29 12:34:56+00:00\"", json(timestamp(micros(t.withNano(0)))));
        assertEquals("\"2024-02-29 12:34:56.000001\"", json(timestampNtz(micros(t.withNano(1000)))));
        assertEquals("\"1969-12-31 23:59:59.999999+00:00\"", json(timestamp(-1)));
        long nanos = LocalDateTime.of(2023, 11, 14, 22, 13, 20).toEpochSecond(ZoneOffset.UTC) * 1_000_000_000L + 123_456_789;
        assertEquals("\"2023-11-14 22:13:20.123456789+00:00\"", json(timestampNanos(nanos)));
        assertEquals("\"2023-11-14 22:13:20.123456789\"", json(timestampNtzNanos(nanos)));
        assertEquals("\"1969-12-31 23:59:59.999999999\"", json(timestampNtzNanos(-1)));
    }

    @Test
    void timestampTextIsWhatTheIsoFormattersGiveForAnyInstant() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(30);
        long[] edges = {0, -1, 1, 86_399_999_999L, -62_135_596_800_000_000L, 253_402_300_799_999_999L,
            253_402_300_800_000_000L, -62_167_219_200_000_001L, Long.MAX_VALUE / 1000, Long.MIN_VALUE / 1000};
        for (int i = 0; i < 20_000 + edges.length; i++) {
            long micros = i < edges.length ? edges[i] : random.nextLong(-400_000_000_000_000_000L / 1000,
                    400_000_000_000_000_000L / 1000) * (random.nextBoolean() ? 1 : 1000);
            java.time.ZonedDateTime t = java.time.Instant.EPOCH.plus(micros, ChronoUnit.MICROS).atZone(ZoneOffset.UTC);
            assertEquals("\"" + VariantJson.UTC.format(t) + "\"", json(timestamp(micros)), "micros " + micros);
            assertEquals("\"" + VariantJson.NTZ.format(t) + "\"", json(timestampNtz(micros)), "micros " + micros);
            long nanos = micros * 1000 + random.nextInt(1000);
            if (Math.floorDiv(nanos, 1000) == micros) {
                java.time.ZonedDateTime n = java.time.Instant.EPOCH.plusNanos(nanos).atZone(ZoneOffset.UTC);
                assertEquals("\"" + VariantJson.UTC.format(n) + "\"", json(timestampNanos(nanos)), "nanos " + nanos);
            }
        }
    }

    @Test
    void timeOfDay() {
        assertEquals("\"12:34:56.5\"", json(timeNtz(LocalTime.of(12, 34, 56, 500_000_000).toNanoOfDay() / 1000)));
        assertEquals("\"00:00:00\"", json(timeNtz(0)));
        assertEquals("\"23:59:59.999999\"", json(timeNtz(86_399_999_999L)));
    }

    @Test
    void binaryAsBase64AndUuidAsItsString() {
        assertEquals("\"AAEC/w==\"", json(binary(new byte[] {0, 1, 2, (byte) 0xFF})));
        assertEquals("\"\"", json(binary(new byte[0])));
        UUID u = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
        assertEquals("\"123e4567-e89b-12d3-a456-426614174000\"", json(uuid(u)));
        assertEquals("\"ffffffff-0000-0001-8000-00000000000f\"", json(uuid(new UUID(0xFFFFFFFF00000001L, 0x800000000000000FL))));
    }

    @Test
    void stringsLongAndShortEscapedLikeJackson() {
        assertEquals("\"ab\"", json(shortString("ab")));
        assertEquals("\"\"", json(shortString("")));
        String tricky = "h\u00e9llo \"w\" \\ /\n\t\r\b\f\u0001\u001f\u007f \u20ac \ud83d\ude00";
        String expected = "\"h\u00e9llo \\\"w\\\" \\\\ /\\n\\t\\r\\b\\f\\u0001\\u001F\u007f \u20ac \ud83d\ude00\"";
        assertEquals(expected, json(string(tricky)));
        assertEquals(expected, json(shortString(tricky)));
        String sixtyFour = "x".repeat(64);
        assertEquals("\"" + sixtyFour + "\"", json(string(sixtyFour)));
    }

    @Test
    void objectsWithSortedDictionary() {
        byte[] md = metadata("a", "b", "c");
        byte[] obj = object(1, 1, false, true, new int[] {0, 1, 2}, int8(1), shortString("x"), nul());
        assertEquals("{\"a\":1,\"b\":\"x\",\"c\":null}", json(md, obj));
        assertEquals("{}", json(md, object(new int[0])));
        assertEquals("{\"b\":{\"a\":[]}}", json(md, object(new int[] {1}, object(new int[] {0}, array()))));
    }

    @Test
    void objectsWithUnsortedDictionaryAndWideIdsAndOffsets() {
        byte[] md = metadata(false, 2, "zeta", "alpha", "mid");
        // field ids listed in key order (alpha, mid, zeta), whatever their order in the dictionary
        int[] ids = {1, 2, 0};
        String expected = "{\"alpha\":true,\"mid\":\"m\",\"zeta\":false}";
        assertEquals(expected, json(md, object(1, 1, false, false, ids, bool(true), shortString("m"), bool(false))));
        assertEquals(expected, json(md, object(2, 3, true, true, ids, bool(true), shortString("m"), bool(false))));
        assertEquals(expected, json(md, object(4, 4, true, false, ids, bool(true), shortString("m"), bool(false))));
        assertEquals("{\"k\\\"ey\":1}", json(metadata("k\"ey"), object(new int[] {0}, int8(1))));
    }

    @Test
    void arraysAndNesting() {
        byte[] md = metadata("a");
        assertEquals("[]", json(array()));
        assertEquals("[1,\"two\",[null],{\"a\":2.5}]", json(md, array(int8(1), string("two"), array(nul()),
                object(new int[] {0}, dbl(2.5)))));
        assertEquals("[true,false]", json(array(4, true, bool(true), bool(false))));
        byte[][] many = new byte[300][];
        StringBuilder expected = new StringBuilder("[");
        for (int i = 0; i < many.length; i++) {
            many[i] = int16(i);
            expected.append(i == 0 ? "" : ",").append(i);
        }
        assertEquals(expected.append(']').toString(), json(array(2, true, many)));
        byte[] deep = int8(0);
        for (int i = 0; i < 50; i++) {
            deep = object(new int[] {0}, array(deep));
        }
        String text = json(md, deep);
        assertEquals("{\"a\":[".repeat(50) + "0" + "]}".repeat(50), text);
    }

    @Test
    void malformedValuesAreRefusedNamingTheProblem() {
        IllegalArgumentException version = assertThrows(IllegalArgumentException.class,
                () -> json(new byte[] {2, 0, 0}, int8(1)));
        assertTrue(version.getMessage().contains("version 2"), version.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> json(primitive(21, new byte[8])));
        assertTrue(unknown.getMessage().contains("type id 21"), unknown.getMessage());
        byte[] truncated = string("hello");
        IllegalArgumentException cut = assertThrows(IllegalArgumentException.class,
                () -> json(java.util.Arrays.copyOf(truncated, truncated.length - 2)));
        assertTrue(cut.getMessage().contains("runs past"), cut.getMessage());
        IllegalArgumentException badId = assertThrows(IllegalArgumentException.class,
                () -> json(metadata("a"), object(new int[] {3}, int8(1))));
        assertTrue(badId.getMessage().contains("field id 3"), badId.getMessage());
        assertThrows(IllegalArgumentException.class, () -> json(new byte[0]));
        IllegalArgumentException offsets = assertThrows(IllegalArgumentException.class,
                () -> json(java.util.Arrays.copyOf(array(int64(1)), 5)));
        assertTrue(offsets.getMessage().contains("truncated"), offsets.getMessage());
    }
}
