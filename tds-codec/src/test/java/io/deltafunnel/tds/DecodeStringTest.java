package io.deltafunnel.tds;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * {@link ValueCodec#decodeString} gives exactly the JDK's decoding of UTF-16LE (nchar/nvarchar/ntext) and of code
 * page 1252 (char/varchar), on random text of every kind and random bytes, lone surrogates (replaced, as the JDK
 * does) and bytes 1252 leaves undefined included. (A Latin-1 fast path was tried against it and dropped: the README's
 * sample text has a character beyond U+00FF in every value, and scanning before decoding cost more.)
 */
class DecodeStringTest {

    @Test
    void decodesAsTheJdkDoes() {
        Random random = new Random(1206);
        TypeInfo nvarchar = new TypeInfo(TypeId.NVARCHAR, 8000, 0, 0, Collation.SQL_LATIN1_GENERAL_CP1_CI_AS);
        TypeInfo varchar = new TypeInfo(TypeId.BIGVARCHAR, 8000, 0, 0, Collation.SQL_LATIN1_GENERAL_CP1_CI_AS);
        Charset cp1252 = Charset.forName("windows-1252");
        int[] tops = {0x80, 0x100, 0x800, 0x10000};
        for (int t = 0; t < 5000; t++) {
            int n = random.nextInt(40);
            int top = tops[random.nextInt(tops.length)];
            byte[] utf16 = new byte[2 * n];
            for (int i = 0; i < n; i++) {
                int unit = random.nextInt(top); // surrogates, lone ones too, when top is 0x10000
                utf16[2 * i] = (byte) unit;
                utf16[2 * i + 1] = (byte) (unit >>> 8);
            }
            assertEquals(new String(utf16, StandardCharsets.UTF_16LE), ValueCodec.decodeString(utf16, nvarchar),
                    HexFormat.of().formatHex(utf16));
            byte[] bytes = new byte[n];
            for (int i = 0; i < n; i++) {
                bytes[i] = (byte) random.nextInt(top == 0x80 ? 0x80 : 0x100);
            }
            assertEquals(new String(bytes, cp1252), ValueCodec.decodeString(bytes, varchar),
                    HexFormat.of().formatHex(bytes));
        }
    }
}
