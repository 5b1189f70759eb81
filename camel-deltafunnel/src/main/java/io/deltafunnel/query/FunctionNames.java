package io.deltafunnel.query;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Set;
import java.util.StringJoiner;

/**
 * What {@link ShardSafety} needs of a DuckDB instance's function catalog, in lower case: the names of aggregate
 * functions, and the names of functions that are not built in (macros and functions created by {@code initSql}).
 * Immutable.
 *
 * <p>{@code duckdb_functions()} builds a row for each of the instance's ~3,000 function overloads, with their
 * parameter lists and descriptions, whatever the query selects: about 13 ms of CPU per scan. {@link #read} scans it
 * once for both sets; {@link Cache} keeps them for one long-lived instance.
 *
 * @param aggregates  aggregate functions
 * @param userDefined functions that are not internal (built in)
 */
record FunctionNames(Set<String> aggregates, Set<String> userDefined) {

    /** No names: what {@link ShardSafety} uses for a query that calls no function (it looks none up). */
    static final FunctionNames NONE = new FunctionNames(Set.of(), Set.of());

    FunctionNames {
        aggregates = Set.copyOf(aggregates);
        userDefined = Set.copyOf(userDefined);
    }

    /** Reads both sets from the instance of {@code duckdb} (a caller-owned connection; nothing is left on it). */
    static FunctionNames read(Connection duckdb) throws SQLException {
        Set<String> aggregates = new HashSet<>();
        Set<String> userDefined = new HashSet<>();
        try (Statement st = duckdb.createStatement();
             ResultSet rs = st.executeQuery("SELECT DISTINCT lower(function_name), function_type = 'aggregate',"
                     + " NOT internal FROM duckdb_functions() WHERE function_type = 'aggregate' OR NOT internal")) {
            while (rs.next()) {
                if (rs.getBoolean(2)) {
                    aggregates.add(rs.getString(1));
                }
                if (rs.getBoolean(3)) {
                    userDefined.add(rs.getString(1));
                }
            }
        }
        return new FunctionNames(aggregates, userDefined);
    }

    /**
     * The loaded extensions of the instance of {@code duckdb}, in name order, as one string: what can add functions to
     * a running instance (an extension loaded by a query, e.g. by autoloading) changes it.
     */
    static String loadedExtensions(Connection duckdb) throws SQLException {
        StringJoiner names = new StringJoiner(",");
        try (Statement st = duckdb.createStatement();
             ResultSet rs = st.executeQuery("SELECT extension_name FROM duckdb_extensions() WHERE loaded"
                     + " ORDER BY extension_name")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        return names.toString();
    }

    /**
     * The names of one long-lived DuckDB instance, read again only when its loaded extensions have changed. Its
     * catalog is otherwise fixed: {@code initSql} (which may create macros) runs once, before the instance hands out
     * connections, and runs register only {@code TEMP} views and tables ({@link DuckDbInstances}). Thread-safe; owned
     * by the registry entry of its instance.
     */
    static final class Cache {
        private String extensions;
        private FunctionNames names;

        /** The names of the instance of {@code duckdb} (a connection of this cache's instance, caller-owned). */
        synchronized FunctionNames names(Connection duckdb) throws SQLException {
            return names(duckdb, loadedExtensions(duckdb));
        }

        /** {@link #names(Connection)} with the instance's {@link #loadedExtensions} already read. */
        synchronized FunctionNames names(Connection duckdb, String loadedExtensions) throws SQLException {
            if (names == null || !loadedExtensions.equals(extensions)) {
                names = read(duckdb);
                extensions = loadedExtensions;
            }
            return names;
        }
    }
}
