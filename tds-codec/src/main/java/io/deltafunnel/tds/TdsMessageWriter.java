package io.deltafunnel.tds;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes one TDS message, little-endian, straight into packet-sized buffers: a full packet is sent as soon as it is
 * full (status 0), the last one with END_OF_MESSAGE on {@link #end()}. Used by the direct client for large
 * messages (BULK_LOAD) where building the whole message in memory first would cost a copy. The output stream stays
 * owned by the caller.
 */
public final class TdsMessageWriter {
    private static final java.lang.invoke.VarHandle LONG_LE = java.lang.invoke.MethodHandles
            .byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    public static final int HEADER = 8;

    private final OutputStream out;
    private final byte[] buf;
    private final int type;
    private int pos = HEADER;
    private int packetId = 1;

    public TdsMessageWriter(OutputStream out, int type, int packetSize) {
        this.out = out;
        this.type = type;
        this.buf = new byte[packetSize];
    }

    private void flushPacket(boolean last) throws IOException {
        PacketStatus.writeHeader(buf, 0, type, last, pos, packetId);
        packetId = (packetId + 1) & 0xFF;
        out.write(buf, 0, pos);
        pos = HEADER;
    }

    public TdsMessageWriter writeByte(int v) throws IOException {
        if (pos == buf.length) {
            flushPacket(false);
        }
        buf[pos++] = (byte) v;
        return this;
    }

    /** Writes the {@code n} low bytes of {@code v}, little-endian. */
    public TdsMessageWriter writeLE(long v, int n) throws IOException {
        if (buf.length - pos >= 8) {
            // Room for a whole long: one 8-byte store, of which the next writes overwrite what is beyond n.
            LONG_LE.set(buf, pos, v);
            pos += n;
        } else if (buf.length - pos >= n) {
            for (int i = 0; i < n; i++) {
                buf[pos++] = (byte) (v >>> (8 * i));
            }
        } else {
            for (int i = 0; i < n; i++) {
                writeByte((int) (v >>> (8 * i)));
            }
        }
        return this;
    }

    public TdsMessageWriter writeShort(int v) throws IOException {
        return writeLE(v, 2);
    }

    public TdsMessageWriter writeInt(int v) throws IOException {
        return writeLE(v, 4);
    }

    public TdsMessageWriter writeLong(long v) throws IOException {
        return writeLE(v, 8);
    }

    public TdsMessageWriter writeBytes(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            if (pos == buf.length) {
                flushPacket(false);
            }
            int n = Math.min(len, buf.length - pos);
            System.arraycopy(b, off, buf, pos, n);
            pos += n;
            off += n;
            len -= n;
        }
        return this;
    }

    public TdsMessageWriter writeBytes(byte[] b) throws IOException {
        return writeBytes(b, 0, b.length);
    }

    /**
     * Writes {@code n} ASCII bytes (each below 0x80, checked by the caller) as UTF-16LE: each byte followed by a
     * zero byte, widened straight into the packet buffer.
     */
    public TdsMessageWriter writeAsciiAsUtf16le(byte[] ascii, int off, int n) throws IOException {
        int end = off + n;
        while (off < end) {
            if (pos == buf.length) {
                flushPacket(false);
            }
            int room = (buf.length - pos) >> 1;
            if (room == 0) {
                // one byte left in the packet: the character straddles two packets
                writeByte(ascii[off++]);
                writeByte(0);
                continue;
            }
            int chunk = Math.min(room, end - off);
            int p = pos;
            int i = off;
            int stop = off + chunk;
            // 4 characters per step: 4 ASCII bytes b0..b3 become the little-endian long b0 0 b1 0 b2 0 b3 0
            for (; i + 4 <= stop; i += 4, p += 8) {
                long x = (ascii[i] & 0xFFL) | (ascii[i + 1] & 0xFFL) << 16 | (ascii[i + 2] & 0xFFL) << 32
                        | (ascii[i + 3] & 0xFFL) << 48;
                LONG_LE.set(buf, p, x);
            }
            for (; i < stop; i++, p += 2) {
                buf[p] = ascii[i];
                buf[p + 1] = 0;
            }
            pos = p;
            off = stop;
        }
        return this;
    }

    /** UTF-16LE characters, no length prefix. */
    public TdsMessageWriter writeChars(String s) throws IOException {
        for (int i = 0; i < s.length(); i++) {
            writeShort(s.charAt(i));
        }
        return this;
    }

    /** Sends the last packet with END_OF_MESSAGE and flushes the stream. */
    public void end() throws IOException {
        flushPacket(true);
        out.flush();
    }
}
