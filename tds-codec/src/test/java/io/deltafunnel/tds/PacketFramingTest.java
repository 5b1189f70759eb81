package io.deltafunnel.tds;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Packet framing: splitting a message into packets, reading them back, and the protocol checks on the way in. */
class PacketFramingTest {

    private static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 31 + 7);
        }
        return b;
    }

    @Test
    void messageIsSplitIntoPacketsOfTheNegotiatedSizeWithEomOnTheLast() throws IOException {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        PacketWriter w = new PacketWriter(wire, 512);
        byte[] message = pattern(1200); // 504 + 504 + 192
        w.writeMessage(PacketType.SQL_BATCH, message, 0, message.length);

        byte[] bytes = wire.toByteArray();
        assertEquals(1200 + 3 * PacketStatus.HEADER_SIZE, bytes.length);
        PacketReader r = new PacketReader(new ByteArrayInputStream(bytes));
        Packet p = new Packet();
        ByteArrayOutputStream payload = new ByteArrayOutputStream();
        int[] lengths = new int[3];
        for (int i = 0; i < 3; i++) {
            assertTrue(r.read(p));
            assertEquals(PacketType.SQL_BATCH, p.type);
            assertEquals(i + 1, p.packetId, "packet ids count up from 1");
            assertEquals(i == 2, p.isEndOfMessage(), "EOM only on the last packet");
            lengths[i] = p.length;
            payload.write(p.payload, 0, p.payloadLength);
        }
        assertArrayEquals(new int[] {512, 512, 200}, lengths);
        assertFalse(r.read(p), "clean end of stream between packets");
        assertArrayEquals(message, payload.toByteArray());
    }

    @Test
    void headerIsBigEndianLengthAndStatusBits() {
        byte[] h = new byte[PacketStatus.HEADER_SIZE];
        PacketStatus.writeHeader(h, 0, PacketType.BULK_LOAD, true, 0x1234, 0x77);
        assertEquals(PacketType.BULK_LOAD, h[0] & 0xFF);
        assertEquals(PacketStatus.EOM, h[1]);
        assertEquals(0x12, h[2]);
        assertEquals(0x34, h[3]);
        assertEquals(0x77, h[6]);
    }

    @Test
    void packetIdWrapsAfter255() throws IOException {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        PacketWriter w = new PacketWriter(wire, 512);
        byte[] one = {1};
        for (int i = 0; i < 256; i++) {
            w.writePacket(PacketType.SQL_BATCH, true, one, 0, 1);
        }
        byte[] bytes = wire.toByteArray();
        assertEquals(255, bytes[254 * 9 + 6] & 0xFF);
        assertEquals(0, bytes[255 * 9 + 6] & 0xFF);
    }

    @Test
    void payloadLargerThanThePacketIsRefused() {
        PacketWriter w = new PacketWriter(new ByteArrayOutputStream(), 512);
        assertThrows(IllegalArgumentException.class,
                () -> w.writePacket(PacketType.SQL_BATCH, true, new byte[505], 0, 505));
        assertThrows(IllegalArgumentException.class, () -> w.setPacketSize(511));
        assertThrows(IllegalArgumentException.class, () -> w.setPacketSize(32768));
    }

    @Test
    void invalidLengthAndTruncatedPacketsAreProtocolErrors() {
        byte[] h = new byte[PacketStatus.HEADER_SIZE];
        PacketStatus.writeHeader(h, 0, PacketType.SQL_BATCH, true, 7, 1);
        assertThrows(TdsProtocolException.class,
                () -> new PacketReader(new ByteArrayInputStream(h)).read(new Packet()));

        byte[] truncated = new byte[PacketStatus.HEADER_SIZE + 3];
        PacketStatus.writeHeader(truncated, 0, PacketType.SQL_BATCH, true, 20, 1);
        assertThrows(EOFException.class,
                () -> new PacketReader(new ByteArrayInputStream(truncated)).read(new Packet()));
    }

    @Test
    void messageInputStreamsPacketsIntoOneReader() throws IOException {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        PacketWriter w = new PacketWriter(wire, 512);
        TdsWriter body = new TdsWriter();
        for (int i = 0; i < 300; i++) {
            body.writeInt(i).writeLong(-i);
        }
        byte[] message = body.toByteArray();
        w.writeMessage(PacketType.RPC, message, 0, message.length);

        PacketReader packets = new PacketReader(new ByteArrayInputStream(wire.toByteArray()));
        Packet first = new Packet();
        assertTrue(packets.read(first));
        MessageInput in = new MessageInput(packets, first);
        TdsReader r = new TdsReader(in);
        for (int i = 0; i < 300; i++) {
            // values straddle packet boundaries: 12-byte records in 504-byte payloads
            assertEquals(i, r.readInt());
            assertEquals(-i, r.readLong());
        }
        assertTrue(r.atEnd());
        assertTrue(in.complete());
        assertEquals(message.length, in.bytesRead());
    }

    @Test
    void packetOfAnotherTypeInsideAMessageIsRefused() throws IOException {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        PacketWriter w = new PacketWriter(wire, 512);
        w.writePacket(PacketType.SQL_BATCH, false, new byte[4], 0, 4);
        w.writePacket(PacketType.RPC, true, new byte[4], 0, 4);
        PacketReader packets = new PacketReader(new ByteArrayInputStream(wire.toByteArray()));
        Packet first = new Packet();
        packets.read(first);
        TdsReader r = new TdsReader(new MessageInput(packets, first));
        r.readInt();
        assertThrows(TdsProtocolException.class, r::readInt);
    }

    @Test
    void ignoreBitAbandonsTheMessage() throws IOException {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        byte[] h = new byte[PacketStatus.HEADER_SIZE];
        PacketStatus.writeHeader(h, 0, PacketType.BULK_LOAD, false, PacketStatus.HEADER_SIZE + 2, 1);
        wire.write(h);
        wire.write(new byte[] {1, 2});
        PacketStatus.writeHeader(h, 0, PacketType.BULK_LOAD, true, PacketStatus.HEADER_SIZE, 2);
        h[1] = (byte) (PacketStatus.EOM | PacketStatus.IGNORE);
        wire.write(h);
        PacketReader packets = new PacketReader(new ByteArrayInputStream(wire.toByteArray()));
        Packet first = new Packet();
        packets.read(first);
        TdsReader r = new TdsReader(new MessageInput(packets, first));
        assertEquals(0x0201, r.readUnsignedShort());
        assertThrows(IgnoredMessageException.class, r::readUnsignedByte);
    }
}
