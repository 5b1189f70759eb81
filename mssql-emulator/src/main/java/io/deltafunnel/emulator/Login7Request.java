package io.deltafunnel.emulator;

import io.deltafunnel.tds.TdsProtocolException;

import java.nio.charset.StandardCharsets;

/** The fields of a LOGIN7 message (MS-TDS 2.2.6.4) the emulator uses. */
final class Login7Request {
    final int tdsVersion;
    final int packetSize;
    final String hostName;
    final String userName;
    final String password;
    final String appName;
    final String database;
    final boolean integratedSecurity;

    private Login7Request(int tdsVersion, int packetSize, String hostName, String userName, String password,
            String appName, String database, boolean integratedSecurity) {
        this.tdsVersion = tdsVersion;
        this.packetSize = packetSize;
        this.hostName = hostName;
        this.userName = userName;
        this.password = password;
        this.appName = appName;
        this.database = database;
        this.integratedSecurity = integratedSecurity;
    }

    static Login7Request parse(byte[] b) {
        if (b.length < 94) {
            throw new TdsProtocolException("LOGIN7 too short: " + b.length + " bytes");
        }
        int tdsVersion = intLe(b, 4);
        int packetSize = intLe(b, 8);
        int optionFlags2 = b[25] & 0xFF;
        boolean integrated = (optionFlags2 & 0x80) != 0;
        String host = string(b, 36);
        String user = string(b, 40);
        String password = password(b, 44);
        String app = string(b, 48);
        String database = string(b, 68);
        return new Login7Request(tdsVersion, packetSize, host, user, password, app, database, integrated);
    }

    private static int intLe(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8 | (b[at + 2] & 0xFF) << 16 | (b[at + 3] & 0xFF) << 24;
    }

    private static int shortLe(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
    }

    private static byte[] field(byte[] b, int at) {
        int offset = shortLe(b, at);
        int chars = shortLe(b, at + 2);
        if (offset + 2L * chars > b.length) {
            throw new TdsProtocolException("LOGIN7 field at " + at + " points outside the message");
        }
        byte[] out = new byte[2 * chars];
        System.arraycopy(b, offset, out, 0, out.length);
        return out;
    }

    private static String string(byte[] b, int at) {
        return new String(field(b, at), StandardCharsets.UTF_16LE);
    }

    /** The password is obfuscated: each byte had its nibbles swapped and was XORed with 0xA5. */
    private static String password(byte[] b, int at) {
        byte[] raw = field(b, at);
        for (int i = 0; i < raw.length; i++) {
            int x = (raw[i] & 0xFF) ^ 0xA5;
            raw[i] = (byte) ((x << 4 & 0xF0) | (x >>> 4 & 0x0F));
        }
        return new String(raw, StandardCharsets.UTF_16LE);
    }
}
