package io.deltafunnel.tds;

/**
 * A strict RFC 8259 syntax check of one JSON text (one value, whitespace around it allowed): what a value of SQL
 * Server 2025's {@code json} type must be, shared by the emulator (13609) and the producer (a per-row rejection).
 */
public final class JsonText {
    private final String s;
    private int i;

    private JsonText(String s) {
        this.s = s;
    }

    /** The 0-based position of the first character that breaks the syntax ({@code length} at a premature end), or -1. */
    public static int firstError(String text) {
        JsonText p = new JsonText(text);
        try {
            p.ws();
            p.value();
            p.ws();
            return p.i == text.length() ? -1 : p.i;
        } catch (IllegalArgumentException e) {
            return p.i;
        }
    }

    private IllegalArgumentException fail() {
        return new IllegalArgumentException();
    }

    private char peek() {
        if (i >= s.length()) {
            throw fail();
        }
        return s.charAt(i);
    }

    private void ws() {
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            i++;
        }
    }

    private void value() {
        char c = peek();
        switch (c) {
            case '{': object(); return;
            case '[': array(); return;
            case '"': string(); return;
            case 't': literal("true"); return;
            case 'f': literal("false"); return;
            case 'n': literal("null"); return;
            default:
                if (c == '-' || c >= '0' && c <= '9') {
                    number();
                    return;
                }
                throw fail();
        }
    }

    private void literal(String word) {
        for (int k = 0; k < word.length(); k++) {
            if (peek() != word.charAt(k)) {
                throw fail();
            }
            i++;
        }
    }

    private void object() {
        i++;
        ws();
        if (peek() == '}') {
            i++;
            return;
        }
        while (true) {
            ws();
            if (peek() != '"') {
                throw fail();
            }
            string();
            ws();
            if (peek() != ':') {
                throw fail();
            }
            i++;
            ws();
            value();
            ws();
            char c = peek();
            i++;
            if (c == '}') {
                return;
            }
            if (c != ',') {
                i--;
                throw fail();
            }
        }
    }

    private void array() {
        i++;
        ws();
        if (peek() == ']') {
            i++;
            return;
        }
        while (true) {
            ws();
            value();
            ws();
            char c = peek();
            i++;
            if (c == ']') {
                return;
            }
            if (c != ',') {
                i--;
                throw fail();
            }
        }
    }

    private void string() {
        i++;
        while (true) {
            char c = peek();
            if (c == '"') {
                i++;
                return;
            }
            if (c < 0x20) {
                throw fail();
            }
            if (c == '\\') {
                i++;
                char e = peek();
                if (e == 'u') {
                    for (int k = 0; k < 4; k++) {
                        i++;
                        char h = peek();
                        if (Character.digit(h, 16) < 0) {
                            throw fail();
                        }
                    }
                } else if ("\"\\/bfnrt".indexOf(e) < 0) {
                    throw fail();
                }
            }
            i++;
        }
    }

    private void number() {
        if (peek() == '-') {
            i++;
        }
        if (peek() == '0') {
            i++;
        } else {
            digits();
        }
        if (i < s.length() && s.charAt(i) == '.') {
            i++;
            digits();
        }
        if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (peek() == '+' || peek() == '-') {
                i++;
            }
            digits();
        }
    }

    private void digits() {
        char c = peek();
        if (c < '0' || c > '9') {
            throw fail();
        }
        while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
    }
}
