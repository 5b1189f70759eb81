package io.deltafunnel.emulator.fidelity;

import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import com.microsoft.sqlserver.jdbc.SQLServerBulkCopyOptions;
import io.deltafunnel.emulator.ListBulkData;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Identity columns: explicit values need SET IDENTITY_INSERT (544 otherwise, 8101 without a column list, 8107 for a
 * second table, 8106 for a table without identity), an identity column is never updated (8102), the identity moves
 * past explicit values. Bulk copy: mssql-jdbc leaves the identity column out unless keepIdentity is set (the server
 * numbers the rows); a bulk column list that names the identity column keeps the client's values (INSERT BULK has no
 * KEEPIDENTITY hint).
 */
abstract class IdentityScenarios extends Scenarios {

    private String t() {
        return "[dbo].[" + table + "]";
    }

    private void createIdentityTable() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int IDENTITY(1,1) NOT NULL PRIMARY KEY, [v] nvarchar(20) NULL)");
    }

    private List<List<Object>> contents() throws SQLException {
        return rows("SELECT [id], [v] FROM " + t() + " ORDER BY [id]");
    }

    @Test
    void explicitIdentityValueWithIdentityInsertOffIs544() throws SQLException {
        createIdentityTable();
        SQLException e = assertError(544, "INSERT INTO " + t() + " ([id], [v]) VALUES (5, N'x')");
        assertEquals("Cannot insert explicit value for identity column in table '" + table
                + "' when IDENTITY_INSERT is set to OFF.", e.getMessage());
        assertEquals(List.of(), contents());
    }

    @Test
    void identityInsertOnAllowsExplicitValuesAndTheIdentityMovesPastThem() throws SQLException {
        createIdentityTable();
        exec("INSERT INTO " + t() + " ([v]) VALUES (N'a')");
        exec("SET IDENTITY_INSERT " + t() + " ON");
        exec("INSERT INTO " + t() + " ([id], [v]) VALUES (10, N'b')");
        exec("SET IDENTITY_INSERT " + t() + " OFF");
        exec("INSERT INTO " + t() + " ([v]) VALUES (N'c')");
        assertEquals(List.of(List.of(1, "a"), List.of(10, "b"), List.of(11, "c")), contents());
        assertError(544, "INSERT INTO " + t() + " ([id], [v]) VALUES (20, N'd')");
    }

    @Test
    void insertWithoutColumnListSkipsTheIdentityAndWithIdentityInsertOnIs8101() throws SQLException {
        createIdentityTable();
        exec("INSERT INTO " + t() + " VALUES (N'a')");
        assertEquals(List.of(List.of(1, "a")), contents());
        exec("SET IDENTITY_INSERT " + t() + " ON");
        SQLException e = assertError(8101, "INSERT INTO " + t() + " VALUES (7, N'b')");
        assertTrue(e.getMessage().contains("can only be specified when a column list is used and IDENTITY_INSERT is"
                + " ON"), e.getMessage());
        exec("SET IDENTITY_INSERT " + t() + " OFF");
    }

    @Test
    void identityInsertIsOnForOneTableAtATime() throws SQLException {
        String other = table + "_2";
        createIdentityTable();
        dropIfExists(other);
        exec("CREATE TABLE [dbo].[" + other + "] ([id] int IDENTITY(1,1) NOT NULL, [v] int NULL)");
        exec("SET IDENTITY_INSERT " + t() + " ON");
        SQLException e = assertError(8107, "SET IDENTITY_INSERT [dbo].[" + other + "] ON");
        assertTrue(e.getMessage().startsWith("IDENTITY_INSERT is already ON for table '"), e.getMessage());
        assertTrue(e.getMessage().contains("Cannot perform SET operation for table '")
                && e.getMessage().contains(other), e.getMessage());
        exec("SET IDENTITY_INSERT " + t() + " OFF");
        exec("SET IDENTITY_INSERT [dbo].[" + other + "] ON");
        exec("SET IDENTITY_INSERT [dbo].[" + other + "] OFF");
        exec("DROP TABLE [dbo].[" + other + "]");
    }

    @Test
    void identityInsertOnATableWithoutIdentityIs8106() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL)");
        SQLException e = assertError(8106, "SET IDENTITY_INSERT " + t() + " ON");
        assertTrue(e.getMessage().contains("does not have the identity property"), e.getMessage());
    }

    @Test
    void updatingTheIdentityColumnIs8102() throws SQLException {
        createIdentityTable();
        exec("INSERT INTO " + t() + " ([v]) VALUES (N'a')");
        SQLException e = assertError(8102, "UPDATE " + t() + " SET [id] = 5 WHERE [v] = N'a'");
        assertEquals("Cannot update identity column 'id'.", e.getMessage());
    }

    // TRUNCATE TABLE is transactional in SQL Server and resets the identity to its seed, also inside a transaction;
    // a rollback brings back the rows and the identity's previous value.

    @Test
    void truncateInsideATransactionResetsTheIdentity() throws SQLException {
        createIdentityTable();
        exec("INSERT INTO " + t() + " ([v]) VALUES (N'a'), (N'b'), (N'c')");
        exec("BEGIN TRAN");
        exec("TRUNCATE TABLE " + t());
        exec("INSERT INTO " + t() + " ([v]) VALUES (N'd')");
        assertEquals(List.of(List.of(1, "d")), contents());
        exec("COMMIT");
        exec("INSERT INTO " + t() + " ([v]) VALUES (N'e')");
        assertEquals(List.of(List.of(1, "d"), List.of(2, "e")), contents());
    }

    @Test
    void aRolledBackTruncateRestoresTheRowsAndTheIdentity() throws SQLException {
        createIdentityTable();
        exec("INSERT INTO " + t() + " ([v]) VALUES (N'a'), (N'b'), (N'c')");
        exec("BEGIN TRAN");
        exec("TRUNCATE TABLE " + t());
        assertEquals(List.of(), contents());
        exec("ROLLBACK");
        exec("INSERT INTO " + t() + " ([v]) VALUES (N'd')");
        assertEquals(List.of(List.of(1, "a"), List.of(2, "b"), List.of(3, "c"), List.of(4, "d")), contents());
    }

    @Test
    void truncateInsideATransactionResetsTheIdentityToItsSeed() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int IDENTITY(100,10) NOT NULL PRIMARY KEY, [v] nvarchar(20) NULL)");
        exec("INSERT INTO " + t() + " ([v]) VALUES (N'a'), (N'b')");
        conn.setAutoCommit(false); // an implicit transaction, as mssql-jdbc opens it
        exec("TRUNCATE TABLE " + t());
        exec("INSERT INTO " + t() + " ([v]) VALUES (N'c'), (N'd')");
        conn.commit();
        conn.setAutoCommit(true);
        assertEquals(List.of(List.of(100, "c"), List.of(110, "d")), contents());
    }

    @Test
    void bulkCopyWithoutKeepIdentityLetsTheServerNumberTheRows() throws SQLException {
        createIdentityTable();
        exec("INSERT INTO " + t() + " ([v]) VALUES (N'first')");
        bulk(false, new ListBulkData().column("id", Types.INTEGER, 10, 0).column("v", Types.NVARCHAR, 20, 0)
                .row(100, "a").row(200, "b"));
        assertEquals(List.of(List.of(1, "first"), List.of(2, "a"), List.of(3, "b")), contents());
    }

    @Test
    void bulkCopyWithKeepIdentityKeepsTheValuesAndMovesTheIdentity() throws SQLException {
        createIdentityTable();
        bulk(true, new ListBulkData().column("id", Types.INTEGER, 10, 0).column("v", Types.NVARCHAR, 20, 0)
                .row(100, "a").row(200, "b"));
        exec("INSERT INTO " + t() + " ([v]) VALUES (N'c')");
        assertEquals(List.of(List.of(100, "a"), List.of(200, "b"), List.of(201, "c")), contents());
    }

    private void bulk(boolean keepIdentity, ListBulkData data) throws SQLException {
        try (SQLServerBulkCopy bc = new SQLServerBulkCopy(conn)) {
            bc.setDestinationTableName(t());
            SQLServerBulkCopyOptions o = new SQLServerBulkCopyOptions();
            o.setKeepIdentity(keepIdentity);
            bc.setBulkCopyOptions(o);
            bc.writeToServer(data);
        }
    }
}
