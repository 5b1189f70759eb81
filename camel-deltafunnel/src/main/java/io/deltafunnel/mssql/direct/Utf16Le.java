package io.deltafunnel.mssql.direct;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

import org.apache.arrow.memory.util.MemoryUtil;

/**
 * UTF-8 to UTF-16LE, byte by byte and 8 bytes at a time: the conversions {@link TextEncoders} writes nvarchar/nchar/
 * ntext values with, and the copy of ASCII text it sends as code-page bytes. Stateless; no method
 * allocates.
 */
final class Utf16Le {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class,
            ByteOrder.LITTLE_ENDIAN);

    private Utf16Le() {
    }

    /**
     * Writes the USHORT length {@code 2 n} and the {@code n} bytes at native address {@code at} widened to UTF-16LE
     * into {@code b} at {@code p} (which has room for {@code 2 + 2 n + 8} bytes: the last step may store up to 6
     * bytes beyond the value); returns whether every byte was ASCII. When one was not, what was written is garbage
     * beyond the caller's position and must not be committed. With {@code overread}, the 8 bytes after the value
     * are readable memory: the last 1..7 bytes are read as one long and the bytes beyond the value masked off.
     */
    static boolean widenAscii(long at, int n, byte[] b, int p, boolean overread) {
        b[p] = (byte) (2 * n);
        b[p + 1] = (byte) ((2 * n) >>> 8);
        int q = p + 2;
        long seen = 0;
        int i = 0;
        for (; i + 8 <= n; i += 8, q += 16) {
            long x = MemoryUtil.getLong(at + i);
            seen |= x;
            LONGS.set(b, q, widen(x));
            LONGS.set(b, q + 8, widen(x >>> 32));
        }
        int rest = n - i;
        if (overread && rest > 0) {
            long x = MemoryUtil.getLong(at + i) & (-1L >>> (64 - 8 * rest));
            seen |= x;
            LONGS.set(b, q, widen(x));
            if (rest > 4) {
                LONGS.set(b, q + 8, widen(x >>> 32));
            }
            return (seen & 0x8080_8080_8080_8080L) == 0;
        }
        for (; i < n; i++, q += 2) {
            byte c = MemoryUtil.getByte(at + i);
            seen |= c; // a byte >= 0x80 is negative: its sign extension sets bit 7 too
            b[q] = c;
            b[q + 1] = 0;
        }
        return (seen & 0x8080_8080_8080_8080L) == 0;
    }

    /**
     * Writes the USHORT length {@code n} and the {@code n} bytes at native address {@code at} as they are into
     * {@code b} at {@code p} (which has room for {@code 2 + n + 8} bytes: the last step may store up to 7 bytes beyond
     * the value): the code-page bytes of ASCII text, which {@link io.deltafunnel.mssql.bind.Utf8Units#ascii} proved
     * beforehand. With {@code overread}, the 8 bytes after the value are readable memory and the last 1..7 bytes are
     * copied as one long.
     */
    static void copyAscii(long at, int n, byte[] b, int p, boolean overread) {
        b[p] = (byte) n;
        b[p + 1] = (byte) (n >>> 8);
        int q = p + 2;
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            LONGS.set(b, q + i, MemoryUtil.getLong(at + i));
        }
        if (overread && i < n) {
            LONGS.set(b, q + i, MemoryUtil.getLong(at + i));
            return;
        }
        for (; i < n; i++) {
            b[q + i] = MemoryUtil.getByte(at + i);
        }
    }

    /**
     * -1 when the {@code n} bytes at native address {@code at} are all ASCII, else their UTF-16 code units if they are
     * well-formed UTF-8: the bytes, less the continuation bytes (10xxxxxx), plus one for each four-byte lead
     * (11110xxx, a surrogate pair). Counted 8 bytes at a time without decoding; for bytes that are not well-formed
     * UTF-8 the count need not be what {@link #utf8ToUtf16le(long, int, byte[], int, int)} writes, so a caller that
     * lays out bytes by it compares the two. With {@code overread}, the 8 bytes after the value are readable memory:
     * the last 1..7 bytes are read as one long and the bytes beyond the value masked off.
     */
    static int nonAsciiUnits(long at, int n, boolean overread) {
        long high = 0;
        int units = n;
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            long x = MemoryUtil.getLong(at + i);
            long h = x & 0x8080_8080_8080_8080L;
            if (h != 0) {
                high |= h;
                units += lengthDelta(x, h);
            }
        }
        int rest = n - i;
        if (overread && rest > 0) {
            long x = MemoryUtil.getLong(at + i) & (-1L >>> (64 - 8 * rest));
            long h = x & 0x8080_8080_8080_8080L;
            high |= h;
            return high == 0 ? -1 : units + lengthDelta(x, h);
        }
        for (; i < n; i++) {
            int c = MemoryUtil.getByte(at + i) & 0xFF;
            high |= c & 0x80;
            if ((c & 0xC0) == 0x80) {
                units--;
            } else if (c >= 0xF0) {
                units++;
            }
        }
        return high == 0 ? -1 : units;
    }

    /**
     * What the 8 bytes {@code x}, whose bytes of 0x80 or more are {@code h}'s bits, add to their count as UTF-16 code
     * units: less one per continuation byte (bit 7 set, bit 6 clear), one more per four-byte lead (bits 7..4 set).
     */
    private static int lengthDelta(long x, long h) {
        return Long.bitCount(h & x << 1 & x << 2 & x << 3) - Long.bitCount(h & ~(x << 1));
    }

    /** The low 4 bytes b0..b3 of {@code x} as the little-endian long b0 0 b1 0 b2 0 b3 0. */
    private static long widen(long x) {
        long y = x & 0xFFFF_FFFFL;
        y = (y | y << 16) & 0x0000_FFFF_0000_FFFFL;
        return (y | y << 8) & 0x00FF_00FF_00FF_00FFL;
    }

    /** Whether the first {@code n} bytes of {@code b} are all ASCII (below 0x80). */
    static boolean isAscii(byte[] b, int n) {
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            if (((long) LONGS.get(b, i) & 0x8080_8080_8080_8080L) != 0) {
                return false;
            }
        }
        for (; i < n; i++) {
            if (b[i] < 0) {
                return false;
            }
        }
        return true;
    }

    /** Per 16-bit lane of 8 bytes: the bits that make a lead 110xxxxx (low byte) and a continuation 10xxxxxx. */
    private static final long TWO_BYTE_MASK = 0xC0E0_C0E0_C0E0_C0E0L;
    /** What {@link #TWO_BYTE_MASK} leaves of four two-byte UTF-8 sequences. */
    private static final long TWO_BYTE_PATTERN = 0x80C0_80C0_80C0_80C0L;

    /** Of 8 bytes, the bits that make their first 6 two three-byte sequences: a lead 1110xxxx, two 10xxxxxx each. */
    private static final long THREE_BYTE_MASK = 0x0000_C0C0_F0C0_C0F0L;
    /** What {@link #THREE_BYTE_MASK} leaves of two three-byte UTF-8 sequences. */
    private static final long THREE_BYTE_PATTERN = 0x0000_8080_E080_80E0L;

    /** The code unit of the three-byte sequence in the low 3 bytes of {@code x} (lead first). */
    private static int threeByteUnit(long x) {
        return (int) ((x & 0x0F) << 12 | (x & 0x3F00) >>> 2 | (x & 0x3F_0000) >>> 16);
    }

    /**
     * Writes the UTF-16LE of the {@code n} UTF-8 bytes at native address {@code at} straight into {@code b} from
     * {@code q}, eight ASCII bytes, four two-byte or two three-byte characters at a time and the rest character by
     * character, reading only the value's own bytes; returns the bytes written, or -1 when they would reach past
     * {@code limit} (an index of {@code b}: nothing at or beyond it is written). Decodes as
     * {@link #utf8ToUtf16le(byte[], int, byte[])} does (a supplementary character as a surrogate pair); a multi-byte
     * sequence cut off by the value's end is an {@link IllegalArgumentException}.
     */
    static int utf8ToUtf16le(long at, int n, byte[] b, int q, int limit) {
        int o = q;
        int i = 0;
        while (i < n) {
            if (i + 8 <= n) {
                long x = MemoryUtil.getLong(at + i);
                if ((x & 0x8080_8080_8080_8080L) == 0) {
                    // eight ASCII bytes: sixteen bytes of UTF-16LE
                    if (o + 16 > limit) {
                        return -1;
                    }
                    LONGS.set(b, o, widen(x));
                    LONGS.set(b, o + 8, widen(x >>> 32));
                    o += 16;
                    i += 8;
                    continue;
                }
                if ((x & TWO_BYTE_MASK) == TWO_BYTE_PATTERN) {
                    // four two-byte characters (Latin accents, Greek, Cyrillic, Hebrew, Arabic …): each 16-bit lane
                    // holds a lead (low byte) and its continuation (high byte), and becomes its UTF-16LE code unit
                    if (o + 8 > limit) {
                        return -1;
                    }
                    LONGS.set(b, o, (x & 0x001F_001F_001F_001FL) << 6 | x >>> 8 & 0x003F_003F_003F_003FL);
                    o += 8;
                    i += 8;
                    continue;
                }
                if ((x & THREE_BYTE_MASK) == THREE_BYTE_PATTERN) {
                    // two three-byte characters in the first 6 bytes (CJK, Indic, Thai, most symbols): each a lead
                    // 1110xxxx and two continuations, each one UTF-16 code unit; one 4-byte store
                    if (o + 4 > limit) {
                        return -1;
                    }
                    INTS.set(b, o, threeByteUnit(x) | threeByteUnit(x >>> 24) << 16);
                    o += 4;
                    i += 6;
                    continue;
                }
            }
            int c = MemoryUtil.getByte(at + i) & 0xFF;
            int len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
            if (i + len > n) {
                throw new IllegalArgumentException("a UTF-8 sequence of " + len + " bytes starts " + (n - i)
                        + " bytes before the end of a " + n + "-byte value");
            }
            int cp = switch (len) {
                case 1 -> c;
                case 2 -> (c & 0x1F) << 6 | cont(at + i + 1, 0);
                case 3 -> (c & 0x0F) << 12 | cont(at + i + 1, 6) | cont(at + i + 2, 0);
                default -> (c & 0x07) << 18 | cont(at + i + 1, 12) | cont(at + i + 2, 6) | cont(at + i + 3, 0);
            };
            i += len;
            int units = cp >= 0x10000 ? 2 : 1;
            if (o + 2 * units > limit) {
                return -1;
            }
            if (units == 2) {
                char hi = Character.highSurrogate(cp);
                char lo = Character.lowSurrogate(cp);
                b[o] = (byte) hi;
                b[o + 1] = (byte) (hi >>> 8);
                b[o + 2] = (byte) lo;
                b[o + 3] = (byte) (lo >>> 8);
            } else {
                b[o] = (byte) cp;
                b[o + 1] = (byte) (cp >>> 8);
            }
            o += 2 * units;
        }
        return o - q;
    }

    /** The 6 payload bits of the UTF-8 continuation byte at native address {@code at}, shifted by {@code shift}. */
    private static int cont(long at, int shift) {
        return (MemoryUtil.getByte(at) & 0x3F) << shift;
    }

    /** Transcodes valid UTF-8 (as Arrow guarantees) to UTF-16LE; returns the byte count written. */
    static int utf8ToUtf16le(byte[] in, int n, byte[] out) {
        int o = 0;
        int i = 0;
        while (i < n) {
            int b = in[i];
            if (b >= 0) { // ASCII fast path
                out[o] = (byte) b;
                out[o + 1] = 0;
                o += 2;
                i++;
                continue;
            }
            b &= 0xFF;
            int cp;
            if (b < 0xE0) {
                cp = (b & 0x1F) << 6 | (in[i + 1] & 0x3F);
                i += 2;
            } else if (b < 0xF0) {
                cp = (b & 0x0F) << 12 | (in[i + 1] & 0x3F) << 6 | (in[i + 2] & 0x3F);
                i += 3;
            } else {
                cp = (b & 0x07) << 18 | (in[i + 1] & 0x3F) << 12 | (in[i + 2] & 0x3F) << 6 | (in[i + 3] & 0x3F);
                i += 4;
            }
            if (cp >= 0x10000) {
                int hi = Character.highSurrogate(cp);
                int lo = Character.lowSurrogate(cp);
                out[o++] = (byte) hi;
                out[o++] = (byte) (hi >>> 8);
                out[o++] = (byte) lo;
                out[o++] = (byte) (lo >>> 8);
            } else {
                out[o++] = (byte) cp;
                out[o++] = (byte) (cp >>> 8);
            }
        }
        return o;
    }
}
