package io.deltafunnel.tds;

import java.io.IOException;
import java.io.OutputStream;

/** Splits messages into TDS packets of the negotiated size and writes them. */
public final class PacketWriter {
    private OutputStream out;
    private int packetSize;
    private int packetId = 1;
    private final byte[] header = new byte[PacketStatus.HEADER_SIZE];

    public PacketWriter(OutputStream out, int packetSize) {
        this.out = out;
        setPacketSize(packetSize);
    }

    public void setOutput(OutputStream out) {
        this.out = out;
    }

    public OutputStream output() {
        return out;
    }

    public int packetSize() {
        return packetSize;
    }

    public void setPacketSize(int packetSize) {
        if (packetSize < 512 || packetSize > PacketReader.MAX_PACKET_SIZE) {
            throw new IllegalArgumentException("packet size out of range: " + packetSize);
        }
        this.packetSize = packetSize;
    }

    /** Maximum payload bytes in one packet. */
    public int maxPayload() {
        return packetSize - PacketStatus.HEADER_SIZE;
    }

    /** Writes one packet; {@code last} sets the EOM bit. Does not flush. */
    public void writePacket(int type, boolean last, byte[] data, int off, int len) throws IOException {
        if (len > maxPayload()) {
            throw new IllegalArgumentException("payload larger than the packet size");
        }
        int total = len + PacketStatus.HEADER_SIZE;
        PacketStatus.writeHeader(header, 0, type, last, total, packetId);
        packetId = (packetId + 1) & 0xFF;
        out.write(header);
        out.write(data, off, len);
    }

    /** Writes a whole message, splitting it into packets, and flushes. */
    public void writeMessage(int type, byte[] data, int off, int len) throws IOException {
        int max = maxPayload();
        do {
            int n = Math.min(max, len);
            writePacket(type, n == len, data, off, n);
            off += n;
            len -= n;
        } while (len > 0);
        out.flush();
    }

    public void flush() throws IOException {
        out.flush();
    }
}
