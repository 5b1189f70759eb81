package io.deltafunnel.emulator.wire;

import io.deltafunnel.tds.PreloginOptions;

import java.util.LinkedHashMap;
import java.util.Map;

/** PRELOGIN (MS-TDS 2.2.6.5): the server's encryption decision and its answer. */
final class PreLogin {
    private PreLogin() {
    }

    /** Server decision for a TDS 7.x session: TLS for ON/REQ, none (NOT_SUP) otherwise. */
    static int serverEncryption(int client) {
        return client == PreloginOptions.ENCRYPT_ON || client == PreloginOptions.ENCRYPT_REQ
                ? PreloginOptions.ENCRYPT_ON : PreloginOptions.ENCRYPT_NOT_SUP;
    }

    /**
     * The answer: VERSION 16.0.1000, ENCRYPTION, INSTOPT, THREADID (empty), MARS off and, when {@code fedAuthRequired}
     * is 0 or 1, FEDAUTHREQUIRED.
     */
    static byte[] response(int encryption, int fedAuthRequired) {
        Map<Integer, byte[]> o = new LinkedHashMap<>();
        // UL_VERSION is big-endian major, minor, build; then the sub-build
        o.put(PreloginOptions.VERSION, new byte[] {16, 0, (byte) (1000 >>> 8), (byte) 1000, 0, 0});
        o.put(PreloginOptions.ENCRYPTION, new byte[] {(byte) encryption});
        o.put(PreloginOptions.INSTOPT, new byte[] {0});
        o.put(PreloginOptions.THREADID, new byte[0]);
        o.put(PreloginOptions.MARS, new byte[] {0});
        if (fedAuthRequired >= 0) {
            o.put(PreloginOptions.FEDAUTHREQUIRED, new byte[] {(byte) fedAuthRequired});
        }
        return PreloginOptions.build(o);
    }
}
