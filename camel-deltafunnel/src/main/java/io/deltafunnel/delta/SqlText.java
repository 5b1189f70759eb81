package io.deltafunnel.delta;

import java.util.Collection;
import java.util.StringJoiner;

/** Quoting for generated DuckDB SQL: identifiers in double quotes, string literals in single quotes (doubled). */
final class SqlText {

    private SqlText() {
    }

    static String ident(String name) {
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    static String literal(String value) {
        return '\'' + value.replace("'", "''") + '\'';
    }

    /** A DuckDB list literal of string literals: {@code ['a', 'b']}. */
    static String list(Collection<String> values) {
        StringJoiner joiner = new StringJoiner(", ", "[", "]");
        for (String v : values) {
            joiner.add(literal(v));
        }
        return joiner.toString();
    }
}
