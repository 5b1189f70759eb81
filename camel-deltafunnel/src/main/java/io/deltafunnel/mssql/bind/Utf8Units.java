package io.deltafunnel.mssql.bind;

import org.apache.arrow.memory.util.MemoryUtil;

/**
 * The UTF-16 length of UTF-8 bytes in native memory without decoding them: for the column-wide pass of
 * {@link TextBindings} over text whose UTF-8 bytes outnumber the column's characters (Cyrillic, Greek, CJK, …). It
 * counts only well-formed UTF-8 (Unicode's table of well-formed byte sequences: no overlong forms, no surrogates,
 * nothing above U+10FFFF), whose Java decoding has exactly that many UTF-16 code units; anything else is -1, and the
 * caller checks such a value the usual way; and the ASCII check of such bytes, which the direct writer uses too.
 * Stateless.
 */
public final class Utf8Units {

    private Utf8Units() {
    }

    /**
     * Whether the {@code n} bytes at native address {@code at} are all ASCII (below 0x80); 32 bytes a step, and false
     * at the first step with a byte of 0x80 or more (a whole column's bytes are looked at this way).
     */
    public static boolean ascii(long at, long n) {
        long seen = 0;
        long i = 0;
        for (; i + 32 <= n; i += 32) {
            seen |= MemoryUtil.getLong(at + i) | MemoryUtil.getLong(at + i + 8) | MemoryUtil.getLong(at + i + 16)
                    | MemoryUtil.getLong(at + i + 24);
            if ((seen & 0x8080_8080_8080_8080L) != 0) {
                return false;
            }
        }
        for (; i + 8 <= n; i += 8) {
            seen |= MemoryUtil.getLong(at + i);
        }
        for (; i < n; i++) {
            seen |= MemoryUtil.getByte(at + i);
        }
        return (seen & 0x8080_8080_8080_8080L) == 0;
    }

    /**
     * The UTF-16 code units of the {@code n} bytes at native address {@code at} (one per character, two for one
     * beyond U+FFFF) when they are well-formed UTF-8, else -1: fewer than {@code n} exactly when a byte is not ASCII.
     * Reads only those bytes; ASCII 8 bytes at a time, and four well-formed two-byte characters (a lead C2..DF and a
     * continuation, as Cyrillic, Greek or Hebrew text has them) at a time.
     */
    public static int utf16Length(long at, int n) {
        int units = 0;
        int i = 0;
        while (i < n) {
            if (i + 8 <= n) {
                long x = MemoryUtil.getLong(at + i);
                if ((x & 0x8080_8080_8080_8080L) == 0) {
                    units += 8;
                    i += 8;
                    continue;
                }
                // per 16-bit lane: a lead 110xxxxx (low byte) and a continuation 10xxxxxx, the lead's bits 4..1 not
                // all zero (C0 and C1 are overlong forms): each lane's 0x1E bits plus 0x7FFF carry into its top bit
                if ((x & 0xC0E0_C0E0_C0E0_C0E0L) == 0x80C0_80C0_80C0_80C0L
                        && ((x & 0x001E_001E_001E_001EL) + 0x7FFF_7FFF_7FFF_7FFFL & 0x8000_8000_8000_8000L)
                                == 0x8000_8000_8000_8000L) {
                    units += 4;
                    i += 8;
                    continue;
                }
            }
            int b = MemoryUtil.getByte(at + i) & 0xFF;
            if (b < 0x80) {
                units++;
                i++;
                continue;
            }
            // the lead byte's sequence length and the range of the byte after it
            int len;
            int lo = 0x80;
            int hi = 0xBF;
            if (b < 0xC2) {
                return -1; // a continuation byte without a lead, or an overlong two-byte form
            } else if (b < 0xE0) {
                len = 2;
            } else if (b < 0xF0) {
                len = 3;
                lo = b == 0xE0 ? 0xA0 : 0x80; // not overlong
                hi = b == 0xED ? 0x9F : 0xBF; // not a surrogate
            } else if (b < 0xF5) {
                len = 4;
                lo = b == 0xF0 ? 0x90 : 0x80; // not overlong
                hi = b == 0xF4 ? 0x8F : 0xBF; // not beyond U+10FFFF
            } else {
                return -1;
            }
            if (i + len > n) {
                return -1;
            }
            int second = MemoryUtil.getByte(at + i + 1) & 0xFF;
            if (second < lo || second > hi) {
                return -1;
            }
            for (int k = 2; k < len; k++) {
                if ((MemoryUtil.getByte(at + i + k) & 0xC0) != 0x80) {
                    return -1;
                }
            }
            units += len == 4 ? 2 : 1;
            i += len;
        }
        return units;
    }
}
