package io.deltafunnel.tds;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/**
 * Application-data streams over an established {@link SSLEngine} session (raw TLS records on the socket), for both
 * ends: the emulator after its PRELOGIN-wrapped handshake and the direct client. The streams belong to this object;
 * the socket streams passed in stay owned by the caller.
 */
public final class TlsStreams {
    private final SSLEngine engine;
    private final InputStream rawIn;
    private final OutputStream rawOut;
    private ByteBuffer netIn;
    private ByteBuffer appIn;
    private ByteBuffer netOut;
    private final byte[] readChunk;

    /** {@code leftover} holds encrypted bytes already read during the handshake (in read mode). */
    public TlsStreams(SSLEngine engine, InputStream rawIn, OutputStream rawOut, ByteBuffer leftover) {
        this.engine = engine;
        this.rawIn = rawIn;
        this.rawOut = rawOut;
        int packet = engine.getSession().getPacketBufferSize();
        int app = engine.getSession().getApplicationBufferSize();
        this.netIn = ByteBuffer.allocate(Math.max(packet, leftover.remaining()) * 2);
        this.netIn.put(leftover);
        this.netIn.flip();
        this.appIn = ByteBuffer.allocate(app * 2);
        this.appIn.flip();
        this.netOut = ByteBuffer.allocate(packet * 2);
        this.readChunk = new byte[packet];
    }

    private final InputStream input = new InputStream() {
        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            while (!appIn.hasRemaining()) {
                if (!unwrapMore()) {
                    return -1;
                }
            }
            int n = Math.min(len, appIn.remaining());
            appIn.get(b, off, n);
            return n;
        }

        @Override
        public int available() throws IOException {
            return appIn.remaining() > 0 ? appIn.remaining() : Math.min(1, rawIn.available() + netIn.remaining());
        }
    };

    private final OutputStream output = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            ByteBuffer src = ByteBuffer.wrap(b, off, len);
            while (src.hasRemaining()) {
                netOut.clear();
                SSLEngineResult r = engine.wrap(src, netOut);
                if (r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                    netOut = ByteBuffer.allocate(netOut.capacity() * 2);
                    continue;
                }
                if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
                    throw new SSLException("TLS session closed");
                }
                netOut.flip();
                rawOut.write(netOut.array(), 0, netOut.limit());
            }
        }

        @Override
        public void flush() throws IOException {
            rawOut.flush();
        }
    };

    /** Decrypts at least one record into appIn; false at end of stream. */
    private boolean unwrapMore() throws IOException {
        appIn.compact();
        try {
            while (true) {
                SSLEngineResult r = engine.unwrap(netIn, appIn);
                switch (r.getStatus()) {
                    case OK:
                        if (appIn.position() > 0) {
                            return true;
                        }
                        break;
                    case BUFFER_UNDERFLOW:
                        if (!readRaw()) {
                            return false;
                        }
                        break;
                    case BUFFER_OVERFLOW: {
                        ByteBuffer bigger = ByteBuffer.allocate(appIn.capacity() * 2);
                        appIn.flip();
                        bigger.put(appIn);
                        appIn = bigger;
                        break;
                    }
                    case CLOSED:
                        return false;
                    default:
                        throw new SSLException("unexpected TLS state " + r.getStatus());
                }
            }
        } finally {
            appIn.flip();
        }
    }

    private boolean readRaw() throws IOException {
        int n = rawIn.read(readChunk);
        if (n < 0) {
            if (netIn.hasRemaining()) {
                throw new EOFException("connection closed inside a TLS record");
            }
            return false;
        }
        netIn.compact();
        if (netIn.remaining() < n) {
            ByteBuffer bigger = ByteBuffer.allocate(netIn.capacity() * 2 + n);
            netIn.flip();
            bigger.put(netIn);
            netIn = bigger;
        }
        netIn.put(readChunk, 0, n);
        netIn.flip();
        return true;
    }

    /** Decrypted application data. */
    public InputStream input() {
        return input;
    }

    /** Application data to encrypt and send; {@code flush()} flushes the socket stream. */
    public OutputStream output() {
        return output;
    }
}
