package io.deltafunnel.tds;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import org.junit.jupiter.api.Test;

/** {@link PreloginTls#packetCarrier}: how the handshake's TLS records travel in TDS packets, both directions. */
class PreloginTlsCarrierTest {

    private static byte[] packets(int type, byte[] payload, int packetSize) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new PacketWriter(out, packetSize).writeMessage(type, payload, 0, payload.length);
        return out.toByteArray();
    }

    @Test
    void aFlightIsSentAsOnePreloginMessageSplitIntoPackets() throws Exception {
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        PreloginTls.Carrier carrier = PreloginTls.packetCarrier(new PacketReader(new ByteArrayInputStream(new byte[0])),
                new PacketWriter(wire, 512), "server", PacketType.PRELOGIN);
        byte[] records = new byte[700];
        for (int i = 0; i < records.length; i++) {
            records[i] = (byte) i;
        }
        carrier.send(records, 600);

        PacketReader reader = new PacketReader(new ByteArrayInputStream(wire.toByteArray()));
        Packet p = new Packet();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        int packets = 0;
        do {
            assertTrue(reader.read(p));
            assertEquals(PacketType.PRELOGIN, p.type);
            received.write(p.payload, 0, p.payloadLength);
            packets++;
        } while (!p.isEndOfMessage());
        assertEquals(2, packets, "600 bytes do not fit one 512-byte packet");
        assertArrayEquals(java.util.Arrays.copyOf(records, 600), received.toByteArray());
    }

    @Test
    void thePeersRecordsAreAcceptedOnlyInTheNamedPacketTypes() throws Exception {
        byte[] a = {1, 2, 3};
        byte[] b = {4, 5};
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        wire.write(packets(PacketType.PRELOGIN, a, 4096));
        wire.write(packets(PacketType.TABULAR_RESULT, b, 4096));
        wire.write(packets(PacketType.SQL_BATCH, a, 4096));
        PreloginTls.Carrier carrier = PreloginTls.packetCarrier(
                new PacketReader(new ByteArrayInputStream(wire.toByteArray())), new PacketWriter(wire, 4096),
                "server", PacketType.PRELOGIN, PacketType.TABULAR_RESULT);

        assertArrayEquals(a, carrier.receive());
        assertArrayEquals(b, carrier.receive());
        TdsProtocolException wrong = assertThrows(TdsProtocolException.class, carrier::receive);
        assertTrue(wrong.getMessage().contains("got type " + PacketType.SQL_BATCH), wrong.getMessage());
        EOFException closed = assertThrows(EOFException.class, carrier::receive);
        assertEquals("server closed the connection during the TLS handshake", closed.getMessage());
    }

    @Test
    void aServerCarrierRefusesTabularResultPackets() throws Exception {
        PreloginTls.Carrier carrier = PreloginTls.packetCarrier(
                new PacketReader(new ByteArrayInputStream(packets(PacketType.TABULAR_RESULT, new byte[] {9}, 4096))),
                new PacketWriter(new ByteArrayOutputStream(), 4096), "client", PacketType.PRELOGIN);
        assertThrows(TdsProtocolException.class, carrier::receive);
    }
}
