package io.deltafunnel.emulator.tsql;

import java.util.Locale;

/** One T-SQL token. */
public final class Token {
    /** Token kinds. */
    public enum Kind {
        /** bare word: keyword or unquoted identifier. */
        WORD,
        /** [bracketed] or "double quoted" identifier; value is the unescaped name. */
        QUOTED_ID,
        /** 'string'; value is the unescaped content. */
        STRING,
        /** N'string'; value is the unescaped content. */
        NSTRING,
        NUMBER,
        /** 0x... binary literal. */
        BINARY,
        /** @name or @@name. */
        VARIABLE,
        /** punctuation / operator. */
        SYMBOL
    }

    private final Kind kind;
    private final String text;
    private final String value;
    private final int start;
    private final int end;

    public Token(Kind kind, String text, String value, int start, int end) {
        this.kind = kind;
        this.text = text;
        this.value = value;
        this.start = start;
        this.end = end;
    }

    public Kind kind() {
        return kind;
    }

    /** Source text of the token. */
    public String text() {
        return text;
    }

    /** Identifier name or string content; the text for other kinds. */
    public String value() {
        return value;
    }

    public int start() {
        return start;
    }

    public int end() {
        return end;
    }

    /** True for a bare word equal (ignoring case) to {@code keyword}. */
    public boolean is(String keyword) {
        return kind == Kind.WORD && text.equalsIgnoreCase(keyword);
    }

    public boolean isSymbol(String symbol) {
        return kind == Kind.SYMBOL && text.equals(symbol);
    }

    public boolean isIdentifier() {
        return kind == Kind.WORD || kind == Kind.QUOTED_ID;
    }

    public boolean isString() {
        return kind == Kind.STRING || kind == Kind.NSTRING;
    }

    public String upper() {
        return text.toUpperCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return text;
    }
}
