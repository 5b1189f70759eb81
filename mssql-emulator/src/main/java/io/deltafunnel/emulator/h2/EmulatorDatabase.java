package io.deltafunnel.emulator.h2;

import io.deltafunnel.emulator.semantics.Catalog;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * The in-memory H2 database behind one emulator instance (unique name, MSSQLServer mode, case-insensitive
 * identifiers). A keeper connection holds it open; {@link #close()} shuts it down.
 */
public final class EmulatorDatabase implements AutoCloseable {
    /** H2's system property of its value cache ({@link #OBJECT_CACHE_OFF}). */
    static final String OBJECT_CACHE = "h2.objectCache";

    /**
     * Whether this class set {@value #OBJECT_CACHE} to false, which turns H2's value cache off: H2 interns each string
     * and small value it creates in a shared cache (a hash, a lookup and an equality check per value), which costs the
     * bulk loads' storing about a tenth of the connection thread's CPU (README's sample table into the embedded
     * endpoint, profiled) and saves nothing on values that are all different. H2 reads the property once, when it
     * first loads its settings, so it is set here, before this class opens H2; not when the JVM was started with it
     * (then that value holds). Had H2 already loaded its settings in this JVM, the cache stays as it was. Values and
     * results are the same either way.
     */
    static final boolean OBJECT_CACHE_OFF;

    static {
        boolean off = false;
        if (System.getProperty(OBJECT_CACHE) == null) {
            System.setProperty(OBJECT_CACHE, "false");
            off = true;
        }
        OBJECT_CACHE_OFF = off;
    }

    /** Words H2 reserves that are ordinary identifiers in T-SQL. */
    private static final String NON_KEYWORDS = "VALUE,KEY,YEAR,MONTH,DAY,HOUR,MINUTE,SECOND,USER";

    private final String name;
    private final String url;
    private final Connection keeper;
    private final Object ddlLock = new Object();
    private Connection ddlConnection;

    public EmulatorDatabase(Catalog catalog) throws SQLException {
        this.name = "mssqlemu_" + UUID.randomUUID().toString().replace("-", "");
        this.url = "jdbc:h2:mem:" + name + ";MODE=MSSQLServer;DB_CLOSE_DELAY=-1;CASE_INSENSITIVE_IDENTIFIERS=TRUE"
                + ";IGNORECASE=TRUE"
                + ";DEFAULT_LOCK_TIMEOUT=10000;NON_KEYWORDS=" + NON_KEYWORDS;
        this.keeper = DriverManager.getConnection(url, "sa", "");
        CatalogFunctions.register(h2Name(), catalog);
        try (Statement st = keeper.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS \"dbo\"");
            for (String[] alias : CatalogFunctions.ALIASES) {
                st.execute("CREATE ALIAS PUBLIC." + alias[0] + " FOR \"" + CatalogFunctions.class.getName() + "."
                        + alias[1] + "\"");
            }
        }
    }

    /** The H2 database name as H2 reports it from Connection.getCatalog(). */
    String h2Name() {
        return name.toUpperCase(java.util.Locale.ROOT);
    }

    /** A new session connection: default schema dbo, manual commit. */
    public Connection openSession() throws SQLException {
        Connection c = DriverManager.getConnection(url, "sa", "");
        try (Statement st = c.createStatement()) {
            st.execute("SET SCHEMA \"dbo\"");
        }
        c.setAutoCommit(false);
        return c;
    }

    /** Runs DDL on a dedicated auto-commit connection (used for DDL inside a user transaction). */
    public void runDdl(String sql) throws SQLException {
        synchronized (ddlLock) {
            if (ddlConnection == null) {
                ddlConnection = DriverManager.getConnection(url, "sa", "");
            }
            try (Statement st = ddlConnection.createStatement()) {
                st.execute(sql);
            }
        }
    }

    @Override
    public void close() throws SQLException {
        CatalogFunctions.unregister(h2Name());
        synchronized (ddlLock) {
            if (ddlConnection != null) {
                ddlConnection.close();
            }
        }
        try (Statement st = keeper.createStatement()) {
            st.execute("SHUTDOWN");
        } finally {
            keeper.close();
        }
    }
}
