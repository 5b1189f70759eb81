package io.deltafunnel.tds;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/**
 * The TDS 7.x TLS handshake (MS-TDS 3.2.5.2 / 3.3.5.2), one implementation for both ends: the TLS handshake records
 * travel inside PRELOGIN packets in both directions; once the handshake has finished (the last flight still
 * wrapped), TLS records flow raw on the socket. The client (the direct writer) and the server (the emulator) differ
 * only in how they configure the {@link SSLEngine} and in the {@link Carrier} that moves the wrapped records.
 */
public final class PreloginTls {

    /** Moves the handshake's TLS records in TDS packets. */
    public interface Carrier {
        /** Sends one flight of TLS records ({@code len} bytes of {@code records}) as one PRELOGIN message. */
        void send(byte[] records, int len) throws IOException;

        /**
         * The payload of the next packet carrying TLS records from the peer.
         *
         * @throws java.io.EOFException if the peer closed the connection
         * @throws TdsProtocolException if the packet is not of a type that may carry handshake records
         */
        byte[] receive() throws IOException;
    }

    private PreloginTls() {
    }

    /**
     * The usual {@link Carrier} over a {@link PacketReader}/{@link PacketWriter} pair: sends each flight as one
     * PRELOGIN message and accepts the peer's records in packets of the {@code accepted} types.
     *
     * @param peer     who is on the other end ("client", "server"), for the messages
     * @param accepted the packet types that may carry the peer's records (PRELOGIN; a client also accepts
     *                 TABULAR_RESULT, which older servers use)
     */
    public static Carrier packetCarrier(PacketReader reader, PacketWriter writer, String peer, int... accepted) {
        Packet packet = new Packet();
        return new Carrier() {
            @Override
            public void send(byte[] records, int len) throws IOException {
                writer.writeMessage(PacketType.PRELOGIN, records, 0, len);
            }

            @Override
            public byte[] receive() throws IOException {
                if (!reader.read(packet)) {
                    throw new EOFException(peer + " closed the connection during the TLS handshake");
                }
                for (int type : accepted) {
                    if (packet.type == type) {
                        return Arrays.copyOf(packet.payload, packet.payloadLength);
                    }
                }
                throw new TdsProtocolException("expected a packet carrying TLS data, got type " + packet.type);
            }
        };
    }

    /**
     * Runs the handshake on {@code engine} (already in client or server mode, with its protocols and parameters set;
     * not yet begun) and returns the streams of the encrypted session over {@code rawIn}/{@code rawOut}. The caller
     * owns the raw streams and the returned {@link TlsStreams}.
     *
     * @throws SSLException the handshake failed (for example an untrusted certificate)
     */
    public static TlsStreams handshake(SSLEngine engine, Carrier carrier, InputStream rawIn, OutputStream rawOut)
            throws IOException {
        engine.beginHandshake();
        int packetBuf = engine.getSession().getPacketBufferSize();
        ByteBuffer netIn = ByteBuffer.allocate(packetBuf * 2);
        netIn.flip();
        ByteBuffer netOut = ByteBuffer.allocate(packetBuf * 2);
        ByteBuffer app = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize() * 2);
        ByteBuffer empty = ByteBuffer.allocate(0);
        TdsWriter pending = new TdsWriter(4096);
        SSLEngineResult.HandshakeStatus hs = engine.getHandshakeStatus();
        while (true) {
            switch (hs) {
                case NEED_WRAP -> {
                    netOut.clear();
                    SSLEngineResult r = engine.wrap(empty, netOut);
                    if (r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                        netOut = ByteBuffer.allocate(netOut.capacity() * 2);
                        continue;
                    }
                    if (r.getStatus() != SSLEngineResult.Status.OK) {
                        throw new SSLException("TLS wrap failed: " + r.getStatus());
                    }
                    pending.writeBytes(netOut.array(), 0, netOut.position());
                    hs = r.getHandshakeStatus();
                    if (hs != SSLEngineResult.HandshakeStatus.NEED_WRAP
                            && hs != SSLEngineResult.HandshakeStatus.NEED_TASK) {
                        flush(carrier, pending);
                    }
                }
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    SSLEngineResult r = engine.unwrap(netIn, app);
                    app.clear();
                    if (r.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                        netIn = append(netIn, carrier.receive());
                        hs = engine.getHandshakeStatus();
                        continue;
                    }
                    if (r.getStatus() != SSLEngineResult.Status.OK) {
                        throw new SSLException("TLS unwrap failed: " + r.getStatus());
                    }
                    hs = r.getHandshakeStatus();
                }
                case NEED_TASK -> {
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null) {
                        task.run();
                    }
                    hs = engine.getHandshakeStatus();
                }
                case FINISHED, NOT_HANDSHAKING -> {
                    flush(carrier, pending);
                    return new TlsStreams(engine, rawIn, rawOut, netIn);
                }
                default -> throw new SSLException("unexpected handshake status " + hs);
            }
        }
    }

    private static void flush(Carrier carrier, TdsWriter pending) throws IOException {
        if (pending.size() > 0) {
            carrier.send(pending.array(), pending.size());
            pending.reset();
        }
    }

    private static ByteBuffer append(ByteBuffer buf, byte[] data) {
        buf.compact();
        if (buf.remaining() < data.length) {
            ByteBuffer bigger = ByteBuffer.allocate(buf.capacity() + data.length * 2);
            buf.flip();
            bigger.put(buf);
            buf = bigger;
        }
        buf.put(data);
        buf.flip();
        return buf;
    }
}
