package io.deltafunnel.mssql;

import java.util.ArrayList;
import java.util.List;

/** Quoting of T-SQL identifiers. Every identifier this package puts into SQL goes through {@link #quote}. */
public final class SqlIdentifiers {

    /** SQL Server's limit for identifier length (sysname). */
    public static final int MAX_LENGTH = 128;

    private SqlIdentifiers() {
    }

    /**
     * {@code [name]} with every {@code ]} doubled, so that any character (quotes, {@code ;}, {@code --}, spaces)
     * stays part of the name.
     *
     * @throws IllegalArgumentException for null, empty, over-long names or names containing NUL
     */
    public static String quote(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("empty identifier");
        }
        if (name.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("identifier longer than " + MAX_LENGTH + " characters: " + name);
        }
        if (name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("identifier contains NUL");
        }
        return "[" + name.replace("]", "]]") + "]";
    }

    /**
     * Splits a dotted name into its parts; bracketed parts may contain dots and {@code ]]}. Surrounding spaces are
     * ignored outside brackets.
     */
    static List<String> splitQualified(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty table name");
        }
        List<String> parts = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int i = 0;
        String s = text.trim();
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '[' && current.length() == 0) {
                i++;
                while (true) {
                    if (i >= s.length()) {
                        throw new IllegalArgumentException("unterminated [ in '" + text + "'");
                    }
                    char d = s.charAt(i);
                    if (d == ']') {
                        if (i + 1 < s.length() && s.charAt(i + 1) == ']') {
                            current.append(']');
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    current.append(d);
                    i++;
                }
                if (i < s.length() && s.charAt(i) != '.') {
                    throw new IllegalArgumentException("unexpected text after ] in '" + text + "'");
                }
            } else if (c == '.') {
                parts.add(requireNonEmpty(current.toString().trim(), text));
                current.setLength(0);
                i++;
            } else {
                current.append(c);
                i++;
            }
        }
        parts.add(requireNonEmpty(current.toString().trim(), text));
        return parts;
    }

    private static String requireNonEmpty(String part, String text) {
        if (part.isEmpty()) {
            throw new IllegalArgumentException("empty name part in '" + text + "'");
        }
        return part;
    }
}
