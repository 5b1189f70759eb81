package io.deltafunnel.emulator.fidelity;

import java.sql.SQLException;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Constraint errors as SQL Server raises them: 2627 for a PRIMARY KEY or UNIQUE constraint, 2601 for a unique
 * index (each naming the constraint or index and the duplicate key value), 547 for CHECK and FOREIGN KEY
 * conflicts, 4712 for TRUNCATE of a referenced table, 3726 for DROP of a referenced table, 8672 for a MERGE whose
 * source matches one target row twice.
 */
abstract class ConstraintScenarios extends Scenarios {

    private String t() {
        return "[dbo].[" + table + "]";
    }

    @Test
    void duplicatePrimaryKeyIs2627WithConstraintNameAndValue() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL CONSTRAINT [PK_" + table + "] PRIMARY KEY, [v] int NULL)");
        exec("INSERT INTO " + t() + " ([id], [v]) VALUES (1, 1)");
        SQLException e = assertError(2627, "INSERT INTO " + t() + " ([id], [v]) VALUES (1, 2)");
        assertEquals("Violation of PRIMARY KEY constraint 'PK_" + table + "'. Cannot insert duplicate key in object"
                + " 'dbo." + table + "'. The duplicate key value is (1).", e.getMessage());
    }

    @Test
    void duplicateInUniqueConstraintIs2627() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL, [code] varchar(10) NOT NULL, CONSTRAINT [UQ_" + table
                + "] UNIQUE ([code], [id]))");
        exec("INSERT INTO " + t() + " ([id], [code]) VALUES (1, 'ab')");
        SQLException e = assertError(2627, "INSERT INTO " + t() + " ([id], [code]) VALUES (1, 'ab')");
        assertEquals("Violation of UNIQUE KEY constraint 'UQ_" + table + "'. Cannot insert duplicate key in object"
                + " 'dbo." + table + "'. The duplicate key value is (ab, 1).", e.getMessage());
    }

    @Test
    void duplicateInUniqueIndexIs2601() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL, [v] int NULL)");
        exec("CREATE UNIQUE INDEX [ux_" + table + "] ON " + t() + " ([id])");
        exec("INSERT INTO " + t() + " ([id], [v]) VALUES (10, 1)");
        SQLException e = assertError(2601, "INSERT INTO " + t() + " ([id], [v]) VALUES (10, 2)");
        assertEquals("Cannot insert duplicate key row in object 'dbo." + table + "' with unique index 'ux_" + table
                + "'. The duplicate key value is (10).", e.getMessage());
    }

    @Test
    void checkConflictIs547NamingConstraintTableAndColumn() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL, [v] int NULL CONSTRAINT [CK_" + table + "] CHECK ([v] > 0))");
        SQLException e = assertError(547, "INSERT INTO " + t() + " ([id], [v]) VALUES (1, -1)");
        assertTrue(e.getMessage().startsWith("The INSERT statement conflicted with the CHECK constraint \"CK_" + table
                + "\". The conflict occurred in database \""), e.getMessage());
        assertTrue(e.getMessage().endsWith("\", table \"dbo." + table + "\", column 'v'."), e.getMessage());
        exec("INSERT INTO " + t() + " ([id], [v]) VALUES (1, 1)");
        e = assertError(547, "UPDATE " + t() + " SET [v] = -5 WHERE [id] = 1");
        assertTrue(e.getMessage().startsWith("The UPDATE statement conflicted with the CHECK constraint"), e.getMessage());
    }

    @Test
    void foreignKeyConflictsAre547AndTruncateOfReferencedTableIs4712() throws SQLException {
        String parent = table + "_p";
        dropIfExists(table);
        dropIfExists(parent);
        exec("CREATE TABLE [dbo].[" + parent + "] ([id] int NOT NULL PRIMARY KEY)");
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL, [pid] int NULL CONSTRAINT [FK_" + table + "] REFERENCES"
                + " [dbo].[" + parent + "] ([id]))");
        exec("INSERT INTO [dbo].[" + parent + "] ([id]) VALUES (1)");
        exec("INSERT INTO " + t() + " ([id], [pid]) VALUES (1, 1)");
        exec("INSERT INTO " + t() + " ([id], [pid]) VALUES (2, NULL)");
        SQLException e = assertError(547, "INSERT INTO " + t() + " ([id], [pid]) VALUES (3, 2)");
        assertTrue(e.getMessage().startsWith("The INSERT statement conflicted with the FOREIGN KEY constraint \"FK_"
                + table + "\"."), e.getMessage());
        assertTrue(e.getMessage().endsWith("table \"dbo." + parent + "\", column 'id'."), e.getMessage());
        e = assertError(547, "DELETE FROM [dbo].[" + parent + "] WHERE [id] = 1");
        assertTrue(e.getMessage().startsWith("The DELETE statement conflicted with the REFERENCE constraint \"FK_"
                + table + "\"."), e.getMessage());
        assertTrue(e.getMessage().endsWith("table \"dbo." + table + "\", column 'pid'."), e.getMessage());
        SQLException tr = assertError(4712, "TRUNCATE TABLE [dbo].[" + parent + "]");
        assertTrue(tr.getMessage().contains(parent), tr.getMessage());
        assertError(3726, "DROP TABLE [dbo].[" + parent + "]");
        assertEquals(1, ((Number) scalar("SELECT COUNT(*) FROM [dbo].[" + parent + "]")).intValue());
        // the child goes first, then the parent can go
        exec("DELETE FROM " + t());
        exec("DELETE FROM [dbo].[" + parent + "]");
        exec("DROP TABLE " + t());
        exec("DROP TABLE [dbo].[" + parent + "]");
    }

    @Test
    void foreignKeyAddedByAlterTableChecksExistingRows() throws SQLException {
        String parent = table + "_p";
        dropIfExists(table);
        dropIfExists(parent);
        exec("CREATE TABLE [dbo].[" + parent + "] ([a] int NOT NULL, [b] int NOT NULL, CONSTRAINT [PK_" + parent
                + "] PRIMARY KEY ([a], [b]))");
        exec("CREATE TABLE " + t() + " ([x] int NULL, [y] int NULL)");
        exec("INSERT INTO " + t() + " ([x], [y]) VALUES (1, 2)");
        assertError(547, "ALTER TABLE " + t() + " ADD CONSTRAINT [FK_" + table + "] FOREIGN KEY ([x], [y])"
                + " REFERENCES [dbo].[" + parent + "] ([a], [b])");
        exec("INSERT INTO [dbo].[" + parent + "] ([a], [b]) VALUES (1, 2)");
        exec("ALTER TABLE " + t() + " ADD CONSTRAINT [FK_" + table + "] FOREIGN KEY ([x], [y])"
                + " REFERENCES [dbo].[" + parent + "] ([a], [b])");
        assertError(547, "INSERT INTO " + t() + " ([x], [y]) VALUES (2, 2)");
        exec("INSERT INTO " + t() + " ([x], [y]) VALUES (2, NULL)");
        exec("DROP TABLE " + t());
        exec("DROP TABLE [dbo].[" + parent + "]");
    }

    @Test
    void mergeWithTwoSourceRowsForOneTargetRowIs8672() throws SQLException {
        String src = table + "_s";
        dropIfExists(table);
        dropIfExists(src);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL PRIMARY KEY, [v] int NULL)");
        exec("CREATE TABLE [dbo].[" + src + "] ([id] int NOT NULL, [v] int NULL)");
        exec("INSERT INTO " + t() + " ([id], [v]) VALUES (1, 0)");
        exec("INSERT INTO [dbo].[" + src + "] ([id], [v]) VALUES (1, 10), (1, 20), (2, 30)");
        SQLException e = assertError(8672, "MERGE INTO " + t() + " AS T USING [dbo].[" + src + "] AS S ON (T.[id] = S.[id])"
                + " WHEN MATCHED THEN UPDATE SET T.[v] = S.[v] WHEN NOT MATCHED THEN INSERT ([id], [v]) VALUES (S.[id], S.[v]);");
        assertTrue(e.getMessage().startsWith("The MERGE statement attempted to UPDATE or DELETE the same row more than"
                + " once."), e.getMessage());
        assertEquals(List.of(List.<Object>of(1, 0)), rows("SELECT [id], [v] FROM " + t()));
        exec("DROP TABLE [dbo].[" + src + "]");
    }
}
