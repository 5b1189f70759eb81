package io.deltafunnel.tds;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Little-endian reader over one TDS message. The bytes come in chunks (normally one packet payload each) from a
 * {@link ChunkSource}; reads that straddle a chunk boundary are handled transparently.
 */
public class TdsReader {

    /** Supplies the next chunk of the current message. */
    public interface ChunkSource {
        /**
         * Loads the next chunk into the reader via {@link TdsReader#setChunk}. Returns false when the message has no
         * more bytes.
         */
        boolean nextChunk(TdsReader reader) throws IOException;
    }

    private byte[] buf;
    private int pos;
    private int limit;
    private final ChunkSource source;
    private boolean exhausted;

    /** A reader over a complete in-memory message. */
    public TdsReader(byte[] data) {
        this(data, 0, data.length);
    }

    public TdsReader(byte[] data, int off, int len) {
        this.buf = data;
        this.pos = off;
        this.limit = off + len;
        this.source = null;
        this.exhausted = true;
    }

    /** A streaming reader; the first chunk is requested lazily. */
    public TdsReader(ChunkSource source) {
        this.buf = new byte[0];
        this.source = source;
    }

    public void setChunk(byte[] data, int off, int len) {
        this.buf = data;
        this.pos = off;
        this.limit = off + len;
    }

    private boolean fill() {
        while (pos >= limit) {
            if (exhausted || source == null) {
                return false;
            }
            try {
                if (!source.nextChunk(this)) {
                    exhausted = true;
                    return false;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return true;
    }

    /** Bytes left in the current chunk (for an in-memory reader: in the whole message). */
    public int available() {
        return limit - pos;
    }

    /** True if no byte is left in the message. */
    public boolean atEnd() {
        return !fill();
    }

    public int readUnsignedByte() {
        if (pos >= limit && !fill()) {
            throw new TdsProtocolException("unexpected end of TDS message");
        }
        return buf[pos++] & 0xFF;
    }

    /** Next byte without consuming it, or -1 at the end of the message. */
    public int peekUnsignedByte() {
        if (pos >= limit && !fill()) {
            return -1;
        }
        return buf[pos] & 0xFF;
    }

    public byte readByte() {
        return (byte) readUnsignedByte();
    }

    public int readUnsignedShort() {
        if (limit - pos >= 2) {
            int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8;
            pos += 2;
            return v;
        }
        return readUnsignedByte() | readUnsignedByte() << 8;
    }

    public short readShort() {
        return (short) readUnsignedShort();
    }

    public int readUnsignedShortBigEndian() {
        return readUnsignedByte() << 8 | readUnsignedByte();
    }

    public int readInt() {
        if (limit - pos >= 4) {
            int v = (buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8 | (buf[pos + 2] & 0xFF) << 16
                    | (buf[pos + 3] & 0xFF) << 24;
            pos += 4;
            return v;
        }
        return readUnsignedShort() | readUnsignedShort() << 16;
    }

    public int readIntBigEndian() {
        return readUnsignedByte() << 24 | readUnsignedByte() << 16 | readUnsignedByte() << 8 | readUnsignedByte();
    }

    public long readUnsignedInt() {
        return readInt() & 0xFFFFFFFFL;
    }

    public long readLong() {
        if (limit - pos >= 8) {
            long v = 0;
            for (int i = 7; i >= 0; i--) {
                v = v << 8 | (buf[pos + i] & 0xFF);
            }
            pos += 8;
            return v;
        }
        return readUnsignedInt() | (long) readInt() << 32;
    }

    /** Reads n (1..8) bytes as an unsigned little-endian number. */
    public long readUnsignedLongBytes(int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v |= (long) readUnsignedByte() << (8 * i);
        }
        return v;
    }

    public void readBytes(byte[] dst, int off, int len) {
        while (len > 0) {
            if (pos >= limit && !fill()) {
                throw new TdsProtocolException("unexpected end of TDS message");
            }
            int n = Math.min(len, limit - pos);
            System.arraycopy(buf, pos, dst, off, n);
            pos += n;
            off += n;
            len -= n;
        }
    }

    public byte[] readBytes(int len) {
        byte[] b = new byte[len];
        readBytes(b, 0, len);
        return b;
    }

    public void skip(long len) {
        while (len > 0) {
            if (pos >= limit && !fill()) {
                throw new TdsProtocolException("unexpected end of TDS message");
            }
            int n = (int) Math.min(len, limit - pos);
            pos += n;
            len -= n;
        }
    }

    /** Skips whatever remains of the message. */
    public void skipToEnd() {
        while (fill()) {
            pos = limit;
        }
    }

    /** Reads {@code chars} UTF-16LE code units. */
    public String readUnicode(int chars) {
        if (limit - pos >= 2 * chars) {
            char[] c = new char[chars];
            for (int i = 0; i < chars; i++) {
                c[i] = (char) ((buf[pos] & 0xFF) | (buf[pos + 1] & 0xFF) << 8);
                pos += 2;
            }
            return new String(c);
        }
        char[] c = new char[chars];
        for (int i = 0; i < chars; i++) {
            c[i] = (char) readUnsignedShort();
        }
        return new String(c);
    }

    public String readBVarchar() {
        return readUnicode(readUnsignedByte());
    }

    public String readUsVarchar() {
        return readUnicode(readUnsignedShort());
    }

    public byte[] readBVarbyte() {
        return readBytes(readUnsignedByte());
    }
}
