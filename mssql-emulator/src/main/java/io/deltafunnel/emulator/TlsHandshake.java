package io.deltafunnel.emulator;

import io.deltafunnel.tds.TlsStreams;
import io.deltafunnel.tds.Packet;
import io.deltafunnel.tds.PacketReader;
import io.deltafunnel.tds.PacketType;
import io.deltafunnel.tds.PacketWriter;
import io.deltafunnel.tds.TdsProtocolException;
import io.deltafunnel.tds.TdsWriter;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/**
 * TDS TLS negotiation (MS-TDS 3.3.5.2 / 3.2.5.2): the TLS handshake records travel inside PRELOGIN (0x12) packets
 * in both directions; once the handshake is finished (our last flight still wrapped) TLS records flow raw.
 */
final class TlsHandshake {
    private TlsHandshake() {
    }

    /** Runs the handshake and returns the streams for the encrypted session. */
    static TlsStreams run(PacketReader packets, PacketWriter writer, java.io.InputStream rawIn,
            java.io.OutputStream rawOut) throws IOException {
        SSLEngine engine = TlsContext.newServerEngine();
        engine.beginHandshake();
        int packetBuf = engine.getSession().getPacketBufferSize();
        ByteBuffer netIn = ByteBuffer.allocate(packetBuf * 2);
        netIn.flip();
        ByteBuffer netOut = ByteBuffer.allocate(packetBuf * 2);
        ByteBuffer app = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize() * 2);
        ByteBuffer empty = ByteBuffer.allocate(0);
        TdsWriter pending = new TdsWriter(4096);
        Packet packet = new Packet();

        SSLEngineResult.HandshakeStatus hs = engine.getHandshakeStatus();
        while (true) {
            switch (hs) {
                case NEED_WRAP: {
                    netOut.clear();
                    SSLEngineResult r = engine.wrap(empty, netOut);
                    if (r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                        netOut = ByteBuffer.allocate(netOut.capacity() * 2);
                        break;
                    }
                    if (r.getStatus() != SSLEngineResult.Status.OK) {
                        throw new SSLException("TLS wrap failed: " + r.getStatus());
                    }
                    netOut.flip();
                    pending.writeBytes(netOut.array(), 0, netOut.limit());
                    hs = r.getHandshakeStatus();
                    if (hs != SSLEngineResult.HandshakeStatus.NEED_WRAP
                            && hs != SSLEngineResult.HandshakeStatus.NEED_TASK) {
                        sendFlight(writer, pending);
                    }
                    break;
                }
                case NEED_UNWRAP:
                case NEED_UNWRAP_AGAIN: {
                    SSLEngineResult r = engine.unwrap(netIn, app);
                    app.clear();
                    if (r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                        readPreloginPacket(packets, packet);
                        netIn = append(netIn, packet.payload, packet.payloadLength);
                        hs = engine.getHandshakeStatus();
                        break;
                    }
                    if (r.getStatus() != SSLEngineResult.Status.OK) {
                        throw new SSLException("TLS unwrap failed: " + r.getStatus());
                    }
                    hs = r.getHandshakeStatus();
                    break;
                }
                case NEED_TASK: {
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null) {
                        task.run();
                    }
                    hs = engine.getHandshakeStatus();
                    break;
                }
                case FINISHED:
                case NOT_HANDSHAKING:
                    if (pending.size() > 0) {
                        sendFlight(writer, pending);
                    }
                    return new TlsStreams(engine, rawIn, rawOut, netIn);
                default:
                    throw new SSLException("unexpected handshake status " + hs);
            }
        }
    }

    private static void sendFlight(PacketWriter writer, TdsWriter pending) throws IOException {
        if (pending.size() == 0) {
            return;
        }
        writer.writeMessage(PacketType.PRELOGIN, pending.array(), 0, pending.size());
        pending.reset();
    }

    private static void readPreloginPacket(PacketReader packets, Packet packet) throws IOException {
        if (!packets.read(packet)) {
            throw new EOFException("client closed the connection during the TLS handshake");
        }
        if (packet.type != PacketType.PRELOGIN) {
            throw new TdsProtocolException("expected a PRELOGIN packet carrying TLS data, got type " + packet.type);
        }
    }

    private static ByteBuffer append(ByteBuffer buf, byte[] data, int len) {
        buf.compact();
        if (buf.remaining() < len) {
            ByteBuffer bigger = ByteBuffer.allocate(buf.capacity() + len * 2);
            buf.flip();
            bigger.put(buf);
            buf = bigger;
        }
        buf.put(data, 0, len);
        buf.flip();
        return buf;
    }
}
