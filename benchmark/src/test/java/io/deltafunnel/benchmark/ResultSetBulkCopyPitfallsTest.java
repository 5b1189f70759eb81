package io.deltafunnel.benchmark;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.Properties;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import com.microsoft.sqlserver.jdbc.SQLServerException;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two defects of {@code SQLServerBulkCopy.writeToServer(ResultSet)} over a DuckDB JDBC ResultSet (mssql-jdbc
 * 13.6.2, duckdb_jdbc 2.0.0.1), reproduced against the emulator (storing mode), and the metadata wrapper the
 * benchmark's ResultSet path uses ({@link DuckDbResultSets#forBulkCopy}).
 */
class ResultSetBulkCopyPitfallsTest {

    private static final String QUERY = "SELECT CAST(1 AS INTEGER) AS id, 'abc' AS name,"
            + " TIMESTAMP '2024-01-02 03:04:05.123456' AS ts";
    private static final LocalDateTime TS = LocalDateTime.of(2024, 1, 2, 3, 4, 5, 123_456_000);

    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(b -> b.port(0).password("Pitfall!Passw0rd"));

    @BeforeEach
    void createTable() throws SQLException {
        try (Connection c = sqlServer(); Statement st = c.createStatement()) {
            st.execute("IF OBJECT_ID('dbo.pitfall') IS NOT NULL DROP TABLE [dbo].[pitfall]");
            st.execute("CREATE TABLE [dbo].[pitfall] ([id] int NOT NULL, [name] nvarchar(20) NOT NULL,"
                    + " [ts] datetime2(6) NOT NULL)");
        }
    }

    private static Connection sqlServer() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", SERVER.emulator().user());
        p.setProperty("password", SERVER.emulator().password());
        return DriverManager.getConnection(SERVER.emulator().jdbcUrl(), p);
    }

    /** Bulk-copies the DuckDB result of {@link #QUERY}, passed through {@code wrap}, into dbo.pitfall. */
    private static void copy(java.util.function.UnaryOperator<ResultSet> wrap) throws SQLException {
        try (Connection duck = DuckDbConnections.open(DuckDbSettings.inMemory());
                Statement st = duck.createStatement();
                ResultSet rs = st.executeQuery(QUERY);
                Connection sql = sqlServer();
                SQLServerBulkCopy copy = new SQLServerBulkCopy(sql)) {
            copy.setDestinationTableName("[dbo].[pitfall]");
            copy.writeToServer(wrap.apply(rs));
        }
    }

    private static LocalDateTime storedTimestamp() throws SQLException {
        try (Connection c = sqlServer(); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT [ts], [name] FROM [dbo].[pitfall]")) {
            assertTrue(rs.next(), "one row stored");
            assertEquals("abc", rs.getString(2));
            return rs.getObject(1, LocalDateTime.class);
        }
    }

    @Test
    void plainDuckDbResultSetFailsBecauseVarcharPrecisionIsIntegerMax() throws SQLException {
        try (Connection duck = DuckDbConnections.open(DuckDbSettings.inMemory());
                Statement st = duck.createStatement();
                ResultSet rs = st.executeQuery(QUERY)) {
            assertEquals(Integer.MAX_VALUE, rs.getMetaData().getPrecision(2), "DuckDB's VARCHAR precision");
            assertEquals(0, rs.getMetaData().getScale(3), "DuckDB's TIMESTAMP scale");
        }
        SQLServerException e = assertThrows(SQLServerException.class, () -> copy(rs -> rs));
        assertTrue(e.getMessage().contains("Unable to retrieve data from the source"), e.getMessage());
    }

    @Test
    void fixingOnlyVarcharPrecisionSilentlyDropsSubSecondDigits() throws SQLException {
        copy(DuckDbResultSets::varcharFixOnly);
        LocalDateTime stored = storedTimestamp();
        // No error, but the driver declared datetime2(0) from DuckDB's scale 0: .123456 is gone.
        assertNotEquals(TS, stored);
        assertEquals(TS.withNano(0), stored);
    }

    @Test
    void theBenchmarkWrapperKeepsEveryDigit() throws SQLException {
        copy(DuckDbResultSets::forBulkCopy);
        assertEquals(TS, storedTimestamp());
    }
}
