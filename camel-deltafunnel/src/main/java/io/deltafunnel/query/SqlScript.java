package io.deltafunnel.query;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a DuckDB SQL script (the consumer's {@code initSql}) into statements at top-level semicolons.
 *
 * <p>A semicolon does not end a statement inside a string literal ({@code '...'}, quotes doubled), a quoted
 * identifier ({@code "..."}), a dollar-quoted string ({@code $$...$$} or {@code $tag$...$tag$}), a line comment
 * ({@code -- ...} to the end of the line) or a block comment ({@code /* ... *}{@code /}). Comments are kept in the
 * statement text (DuckDB ignores them); statements that are empty or hold only comments are dropped.
 */
public final class SqlScript {

    private SqlScript() {
    }

    /** The statements of {@code script}, trimmed, in order; an empty list for {@code null} or blank input. */
    public static List<String> statements(String script) {
        List<String> out = new ArrayList<>();
        if (script == null) {
            return out;
        }
        int start = 0;
        boolean onlyComments = true;
        int i = 0;
        int n = script.length();
        while (i < n) {
            char c = script.charAt(i);
            if (c == '\'' || c == '"') {
                i = closing(script, i + 1, c);
                onlyComments = false;
            } else if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
                int eol = script.indexOf('\n', i);
                i = eol < 0 ? n : eol + 1;
            } else if (c == '/' && i + 1 < n && script.charAt(i + 1) == '*') {
                int end = script.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == '$' && dollarTag(script, i) != null) {
                String tag = dollarTag(script, i);
                int end = script.indexOf(tag, i + tag.length());
                i = end < 0 ? n : end + tag.length();
                onlyComments = false;
            } else if (c == ';') {
                add(out, script.substring(start, i), onlyComments);
                start = i + 1;
                onlyComments = true;
                i++;
            } else {
                if (!Character.isWhitespace(c)) {
                    onlyComments = false;
                }
                i++;
            }
        }
        add(out, script.substring(start), onlyComments);
        return out;
    }

    /** The index after the quote that closes a literal opened before {@code from}; doubled quotes are content. */
    private static int closing(String s, int from, char quote) {
        int i = from;
        while (i < s.length()) {
            if (s.charAt(i) == quote) {
                if (i + 1 < s.length() && s.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i + 1;
            }
            i++;
        }
        return s.length();
    }

    /** {@code $$} or {@code $tag$} starting at {@code at}, or null if none starts there. */
    private static String dollarTag(String s, int at) {
        int i = at + 1;
        while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
            i++;
        }
        if (i < s.length() && s.charAt(i) == '$' && (i == at + 1 || !Character.isDigit(s.charAt(at + 1)))) {
            return s.substring(at, i + 1);
        }
        return null;
    }

    private static void add(List<String> out, String statement, boolean onlyComments) {
        String s = statement.trim();
        if (!s.isEmpty() && !onlyComments) {
            out.add(s);
        }
    }
}
