package io.deltafunnel.tds;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** PRELOGIN option layout and LOGIN7 password obfuscation (MS-TDS 2.2.6.5 and 2.2.6.4). */
class HandshakeLayoutTest {

    @Test
    void preloginOptionsRoundTripWithOffsetsAfterTheTerminator() {
        Map<Integer, byte[]> options = new LinkedHashMap<>();
        options.put(PreloginOptions.VERSION, new byte[] {16, 0, 0, 0, 0, 0});
        options.put(PreloginOptions.ENCRYPTION, new byte[] {PreloginOptions.ENCRYPT_ON});
        options.put(PreloginOptions.MARS, new byte[] {0});
        byte[] wire = PreloginOptions.build(options);
        // 3 option headers of 5 bytes + terminator, then the data in order
        assertEquals(3 * 5 + 1 + 6 + 1 + 1, wire.length);
        assertArrayEquals(new byte[] {0x00, 0, 16, 0, 6}, java.util.Arrays.copyOfRange(wire, 0, 5));
        assertArrayEquals(new byte[] {0x01, 0, 22, 0, 1}, java.util.Arrays.copyOfRange(wire, 5, 10));
        assertEquals((byte) PreloginOptions.TERMINATOR, wire[15]);
        Map<Integer, byte[]> back = PreloginOptions.parse(wire);
        assertEquals(options.keySet(), back.keySet());
        options.forEach((k, v) -> assertArrayEquals(v, back.get(k), "option " + k));
        assertEquals(PreloginOptions.ENCRYPT_ON, PreloginOptions.byteOption(back, PreloginOptions.ENCRYPTION));
        assertEquals(-1, PreloginOptions.byteOption(back, PreloginOptions.FEDAUTHREQUIRED));
    }

    @Test
    void preloginOptionPointingOutsideThePayloadIsRefused() {
        byte[] wire = {PreloginOptions.ENCRYPTION, 0, 6, 0, 9, (byte) PreloginOptions.TERMINATOR, 1};
        assertThrows(TdsProtocolException.class, () -> PreloginOptions.parse(wire));
    }

    @Test
    void passwordObfuscationSwapsNibblesThenXorsA5() {
        // 'a' = 0x61 0x00 in UTF-16LE: 0x61 -> 0x16 ^ 0xA5 = 0xB3; 0x00 -> 0x00 ^ 0xA5 = 0xA5
        assertArrayEquals(new byte[] {(byte) 0xB3, (byte) 0xA5}, Login7.obfuscatePassword("a"));
        for (String p : new String[] {"", "yourStrong(!)Password", "pässwörd😀"}) {
            assertEquals(p, Login7.deobfuscatePassword(Login7.obfuscatePassword(p)));
        }
    }

    @Test
    void fedAuthOptionsByte() {
        assertEquals(0x03, Login7.fedAuthOptions(Login7.FEDAUTH_LIBRARY_SECURITYTOKEN, true));
        assertEquals(0x02, Login7.fedAuthOptions(Login7.FEDAUTH_LIBRARY_SECURITYTOKEN, false));
    }
}
