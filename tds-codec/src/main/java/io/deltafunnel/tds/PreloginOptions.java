package io.deltafunnel.tds;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * PRELOGIN (MS-TDS 2.2.6.5): option ids, ENCRYPTION values and the option-table codec, shared by the emulator and the
 * direct client. A PRELOGIN payload is a table of (id, big-endian offset, big-endian length) entries ended by
 * {@link #TERMINATOR}, followed by the option values.
 */
public final class PreloginOptions {
    public static final int VERSION = 0x00;
    public static final int ENCRYPTION = 0x01;
    public static final int INSTOPT = 0x02;
    public static final int THREADID = 0x03;
    public static final int MARS = 0x04;
    public static final int TRACEID = 0x05;
    public static final int FEDAUTHREQUIRED = 0x06;
    public static final int NONCEOPT = 0x07;
    public static final int TERMINATOR = 0xFF;

    /** Encrypt the login packet only. */
    public static final int ENCRYPT_OFF = 0x00;
    /** Encryption available and requested. */
    public static final int ENCRYPT_ON = 0x01;
    /** Encryption not available. Also what mssql-jdbc sends with {@code encrypt=strict} (TLS is already up). */
    public static final int ENCRYPT_NOT_SUP = 0x02;
    /** Encryption required. */
    public static final int ENCRYPT_REQ = 0x03;
    public static final int ENCRYPT_CLIENT_CERT = 0x80;

    /** TLS application protocol (ALPN) of TDS 8.0 ("strict") connections. */
    public static final String ALPN_TDS_8_0 = "tds/8.0";

    private PreloginOptions() {
    }

    /**
     * Decodes the option table into id → value bytes, in wire order.
     *
     * @throws TdsProtocolException if the table is truncated, lacks its terminator or points outside the payload
     */
    public static Map<Integer, byte[]> parse(byte[] payload, int len) {
        Map<Integer, byte[]> options = new LinkedHashMap<>();
        int i = 0;
        while (true) {
            if (i >= len) {
                throw new TdsProtocolException("PRELOGIN option table has no terminator");
            }
            int id = payload[i] & 0xFF;
            if (id == TERMINATOR) {
                return options;
            }
            if (i + 5 > len) {
                throw new TdsProtocolException("truncated PRELOGIN option table");
            }
            int offset = (payload[i + 1] & 0xFF) << 8 | (payload[i + 2] & 0xFF);
            int length = (payload[i + 3] & 0xFF) << 8 | (payload[i + 4] & 0xFF);
            if (offset + length > len) {
                throw new TdsProtocolException(String.format(
                        "PRELOGIN option 0x%02X (offset %d, length %d) points outside the %d-byte message",
                        id, offset, length, len));
            }
            if (options.containsKey(id)) {
                throw new TdsProtocolException(String.format("PRELOGIN option 0x%02X appears twice", id));
            }
            options.put(id, Arrays.copyOfRange(payload, offset, offset + length));
            i += 5;
        }
    }

    public static Map<Integer, byte[]> parse(byte[] payload) {
        return parse(payload, payload.length);
    }

    /** Encodes options (in the map's iteration order) as a PRELOGIN payload. */
    public static byte[] build(Map<Integer, byte[]> options) {
        TdsWriter w = new TdsWriter(64);
        int offset = options.size() * 5 + 1;
        for (Map.Entry<Integer, byte[]> e : options.entrySet()) {
            w.writeByte(e.getKey()).writeShortBigEndian(offset).writeShortBigEndian(e.getValue().length);
            offset += e.getValue().length;
        }
        w.writeByte(TERMINATOR);
        for (byte[] v : options.values()) {
            w.writeBytes(v);
        }
        return w.toByteArray();
    }

    /** The single-byte value of an option, or -1 when absent or empty. */
    public static int byteOption(Map<Integer, byte[]> options, int id) {
        byte[] v = options.get(id);
        return v == null || v.length == 0 ? -1 : v[0] & 0xFF;
    }

    /** A read-only view with hex strings as values (for records and messages). */
    public static Map<Integer, String> toHex(Map<Integer, byte[]> options) {
        Map<Integer, String> out = new LinkedHashMap<>();
        options.forEach((k, v) -> out.put(k, hex(v)));
        return Collections.unmodifiableMap(out);
    }

    public static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder(2 * b.length);
        for (byte x : b) {
            sb.append(String.format("%02x", x & 0xFF));
        }
        return sb.toString();
    }
}
