package io.deltafunnel.emulator.tsql;

/** Quoting of identifiers for H2 ("...") and for SQL Server ([...]). */
public final class Identifiers {
    private Identifiers() {
    }

    public static String h2Quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    public static String bracket(String identifier) {
        return '[' + identifier.replace("]", "]]") + ']';
    }

    /** SQL string literal with quotes doubled (used only in DDL, where parameters cannot be used). */
    public static String sqlLiteral(String value) {
        return '\'' + value.replace("'", "''") + '\'';
    }
}
