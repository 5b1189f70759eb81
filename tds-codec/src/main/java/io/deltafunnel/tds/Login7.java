package io.deltafunnel.tds;

import java.nio.charset.StandardCharsets;

/**
 * LOGIN7 (MS-TDS 2.2.6.4) layout, flag bits, FeatureExt ids and the password obfuscation, shared by the emulator and
 * the direct client. All offsets are byte positions inside the LOGIN7 message; the variable fields are described by
 * (USHORT offset, USHORT length in characters) pairs at the {@code IB_*} positions.
 */
public final class Login7 {
    /** Length of the fixed part up to and including cbSSPILong (TDS 7.2+). */
    public static final int FIXED_LENGTH = 94;

    public static final int LENGTH = 0;
    public static final int TDS_VERSION = 4;
    public static final int PACKET_SIZE = 8;
    public static final int CLIENT_PROG_VER = 12;
    public static final int CLIENT_PID = 16;
    public static final int CONNECTION_ID = 20;
    public static final int OPTION_FLAGS1 = 24;
    public static final int OPTION_FLAGS2 = 25;
    public static final int TYPE_FLAGS = 26;
    public static final int OPTION_FLAGS3 = 27;
    public static final int CLIENT_TIME_ZONE = 28;
    public static final int CLIENT_LCID = 32;
    public static final int IB_HOSTNAME = 36;
    public static final int IB_USERNAME = 40;
    public static final int IB_PASSWORD = 44;
    public static final int IB_APPNAME = 48;
    public static final int IB_SERVERNAME = 52;
    /** ibExtension/cbExtension: with fExtension set, points to a 4-byte offset of the FeatureExt block. */
    public static final int IB_EXTENSION = 56;
    public static final int IB_CLTINTNAME = 60;
    public static final int IB_LANGUAGE = 64;
    public static final int IB_DATABASE = 68;
    /** 6 bytes, usually a MAC address. */
    public static final int CLIENT_ID = 72;
    public static final int IB_SSPI = 78;
    public static final int IB_ATCHDBFILE = 82;
    public static final int IB_CHANGEPASSWORD = 86;
    public static final int CB_SSPI_LONG = 90;

    /** TDS 7.4 as sent on the wire (big-endian in LOGIN7 and LOGINACK). */
    public static final int TDS_7_4 = 0x74000004;
    /** TDS 8.0 (strict encryption). */
    public static final int TDS_8_0 = 0x08000000;

    // OptionFlags1
    public static final int F1_USE_DB_OFF = 0x20;
    public static final int F1_INIT_DB_FATAL = 0x40;
    public static final int F1_SET_LANG_ON = 0x80;
    // OptionFlags2
    public static final int F2_INIT_LANG_FATAL = 0x01;
    public static final int F2_ODBC_ON = 0x02;
    public static final int F2_INTEGRATED_SECURITY = 0x80;
    // TypeFlags
    public static final int TYPE_READ_ONLY_INTENT = 0x20;
    // OptionFlags3
    public static final int F3_CHANGE_PASSWORD = 0x01;
    public static final int F3_UNKNOWN_COLLATION_HANDLING = 0x08;
    public static final int F3_EXTENSION = 0x10;

    // FeatureExt ids (MS-TDS 2.2.6.4 FeatureId)
    public static final int FEATURE_SESSIONRECOVERY = 0x01;
    public static final int FEATURE_FEDAUTH = 0x02;
    public static final int FEATURE_COLUMNENCRYPTION = 0x04;
    public static final int FEATURE_GLOBALTRANSACTIONS = 0x05;
    public static final int FEATURE_AZURESQLSUPPORT = 0x08;
    public static final int FEATURE_DATACLASSIFICATION = 0x09;
    public static final int FEATURE_UTF8_SUPPORT = 0x0A;
    public static final int FEATURE_AZURESQLDNSCACHING = 0x0B;
    public static final int FEATURE_JSONSUPPORT = 0x0D;
    public static final int FEATURE_VECTORSUPPORT = 0x0E;
    public static final int FEATURE_ENHANCEDROUTING = 0x0F;
    public static final int FEATURE_USERAGENT = 0x10;
    public static final int FEATURE_TERMINATOR = 0xFF;

    /** JSONSUPPORT feature data and acknowledgement: one BYTE, the version; 1 is the only one defined. */
    public static final int JSONSUPPORT_VERSION_1 = 0x01;
    /** VECTORSUPPORT version 1: vector with float32 elements. The acknowledgement carries the negotiated version. */
    public static final int VECTORSUPPORT_VERSION_1 = 0x01;
    /** VECTORSUPPORT version 2: float32 and float16 elements (float16 is a preview feature of SQL Server 2025). */
    public static final int VECTORSUPPORT_VERSION_2 = 0x02;

    /** FEDAUTH bFedAuthLibrary: the client already has a token (sent in the LOGIN7 FeatureExt). */
    public static final int FEDAUTH_LIBRARY_SECURITYTOKEN = 0x01;
    /** FEDAUTH bFedAuthLibrary: Active Directory Authentication Library workflow (not supported here). */
    public static final int FEDAUTH_LIBRARY_ADAL = 0x02;

    private Login7() {
    }

    /** Password obfuscation: UTF-16LE, each byte's nibbles swapped, then XOR 0xA5. */
    public static byte[] obfuscatePassword(String password) {
        byte[] b = password.getBytes(StandardCharsets.UTF_16LE);
        for (int i = 0; i < b.length; i++) {
            int v = b[i] & 0xFF;
            b[i] = (byte) (((v << 4 & 0xF0) | (v >>> 4)) ^ 0xA5);
        }
        return b;
    }

    /** Reverses {@link #obfuscatePassword(String)}. */
    public static String deobfuscatePassword(byte[] raw) {
        byte[] b = raw.clone();
        for (int i = 0; i < b.length; i++) {
            int x = (b[i] & 0xFF) ^ 0xA5;
            b[i] = (byte) ((x << 4 & 0xF0) | (x >>> 4 & 0x0F));
        }
        return new String(b, StandardCharsets.UTF_16LE);
    }

    /** The FEDAUTH feature's options byte: library in bits 1-7, fFedAuthEcho in bit 0. */
    public static int fedAuthOptions(int library, boolean echo) {
        return library << 1 | (echo ? 1 : 0);
    }
}
