package io.deltafunnel.query;

import java.util.List;
import java.util.Objects;

/**
 * How to open a DuckDB connection for one run (and for a plan's pins and a shard-safety check).
 *
 * @param database                  DuckDB database file, or {@code null}/empty for a private in-memory database
 * @param initSql                   statements run in order on each new connection (for example {@code SET memory_limit='2GB'})
 * @param allowExtensionAutoInstall when false (the default), DuckDB never downloads or auto-loads extensions,
 *                                  so a missing extension fails at once with a clear catalog error
 * @param shared                    where an in-memory database's connections come from: one long-lived instance per
 *                                  init SQL ({@link DuckDbInstances}, its init SQL run once when it starts); null: a
 *                                  new instance per connection, its init SQL run on each
 */
public record DuckDbSettings(String database, List<String> initSql, boolean allowExtensionAutoInstall,
        DuckDbInstances shared) {

    public DuckDbSettings {
        initSql = List.copyOf(Objects.requireNonNullElse(initSql, List.of()));
        if (shared != null && !(database == null || database.isBlank())) {
            throw new IllegalArgumentException("only in-memory DuckDB instances are shared; database " + database
                    + " is opened per connection");
        }
    }

    /** A new instance per connection (not shared). */
    public DuckDbSettings(String database, List<String> initSql, boolean allowExtensionAutoInstall) {
        this(database, initSql, allowExtensionAutoInstall, null);
    }

    /** These settings with their in-memory connections taken from {@code instances}. */
    public DuckDbSettings sharedBy(DuckDbInstances instances) {
        return new DuckDbSettings(database, initSql, allowExtensionAutoInstall, instances);
    }

    /** Whether this is a private in-memory database (no database file). */
    public boolean inMemoryDatabase() {
        return database == null || database.isBlank();
    }

    /** An in-memory database, no init SQL, extension auto-install off. */
    public static DuckDbSettings inMemory() {
        return new DuckDbSettings(null, List.of(), false);
    }

    /** The JDBC URL for {@link #database()}. */
    public String jdbcUrl() {
        return inMemoryDatabase() ? "jdbc:duckdb:" : "jdbc:duckdb:" + database;
    }
}
