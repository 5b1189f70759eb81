package io.deltafunnel.tds;

import java.nio.charset.Charset;
import java.util.Arrays;

/**
 * The 5-byte TDS collation (MS-TDS 2.2.5.1.2): LCID + comparison flags + version in 4 bytes, then SortId.
 * Only the code page matters to a TDS peer: it decides how single-byte character data is encoded.
 */
public final class Collation {
    /** SQL_Latin1_General_CP1_CI_AS: LCID 0x0409, IgnoreCase|IgnoreKana|IgnoreWidth, SortId 52, code page 1252. */
    public static final Collation SQL_LATIN1_GENERAL_CP1_CI_AS =
            new Collation(new byte[] {0x09, 0x04, (byte) 0xD0, 0x00, 0x34}, "SQL_Latin1_General_CP1_CI_AS");

    public static final int LENGTH = 5;
    private static final Charset CP1252 = Charset.forName("windows-1252");

    private final byte[] bytes;
    private final String name;

    private Collation(byte[] bytes, String name) {
        this.bytes = bytes.clone();
        this.name = name;
    }

    /** Reads a collation as sent on the wire; its name is unknown unless it is the default one. */
    public static Collation fromBytes(byte[] raw) {
        if (raw.length != LENGTH) {
            throw new IllegalArgumentException("collation must be 5 bytes, got " + raw.length);
        }
        if (Arrays.equals(raw, SQL_LATIN1_GENERAL_CP1_CI_AS.bytes)) {
            return SQL_LATIN1_GENERAL_CP1_CI_AS;
        }
        return new Collation(raw, null);
    }

    public byte[] bytes() {
        return bytes.clone();
    }

    public void write(TdsWriter w) {
        w.writeBytes(bytes);
    }

    /** Collation name, or null if not known. */
    public String name() {
        return name;
    }

    public int sortId() {
        return bytes[4] & 0xFF;
    }

    public int lcid() {
        return (bytes[0] & 0xFF) | (bytes[1] & 0xFF) << 8 | (bytes[2] & 0x0F) << 16;
    }

    public boolean isUtf8() {
        return (bytes[3] & 0x04) != 0;
    }

    /**
     * Charset for single-byte (char/varchar) data. Only Latin-1 general collations (code page 1252) and UTF-8 are
     * recognised; anything else falls back to windows-1252.
     */
    public Charset charset() {
        if (isUtf8()) {
            return java.nio.charset.StandardCharsets.UTF_8;
        }
        return CP1252;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Collation && Arrays.equals(bytes, ((Collation) o).bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return name != null ? name : "Collation" + Arrays.toString(bytes);
    }
}
