package io.deltafunnel.delta;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A DuckDB type as printed by {@code DESCRIBE} (for example {@code STRUCT("value" BLOB, a INTEGER[])}), parsed into
 * a tree so that the physical type of a Parquet column can be compared with the Delta type it must be shown as.
 *
 * @param name     upper-case base name: {@code STRUCT}, {@code LIST}, {@code MAP}, {@code DECIMAL}, {@code BIGINT}...
 * @param args     arguments of a parameterised base type ({@code DECIMAL(10,2)} gives {@code [10, 2]})
 * @param fields   the fields of a {@code STRUCT} (or {@code UNION}) in order
 * @param element  the element of a {@code LIST} (also fixed-size arrays)
 * @param key      the key of a {@code MAP}
 * @param value    the value of a {@code MAP}
 */
record DuckType(String name, List<String> args, Map<String, DuckType> fields, DuckType element, DuckType key,
        DuckType value) {

    static DuckType parse(String text) {
        Parser p = new Parser(text);
        DuckType t = p.type();
        p.skipSpaces();
        if (p.pos != text.length()) {
            throw new IllegalArgumentException("cannot parse DuckDB type '" + text + "' at " + p.pos);
        }
        return t;
    }

    boolean is(String baseName) {
        return name.equals(baseName);
    }

    /** The text DuckDB would print, good enough for a CAST target and for equality checks. */
    String render() {
        switch (name) {
            case "LIST":
                return element.render() + "[]";
            case "MAP":
                return "MAP(" + key.render() + ", " + value.render() + ")";
            case "STRUCT":
            case "UNION": {
                StringBuilder sb = new StringBuilder(name).append('(');
                boolean first = true;
                for (Map.Entry<String, DuckType> e : fields.entrySet()) {
                    if (!first) {
                        sb.append(", ");
                    }
                    first = false;
                    sb.append(SqlText.ident(e.getKey())).append(' ').append(e.getValue().render());
                }
                return sb.append(')').toString();
            }
            default:
                return args.isEmpty() ? name : name + "(" + String.join(",", args) + ")";
        }
    }

    private static final class Parser {
        private final String s;
        private int pos;

        Parser(String s) {
            this.s = s;
        }

        DuckType type() {
            skipSpaces();
            DuckType base;
            String word = words();
            String upper = word.toUpperCase(Locale.ROOT);
            if (upper.equals("STRUCT") || upper.equals("UNION")) {
                expect('(');
                Map<String, DuckType> fields = new LinkedHashMap<>();
                skipSpaces();
                if (peek() != ')') {
                    while (true) {
                        skipSpaces();
                        String fieldName = fieldName();
                        DuckType fieldType = type();
                        fields.put(fieldName, fieldType);
                        skipSpaces();
                        char c = s.charAt(pos++);
                        if (c == ')') {
                            break;
                        }
                        if (c != ',') {
                            throw new IllegalArgumentException("bad struct type '" + s + "' at " + pos);
                        }
                    }
                } else {
                    pos++;
                }
                base = new DuckType(upper, List.of(), fields, null, null, null);
            } else if (upper.equals("MAP")) {
                expect('(');
                DuckType k = type();
                skipSpaces();
                expect(',');
                DuckType v = type();
                skipSpaces();
                expect(')');
                base = new DuckType("MAP", List.of(), Map.of(), null, k, v);
            } else {
                List<String> args = new ArrayList<>();
                skipSpaces();
                if (pos < s.length() && s.charAt(pos) == '(') {
                    pos++;
                    int start = pos;
                    int depth = 1;
                    while (depth > 0) {
                        char c = s.charAt(pos++);
                        if (c == '(') {
                            depth++;
                        } else if (c == ')') {
                            depth--;
                        }
                    }
                    for (String a : s.substring(start, pos - 1).split(",")) {
                        args.add(a.trim());
                    }
                }
                base = new DuckType(upper, List.copyOf(args), Map.of(), null, null, null);
            }
            while (true) {
                skipSpaces();
                if (pos < s.length() && s.charAt(pos) == '[') {
                    int close = s.indexOf(']', pos);
                    pos = close + 1;
                    base = new DuckType("LIST", List.of(), Map.of(), base, null, null);
                } else {
                    return base;
                }
            }
        }

        String words() {
            skipSpaces();
            int start = pos;
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c == '(' || c == ')' || c == ',' || c == '[') {
                    break;
                }
                pos++;
            }
            return s.substring(start, pos).trim();
        }

        String fieldName() {
            if (peek() == '"') {
                StringBuilder sb = new StringBuilder();
                pos++;
                while (true) {
                    char c = s.charAt(pos++);
                    if (c == '"') {
                        if (pos < s.length() && s.charAt(pos) == '"') {
                            sb.append('"');
                            pos++;
                        } else {
                            return sb.toString();
                        }
                    } else {
                        sb.append(c);
                    }
                }
            }
            int start = pos;
            while (pos < s.length() && s.charAt(pos) != ' ') {
                pos++;
            }
            return s.substring(start, pos);
        }

        char peek() {
            return s.charAt(pos);
        }

        void expect(char c) {
            skipSpaces();
            if (pos >= s.length() || s.charAt(pos) != c) {
                throw new IllegalArgumentException("'" + c + "' expected in DuckDB type '" + s + "' at " + pos);
            }
            pos++;
        }

        void skipSpaces() {
            while (pos < s.length() && s.charAt(pos) == ' ') {
                pos++;
            }
        }
    }
}
