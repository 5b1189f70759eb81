package io.deltafunnel.emulator;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Arrays;

import io.deltafunnel.tds.Packet;
import io.deltafunnel.tds.PacketReader;
import io.deltafunnel.tds.PacketType;
import io.deltafunnel.tds.PacketWriter;
import io.deltafunnel.tds.PreloginTls;
import io.deltafunnel.tds.TdsProtocolException;
import io.deltafunnel.tds.TlsStreams;

/**
 * The server side of the TDS 7.x TLS negotiation: {@link PreloginTls} with the emulator's server engine; the
 * client's handshake records must arrive in PRELOGIN packets.
 */
final class TlsHandshake {
    private TlsHandshake() {
    }

    /** Runs the handshake and returns the streams for the encrypted session. */
    static TlsStreams run(PacketReader packets, PacketWriter writer, InputStream rawIn, OutputStream rawOut)
            throws IOException {
        Packet packet = new Packet();
        PreloginTls.Carrier carrier = new PreloginTls.Carrier() {
            @Override
            public void send(byte[] records, int len) throws IOException {
                writer.writeMessage(PacketType.PRELOGIN, records, 0, len);
            }

            @Override
            public byte[] receive() throws IOException {
                if (!packets.read(packet)) {
                    throw new EOFException("client closed the connection during the TLS handshake");
                }
                if (packet.type != PacketType.PRELOGIN) {
                    throw new TdsProtocolException(
                            "expected a PRELOGIN packet carrying TLS data, got type " + packet.type);
                }
                return Arrays.copyOf(packet.payload, packet.payloadLength);
            }
        };
        return PreloginTls.handshake(TlsContext.newServerEngine(), carrier, rawIn, rawOut);
    }
}
