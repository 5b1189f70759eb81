package io.deltafunnel.emulator.fidelity;

import java.sql.SQLException;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code ALTER TABLE ... ADD [CONSTRAINT n] PRIMARY KEY | UNIQUE [CLUSTERED | NONCLUSTERED] (...)} on a table with
 * rows, as a replace by switch gives its loaded staging heap the target's keys (issue 26): the default clustering
 * (a PRIMARY KEY clustered unless a clustered index exists, a UNIQUE constraint nonclustered), the catalog rows
 * ({@code sys.indexes}), the key enforced afterwards (2627), and the refusals: 1505 for duplicate rows, 8111 for a
 * nullable key column, 1779 for a second primary key, 1902 for a second clustered index. Then a staging heap given
 * the target's primary key this way switches into it.
 */
abstract class KeyConstraintScenarios extends Scenarios {

    private String t() {
        return "[dbo].[" + table + "]";
    }

    @BeforeEach
    void createTable() throws SQLException {
        dropIfExists(table + "_s");
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([id] int NOT NULL, [v] nvarchar(10) NULL, [n] int NULL)");
        exec("INSERT INTO " + t() + " ([id], [v], [n]) VALUES (1, N'a', 1), (2, N'b', 1), (3, NULL, 2)");
    }

    @AfterEach
    void dropTables() throws SQLException {
        dropIfExists(table + "_s");
        dropIfExists(table);
    }

    private List<List<Object>> indexes() throws SQLException {
        return rows("SELECT [name], CAST([type] AS int), CAST([is_unique] AS int), CAST([is_primary_key] AS int),"
                + " CAST([is_unique_constraint] AS int) FROM sys.indexes WHERE [object_id] = OBJECT_ID('dbo." + table
                + "') AND [type] > 0 ORDER BY [index_id]");
    }

    @Test
    void addPrimaryKeyIsClusteredByDefaultAndEnforced() throws SQLException {
        exec("ALTER TABLE " + t() + " ADD CONSTRAINT [pk_" + table + "] PRIMARY KEY ([id])");
        assertEquals(List.of(List.of("pk_" + table, 1, 1, 1, 0)), indexes());
        SQLException e = assertError(2627, "INSERT INTO " + t() + " ([id]) VALUES (2)");
        assertEquals("Violation of PRIMARY KEY constraint 'pk_" + table + "'. Cannot insert duplicate key in object"
                + " 'dbo." + table + "'. The duplicate key value is (2).", e.getMessage());
    }

    @Test
    void addUniqueIsNonclusteredByDefaultAndClusteredWhenWritten() throws SQLException {
        exec("ALTER TABLE " + t() + " ADD CONSTRAINT [uq_" + table + "_v] UNIQUE ([v])");
        exec("ALTER TABLE " + t() + " ADD CONSTRAINT [uq_" + table + "_idn] UNIQUE CLUSTERED ([id], [n])");
        assertEquals(List.of(List.of("uq_" + table + "_idn", 1, 1, 0, 1), List.of("uq_" + table + "_v", 2, 1, 0, 1)),
                indexes());
        assertError(2627, "INSERT INTO " + t() + " ([id], [v]) VALUES (9, N'a')");
    }

    @Test
    void aPrimaryKeyAfterAClusteredIndexIsNonclusteredAndAClusteredOneIs1902() throws SQLException {
        exec("CREATE CLUSTERED INDEX [cx_" + table + "] ON " + t() + " ([n])");
        assertError(1902, "ALTER TABLE " + t() + " ADD CONSTRAINT [pk_" + table + "] PRIMARY KEY CLUSTERED ([id])");
        exec("ALTER TABLE " + t() + " ADD CONSTRAINT [pk_" + table + "] PRIMARY KEY ([id])");
        assertEquals(List.of(List.of("cx_" + table, 1, 0, 0, 0), List.of("pk_" + table, 2, 1, 1, 0)), indexes());
    }

    @Test
    void duplicateRowsAre1505AndNothingChanges() throws SQLException {
        SQLException e = assertError(1505, "ALTER TABLE " + t() + " ADD CONSTRAINT [uq_" + table + "] UNIQUE ([n])");
        assertEquals("The CREATE UNIQUE INDEX statement terminated because a duplicate key was found for the object"
                + " name 'dbo." + table + "' and the index name 'uq_" + table + "'. The duplicate key value is (1).",
                e.getMessage());
        assertEquals(List.of(), indexes());
        exec("INSERT INTO " + t() + " ([id], [n]) VALUES (4, 1)");
    }

    @Test
    void aNullablePrimaryKeyColumnIs8111() throws SQLException {
        SQLException e = assertError(8111, "ALTER TABLE " + t() + " ADD CONSTRAINT [pk_" + table + "] PRIMARY KEY ([v])");
        assertEquals("Cannot define PRIMARY KEY constraint on nullable column in table '" + table + "'.",
                e.getMessage());
        assertEquals(List.of(), indexes());
    }

    @Test
    void aSecondPrimaryKeyIs1779() throws SQLException {
        exec("ALTER TABLE " + t() + " ADD CONSTRAINT [pk_" + table + "] PRIMARY KEY NONCLUSTERED ([id])");
        SQLException e = assertError(1779, "ALTER TABLE " + t() + " ADD CONSTRAINT [pk2_" + table
                + "] PRIMARY KEY ([id], [n])");
        assertEquals("Table '" + table + "' already has a primary key defined on it.", e.getMessage());
    }

    @Test
    void aStagingHeapGivenThePrimaryKeySwitchesIntoTheTarget() throws SQLException {
        String s = "[dbo].[" + table + "_s]";
        exec("ALTER TABLE " + t() + " ADD CONSTRAINT [pk_" + table + "] PRIMARY KEY CLUSTERED ([id])");
        exec("DELETE FROM " + t());
        exec("SELECT TOP 0 * INTO " + s + " FROM " + t());
        exec("INSERT INTO " + s + " ([id], [v], [n]) VALUES (7, N'x', 0), (8, N'y', 0)");
        exec("ALTER TABLE " + s + " ADD CONSTRAINT [pk_" + table + "_s] PRIMARY KEY CLUSTERED ([id])");
        exec("ALTER TABLE " + s + " SWITCH TO " + t());
        assertEquals(List.of(List.of(7, "x"), List.of(8, "y")), rows("SELECT [id], [v] FROM " + t() + " ORDER BY [id]"));
        assertEquals(0, ((Number) scalar("SELECT COUNT(*) FROM " + s)).intValue());
        assertError(2627, "INSERT INTO " + t() + " ([id]) VALUES (7)");
    }
}
