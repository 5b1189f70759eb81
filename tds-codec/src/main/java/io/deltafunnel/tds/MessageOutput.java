package io.deltafunnel.tds;

import java.io.IOException;

/**
 * A response message being written: callers append tokens to {@link #buffer()} and call {@link #flushFull()} from
 * time to time so that full packets leave early (bounded memory for big result sets); {@link #end()} sends the rest
 * with the EOM bit.
 */
public final class MessageOutput {
    private final PacketWriter packets;
    private final int type;
    private final TdsWriter buffer = new TdsWriter(8192);

    public MessageOutput(PacketWriter packets, int type) {
        this.packets = packets;
        this.type = type;
    }

    public TdsWriter buffer() {
        return buffer;
    }

    /** Sends every complete packet's worth of buffered bytes (never the last packet). */
    public void flushFull() throws IOException {
        int max = packets.maxPayload();
        if (buffer.size() <= max) {
            return;
        }
        int off = 0;
        while (buffer.size() - off > max) {
            packets.writePacket(type, false, buffer.array(), off, max);
            off += max;
        }
        buffer.discardFront(off);
    }

    /** Sends the remainder as the final packet(s) and flushes the stream. */
    public void end() throws IOException {
        packets.writeMessage(type, buffer.array(), 0, buffer.size());
        buffer.reset();
    }
}
