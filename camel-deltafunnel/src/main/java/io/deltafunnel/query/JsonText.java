package io.deltafunnel.query;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A reusable, growable UTF-8 buffer that JSON text is written into, one value at a time ({@link #reset()} between
 * values). Strings are escaped the way Jackson's {@code JsonGenerator.writeString} does (and so Spark's
 * {@code to_json}): {@code "} and {@code \} backslash-escaped, {@code b t n f r} short-escaped after a backslash, other control
 * characters below U+0020 as a backslash, {@code u00XX}; everything else, non-ASCII included, is copied as is.
 */
final class JsonText {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private byte[] buf = new byte[256];
    private int len;

    void reset() {
        len = 0;
    }

    byte[] bytes() {
        return buf;
    }

    int length() {
        return len;
    }

    @Override
    public String toString() {
        return new String(buf, 0, len, StandardCharsets.UTF_8);
    }

    private void ensure(int extra) {
        if (len + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + extra));
        }
    }

    JsonText append(char ascii) {
        ensure(1);
        buf[len++] = (byte) ascii;
        return this;
    }

    /** Appends ASCII-only text (numbers, literals, formatted dates) unescaped. */
    JsonText appendAscii(String ascii) {
        int n = ascii.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[len++] = (byte) ascii.charAt(i);
        }
        return this;
    }

    /** Appends {@code "text"} for ASCII text that needs no escaping (dates, base64, UUIDs). */
    JsonText appendQuotedAscii(String ascii) {
        return append('"').appendAscii(ascii).append('"');
    }

    /** Appends a JSON string literal of the UTF-8 bytes {@code src[from, from + n)}, escaped. */
    JsonText appendString(byte[] src, int from, int n) {
        ensure(n + 2);
        buf[len++] = '"';
        for (int i = from; i < from + n; i++) {
            byte b = src[i];
            if (b >= 0x20 && b != '"' && b != '\\' || b < 0) {
                ensure(1);
                buf[len++] = b;
            } else {
                escape(b);
            }
        }
        ensure(1);
        buf[len++] = '"';
        return this;
    }

    /** Appends a JSON string literal of {@code s}, escaped. */
    JsonText appendString(String s) {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        return appendString(utf8, 0, utf8.length);
    }

    private void escape(byte b) {
        ensure(6);
        buf[len++] = '\\';
        switch (b) {
            case '"' -> buf[len++] = '"';
            case '\\' -> buf[len++] = '\\';
            case '\b' -> buf[len++] = 'b';
            case '\t' -> buf[len++] = 't';
            case '\n' -> buf[len++] = 'n';
            case '\f' -> buf[len++] = 'f';
            case '\r' -> buf[len++] = 'r';
            default -> {
                buf[len++] = 'u';
                buf[len++] = '0';
                buf[len++] = '0';
                buf[len++] = HEX[(b >> 4) & 0xF];
                buf[len++] = HEX[b & 0xF];
            }
        }
    }
}
