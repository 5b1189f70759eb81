package io.deltafunnel.emulator.fidelity;

/**
 * A {@link ServerUnderTest} whose connections open {@code database} instead of the server's default one (the URL's
 * {@code databaseName} replaced). On SQL Server the database must exist (see
 * {@link SqlServerContainer#readCommittedSnapshotDatabase()}); the emulator has one database under any name. Used
 * where a scenario changes a database option, which SQL Server refuses on {@code master}.
 */
public final class NamedDatabase implements ServerUnderTest {
    private final ServerUnderTest server;
    private final String database;

    public NamedDatabase(ServerUnderTest server, String database) {
        this.server = server;
        this.database = database;
    }

    /** The database the connections open. */
    public String database() {
        return database;
    }

    @Override
    public String jdbcUrl() {
        String url = server.jdbcUrl().replaceAll("(?i);databaseName=[^;]*", "");
        return url + ";databaseName=" + database;
    }

    @Override
    public String host() {
        return server.host();
    }

    @Override
    public int port() {
        return server.port();
    }

    @Override
    public String user() {
        return server.user();
    }

    @Override
    public String password() {
        return server.password();
    }

    @Override
    public String kind() {
        return server.kind();
    }
}
