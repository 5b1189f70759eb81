package io.deltafunnel.emulator.tsql;

import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;
import java.util.ArrayList;
import java.util.List;

/** Splits T-SQL text into tokens; comments and whitespace are dropped. */
public final class TSqlLexer {
    private TSqlLexer() {
    }

    public static List<Token> tokenize(String sql) throws SqlServerError {
        List<Token> out = new ArrayList<>();
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                while (i < n && sql.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int depth = 1;
                i += 2;
                while (i < n && depth > 0) {
                    if (sql.startsWith("/*", i)) {
                        depth++;
                        i += 2;
                    } else if (sql.startsWith("*/", i)) {
                        depth--;
                        i += 2;
                    } else {
                        i++;
                    }
                }
                if (depth > 0) {
                    throw ErrorCatalog.MISSING_END_COMMENT.error("Missing end comment mark '*/'.");
                }
            } else if (c == '[') {
                int start = i;
                StringBuilder v = new StringBuilder();
                i++;
                while (true) {
                    if (i >= n) {
                        throw ErrorCatalog.UNCLOSED_QUOTATION.error(
                                "Unclosed quotation mark after the character string '" + v + "'.");
                    }
                    char d = sql.charAt(i);
                    if (d == ']') {
                        if (i + 1 < n && sql.charAt(i + 1) == ']') {
                            v.append(']');
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    v.append(d);
                    i++;
                }
                out.add(new Token(Token.Kind.QUOTED_ID, sql.substring(start, i), v.toString(), start, i));
            } else if (c == '"') {
                int start = i;
                int[] endHolder = new int[1];
                String v = quoted(sql, i, '"', endHolder);
                i = endHolder[0];
                out.add(new Token(Token.Kind.QUOTED_ID, sql.substring(start, i), v, start, i));
            } else if (c == '\'') {
                int start = i;
                int[] endHolder = new int[1];
                String v = quoted(sql, i, '\'', endHolder);
                i = endHolder[0];
                out.add(new Token(Token.Kind.STRING, sql.substring(start, i), v, start, i));
            } else if ((c == 'N' || c == 'n') && i + 1 < n && sql.charAt(i + 1) == '\'') {
                int start = i;
                int[] endHolder = new int[1];
                String v = quoted(sql, i + 1, '\'', endHolder);
                i = endHolder[0];
                out.add(new Token(Token.Kind.NSTRING, sql.substring(start, i), v, start, i));
            } else if (c == '0' && i + 1 < n && (sql.charAt(i + 1) == 'x' || sql.charAt(i + 1) == 'X')) {
                int start = i;
                i += 2;
                while (i < n && Character.digit(sql.charAt(i), 16) >= 0) {
                    i++;
                }
                String t = sql.substring(start, i);
                out.add(new Token(Token.Kind.BINARY, t, t.substring(2), start, i));
            } else if (Character.isDigit(c) || (c == '.' && i + 1 < n && Character.isDigit(sql.charAt(i + 1)))) {
                int start = i;
                while (i < n && (Character.isDigit(sql.charAt(i)) || sql.charAt(i) == '.')) {
                    i++;
                }
                if (i < n && (sql.charAt(i) == 'e' || sql.charAt(i) == 'E')) {
                    int j = i + 1;
                    if (j < n && (sql.charAt(j) == '+' || sql.charAt(j) == '-')) {
                        j++;
                    }
                    if (j < n && Character.isDigit(sql.charAt(j))) {
                        i = j;
                        while (i < n && Character.isDigit(sql.charAt(i))) {
                            i++;
                        }
                    }
                }
                String t = sql.substring(start, i);
                out.add(new Token(Token.Kind.NUMBER, t, t, start, i));
            } else if (c == '@') {
                int start = i;
                i++;
                if (i < n && sql.charAt(i) == '@') {
                    i++;
                }
                while (i < n && isWordChar(sql.charAt(i))) {
                    i++;
                }
                String t = sql.substring(start, i);
                out.add(new Token(Token.Kind.VARIABLE, t, t, start, i));
            } else if (isWordStart(c)) {
                int start = i;
                while (i < n && isWordChar(sql.charAt(i))) {
                    i++;
                }
                String t = sql.substring(start, i);
                out.add(new Token(Token.Kind.WORD, t, t, start, i));
            } else {
                int start = i;
                String two = i + 1 < n ? sql.substring(i, i + 2) : "";
                if (two.equals("<=") || two.equals(">=") || two.equals("<>") || two.equals("!=")
                        || two.equals("::") || two.equals("+=") || two.equals("-=") || two.equals("||")) {
                    i += 2;
                } else {
                    i++;
                }
                String t = sql.substring(start, i);
                out.add(new Token(Token.Kind.SYMBOL, t, t, start, i));
            }
        }
        return out;
    }

    private static String quoted(String sql, int openAt, char q, int[] endOut) throws SqlServerError {
        StringBuilder v = new StringBuilder();
        int i = openAt + 1;
        int n = sql.length();
        while (true) {
            if (i >= n) {
                throw ErrorCatalog.UNCLOSED_QUOTATION.error(
                        "Unclosed quotation mark after the character string '" + v + "'.");
            }
            char d = sql.charAt(i);
            if (d == q) {
                if (i + 1 < n && sql.charAt(i + 1) == q) {
                    v.append(q);
                    i += 2;
                    continue;
                }
                endOut[0] = i + 1;
                return v.toString();
            }
            v.append(d);
            i++;
        }
    }

    private static boolean isWordStart(char c) {
        return Character.isLetter(c) || c == '_' || c == '#';
    }

    private static boolean isWordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '#' || c == '$';
    }
}
