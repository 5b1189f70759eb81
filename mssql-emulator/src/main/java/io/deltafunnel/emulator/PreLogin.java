package io.deltafunnel.emulator;

import io.deltafunnel.tds.TdsProtocolException;
import io.deltafunnel.tds.TdsWriter;

/** PRELOGIN (MS-TDS 2.2.6.5): parses the client's options and builds the server's answer. */
final class PreLogin {
    static final int OPT_VERSION = 0x00;
    static final int OPT_ENCRYPTION = 0x01;
    static final int OPT_INSTOPT = 0x02;
    static final int OPT_THREADID = 0x03;
    static final int OPT_MARS = 0x04;
    static final int OPT_TERMINATOR = 0xFF;

    static final int ENCRYPT_OFF = 0x00;
    static final int ENCRYPT_ON = 0x01;
    static final int ENCRYPT_NOT_SUP = 0x02;
    static final int ENCRYPT_REQ = 0x03;

    private PreLogin() {
    }

    /** The client's ENCRYPTION option value (ENCRYPT_OFF if absent). */
    static int clientEncryption(byte[] payload, int len) {
        int i = 0;
        while (i < len) {
            int token = payload[i] & 0xFF;
            if (token == OPT_TERMINATOR) {
                return ENCRYPT_OFF;
            }
            if (i + 5 > len) {
                throw new TdsProtocolException("truncated PRELOGIN option table");
            }
            int offset = (payload[i + 1] & 0xFF) << 8 | (payload[i + 2] & 0xFF);
            int length = (payload[i + 3] & 0xFF) << 8 | (payload[i + 4] & 0xFF);
            if (token == OPT_ENCRYPTION) {
                if (length < 1 || offset >= len) {
                    throw new TdsProtocolException("bad PRELOGIN ENCRYPTION option");
                }
                return payload[offset] & 0xFF;
            }
            i += 5;
        }
        throw new TdsProtocolException("PRELOGIN option table has no terminator");
    }

    /** Server decision: TLS for ON/REQ, none (NOT_SUP) otherwise. */
    static int serverEncryption(int client) {
        return client == ENCRYPT_ON || client == ENCRYPT_REQ ? ENCRYPT_ON : ENCRYPT_NOT_SUP;
    }

    static byte[] response(int encryption) {
        // options: VERSION(6) ENCRYPTION(1) INSTOPT(1) THREADID(0) MARS(1), then terminator
        int[][] opts = {{OPT_VERSION, 6}, {OPT_ENCRYPTION, 1}, {OPT_INSTOPT, 1}, {OPT_THREADID, 0}, {OPT_MARS, 1}};
        TdsWriter w = new TdsWriter(64);
        int offset = opts.length * 5 + 1;
        for (int[] o : opts) {
            w.writeByte(o[0]).writeShortBigEndian(offset).writeShortBigEndian(o[1]);
            offset += o[1];
        }
        w.writeByte(OPT_TERMINATOR);
        // VERSION: 16.0.1000, subbuild 0 (UL_VERSION is big-endian major, minor, build)
        w.writeByte(16).writeByte(0).writeShortBigEndian(1000).writeShort(0);
        w.writeByte(encryption);
        w.writeByte(0);
        w.writeByte(0);
        return w.toByteArray();
    }
}
