package io.deltafunnel.mssql.direct;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ArrowColumnTypes;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.TargetBinding;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.tds.PacketType;
import io.deltafunnel.tds.TdsMessageWriter;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.junit.jupiter.api.Test;

/**
 * The nvarchar encoder of Utf8 vectors reads the values at the buffers' addresses and widens ASCII straight into the
 * packet: its bytes are the UTF-16LE of each value with its length, NULL as 0xFFFF, for ASCII of every length around
 * the 8-byte steps, non-ASCII (2-, 3- and 4-byte UTF-8, a non-ASCII byte in either half of a step or in the tail)
 * and values that straddle packet ends, at several packet sizes and packets per write.
 */
class TextEncodersFastPathTest {

    private static List<String> values() {
        List<String> values = new ArrayList<>();
        String ascii = "DELIVER IN PERSON carefully final deposits detect slyly ~!";
        for (int n = 0; n <= 40; n++) {
            values.add(ascii.substring(0, n));
        }
        for (String s : new String[] {"é", "aé", "abcdefgé", "abcdefghé", "abcdéfghijklmnop", "abcdefghijklmnoé",
                "€uro", "日本語のテキスト", "😀", "a😀b", "0123456789abcdef😀", "ÿ"}) {
            values.add(s);
        }
        values.add(null);
        values.add("");
        values.add("ab"); // followed by non-ASCII bytes that the last 8-byte read of "ab" sees and must mask off
        values.add("éé€€");
        values.add("tail");
        return values;
    }

    @Test
    void matchesUtf16leOfEachValueAcrossPacketEnds() throws Exception {
        List<String> values = values();
        byte[] expected = usValues(values, StandardCharsets.UTF_16LE);
        try (BufferAllocator a = new RootAllocator(); VarCharVector v = new VarCharVector("s", a)) {
            fill(v, values);
            BoundColumn column = column(v, "nvarchar", 44);
            DirectEncoders.Encoder e = DirectEncoders.forColumn(column, v, null);
            assertInstanceOf(Utf8Text.class, e, "the Utf8 fast encoder");
            assertWritesAcrossPacketEnds(e, values.size(), expected);
        }
    }

    /** Each value as its USHORT byte length and its bytes in {@code charset}; a NULL as 0xFFFF. */
    private static byte[] usValues(List<String> values, java.nio.charset.Charset charset) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String s : values) {
            if (s == null) {
                out.write(0xFF);
                out.write(0xFF);
            } else {
                byte[] bytes = s.getBytes(charset);
                out.write(bytes.length);
                out.write(bytes.length >>> 8);
                out.writeBytes(bytes);
            }
        }
        return out.toByteArray();
    }

    /**
     * Writes the encoder's {@code rows} values after 0 to 2 lead bytes into messages of several packet sizes, one or
     * three packets per write, and checks each message's payload is {@code expected}.
     */
    private static void assertWritesAcrossPacketEnds(DirectEncoders.Encoder e, int rows, byte[] expected)
            throws Exception {
        for (int packet : new int[] {16, 17, 64, 101, 512}) {
            for (int perWrite : new int[] {1, 3}) {
                for (int lead = 0; lead < 3; lead++) {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    TdsMessageWriter w = new TdsMessageWriter(out, PacketType.BULK_LOAD, packet, perWrite);
                    for (int i = 0; i < lead; i++) {
                        w.writeByte(0x40);
                    }
                    for (int r = 0; r < rows; r++) {
                        e.value(w, r);
                    }
                    w.end();
                    assertArrayEquals(expected, payload(out.toByteArray(), packet, lead),
                            "packet " + packet + ", " + perWrite + " per write, lead " + lead);
                }
            }
        }
    }

    /**
     * With the writer's {@code asciiAsVarchar}, an all-ASCII batch into nvarchar(n) is varchar(n) in the column's
     * collation: TYPE_INFO BIGVARCHAR, each value its bytes with a USHORT length, across packet ends (values of every
     * length around the 8-byte steps, NULLs, empty).
     */
    @Test
    void asciiBatchAsVarcharIsEachValuesBytesAcrossPacketEnds() throws Exception {
        List<String> values = new ArrayList<>();
        for (int n = 0; n <= 44; n++) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < n; i++) {
                sb.append((char) (' ' + (n * 7 + i) % 95));
            }
            values.add(sb.toString());
            if (n % 9 == 0) {
                values.add(null);
            }
        }
        byte[] expected = usValues(values, StandardCharsets.US_ASCII);
        try (BufferAllocator a = new RootAllocator(); VarCharVector v = new VarCharVector("s", a)) {
            fill(v, values);
            BoundColumn column = column(v, "nvarchar", 44);
            Utf8Text e = assertInstanceOf(Utf8Text.class,
                    DirectEncoders.forColumn(column, v, null, true));
            org.junit.jupiter.api.Assertions.assertTrue(e.narrow());
            org.junit.jupiter.api.Assertions.assertEquals("varchar(44) COLLATE SQL_Latin1_General_CP1_CI_AS",
                    e.declaredType());
            ByteArrayOutputStream typeInfo = new ByteArrayOutputStream();
            TdsMessageWriter tw = new TdsMessageWriter(typeInfo, PacketType.BULK_LOAD, 512);
            e.typeInfo(tw);
            tw.end();
            ByteArrayOutputStream want = new ByteArrayOutputStream();
            want.write(io.deltafunnel.tds.TypeId.BIGVARCHAR);
            want.write(44);
            want.write(0);
            want.writeBytes(io.deltafunnel.tds.Collation.SQL_LATIN1_GENERAL_CP1_CI_AS.bytes());
            assertArrayEquals(want.toByteArray(), payload(typeInfo.toByteArray(), 512, 0));
            assertWritesAcrossPacketEnds(e, values.size(), expected);
        }
    }

    /**
     * Where the batch is not all ASCII, the column's collation is not one of a known code page (or not known), the
     * target is not nvarchar, or an nvarchar(max) value is longer than 8000 bytes: UTF-16, the target's type.
     */
    @Test
    void asciiAsVarcharOnlyWhereTheBytesAreTheText() throws Exception {
        try (BufferAllocator a = new RootAllocator(); VarCharVector ascii = new VarCharVector("s", a);
                VarCharVector accent = new VarCharVector("s", a); VarCharVector long8000 = new VarCharVector("s", a);
                VarCharVector long8001 = new VarCharVector("s", a)) {
            fill(ascii, java.util.Arrays.asList("abc", null, ""));
            fill(accent, java.util.Arrays.asList("abc", "caf\u00E9"));
            fill(long8000, List.of("x".repeat(8000), "y"));
            fill(long8001, List.of("x".repeat(8001), "y"));
            org.junit.jupiter.api.Assertions.assertEquals("varchar(10) COLLATE SQL_Latin1_General_CP1_CI_AS",
                    declared(ascii, "nvarchar", 10, "SQL_Latin1_General_CP1_CI_AS"));
            org.junit.jupiter.api.Assertions.assertEquals("varchar(10) COLLATE Latin1_General_100_CI_AS_SC_UTF8",
                    declared(ascii, "nvarchar", 10, "Latin1_General_100_CI_AS_SC_UTF8"));
            org.junit.jupiter.api.Assertions.assertEquals("varchar(max) COLLATE SQL_Latin1_General_CP1_CI_AS",
                    declared(long8000, "nvarchar", -1, "SQL_Latin1_General_CP1_CI_AS"));
            org.junit.jupiter.api.Assertions.assertNull(declared(accent, "nvarchar", 10,
                    "SQL_Latin1_General_CP1_CI_AS"), "a non-ASCII value");
            org.junit.jupiter.api.Assertions.assertNull(declared(long8001, "nvarchar", -1,
                    "SQL_Latin1_General_CP1_CI_AS"), "an (max) value beyond 8000 bytes");
            org.junit.jupiter.api.Assertions.assertNull(declared(ascii, "nvarchar", 10, "Japanese_CI_AS"),
                    "a code page the writer does not know");
            org.junit.jupiter.api.Assertions.assertNull(declared(ascii, "nvarchar", 10, null), "no collation");
            org.junit.jupiter.api.Assertions.assertNull(declared(ascii, "nchar", 10,
                    "SQL_Latin1_General_CP1_CI_AS"), "nchar");
        }
    }

    /** The type INSERT BULK declares for a Utf8 column into the given target with asciiAsVarchar on. */
    private static String declared(VarCharVector v, String type, int length, String collation) {
        TargetColumn target = new TargetColumn("s", type, length, null, null, null, true, 1, collation);
        ArrowColumnType t = ArrowColumnTypes.forField(v.getField());
        BoundColumn column = new BoundColumn(0, "s", t, target, TargetBinding.of(t.kind(), target, false));
        return DirectEncoders.forColumn(column, v, null, true).declaredType();
    }

    /** PLP as the general encoder writes it: known total length, one chunk, the terminator; NULL as ~0. */
    private static byte[] plp(List<String> values) {
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (String s : values) {
            if (s == null) {
                for (int i = 0; i < 8; i++) {
                    expected.write(0xFF);
                }
                continue;
            }
            byte[] utf16 = s.getBytes(StandardCharsets.UTF_16LE);
            expected.writeBytes(java.nio.ByteBuffer.allocate(8).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                    .putLong(utf16.length).array());
            if (utf16.length > 0) {
                expected.writeBytes(java.nio.ByteBuffer.allocate(4).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                        .putInt(utf16.length).array());
                expected.writeBytes(utf16);
            }
            expected.writeBytes(new byte[4]);
        }
        return expected.toByteArray();
    }

    @Test
    void nvarcharMaxAsBoundedPlpMatchesTheGeneralEncoderAcrossPacketEnds() throws Exception {
        List<String> values = values();
        byte[] expected = plp(values);
        try (BufferAllocator a = new RootAllocator(); VarCharVector v = new VarCharVector("s", a)) {
            fill(v, values);
            for (String type : new String[] {"nvarchar", "ntext"}) {
                BoundColumn column = column(v, type, -1);
                for (int packet : new int[] {16, 17, 64, 101, 512}) {
                    for (int perWrite : new int[] {1, 3}) {
                        for (int lead = 0; lead < 3; lead++) {
                            for (boolean rows : new boolean[] {false, true}) {
                                DirectEncoders.Encoder e = DirectEncoders.forColumn(column, v, null);
                                assertInstanceOf(Utf8Text.class, e, "the bounded PLP encoder");
                                ByteArrayOutputStream out = new ByteArrayOutputStream();
                                TdsMessageWriter w = new TdsMessageWriter(out, PacketType.BULK_LOAD, packet, perWrite);
                                for (int i = 0; i < lead; i++) {
                                    w.writeByte(0x40);
                                }
                                if (rows) {
                                    // ROW tokens as the writer sends them: a token byte, then the value
                                    DirectBulkWriter.writeRows(w, new DirectEncoders.Encoder[] {e}, 0, values.size(),
                                            null);
                                } else {
                                    for (int r = 0; r < values.size(); r++) {
                                        e.value(w, r);
                                    }
                                }
                                w.end();
                                byte[] got = payload(out.toByteArray(), packet, lead);
                                assertArrayEquals(rows ? withRowTokens(values) : expected, got,
                                        type + ", packet " + packet + ", " + perWrite + " per write, lead " + lead
                                        + (rows ? ", rows" : ", values"));
                            }
                        }
                    }
                }
                // the type info declares (max) whatever the batch's longest value
                ByteArrayOutputStream info = new ByteArrayOutputStream();
                TdsMessageWriter w = new TdsMessageWriter(info, PacketType.BULK_LOAD, 512);
                DirectEncoders.forColumn(column, v, null).typeInfo(w);
                w.end();
                byte[] typeInfo = payload(info.toByteArray(), 512, 0);
                assertArrayEquals(new byte[] {(byte) 0xFF, (byte) 0xFF}, java.util.Arrays.copyOfRange(typeInfo, 1, 3));
            }
        }
    }

    /** {@link #plp} of each value behind a ROW token byte. */
    private static byte[] withRowTokens(List<String> values) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (String s : values) {
            all.write(io.deltafunnel.tds.TokenType.ROW);
            all.writeBytes(plp(java.util.Collections.singletonList(s)));
        }
        return all.toByteArray();
    }

    @Test
    void nvarcharMaxWithAValueBeyondTheBoundUsesTheGeneralEncoderWithTheSameBytes() throws Exception {
        String longest = "é".repeat(Utf8Text.PLP_BOUNDED_UTF8 / 2) + "x"; // 4001 UTF-8 bytes
        List<String> values = List.of("short", longest, "");
        try (BufferAllocator a = new RootAllocator(); VarCharVector v = new VarCharVector("s", a)) {
            fill(v, values);
            BoundColumn column = column(v, "nvarchar", -1);
            DirectEncoders.Encoder e = DirectEncoders.forColumn(column, v, null);
            org.junit.jupiter.api.Assertions.assertFalse(e instanceof Utf8Text,
                    "a value beyond the bound: the general encoder");
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            TdsMessageWriter w = new TdsMessageWriter(out, PacketType.BULK_LOAD, 512);
            for (int r = 0; r < values.size(); r++) {
                e.value(w, r);
            }
            w.end();
            assertArrayEquals(plp(values), payload(out.toByteArray(), 512, 0));
            // one value at the bound: still the bounded encoder, same bytes
            String atBound = "é".repeat(Utf8Text.PLP_BOUNDED_UTF8 / 2); // 4000 UTF-8 bytes
            v.setSafe(1, atBound.getBytes(StandardCharsets.UTF_8));
            v.setValueCount(values.size());
            DirectEncoders.Encoder bounded = DirectEncoders.forColumn(column, v, null);
            assertInstanceOf(Utf8Text.class, bounded);
            ByteArrayOutputStream out2 = new ByteArrayOutputStream();
            TdsMessageWriter w2 = new TdsMessageWriter(out2, PacketType.BULK_LOAD, 512);
            DirectBulkWriter.writeRows(w2, new DirectEncoders.Encoder[] {bounded}, 0, values.size(), null);
            w2.end();
            assertArrayEquals(withRowTokens(List.of("short", atBound, "")), payload(out2.toByteArray(), 512, 0));
        }
    }

    @Test
    void widenAsciiWithAndWithoutReadingPastTheValue() {
        String text = "0123456789abcdefghijé";
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        try (BufferAllocator a = new RootAllocator(); org.apache.arrow.memory.ArrowBuf buf = a.buffer(64)) {
            buf.setZero(0, 64);
            buf.setBytes(0, utf8);
            for (int n = 0; n <= 20; n++) {
                byte[] expected = new byte[2 + 2 * n + 8];
                expected[0] = (byte) (2 * n);
                byte[] utf16 = text.substring(0, n).getBytes(StandardCharsets.UTF_16LE);
                System.arraycopy(utf16, 0, expected, 2, utf16.length);
                for (boolean overread : new boolean[] {false, true}) {
                    byte[] b = new byte[2 + 2 * n + 8];
                    org.junit.jupiter.api.Assertions.assertTrue(
                            Utf16Le.widenAscii(buf.memoryAddress(), n, b, 0, overread));
                    assertArrayEquals(java.util.Arrays.copyOf(expected, 2 + 2 * n),
                            java.util.Arrays.copyOf(b, 2 + 2 * n), "n " + n + ", overread " + overread);
                }
            }
            for (boolean overread : new boolean[] {false, true}) {
                // the non-ASCII byte is the 21st: in the tail of a 21-byte value, in the first step of one at 20
                org.junit.jupiter.api.Assertions.assertFalse(
                        Utf16Le.widenAscii(buf.memoryAddress(), 21, new byte[60], 0, overread));
                org.junit.jupiter.api.Assertions.assertFalse(
                        Utf16Le.widenAscii(buf.memoryAddress() + 20, 8, new byte[60], 0, overread));
            }
        }
    }

    @Test
    void transcodesStraightFromTheBufferAsJavaDoes() {
        java.util.Random random = new java.util.Random(29);
        // runs of two-byte characters (Cyrillic, Greek, Hebrew) and of three-byte ones (Japanese, Thai, symbols) at
        // every alignment take the steps of several characters at a time
        String[] pieces = {"a", "abcdefgh", "0123456789abcdefghij", "é", "ß", "€", "✓", "中文", "😀", "𝄞", " ", "~",
            "дом", "Ωμέγα", "שלום", "привет", "日本語の文", "สวัสดี", "€✓"};
        try (BufferAllocator a = new RootAllocator(); org.apache.arrow.memory.ArrowBuf buf = a.buffer(512)) {
            for (int t = 0; t < 2000; t++) {
                StringBuilder sb = new StringBuilder();
                for (int k = random.nextInt(12); k > 0; k--) {
                    sb.append(pieces[random.nextInt(pieces.length)]);
                }
                byte[] utf8 = sb.toString().getBytes(StandardCharsets.UTF_8);
                byte[] utf16 = sb.toString().getBytes(StandardCharsets.UTF_16LE);
                int at = random.nextInt(16); // any alignment in the buffer
                buf.setBytes(at, utf8);
                int q = 3 + random.nextInt(8);
                byte[] b = new byte[q + utf16.length + 24];
                java.util.Arrays.fill(b, (byte) 0x55);
                assertEquals(utf16.length, Utf16Le.utf8ToUtf16le(buf.memoryAddress() + at, utf8.length, b, q,
                        q + utf16.length), sb.toString());
                assertArrayEquals(utf16, java.util.Arrays.copyOfRange(b, q, q + utf16.length), sb.toString());
                for (int i = 0; i < b.length; i++) {
                    if (i < q || i >= q + utf16.length) {
                        assertEquals((byte) 0x55, b[i], "byte " + i + " outside the value was written: " + sb);
                    }
                }
                if (utf16.length > 0) {
                    // a bound one byte short: refused, and nothing written at or past it
                    java.util.Arrays.fill(b, (byte) 0x55);
                    int limit = q + utf16.length - 1;
                    assertEquals(-1, Utf16Le.utf8ToUtf16le(buf.memoryAddress() + at, utf8.length, b, q, limit));
                    for (int i = limit; i < b.length; i++) {
                        assertEquals((byte) 0x55, b[i], "byte " + i + " at or past the limit was written: " + sb);
                    }
                }
            }
            // two-byte sequences of any lead C0..DF (overlong ones too) and continuation: the four-at-a-time step
            // decodes them as the byte-by-byte transcoder does
            for (int t = 0; t < 2000; t++) {
                int pairs = 1 + random.nextInt(20);
                byte[] utf8 = new byte[2 * pairs + random.nextInt(2)];
                for (int k = 0; k < pairs; k++) {
                    utf8[2 * k] = (byte) (0xC0 + random.nextInt(32));
                    utf8[2 * k + 1] = (byte) (0x80 + random.nextInt(64));
                }
                if (utf8.length % 2 == 1) {
                    utf8[utf8.length - 1] = 'z';
                }
                assertTranscodesAsByteByByte(buf, random.nextInt(16), utf8);
            }
            // three-byte sequences of any lead E0..EF (overlong and surrogate ones too) and continuations: the
            // two-at-a-time step decodes them as the byte-by-byte transcoder does
            for (int t = 0; t < 2000; t++) {
                int chars = 1 + random.nextInt(20);
                byte[] utf8 = new byte[3 * chars + random.nextInt(3)];
                for (int k = 0; k < chars; k++) {
                    utf8[3 * k] = (byte) (0xE0 + random.nextInt(16));
                    utf8[3 * k + 1] = (byte) (0x80 + random.nextInt(64));
                    utf8[3 * k + 2] = (byte) (0x80 + random.nextInt(64));
                }
                for (int k = 3 * chars; k < utf8.length; k++) {
                    utf8[k] = 'z';
                }
                assertTranscodesAsByteByByte(buf, random.nextInt(16), utf8);
            }
            // a multi-byte sequence cut off by the value's end
            byte[] euro = "x€".getBytes(StandardCharsets.UTF_8);
            buf.setBytes(0, euro);
            org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> Utf16Le.utf8ToUtf16le(buf.memoryAddress(), euro.length - 1, new byte[16], 0, 16));
        }
    }

    /**
     * {@link Utf16Le#nonAsciiUnits}: -1 for ASCII text, else Java's UTF-16 length, on 3,000 random mixes at every
     * alignment, with and without reading past the value (the bytes after it, 0xF0 and 0x80, would count if read
     * unmasked); and where the bytes are not well-formed UTF-8, a count the transcoder need not write (a three-byte
     * lead before ASCII), which is why the tiles compare the two.
     */
    @Test
    void countsUtf16UnitsOfNonAsciiTextAsJavaDoes() {
        java.util.Random random = new java.util.Random(1206);
        String[] pieces = {"a", "abcdefgh", "0123456789abcdefghij", "é", "ß", "€", "✓", "中文", "😀", "𝄞", " ", "~",
                "д", "ж"};
        try (BufferAllocator a = new RootAllocator(); org.apache.arrow.memory.ArrowBuf buf = a.buffer(512)) {
            for (int t = 0; t < 3000; t++) {
                StringBuilder sb = new StringBuilder();
                for (int k = random.nextInt(14); k > 0; k--) {
                    sb.append(pieces[random.nextInt(pieces.length)]);
                }
                String text = sb.toString();
                byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
                int at = random.nextInt(16);
                buf.setBytes(at, utf8);
                for (int i = 0; i < 8; i++) {
                    buf.setByte(at + utf8.length + i, i % 2 == 0 ? 0xF0 : 0x80);
                }
                int expected = text.chars().allMatch(c -> c < 0x80) ? -1 : text.length();
                for (boolean overread : new boolean[] {false, true}) {
                    assertEquals(expected, Utf16Le.nonAsciiUnits(buf.memoryAddress() + at, utf8.length, overread),
                            text + (overread ? ", reading past it" : ""));
                }
            }
            byte[] notUtf8 = {(byte) 0xE0, 'a', 'b', 'c'};
            buf.setBytes(0, notUtf8);
            assertEquals(4, Utf16Le.nonAsciiUnits(buf.memoryAddress(), 4, false));
            assertEquals(4, Utf16Le.utf8ToUtf16le(buf.memoryAddress(), 4, new byte[16], 0, 16),
                    "the transcoder writes 2 code units (4 bytes) for it, not 4");
        }
    }

    /**
     * {@code utf8}, at {@code at} in {@code buf}, transcoded from the buffer as the byte-by-byte transcoder does from
     * an array; refused (-1) with a bound one code unit short.
     */
    private static void assertTranscodesAsByteByByte(org.apache.arrow.memory.ArrowBuf buf, int at, byte[] utf8) {
        byte[] expected = new byte[2 * utf8.length];
        int bytes = Utf16Le.utf8ToUtf16le(utf8, utf8.length, expected);
        buf.setBytes(at, utf8);
        byte[] b = new byte[bytes];
        String what = java.util.HexFormat.of().formatHex(utf8);
        assertEquals(bytes, Utf16Le.utf8ToUtf16le(buf.memoryAddress() + at, utf8.length, b, 0, bytes), what);
        assertArrayEquals(java.util.Arrays.copyOf(expected, bytes), b, what);
        assertEquals(-1, Utf16Le.utf8ToUtf16le(buf.memoryAddress() + at, utf8.length, new byte[bytes], 0, bytes - 2),
                what);
    }

    /** Sets {@code v} to {@code values} (null: NULL) as UTF-8. */
    private static void fill(VarCharVector v, List<String> values) {
        v.allocateNew();
        for (int i = 0; i < values.size(); i++) {
            if (values.get(i) == null) {
                v.setNull(i);
            } else {
                v.setSafe(i, values.get(i).getBytes(StandardCharsets.UTF_8));
            }
        }
        v.setValueCount(values.size());
    }

    /** {@code v} bound to a nullable target column {@code type(length)} (-1: max) with a Latin1 collation. */
    private static BoundColumn column(VarCharVector v, String type, int length) {
        TargetColumn target = new TargetColumn("s", type, length, null, null, null, true, 1,
                "SQL_Latin1_General_CP1_CI_AS");
        ArrowColumnType t = ArrowColumnTypes.forField(v.getField());
        return new BoundColumn(0, "s", t, target, TargetBinding.of(t.kind(), target, false));
    }

    /** The message's bytes without packet headers and without the {@code lead} bytes. */
    private static byte[] payload(byte[] message, int packet, int lead) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int at = 0; at < message.length; at += packet) {
            int end = Math.min(message.length, at + packet);
            body.write(message, at + TdsMessageWriter.HEADER, end - at - TdsMessageWriter.HEADER);
        }
        byte[] all = body.toByteArray();
        return java.util.Arrays.copyOfRange(all, lead, all.length);
    }
}
