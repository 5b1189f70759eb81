package io.deltafunnel.tds;

import java.io.IOException;

/**
 * Streams one multi-packet message: a {@link TdsReader.ChunkSource} that fetches packets on demand, checks that they
 * belong to the same message, and reports an abandoned message (ignore bit) as {@link IgnoredMessageException}.
 */
public final class MessageInput implements TdsReader.ChunkSource {
    private final PacketReader packets;
    private final Packet packet;
    private final int type;
    private boolean firstPending = true;
    private boolean sawEom;
    private long bytesRead;
    private java.io.ByteArrayOutputStream tap;

    /** {@code first} is the message's first packet, already read. */
    public MessageInput(PacketReader packets, Packet first) {
        this.packets = packets;
        this.packet = first;
        this.type = first.type;
    }

    public int type() {
        return type;
    }

    /** Copies every payload byte read from now on into {@code tap} (a test aid: BULK_LOAD capture). */
    public void tap(java.io.ByteArrayOutputStream tap) {
        this.tap = tap;
    }

    public long bytesRead() {
        return bytesRead;
    }

    /** True once the packet carrying EOM has been consumed. */
    public boolean complete() {
        return sawEom;
    }

    @Override
    public boolean nextChunk(TdsReader reader) throws IOException {
        if (firstPending) {
            firstPending = false;
            return accept(reader);
        }
        if (sawEom) {
            return false;
        }
        if (!packets.read(packet)) {
            throw new java.io.EOFException("connection closed inside a TDS message");
        }
        if (packet.type != type) {
            throw new TdsProtocolException("packet type " + packet.type + " inside a message of type " + type);
        }
        return accept(reader);
    }

    private boolean accept(TdsReader reader) {
        sawEom = packet.isEndOfMessage();
        if (packet.isIgnore()) {
            throw new IgnoredMessageException();
        }
        bytesRead += packet.payloadLength;
        if (tap != null) {
            tap.write(packet.payload, 0, packet.payloadLength);
        }
        reader.setChunk(packet.payload, 0, packet.payloadLength);
        return true;
    }

    /** Reads and discards the remaining packets of the message (up to EOM or an ignore packet). */
    public void drain() throws IOException {
        if (firstPending) {
            firstPending = false;
            sawEom = packet.isEndOfMessage() || packet.isIgnore();
        }
        while (!sawEom) {
            if (!packets.read(packet)) {
                throw new java.io.EOFException("connection closed inside a TDS message");
            }
            sawEom = packet.isEndOfMessage() || packet.isIgnore();
        }
    }
}
