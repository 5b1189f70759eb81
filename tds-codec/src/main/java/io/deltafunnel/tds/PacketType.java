package io.deltafunnel.tds;

/** TDS packet header type byte (MS-TDS 2.2.3.1.1). */
public final class PacketType {
    public static final int SQL_BATCH = 0x01;
    public static final int PRE_TDS7_LOGIN = 0x02;
    public static final int RPC = 0x03;
    public static final int TABULAR_RESULT = 0x04;
    public static final int ATTENTION = 0x06;
    public static final int BULK_LOAD = 0x07;
    public static final int FED_AUTH_TOKEN = 0x08;
    public static final int TRANSACTION_MANAGER = 0x0E;
    public static final int LOGIN7 = 0x10;
    public static final int SSPI = 0x11;
    public static final int PRELOGIN = 0x12;

    private PacketType() {
    }
}
