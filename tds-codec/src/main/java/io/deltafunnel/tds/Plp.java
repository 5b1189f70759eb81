package io.deltafunnel.tds;

import java.util.Arrays;

/** Partially Length-Prefixed values (MS-TDS 2.2.5.2.3) used by (max) types. */
public final class Plp {
    public static final long NULL = 0xFFFFFFFFFFFFFFFFL;
    public static final long UNKNOWN_LENGTH = 0xFFFFFFFFFFFFFFFEL;
    /** Chunk size used when writing. */
    public static final int CHUNK = 8000;

    private Plp() {
    }

    /**
     * The largest array a value of known total length is given at once; a longer one grows as its chunks arrive, so
     * that a wrong header cannot make the reader allocate more than the chunks hold (plus this).
     */
    static final int FIRST_ALLOCATION = 1 << 20;

    /**
     * Reads a PLP value; returns null for PLP NULL. Accepts known and unknown total length; when the total is
     * known, the chunk lengths must add up to it. The chunks are read straight into the value's array: when the total
     * is known (and at most {@value #FIRST_ALLOCATION} bytes) that array is the one returned, with no copy.
     */
    public static byte[] read(TdsReader r) {
        long total = r.readLong();
        if (total == NULL) {
            return null;
        }
        boolean known = total != UNKNOWN_LENGTH;
        if (known && (total < 0 || total > Integer.MAX_VALUE - 16)) {
            throw new TdsProtocolException("PLP length " + total + " out of range");
        }
        byte[] out = new byte[known ? (int) Math.min(total, FIRST_ALLOCATION) : 1024];
        int size = 0;
        while (true) {
            long len = r.readUnsignedInt();
            if (len == 0) {
                break;
            }
            if (len > Integer.MAX_VALUE - 16 - size) {
                throw new TdsProtocolException("PLP chunk length " + len + " out of range");
            }
            int n = (int) len;
            if (out.length - size < n) {
                out = Arrays.copyOf(out, (int) Math.min(Integer.MAX_VALUE - 16L,
                        Math.max((long) size + n, 2L * out.length)));
            }
            r.readBytes(out, size, n);
            size += n;
        }
        if (known && size != total) {
            throw new TdsProtocolException("PLP chunks hold " + size + " bytes, header said " + total);
        }
        return size == out.length ? out : Arrays.copyOf(out, size);
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
