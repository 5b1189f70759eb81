package io.deltafunnel.emulator.wire;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

import io.deltafunnel.tds.PacketReader;
import io.deltafunnel.tds.PacketType;
import io.deltafunnel.tds.PacketWriter;
import io.deltafunnel.tds.PreloginTls;
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
        PreloginTls.Carrier carrier = PreloginTls.packetCarrier(packets, writer, "client", PacketType.PRELOGIN);
        return PreloginTls.handshake(TlsContext.newServerEngine(), carrier, rawIn, rawOut);
    }
}
