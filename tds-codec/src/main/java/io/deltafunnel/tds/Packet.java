package io.deltafunnel.tds;

/** One TDS packet as read from the wire: header fields and a payload view into a (reused) buffer. */
public final class Packet {
    public int type;
    public int status;
    public int length;
    public int spid;
    public int packetId;
    public byte[] payload = new byte[4096];
    public int payloadLength;

    public boolean isEndOfMessage() {
        return (status & PacketStatus.EOM) != 0;
    }

    public boolean isIgnore() {
        return (status & PacketStatus.IGNORE) != 0;
    }

    public boolean isResetConnection() {
        return (status & (PacketStatus.RESET_CONNECTION | PacketStatus.RESET_CONNECTION_SKIP_TRAN)) != 0;
    }
}
