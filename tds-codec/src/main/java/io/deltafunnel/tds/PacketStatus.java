package io.deltafunnel.tds;

/** TDS packet header status bits (MS-TDS 2.2.3.1.2). */
public final class PacketStatus {
    public static final int NORMAL = 0x00;
    public static final int EOM = 0x01;
    /** "Ignore this event": the client abandons the message; the receiver discards it. */
    public static final int IGNORE = 0x02;
    public static final int RESET_CONNECTION = 0x08;
    public static final int RESET_CONNECTION_SKIP_TRAN = 0x10;

    /** Size of the packet header in bytes. */
    public static final int HEADER_SIZE = 8;

    private PacketStatus() {
    }

    /**
     * Writes a packet header at {@code b[off..off+8)}: type, status (EOM when {@code last}), total length (header
     * included, big-endian), SPID 0, packet id, window 0.
     */
    public static void writeHeader(byte[] b, int off, int type, boolean last, int totalLength, int packetId) {
        b[off] = (byte) type;
        b[off + 1] = (byte) (last ? EOM : NORMAL);
        b[off + 2] = (byte) (totalLength >>> 8);
        b[off + 3] = (byte) totalLength;
        b[off + 4] = 0;
        b[off + 5] = 0;
        b[off + 6] = (byte) packetId;
        b[off + 7] = 0;
    }
}
