package io.deltafunnel.emulator.fidelity;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Switches a running server's database to READ_COMMITTED_SNAPSHOT ON the way an operator does, for test classes that
 * run another class's scenarios in that mode (a subclass whose {@code @BeforeAll} calls {@link #switchOn}).
 */
public final class ReadCommittedSnapshotMode {
    private ReadCommittedSnapshotMode() {
    }

    /**
     * Runs {@code ALTER DATABASE CURRENT SET READ_COMMITTED_SNAPSHOT ON WITH ROLLBACK IMMEDIATE} in
     * {@value SqlServerContainer#RCSI_DATABASE} of {@code server} (the emulator has one database under any name;
     * SQL Server refuses the option in master) and checks {@code sys.databases}. Other sessions are ended.
     *
     * @return the server with its connections opening that database
     */
    public static ServerUnderTest switchOn(ServerUnderTest server) throws SQLException {
        NamedDatabase db = new NamedDatabase(server, SqlServerContainer.RCSI_DATABASE);
        try (Connection c = db.connect(); Statement st = c.createStatement()) {
            st.execute("ALTER DATABASE CURRENT SET READ_COMMITTED_SNAPSHOT ON WITH ROLLBACK IMMEDIATE");
            try (ResultSet rs = st.executeQuery("SELECT [is_read_committed_snapshot_on] FROM sys.databases"
                    + " WHERE [name] = DB_NAME()")) {
                if (!rs.next() || !rs.getBoolean(1)) {
                    throw new IllegalStateException("READ_COMMITTED_SNAPSHOT is not on after ALTER DATABASE on "
                            + server.kind());
                }
            }
        }
        return db;
    }
}
