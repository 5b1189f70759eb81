package io.deltafunnel.tds;

import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes one TDS message, little-endian, straight into packet-sized buffers: a packet is complete as soon as it is
 * full (status 0), the last one gets END_OF_MESSAGE on {@link #end()}. Used by the direct client for large
 * messages (BULK_LOAD) where building the whole message in memory first would cost a copy. The output stream stays
 * owned by the caller.
 *
 * <p>With {@code packetsPerWrite} above 1 the buffer holds that many packets back to back (each with its own
 * header) and hands them to the stream in one {@code write}: fewer calls into the stream and, with a
 * {@link java.io.BufferedOutputStream} of at most that size in between, no second copy of the bytes. The bytes on
 * the wire are the same as with one packet per write.
 *
 * <p>Callers that write many small bounded values (the bulk row encoders) may check {@link #room()} once and then
 * write up to that many bytes straight into {@link #buffer()} at {@link #position()}, committing with
 * {@link #position(int)}; the packet's end is never crossed that way. Writers of whole rows may instead check
 * {@link #spillRoom()} and commit with {@link #commitSpilling(int)}: the bytes written past the packet's end are then
 * moved behind the next packet's header, so that a row never has to be written value by value at a packet's end.
 */
public final class TdsMessageWriter {
    private static final java.lang.invoke.VarHandle LONG_LE = java.lang.invoke.MethodHandles
            .byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    public static final int HEADER = 8;

    private final OutputStream out;
    /**
     * The packets' slots ({@link #slots} bytes, {@code packetsPerWrite} packets) and behind them one packet size of
     * slack, into which {@link #commitSpilling} rows may run past the last slot's end.
     */
    private final byte[] buf;
    private final int slots;
    private final int type;
    private final int packetSize;
    /** Where the current packet (its header) starts in {@link #buf}. */
    private int start;
    /** The end of the current packet in {@link #buf}: {@code start + packetSize}. */
    private int limit;
    private int pos = HEADER;
    private int packetId = 1;

    public TdsMessageWriter(OutputStream out, int type, int packetSize) {
        this(out, type, packetSize, 1);
    }

    /**
     * @param packetsPerWrite how many full packets are collected before they are written to {@code out} in one call
     */
    public TdsMessageWriter(OutputStream out, int type, int packetSize, int packetsPerWrite) {
        if (packetSize <= HEADER || packetsPerWrite < 1) {
            throw new IllegalArgumentException("packet size " + packetSize + ", packets per write " + packetsPerWrite);
        }
        this.out = out;
        this.type = type;
        this.packetSize = packetSize;
        this.slots = Math.multiplyExact(packetSize, packetsPerWrite);
        this.buf = new byte[Math.addExact(slots, packetSize)];
        this.limit = packetSize;
    }

    /** The packet is full: its header is written, and the buffer goes to the stream when no packet fits any more. */
    private void flushPacket() throws IOException {
        flushPacket(0);
    }

    /**
     * {@link #flushPacket()} of a packet full at {@link #limit}, with the {@code carry} bytes written beyond it moved
     * behind the next packet's header.
     */
    private void flushPacket(int carry) throws IOException {
        PacketStatus.writeHeader(buf, start, type, false, pos - start, packetId);
        packetId = (packetId + 1) & 0xFF;
        int carried = pos;
        start = pos;
        if (slots - start < packetSize) {
            out.write(buf, 0, start);
            start = 0;
        }
        System.arraycopy(buf, carried, buf, start + HEADER, carry);
        limit = start + packetSize;
        pos = start + HEADER + carry;
    }

    /**
     * The most bytes that may be written straight into {@link #buffer()} at {@link #position()} and committed with
     * {@link #commitSpilling(int)}: the rest of this packet and the next packet's payload.
     */
    public int spillRoom() {
        return limit - pos + packetSize - HEADER;
    }

    /**
     * Commits bytes written straight into {@link #buffer()} from {@link #position()} to {@code p}, which may lie past
     * the packet's end by at most the next packet's payload ({@link #spillRoom()}). When it does, the packet is
     * complete at its end and the bytes beyond it are moved behind the next packet's header: the message is the same
     * as if they had been written one by one. Bytes the caller stored beyond {@code p} are not kept.
     */
    public void commitSpilling(int p) throws IOException {
        if (p <= limit) {
            position(p);
            return;
        }
        int over = p - limit;
        if (p < pos || over > packetSize - HEADER) {
            throw new IllegalArgumentException("position " + p + " outside " + pos + ".." + (limit + packetSize
                    - HEADER));
        }
        pos = limit;
        flushPacket(over);
    }

    /** Bytes that can still be written into the current packet before it is full. */
    public int room() {
        return limit - pos;
    }

    /**
     * The buffer the current packet is written into, for {@link #room()}-checked direct writes at
     * {@link #position()} (still owned by this writer; valid until the next write through this writer).
     */
    public byte[] buffer() {
        return buf;
    }

    /** Where the next byte goes in {@link #buffer()}. */
    public int position() {
        return pos;
    }

    /**
     * Commits bytes written straight into {@link #buffer()}: the next byte goes to {@code p}, which must lie between
     * {@link #position()} and the packet's end ({@code position() + room()}).
     */
    public void position(int p) {
        if (p < pos || p > limit) {
            throw new IllegalArgumentException("position " + p + " outside " + pos + ".." + limit);
        }
        pos = p;
    }

    public TdsMessageWriter writeByte(int v) throws IOException {
        if (pos == limit) {
            flushPacket();
        }
        buf[pos++] = (byte) v;
        return this;
    }

    /** Writes the {@code n} low bytes of {@code v}, little-endian. */
    public TdsMessageWriter writeLE(long v, int n) throws IOException {
        if (limit - pos >= 8) {
            // Room for a whole long: one 8-byte store, of which the next writes overwrite what is beyond n.
            LONG_LE.set(buf, pos, v);
            pos += n;
        } else if (limit - pos >= n) {
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
            if (pos == limit) {
                flushPacket();
            }
            int n = Math.min(len, limit - pos);
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
            if (pos == limit) {
                flushPacket();
            }
            int room = (limit - pos) >> 1;
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
        PacketStatus.writeHeader(buf, start, type, true, pos - start, packetId);
        out.write(buf, 0, pos);
        out.flush();
    }
}
