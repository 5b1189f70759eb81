package io.deltafunnel.tds;

/** DONE / DONEPROC / DONEINPROC status bits and common CurCmd values (MS-TDS 2.2.7.6, 2.2.7.7, 2.2.7.8). */
public final class DoneStatus {
    public static final int FINAL = 0x00;
    public static final int MORE = 0x01;
    public static final int ERROR = 0x02;
    public static final int INXACT = 0x04;
    public static final int COUNT = 0x10;
    public static final int ATTN = 0x20;
    public static final int SRVERROR = 0x100;

    public static final int CMD_NONE = 0x00;
    public static final int CMD_SELECT = 0xC1;
    public static final int CMD_SELECTINTO = 0xC2;
    public static final int CMD_INSERT = 0xC3;
    public static final int CMD_DELETE = 0xC4;
    public static final int CMD_UPDATE = 0xC5;
    public static final int CMD_TABCREATE = 0xC6;
    public static final int CMD_TABDESTROY = 0xC7;
    public static final int CMD_ALTERTAB = 0xD8;
    public static final int CMD_EXECUTE = 0xE0;
    public static final int CMD_BULKINSERT = 0xF0;
    public static final int CMD_MERGE = 0x117;
    public static final int CMD_CREATESCHEMA = 0x14A;
    public static final int CMD_ALTERSCHEMA = 0x14B;
    public static final int CMD_SET = 0xB9;

    private DoneStatus() {
    }
}
