package io.deltafunnel.emulator.tsql;

import java.util.List;

/** A parsed T-SQL statement: a simple statement (tokens), an IF with branches, or a BEGIN...END block. */
public final class Stmt {
    public enum Type { SIMPLE, IF, BLOCK }

    public final Type type;
    public final List<Token> tokens;
    public final String text;
    public final List<Token> condition;
    public final List<Stmt> thenPart;
    public final List<Stmt> elsePart;

    private Stmt(Type type, List<Token> tokens, String text, List<Token> condition, List<Stmt> thenPart,
            List<Stmt> elsePart) {
        this.type = type;
        this.tokens = tokens;
        this.text = text;
        this.condition = condition;
        this.thenPart = thenPart;
        this.elsePart = elsePart;
    }

    static Stmt simple(List<Token> tokens, String text) {
        return new Stmt(Type.SIMPLE, tokens, text, null, null, null);
    }

    static Stmt ifStmt(List<Token> condition, List<Stmt> thenPart, List<Stmt> elsePart, String text) {
        return new Stmt(Type.IF, null, text, condition, thenPart, elsePart);
    }

    static Stmt block(List<Stmt> body, String text) {
        return new Stmt(Type.BLOCK, null, text, null, body, null);
    }

    public Token first() {
        return tokens.get(0);
    }

    /** True if the i-th token is the given keyword. */
    public boolean kw(int i, String keyword) {
        return tokens.size() > i && tokens.get(i).is(keyword);
    }

    @Override
    public String toString() {
        return text;
    }
}
