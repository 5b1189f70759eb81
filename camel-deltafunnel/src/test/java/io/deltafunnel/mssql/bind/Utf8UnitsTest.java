package io.deltafunnel.mssql.bind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/**
 * {@link Utf8Units}: the UTF-16 length of well-formed UTF-8 is that of its Java String; anything that is not
 * well-formed is -1, never a length that differs from what Java's decoding (with its replacement characters) gives.
 */
class Utf8UnitsTest {

    /**
     * {@link Utf8Units#ascii}: true for ASCII bytes of every length around its 32- and 8-byte steps, false with one byte
     * of 0x80 or more at any position (the first step that has it ends the scan), and bytes after the length are not
     * looked at.
     */
    @Test
    void asciiIsFalseWithOneHighByteAnywhere() {
        try (BufferAllocator a = new RootAllocator(); ArrowBuf buf = a.buffer(256)) {
            for (int n = 0; n <= 100; n++) {
                for (int i = 0; i < 256; i++) {
                    buf.setByte(i, 'a' + i % 26);
                }
                buf.setByte(n, 0x80); // just past the length: not looked at
                assertTrue(Utf8Units.ascii(buf.memoryAddress(), n), "ASCII of " + n + " bytes");
                for (int at = 0; at < n; at++) {
                    for (int high : new int[] {0x80, 0xC3, 0xFF}) {
                        buf.setByte(at, high);
                        assertEquals(false, Utf8Units.ascii(buf.memoryAddress(), n), n + " bytes, 0x"
                                + Integer.toHexString(high) + " at " + at);
                        buf.setByte(at, 'a');
                    }
                }
            }
        }
    }

    /**
     * Runs of two-byte characters, counted four at a time: their Java length when every lead is C2..DF and every
     * continuation 80..BF, and -1 with one overlong lead (C0, C1) or one byte that is not a continuation, at any
     * position of the run and any alignment.
     */
    @Test
    void runsOfTwoByteCharactersAreCountedOrRefusedAtEveryPosition() {
        Random random = new Random(1207);
        try (BufferAllocator a = new RootAllocator(); ArrowBuf buf = a.buffer(256)) {
            for (int t = 0; t < 3000; t++) {
                int chars = 1 + random.nextInt(30);
                StringBuilder sb = new StringBuilder();
                for (int k = 0; k < chars; k++) {
                    sb.append((char) (0x80 + random.nextInt(0x800 - 0x80)));
                }
                String s = sb.toString();
                byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
                int at = random.nextInt(8);
                buf.setBytes(at, utf8);
                assertEquals(s.length(), Utf8Units.utf16Length(buf.memoryAddress() + at, utf8.length), s);
                int bad = 2 * random.nextInt(chars);
                byte[] broken = utf8.clone();
                if (random.nextBoolean()) {
                    broken[bad] = (byte) (0xC0 + random.nextInt(2)); // an overlong lead
                } else {
                    broken[bad + 1] = (byte) random.nextInt(0x80); // no continuation
                }
                buf.setBytes(at, broken);
                assertEquals(-1, Utf8Units.utf16Length(buf.memoryAddress() + at, broken.length),
                        HexFormat.of().formatHex(broken));
            }
        }
    }

    /**
     * Runs of three-byte characters (U+0800..U+FFFF without surrogates): their Java length; -1 with one overlong form
     * (E0 then 80..9F), one surrogate (ED then A0..BF) or one byte that is not a continuation, at any position of the
     * run and any alignment.
     */
    @Test
    void runsOfThreeByteCharactersAreCountedOrRefusedAtEveryPosition() {
        Random random = new Random(1208);
        try (BufferAllocator a = new RootAllocator(); ArrowBuf buf = a.buffer(256)) {
            for (int t = 0; t < 3000; t++) {
                int chars = 1 + random.nextInt(30);
                StringBuilder sb = new StringBuilder();
                while (sb.length() < chars) {
                    char c = (char) (0x800 + random.nextInt(0x10000 - 0x800));
                    if (!Character.isSurrogate(c)) {
                        sb.append(c);
                    }
                }
                String s = sb.toString();
                byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
                int at = random.nextInt(8);
                buf.setBytes(at, utf8);
                assertEquals(s.length(), Utf8Units.utf16Length(buf.memoryAddress() + at, utf8.length), s);
                int bad = 3 * random.nextInt(chars);
                byte[] broken = utf8.clone();
                switch (random.nextInt(3)) {
                    case 0 -> {
                        broken[bad] = (byte) 0xE0; // overlong
                        broken[bad + 1] = (byte) (0x80 + random.nextInt(0x20));
                    }
                    case 1 -> {
                        broken[bad] = (byte) 0xED; // a surrogate
                        broken[bad + 1] = (byte) (0xA0 + random.nextInt(0x20));
                    }
                    default -> broken[bad + 1 + random.nextInt(2)] = (byte) random.nextInt(0x80); // no continuation
                }
                buf.setBytes(at, broken);
                assertEquals(-1, Utf8Units.utf16Length(buf.memoryAddress() + at, broken.length),
                        HexFormat.of().formatHex(broken));
            }
        }
    }

    @Test
    void wellFormedTextHasTheLengthOfItsJavaString() {
        Random random = new Random(29);
        int[] blocks = {0x20, 0xE9, 0x3B1, 0x416, 0x5D0, 0x20AC, 0x4E2D, 0xAC00, 0xFFFD, 0x1F600, 0x10FFFF - 1};
        try (BufferAllocator a = new RootAllocator(); ArrowBuf buf = a.buffer(1024)) {
            for (int t = 0; t < 3000; t++) {
                StringBuilder sb = new StringBuilder();
                for (int k = random.nextInt(40); k > 0; k--) {
                    int base = blocks[random.nextInt(blocks.length)];
                    sb.appendCodePoint(base + (base < 0x10000 && base > 0x7F ? random.nextInt(16) : 0));
                }
                String s = sb.toString();
                byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
                int at = random.nextInt(8);
                buf.setBytes(at, utf8);
                assertEquals(s.length(), Utf8Units.utf16Length(buf.memoryAddress() + at, utf8.length), s);
            }
        }
    }

    @Test
    void anythingNotWellFormedIsMinusOneOrItsJavaLength() {
        Random random = new Random(6);
        try (BufferAllocator a = new RootAllocator(); ArrowBuf buf = a.buffer(64)) {
            // stray continuation, overlong forms, a surrogate, beyond U+10FFFF, bytes never in UTF-8, cut off
            for (String hex : new String[] {"80", "bf41", "c080", "c1bf", "e08080", "e09fbf", "eda080", "edbfbf",
                    "f08080 80".replace(" ", ""), "f48f bfbf".replace(" ", "").replace("8f", "90"), "f5808080", "ff",
                    "c3", "e282", "f09f98", "41e2"}) {
                byte[] bytes = HexFormat.of().parseHex(hex);
                buf.setBytes(0, bytes);
                assertEquals(-1, Utf8Units.utf16Length(buf.memoryAddress(), bytes.length), hex);
            }
            for (int t = 0; t < 20000; t++) {
                byte[] bytes = new byte[random.nextInt(12)];
                random.nextBytes(bytes);
                buf.setBytes(0, bytes);
                int units = Utf8Units.utf16Length(buf.memoryAddress(), bytes.length);
                assertTrue(units == -1 || units == new String(bytes, StandardCharsets.UTF_8).length(),
                        HexFormat.of().formatHex(bytes));
            }
        }
    }
}
