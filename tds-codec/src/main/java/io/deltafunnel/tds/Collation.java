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

    /**
     * The collation named {@code name} as {@code sys.columns.collation_name} spells it, or null when this codec does
     * not know it. Known: the code page 1252 SQL collations {@code SQL_Latin1_General_CP1_CI_AS} (SortId 52),
     * {@code _CS_AS} (51) and {@code _CI_AI} (54), and the Windows collations {@code Latin1_General[_100|_140]_...}
     * (LCID 0x0409, SortId 0) with CI/CS, AI/AS, KS, WS, BIN, BIN2 and UTF8 (the _UTF8 ones use code page 65001).
     * The returned collation's {@link #name()} is spelt as SQL Server reports it, whatever the case of {@code name}.
     */
    public static Collation forName(String name) {
        if (name == null) {
            return null;
        }
        String n = name.toUpperCase(java.util.Locale.ROOT);
        switch (n) {
            case "SQL_LATIN1_GENERAL_CP1_CI_AS":
                return SQL_LATIN1_GENERAL_CP1_CI_AS;
            case "SQL_LATIN1_GENERAL_CP1_CS_AS":
                return new Collation(new byte[] {0x09, 0x04, (byte) 0xC0, 0x00, 51}, "SQL_Latin1_General_CP1_CS_AS");
            case "SQL_LATIN1_GENERAL_CP1_CI_AI":
                return new Collation(new byte[] {0x09, 0x04, (byte) 0xF0, 0x00, 54}, "SQL_Latin1_General_CP1_CI_AI");
            default:
                break;
        }
        if (!n.startsWith("LATIN1_GENERAL_")) {
            return null;
        }
        String[] parts = n.substring("LATIN1_GENERAL_".length()).split("_");
        int version = 0;
        int i = 0;
        if (parts.length > 0 && (parts[0].equals("100") || parts[0].equals("140"))) {
            version = parts[0].equals("100") ? 1 : 2;
            i = 1;
        }
        boolean ignoreCase = false;
        boolean ignoreAccent = false;
        boolean ignoreKana = true;
        boolean ignoreWidth = true;
        boolean binary = false;
        boolean binary2 = false;
        boolean utf8 = false;
        boolean sawCase = false;
        for (; i < parts.length; i++) {
            switch (parts[i]) {
                case "CI" -> { ignoreCase = true; sawCase = true; }
                case "CS" -> sawCase = true;
                case "AI" -> ignoreAccent = true;
                case "AS" -> { }
                case "KS" -> ignoreKana = false;
                case "WS" -> ignoreWidth = false;
                case "SC", "VSS" -> { }
                case "BIN" -> binary = true;
                case "BIN2" -> binary2 = true;
                case "UTF8" -> utf8 = true;
                default -> {
                    return null;
                }
            }
        }
        if (binary || binary2) {
            ignoreCase = false;
            ignoreAccent = false;
            ignoreKana = false;
            ignoreWidth = false;
        } else if (!sawCase) {
            return null;
        }
        int flags = (ignoreCase ? 0x1 : 0) | (ignoreAccent ? 0x2 : 0) | (ignoreKana ? 0x4 : 0)
                | (ignoreWidth ? 0x8 : 0);
        int flags2 = (binary ? 0x1 : 0) | (binary2 ? 0x2 : 0) | (utf8 ? 0x4 : 0);
        // the name as SQL Server spells it (sys.columns.collation_name): Latin1_General_ + upper-case suffix
        return new Collation(new byte[] {0x09, 0x04, (byte) (flags << 4), (byte) (flags2 | version << 4), 0},
                "Latin1_General_" + n.substring("LATIN1_GENERAL_".length()));
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
