package io.deltafunnel.tds;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** The streaming message writer's bulk helpers against its plain byte-by-byte writes, across packet boundaries. */
class TdsMessageWriterTest {

    private static final String ASCII = "DELIVER IN PERSON carefully final deposits detect slyly 0123456789~!";

    @Test
    void asciiWidenedToUtf16leLikeWriteChars() throws Exception {
        // every length and start offset in the packet, so that values straddle packet ends at odd and even positions
        for (int packet : new int[] {16, 17, 23, 512}) {
            for (int lead = 0; lead < 9; lead++) {
                for (int length = 0; length <= ASCII.length(); length++) {
                    int n = length;
                    String text = ASCII.substring(0, n);
                    byte[] expected = write(packet, lead, w -> w.writeChars(text));
                    byte[] ascii = ("xx" + text).getBytes(StandardCharsets.US_ASCII);
                    byte[] actual = write(packet, lead, w -> w.writeAsciiAsUtf16le(ascii, 2, n));
                    assertArrayEquals(expected, actual, "packet " + packet + ", lead " + lead + ", n " + n);
                }
            }
        }
    }

    @FunctionalInterface
    private interface Body {
        void write(TdsMessageWriter w) throws Exception;
    }

    /** The whole message (headers included): {@code lead} bytes, the body, then a trailing marker byte. */
    private static byte[] write(int packetSize, int lead, Body body) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        TdsMessageWriter w = new TdsMessageWriter(out, PacketType.BULK_LOAD, packetSize);
        for (int i = 0; i < lead; i++) {
            w.writeByte(0x40 + i);
        }
        body.write(w);
        w.writeByte(0x7F);
        w.end();
        return out.toByteArray();
    }
}
