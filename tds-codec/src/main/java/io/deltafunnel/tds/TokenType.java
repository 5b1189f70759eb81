package io.deltafunnel.tds;

/** Token stream token types (MS-TDS 2.2.7). */
public final class TokenType {
    public static final int ALTMETADATA = 0x88;
    public static final int ALTROW = 0xD3;
    public static final int COLINFO = 0xA5;
    public static final int COLMETADATA = 0x81;
    public static final int DONE = 0xFD;
    public static final int DONEPROC = 0xFE;
    public static final int DONEINPROC = 0xFF;
    public static final int ENVCHANGE = 0xE3;
    public static final int ERROR = 0xAA;
    public static final int FEATUREEXTACK = 0xAE;
    public static final int INFO = 0xAB;
    public static final int LOGINACK = 0xAD;
    public static final int NBCROW = 0xD2;
    public static final int ORDER = 0xA9;
    public static final int RETURNSTATUS = 0x79;
    public static final int RETURNVALUE = 0xAC;
    public static final int ROW = 0xD1;
    public static final int TABNAME = 0xA4;

    private TokenType() {
    }
}
