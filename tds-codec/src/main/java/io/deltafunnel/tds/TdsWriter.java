package io.deltafunnel.tds;

import java.util.Arrays;

/** A growable little-endian byte buffer with the TDS primitive encodings (B_VARCHAR, US_VARCHAR, ...). */
public class TdsWriter {
    private byte[] buf;
    private int pos;

    public TdsWriter() {
        this(256);
    }

    public TdsWriter(int initialCapacity) {
        buf = new byte[Math.max(16, initialCapacity)];
    }

    private void ensure(int extra) {
        int need = pos + extra;
        if (need > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(need, buf.length * 2));
        }
    }

    public int size() {
        return pos;
    }

    public byte[] array() {
        return buf;
    }

    public void reset() {
        pos = 0;
    }

    /** Drops the first n bytes, moving the rest to the front. */
    public void discardFront(int n) {
        System.arraycopy(buf, n, buf, 0, pos - n);
        pos -= n;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, pos);
    }

    public TdsWriter writeByte(int v) {
        ensure(1);
        buf[pos++] = (byte) v;
        return this;
    }

    public TdsWriter writeShort(int v) {
        ensure(2);
        buf[pos++] = (byte) v;
        buf[pos++] = (byte) (v >>> 8);
        return this;
    }

    public TdsWriter writeShortBigEndian(int v) {
        ensure(2);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
        return this;
    }

    public TdsWriter writeInt(int v) {
        ensure(4);
        buf[pos++] = (byte) v;
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) (v >>> 16);
        buf[pos++] = (byte) (v >>> 24);
        return this;
    }

    public TdsWriter writeIntBigEndian(int v) {
        ensure(4);
        buf[pos++] = (byte) (v >>> 24);
        buf[pos++] = (byte) (v >>> 16);
        buf[pos++] = (byte) (v >>> 8);
        buf[pos++] = (byte) v;
        return this;
    }

    public TdsWriter writeLong(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            buf[pos++] = (byte) (v >>> (8 * i));
        }
        return this;
    }

    /** Writes the low {@code n} bytes of v, little-endian. */
    public TdsWriter writeLongBytes(long v, int n) {
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[pos++] = (byte) (v >>> (8 * i));
        }
        return this;
    }

    public TdsWriter writeBytes(byte[] b) {
        return writeBytes(b, 0, b.length);
    }

    public TdsWriter writeBytes(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buf, pos, len);
        pos += len;
        return this;
    }

    /** UTF-16LE characters, no length prefix. */
    public TdsWriter writeUnicode(String s) {
        int n = s.length();
        ensure(2 * n);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            buf[pos++] = (byte) c;
            buf[pos++] = (byte) (c >>> 8);
        }
        return this;
    }

    /** B_VARCHAR: 1-byte character count then UTF-16LE. */
    public TdsWriter writeBVarchar(String s) {
        String v = s == null ? "" : s;
        if (v.length() > 255) {
            throw new IllegalArgumentException("B_VARCHAR longer than 255 characters");
        }
        writeByte(v.length());
        return writeUnicode(v);
    }

    /** US_VARCHAR: 2-byte character count then UTF-16LE. */
    public TdsWriter writeUsVarchar(String s) {
        String v = s == null ? "" : s;
        if (v.length() > 65535) {
            throw new IllegalArgumentException("US_VARCHAR longer than 65535 characters");
        }
        writeShort(v.length());
        return writeUnicode(v);
    }

    /** B_VARBYTE: 1-byte length then bytes. */
    public TdsWriter writeBVarbyte(byte[] b) {
        writeByte(b.length);
        return writeBytes(b);
    }

    /** Overwrites 2 bytes (little-endian) at an earlier position. */
    public void setShortAt(int at, int v) {
        buf[at] = (byte) v;
        buf[at + 1] = (byte) (v >>> 8);
    }

    public void setIntAt(int at, int v) {
        buf[at] = (byte) v;
        buf[at + 1] = (byte) (v >>> 8);
        buf[at + 2] = (byte) (v >>> 16);
        buf[at + 3] = (byte) (v >>> 24);
    }
}
