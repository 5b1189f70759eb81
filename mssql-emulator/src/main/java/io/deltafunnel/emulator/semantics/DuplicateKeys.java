package io.deltafunnel.emulator.semantics;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns H2's duplicate-key message into SQL Server's: 2627 {@code Violation of PRIMARY KEY|UNIQUE KEY constraint
 * 'name'. Cannot insert duplicate key in object 'schema.table'. The duplicate key value is (v1, v2).} for a primary
 * key or unique constraint, 2601 {@code Cannot insert duplicate key row in object 'schema.table' with unique index
 * 'name'. The duplicate key value is (...).} for a unique index. The key is identified by H2's index name and
 * column list, matched against the catalog's {@link Constraints.Key}s.
 */
public final class DuplicateKeys {
    private static final Pattern INDEX_SUFFIX = Pattern.compile("_INDEX_[0-9A-Z]+$");

    private DuplicateKeys() {
    }

    /** {@code h2} is the quoted part of H2's message; null when it cannot be matched to a known key. */
    public static SqlServerError error(String h2, TableDef table, Catalog catalog) {
        int on = h2.indexOf(" ON ");
        if (on < 0) {
            return null;
        }
        String index = h2.substring(0, on).trim();
        int open = h2.indexOf('(', on);
        int close = open < 0 ? -1 : matching(h2, open);
        if (close < 0) {
            return null;
        }
        List<String> cols = new ArrayList<>();
        for (String c : split(h2.substring(open + 1, close))) {
            String x = c.trim().replaceAll("(?i) NULLS (FIRST|LAST)$", "").replaceAll("(?i) (ASC|DESC)$", "").trim();
            cols.add(unquoteName(x));
        }
        Constraints.Key key = find(index, cols, catalog.keys(table.objectId()));
        if (key == null) {
            return null;
        }
        String rest = h2.substring(close + 1).trim();
        if (rest.toUpperCase(Locale.ROOT).startsWith("VALUES")) {
            rest = rest.substring(6).trim();
        }
        List<String> values = new ArrayList<>();
        if (rest.startsWith("(")) {
            int end = matching(rest, 0);
            String inner = rest.substring(1, end < 0 ? rest.length() : end).replaceAll("/\\*.*?\\*/", "");
            for (String v : split(inner)) {
                values.add(literal(v.trim()));
            }
        }
        List<String> shown;
        if (values.size() == key.columns.size()) {
            shown = values;
        } else if (values.size() == table.columns().size()) {
            shown = new ArrayList<>();
            for (String c : key.columns) {
                int k = table.indexOf(c);
                shown.add(k < 0 ? "?" : values.get(k));
            }
        } else {
            shown = values.subList(0, Math.min(values.size(), key.columns.size()));
        }
        String object = table.schema() + "." + table.name();
        String dup = "The duplicate key value is (" + String.join(", ", shown) + ").";
        switch (key.kind) {
            case PRIMARY_KEY:
                return ErrorCatalog.DUPLICATE_KEY.error("Violation of PRIMARY KEY constraint '" + key.name
                        + "'. Cannot insert duplicate key in object '" + object + "'. " + dup);
            case UNIQUE_CONSTRAINT:
                return ErrorCatalog.DUPLICATE_KEY.error("Violation of UNIQUE KEY constraint '" + key.name
                        + "'. Cannot insert duplicate key in object '" + object + "'. " + dup);
            default:
                return ErrorCatalog.DUPLICATE_KEY_ROW.error("Cannot insert duplicate key row in object '" + object
                        + "' with unique index '" + key.name + "'. " + dup);
        }
    }

    private static Constraints.Key find(String index, List<String> cols, List<Constraints.Key> keys) {
        if (index.toUpperCase(Locale.ROOT).startsWith("PRIMARY KEY")) {
            for (Constraints.Key k : keys) {
                if (k.kind == Constraints.KeyKind.PRIMARY_KEY) {
                    return k;
                }
            }
        }
        // H2 names: schema."table.index" for CREATE INDEX, schema.CONSTRAINT_INDEX_n for constraints
        String name = index;
        int dot = lastDotOutsideQuotes(name);
        if (dot >= 0) {
            name = name.substring(dot + 1);
        }
        name = unquoteName(name);
        String constraintName = INDEX_SUFFIX.matcher(name).replaceAll("");
        int tableDot = name.indexOf('.');
        String indexName = tableDot >= 0 ? name.substring(tableDot + 1) : name;
        for (Constraints.Key k : keys) {
            if (k.kind == Constraints.KeyKind.UNIQUE_INDEX ? k.name.equalsIgnoreCase(indexName)
                    : k.name.equalsIgnoreCase(constraintName)) {
                return k;
            }
        }
        for (Constraints.Key k : keys) {
            if (k.columns.size() == cols.size() && k.columns.stream().allMatch(c -> cols.stream()
                    .anyMatch(x -> x.equalsIgnoreCase(c)))) {
                return k;
            }
        }
        return null;
    }

    private static int lastDotOutsideQuotes(String s) {
        boolean q = false;
        int last = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                q = !q;
            } else if (c == '.' && !q) {
                last = i;
            }
        }
        return last;
    }

    private static String unquoteName(String s) {
        String x = s.trim();
        if (x.length() >= 2 && x.startsWith("\"") && x.endsWith("\"")) {
            return x.substring(1, x.length() - 1).replace("\"\"", "\"");
        }
        return x;
    }

    private static final Pattern CAST = Pattern.compile("(?is)^CAST\\((.*) AS [^()']*(\\([^()]*\\))?\\)$");
    private static final Pattern TYPED = Pattern.compile("(?is)^[A-Z ]+ ('(?:[^']|'')*')$");

    /** One H2 value literal as SQL Server prints it in the duplicate key value list. */
    static String literal(String v) {
        String x = v.trim();
        Matcher m = CAST.matcher(x);
        while (m.matches()) {
            x = m.group(1).trim();
            m = CAST.matcher(x);
        }
        Matcher t = TYPED.matcher(x);
        if (t.matches()) {
            x = t.group(1);
        }
        if (x.length() >= 2 && x.startsWith("'") && x.endsWith("'")) {
            return x.substring(1, x.length() - 1).replace("''", "'");
        }
        if (x.length() >= 3 && (x.startsWith("X'") || x.startsWith("x'")) && x.endsWith("'")) {
            return "0x" + x.substring(2, x.length() - 1).toUpperCase(Locale.ROOT);
        }
        return x.equalsIgnoreCase("NULL") ? "<NULL>" : x;
    }

    private static int matching(String s, int open) {
        int d = 0;
        boolean q = false;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\'') {
                q = !q;
            } else if (!q && c == '(') {
                d++;
            } else if (!q && c == ')' && --d == 0) {
                return i;
            }
        }
        return -1;
    }

    /** Splits on top-level commas outside quotes and parentheses. */
    private static List<String> split(String s) {
        List<String> out = new ArrayList<>();
        int d = 0;
        boolean q = false;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\'') {
                q = !q;
            } else if (!q && c == '(') {
                d++;
            } else if (!q && c == ')') {
                d--;
            } else if (!q && d == 0 && c == ',') {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        if (start < s.length() && !s.substring(start).isBlank()) {
            out.add(s.substring(start));
        }
        return out;
    }
}
