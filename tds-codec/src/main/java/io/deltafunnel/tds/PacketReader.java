package io.deltafunnel.tds;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;

/** Reads TDS packets (8-byte header + payload) from a byte stream. */
public final class PacketReader {
    /** Largest packet size TDS allows (32767); anything bigger is a protocol violation. */
    public static final int MAX_PACKET_SIZE = 32767;

    private InputStream in;
    private final byte[] header = new byte[PacketStatus.HEADER_SIZE];

    public PacketReader(InputStream in) {
        this.in = in;
    }

    /** Switches the underlying stream (e.g. once TLS is established). */
    public void setInput(InputStream in) {
        this.in = in;
    }

    public InputStream input() {
        return in;
    }

    /**
     * Reads one packet into {@code p}. Returns false on a clean end of stream before any header byte.
     *
     * @throws EOFException if the stream ends inside a packet
     */
    public boolean read(Packet p) throws IOException {
        int first = in.read();
        if (first < 0) {
            return false;
        }
        header[0] = (byte) first;
        readFully(header, 1, PacketStatus.HEADER_SIZE - 1);
        p.type = header[0] & 0xFF;
        p.status = header[1] & 0xFF;
        p.length = (header[2] & 0xFF) << 8 | (header[3] & 0xFF);
        p.spid = (header[4] & 0xFF) << 8 | (header[5] & 0xFF);
        p.packetId = header[6] & 0xFF;
        if (p.length < PacketStatus.HEADER_SIZE || p.length > MAX_PACKET_SIZE) {
            throw new TdsProtocolException("invalid TDS packet length " + p.length);
        }
        int n = p.length - PacketStatus.HEADER_SIZE;
        if (p.payload.length < n) {
            p.payload = new byte[Math.max(n, 4096)];
        }
        readFully(p.payload, 0, n);
        p.payloadLength = n;
        return true;
    }

    private void readFully(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            int r = in.read(b, off, len);
            if (r < 0) {
                throw new EOFException("connection closed inside a TDS packet");
            }
            off += r;
            len -= r;
        }
    }
}
