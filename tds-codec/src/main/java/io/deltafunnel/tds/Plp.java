package io.deltafunnel.tds;

import java.io.ByteArrayOutputStream;

/** Partially Length-Prefixed values (MS-TDS 2.2.5.2.3) used by (max) types. */
public final class Plp {
    public static final long NULL = 0xFFFFFFFFFFFFFFFFL;
    public static final long UNKNOWN_LENGTH = 0xFFFFFFFFFFFFFFFEL;
    /** Chunk size used when writing. */
    public static final int CHUNK = 8000;

    private Plp() {
    }

    /**
     * Reads a PLP value; returns null for PLP NULL. Accepts known and unknown total length; when the total is
     * known, the chunk lengths must add up to it.
     */
    public static byte[] read(TdsReader r) {
        long total = r.readLong();
        if (total == NULL) {
            return null;
        }
        if (total != UNKNOWN_LENGTH && (total < 0 || total > Integer.MAX_VALUE - 16)) {
            throw new TdsProtocolException("PLP length " + total + " out of range");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(total == UNKNOWN_LENGTH ? 1024 : (int) total);
        byte[] chunk = new byte[0];
        while (true) {
            long len = r.readUnsignedInt();
            if (len == 0) {
                break;
            }
            if (len > Integer.MAX_VALUE - 16) {
                throw new TdsProtocolException("PLP chunk length " + len + " out of range");
            }
            if (chunk.length < len) {
                chunk = new byte[(int) len];
            }
            r.readBytes(chunk, 0, (int) len);
            out.write(chunk, 0, (int) len);
        }
        if (total != UNKNOWN_LENGTH && out.size() != total) {
            throw new TdsProtocolException("PLP chunks hold " + out.size() + " bytes, header said " + total);
        }
        return out.toByteArray();
    }

    /** Writes a PLP value with a known total length (null writes PLP NULL). */
    public static void write(TdsWriter w, byte[] value) {
        if (value == null) {
            w.writeLong(NULL);
            return;
        }
        w.writeLong(value.length);
        int off = 0;
        while (off < value.length) {
            int n = Math.min(CHUNK, value.length - off);
            w.writeInt(n);
            w.writeBytes(value, off, n);
            off += n;
        }
        w.writeInt(0);
    }
}
