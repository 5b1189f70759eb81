package io.deltafunnel.tds;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

    @Test
    void severalPacketsPerWriteSendTheSameBytesInFewerWrites() throws Exception {
        String text = ASCII.repeat(3);
        byte[] ascii = text.getBytes(StandardCharsets.US_ASCII);
        for (int packet : new int[] {16, 17, 512}) {
            Body body = w -> {
                for (int i = 0; i < 40; i++) {
                    w.writeLE(0x0102030405060708L * i, 1 + i % 8).writeAsciiAsUtf16le(ascii, 0, i * 3 % ascii.length);
                }
            };
            byte[] one = write(packet, 3, 1, body);
            for (int perWrite : new int[] {2, 3, 7}) {
                CountingStream out = new CountingStream();
                byte[] many = write(out, packet, 3, perWrite, body);
                assertArrayEquals(one, many, "packet " + packet + ", " + perWrite + " per write");
                int packets = (one.length + packet - 1) / packet;
                assertEquals((packets + perWrite - 1) / perWrite, out.writes,
                        "packet " + packet + ", " + perWrite + " per write: one write per " + perWrite + " packets");
            }
        }
    }

    @Test
    void directWritesIntoTheBufferStayInsideThePacket() throws Exception {
        byte[] expected = write(32, 5, 1, w -> w.writeInt(0x11223344).writeShort(0x5566));
        byte[] actual = write(32, 5, 2, w -> {
            assertEquals(32 - TdsMessageWriter.HEADER - 5, w.room());
            int p = w.position();
            byte[] b = w.buffer();
            b[p] = 0x44;
            b[p + 1] = 0x33;
            b[p + 2] = 0x22;
            b[p + 3] = 0x11;
            w.position(p + 4);
            w.writeShort(0x5566);
            assertThrows(IllegalArgumentException.class, () -> w.position(w.position() + w.room() + 1));
            assertThrows(IllegalArgumentException.class, () -> w.position(w.position() - 1));
        });
        assertArrayEquals(expected, actual);
    }

    @Test
    void rowsCommittedPastThePacketEndGiveTheSameMessageAsByteWrites() throws Exception {
        // rows of 1..packet-payload bytes written straight into the buffer, with 8 bytes of garbage stored beyond
        // each (as the row encoders' 8-byte stores leave), against the same bytes through writeBytes
        java.util.Random random = new java.util.Random(29);
        for (int packet : new int[] {16, 17, 64, 512}) {
            for (int perWrite : new int[] {1, 2, 5}) {
                int payload = packet - TdsMessageWriter.HEADER;
                byte[][] rows = new byte[300][];
                for (int i = 0; i < rows.length; i++) {
                    rows[i] = new byte[1 + random.nextInt(payload)];
                    random.nextBytes(rows[i]);
                }
                byte[] expected = write(packet, 3, perWrite, w -> {
                    for (byte[] row : rows) {
                        w.writeBytes(row);
                    }
                });
                CountingStream out = new CountingStream();
                byte[] actual = write(out, packet, 3, perWrite, w -> {
                    for (byte[] row : rows) {
                        org.junit.jupiter.api.Assertions.assertTrue(w.spillRoom() >= row.length, "room for a whole payload");
                        int p = w.position();
                        byte[] b = w.buffer();
                        System.arraycopy(row, 0, b, p, row.length);
                        int garbage = Math.min(8, w.spillRoom() - row.length);
                        java.util.Arrays.fill(b, p + row.length, p + row.length + garbage, (byte) 0xEE);
                        w.commitSpilling(p + row.length);
                    }
                });
                assertArrayEquals(expected, actual, "packet " + packet + ", " + perWrite + " per write");
                int packets = (expected.length + packet - 1) / packet;
                assertEquals((packets + perWrite - 1) / perWrite, out.writes, "packet " + packet + ", "
                        + perWrite + " per write: still one write per " + perWrite + " packets");
            }
        }
    }

    @Test
    void commitSpillingRefusesPositionsOutsideTheNextPacket() throws Exception {
        write(32, 5, 2, w -> {
            int p = w.position();
            assertEquals(32 - TdsMessageWriter.HEADER - 5 + 32 - TdsMessageWriter.HEADER, w.spillRoom());
            assertThrows(IllegalArgumentException.class, () -> w.commitSpilling(p + w.spillRoom() + 1));
            assertThrows(IllegalArgumentException.class, () -> w.commitSpilling(p - 1));
            w.commitSpilling(p + w.spillRoom());
            assertEquals(0, w.room(), "the second packet is full");
        });
    }

    private static final class CountingStream extends ByteArrayOutputStream {
        int writes;

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            writes++;
            super.write(b, off, len);
        }
    }

    @FunctionalInterface
    private interface Body {
        void write(TdsMessageWriter w) throws Exception;
    }

    /** The whole message (headers included): {@code lead} bytes, the body, then a trailing marker byte. */
    private static byte[] write(int packetSize, int lead, Body body) throws Exception {
        return write(packetSize, lead, 1, body);
    }

    private static byte[] write(int packetSize, int lead, int perWrite, Body body) throws Exception {
        return write(new ByteArrayOutputStream(), packetSize, lead, perWrite, body);
    }

    private static byte[] write(ByteArrayOutputStream out, int packetSize, int lead, int perWrite, Body body)
            throws Exception {
        TdsMessageWriter w = new TdsMessageWriter(out, PacketType.BULK_LOAD, packetSize, perWrite);
        for (int i = 0; i < lead; i++) {
            w.writeByte(0x40 + i);
        }
        body.write(w);
        w.writeByte(0x7F);
        w.end();
        return out.toByteArray();
    }
}
