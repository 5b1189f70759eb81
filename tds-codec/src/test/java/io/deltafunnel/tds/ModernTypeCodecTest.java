package io.deltafunnel.tds;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** SQL Server 2025 json (0xF4) and vector (0xF5): TYPE_INFO, values and the vector layout, bytes pinned. */
class ModernTypeCodecTest {

    private static Object roundTrip(TypeInfo t, Object v, byte[] expectedWire) {
        TdsWriter w = new TdsWriter(64);
        t.write(w);
        ValueCodec.write(w, t, v);
        byte[] bytes = java.util.Arrays.copyOf(w.array(), w.size());
        if (expectedWire != null) {
            assertArrayEquals(expectedWire, bytes);
        }
        TdsReader r = new TdsReader(bytes);
        TypeInfo back = TypeInfo.read(r);
        assertEquals(t.typeId(), back.typeId());
        assertEquals(t.maxLength(), back.maxLength());
        assertEquals(t.scale(), back.scale());
        return ValueCodec.read(r, back);
    }

    @Test
    void vectorTypeInfoAndValueBytes() {
        TypeInfo t = new TypeInfo(TypeId.VECTOR, VectorCodec.maxLength(2), 0, VectorCodec.DIMENSION_FLOAT32, null);
        byte[] wire = {(byte) 0xF5, 16, 0, 0, // TYPE_INFO: USHORT 16, float32
                16, 0, // value length
                (byte) 0xA9, 0x01, 2, 0, 0, 0, 0, 0, // header
                0, 0, (byte) 0x80, 0x3F, // 1.0f
                0, 0, 0x20, (byte) 0xC0}; // -2.5f
        assertArrayEquals(new float[] {1f, -2.5f}, (float[]) roundTrip(t, new float[] {1f, -2.5f}, wire));
        assertNull(roundTrip(t, null, new byte[] {(byte) 0xF5, 16, 0, 0, (byte) 0xFF, (byte) 0xFF}));
        assertEquals(2, VectorCodec.dimensions(16));
    }

    @Test
    void jsonTypeInfoIsTheTypeByteAndValuesArePlpUtf8() {
        TypeInfo t = TypeInfo.of(TypeId.JSON, TypeId.USHORT_MAX);
        String doc = "{\"a\":\"\u00e9\"}";
        assertEquals(doc, roundTrip(t, doc, null));
        TdsWriter w = new TdsWriter(64);
        t.write(w);
        assertEquals(1, w.size());
        assertNull(roundTrip(t, null, null));
        assertEquals(true, t.isPlp());
        byte[] utf8 = doc.getBytes(StandardCharsets.UTF_8);
        TdsWriter v = new TdsWriter(64);
        ValueCodec.write(v, t, doc);
        // PLP: 8-byte total length, then one chunk of the UTF-8 bytes
        assertEquals(utf8.length, v.array()[0]);
    }

    @Test
    void float16AndBadHeadersAreRefused() {
        byte[] half = {(byte) 0xA9, 0x01, 1, 0, 0x01, 0, 0, 0, 0, 0x3C};
        assertThrows(TdsProtocolException.class, () -> VectorCodec.decode(half));
        byte[] wrongMarker = {0x00, 0x01, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        assertThrows(TdsProtocolException.class, () -> VectorCodec.decode(wrongMarker));
        assertThrows(IllegalArgumentException.class, () -> VectorCodec.encode(new float[0]));
        assertThrows(IllegalArgumentException.class, () -> VectorCodec.encode(new float[1999]));
    }

    @Test
    void jsonTextFormOfAVector() {
        assertEquals("[1.0000000e+000,-2.5000000e-001,1.2345678e+010]",
                VectorCodec.toJson(new float[] {1f, -0.25f, 1.2345678e10f}));
        assertArrayEquals(new float[] {1f, 2.5f, -3e-5f}, VectorCodec.parseJson(" [1, 2.5 ,-3e-5] "));
        assertNull(VectorCodec.parseJson("[1,\"a\"]"));
        assertNull(VectorCodec.parseJson("{\"a\":1}"));
        assertNull(VectorCodec.parseJson("[1e99]"));
    }

    @Test
    void jsonTextIsCheckedStrictly() {
        for (String ok : new String[] {"{}", " [1, -2.5e3, true, null, \"a\\u00e9\\n\"] ", "{\"a\":{\"b\":[]}}", "0", "\"x\""}) {
            assertEquals(-1, JsonText.firstError(ok), ok);
        }
        assertEquals(1, JsonText.firstError("not json"));
        assertEquals(5, JsonText.firstError("{\"a\":"));
        assertEquals(3, JsonText.firstError("[1,]"));
        assertEquals(2, JsonText.firstError("{}x"));
        assertEquals(2, JsonText.firstError("[01]"));
        assertEquals(0, JsonText.firstError("'a'"));
    }
}
