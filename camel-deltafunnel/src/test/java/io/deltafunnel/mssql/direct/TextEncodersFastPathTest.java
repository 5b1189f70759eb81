package io.deltafunnel.mssql.direct;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (String s : values) {
            if (s == null) {
                expected.write(0xFF);
                expected.write(0xFF);
            } else {
                byte[] utf16 = s.getBytes(StandardCharsets.UTF_16LE);
                expected.write(utf16.length);
                expected.write(utf16.length >>> 8);
                expected.write(utf16);
            }
        }
        try (BufferAllocator a = new RootAllocator(); VarCharVector v = new VarCharVector("s", a)) {
            v.allocateNew();
            for (int i = 0; i < values.size(); i++) {
                if (values.get(i) == null) {
                    v.setNull(i);
                } else {
                    v.setSafe(i, values.get(i).getBytes(StandardCharsets.UTF_8));
                }
            }
            v.setValueCount(values.size());
            TargetColumn target = new TargetColumn("s", "nvarchar", 44, null, null, null, true, 1,
                    "SQL_Latin1_General_CP1_CI_AS");
            ArrowColumnType type = ArrowColumnTypes.forField(v.getField());
            BoundColumn column = new BoundColumn(0, "s", type, target, TargetBinding.of(type.kind(), target, false));
            for (int packet : new int[] {16, 17, 64, 101, 512}) {
                for (int perWrite : new int[] {1, 3}) {
                    for (int lead = 0; lead < 3; lead++) {
                        DirectEncoders.Encoder e = DirectEncoders.forColumn(column, v, null);
                        assertInstanceOf(TextEncoders.Utf8ToUtf16.class, e, "the Utf8 fast encoder");
                        ByteArrayOutputStream out = new ByteArrayOutputStream();
                        TdsMessageWriter w = new TdsMessageWriter(out, PacketType.BULK_LOAD, packet, perWrite);
                        for (int i = 0; i < lead; i++) {
                            w.writeByte(0x40);
                        }
                        for (int r = 0; r < values.size(); r++) {
                            e.value(w, r);
                        }
                        w.end();
                        assertArrayEquals(expected.toByteArray(), payload(out.toByteArray(), packet, lead),
                                "packet " + packet + ", " + perWrite + " per write, lead " + lead);
                    }
                }
            }
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
                            TextEncoders.widenAscii(buf.memoryAddress(), n, b, 0, overread));
                    assertArrayEquals(java.util.Arrays.copyOf(expected, 2 + 2 * n),
                            java.util.Arrays.copyOf(b, 2 + 2 * n), "n " + n + ", overread " + overread);
                }
            }
            for (boolean overread : new boolean[] {false, true}) {
                // the non-ASCII byte is the 21st: in the tail of a 21-byte value, in the first step of one at 20
                org.junit.jupiter.api.Assertions.assertFalse(
                        TextEncoders.widenAscii(buf.memoryAddress(), 21, new byte[60], 0, overread));
                org.junit.jupiter.api.Assertions.assertFalse(
                        TextEncoders.widenAscii(buf.memoryAddress() + 20, 8, new byte[60], 0, overread));
            }
        }
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
