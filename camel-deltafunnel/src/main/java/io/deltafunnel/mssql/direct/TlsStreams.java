package io.deltafunnel.mssql.direct;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/** Raw TLS records over the socket after the PRELOGIN-wrapped handshake. EXPERIMENTAL. */
final class TlsStreams {
    private final SSLEngine engine;
    private final InputStream rawIn;
    private final OutputStream rawOut;
    private ByteBuffer netIn;
    private ByteBuffer appIn;
    private ByteBuffer netOut;

    TlsStreams(SSLEngine engine, InputStream rawIn, OutputStream rawOut, ByteBuffer leftover) {
        this.engine = engine;
        this.rawIn = rawIn;
        this.rawOut = rawOut;
        this.netIn = ByteBuffer.allocate(Math.max(engine.getSession().getPacketBufferSize(), leftover.remaining()));
        this.netIn.put(leftover);
        this.netIn.flip();
        this.appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
        this.appIn.flip();
        this.netOut = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
    }

    InputStream input() {
        return new InputStream() {
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
                    if (!fill()) {
                        return -1;
                    }
                }
                int n = Math.min(len, appIn.remaining());
                appIn.get(b, off, n);
                return n;
            }
        };
    }

    /** Decrypts at least one record into appIn; false at end of stream. */
    private boolean fill() throws IOException {
        appIn.clear();
        try {
            while (true) {
                SSLEngineResult r = engine.unwrap(netIn, appIn);
                switch (r.getStatus()) {
                    case OK -> {
                        if (appIn.position() > 0) {
                            return true;
                        }
                    }
                    case BUFFER_UNDERFLOW -> {
                        netIn.compact();
                        if (!netIn.hasRemaining()) {
                            ByteBuffer bigger = ByteBuffer.allocate(netIn.capacity() * 2);
                            netIn.flip();
                            bigger.put(netIn);
                            netIn = bigger;
                        }
                        int n = rawIn.read(netIn.array(), netIn.position(), netIn.remaining());
                        if (n < 0) {
                            netIn.flip();
                            return false;
                        }
                        netIn.position(netIn.position() + n);
                        netIn.flip();
                    }
                    case BUFFER_OVERFLOW -> {
                        ByteBuffer bigger = ByteBuffer.allocate(appIn.capacity() * 2);
                        appIn.flip();
                        bigger.put(appIn);
                        appIn = bigger;
                    }
                    case CLOSED -> {
                        return false;
                    }
                    default -> throw new SSLException("TLS unwrap: " + r.getStatus());
                }
            }
        } finally {
            appIn.flip();
        }
    }

    OutputStream output() {
        return new OutputStream() {
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
                    if (r.getStatus() != SSLEngineResult.Status.OK) {
                        throw new EOFException("TLS wrap: " + r.getStatus());
                    }
                    rawOut.write(netOut.array(), 0, netOut.position());
                }
            }

            @Override
            public void flush() throws IOException {
                rawOut.flush();
            }
        };
    }
}
