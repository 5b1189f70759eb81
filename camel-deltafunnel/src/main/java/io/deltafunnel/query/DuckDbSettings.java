package io.deltafunnel.query;

import java.util.List;
import java.util.Objects;

/**
 * How to open a DuckDB connection for one run.
 *
 * @param database                  DuckDB database file, or {@code null}/empty for a private in-memory database
 * @param initSql                   statements run in order on each new connection (for example {@code SET memory_limit='2GB'})
 * @param allowExtensionAutoInstall when false (the default), DuckDB never downloads or auto-loads extensions,
 *                                  so a missing extension fails at once with a clear catalog error
 */
public record DuckDbSettings(String database, List<String> initSql, boolean allowExtensionAutoInstall) {

    public DuckDbSettings {
        initSql = List.copyOf(Objects.requireNonNullElse(initSql, List.of()));
    }

    /** An in-memory database, no init SQL, extension auto-install off. */
    public static DuckDbSettings inMemory() {
        return new DuckDbSettings(null, List.of(), false);
    }

    /** The JDBC URL for {@link #database()}. */
    public String jdbcUrl() {
        return database == null || database.isBlank() ? "jdbc:duckdb:" : "jdbc:duckdb:" + database;
    }
}
