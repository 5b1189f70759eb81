package io.deltafunnel.tds;

/** ENVCHANGE token types (MS-TDS 2.2.7.9). */
public final class EnvChangeType {
    public static final int DATABASE = 1;
    public static final int LANGUAGE = 2;
    public static final int CHARSET = 3;
    public static final int PACKET_SIZE = 4;
    public static final int SQL_COLLATION = 7;
    public static final int BEGIN_TRANSACTION = 8;
    public static final int COMMIT_TRANSACTION = 9;
    public static final int ROLLBACK_TRANSACTION = 10;
    public static final int RESET_CONNECTION_ACK = 18;
    /** Routing (MS-TDS 2.2.7.9): protocol byte 0 (TCP), USHORT port, US_VARCHAR alternate server. */
    public static final int ROUTING = 20;

    private EnvChangeType() {
    }
}
