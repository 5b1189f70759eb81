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
