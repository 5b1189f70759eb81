package io.deltafunnel.query;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Recognises the one query shape whose result is exactly the rows of a registered view: {@code SELECT * FROM <view>}
 * (any case, the name optionally double-quoted, an optional trailing {@code ;}). Anything else (a column list, a
 * filter, a join, a comment) is not recognised, so that a row count derived from the view is never claimed for a
 * query that may deliver other rows. No Camel here.
 */
public final class WholeViewQuery {

    private static final Pattern SELECT_ALL =
            Pattern.compile("(?is)\\s*select\\s+\\*\\s+from\\s+(\"?)([A-Za-z_][A-Za-z0-9_]*)\\1\\s*;?\\s*");

    private WholeViewQuery() {
    }

    /**
     * The view {@code sql} reads whole, lower-cased (DuckDB resolves names case-insensitively); null when the query
     * has another shape, or is null.
     */
    public static String view(String sql) {
        if (sql == null) {
            return null;
        }
        Matcher m = SELECT_ALL.matcher(sql);
        return m.matches() ? m.group(2).toLowerCase(Locale.ROOT) : null;
    }

    /** Whether {@code sql} is {@code SELECT * FROM view} (names compared case-insensitively). */
    public static boolean readsWhole(String sql, String view) {
        String read = view(sql);
        return read != null && view != null && read.equals(view.toLowerCase(Locale.ROOT));
    }
}
