package io.deltafunnel.emulator.fidelity;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The constraint catalog views a replace by switch reads to copy a target's constraints onto its staging table:
 * {@code sys.check_constraints} (definition in SQL Server's normalised form, parent_column_id 0 for a table-level
 * constraint), {@code sys.foreign_keys} and {@code sys.foreign_key_columns} (the referencing table is the "parent"),
 * and {@code sys.tables.temporal_type} (0, NON_TEMPORAL_TABLE, for an ordinary table).
 */
abstract class ConstraintCatalogScenarios extends Scenarios {

    private void dropAll() throws SQLException {
        dropIfExists(table + "_c");
        dropIfExists(table);
    }

    @BeforeEach
    void clean() throws SQLException {
        dropAll();
    }

    @AfterEach
    void cleanUp() throws SQLException {
        dropAll();
    }

    /** Rows of {@code sql} with its parameters, columns joined by "|". */
    private List<String> lines(String sql, String... params) throws SQLException {
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            for (int k = 0; k < params.length; k++) {
                ps.setString(k + 1, params[k]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    StringBuilder b = new StringBuilder();
                    for (int k = 1; k <= n; k++) {
                        b.append(k > 1 ? "|" : "").append(rs.getString(k));
                    }
                    out.add(b.toString());
                }
            }
        }
        return out;
    }

    @Test
    void checkConstraintsAreListedWithTheirNormalisedDefinitionAndColumn() throws SQLException {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [v] int NOT NULL CONSTRAINT [ck_" + table
                + "_v] CHECK (v > 0), [s] varchar(10) NULL, CONSTRAINT [ck_" + table + "_t] CHECK ([id] >= 0 AND"
                + " [v]<100), CONSTRAINT [ck_" + table + "_s] CHECK ([s] IS NOT NULL OR [id] = 0), CONSTRAINT [ck_" + table
                + "_n] CHECK ([v] > -5))");
        assertEquals(List.of(
                "ck_" + table + "_n|0|([v]>(-5))|0|0",
                "ck_" + table + "_s|0|([s] IS NOT NULL OR [id]=(0))|0|0",
                "ck_" + table + "_t|0|([id]>=(0) AND [v]<(100))|0|0",
                "ck_" + table + "_v|2|([v]>(0))|0|0"),
                lines("SELECT [name], [parent_column_id], [definition], CAST([is_disabled] AS int),"
                        + " CAST([is_not_trusted] AS int) FROM sys.check_constraints"
                        + " WHERE [parent_object_id] = OBJECT_ID(?) ORDER BY [name]", "dbo." + table));
        assertEquals(List.of("4|0"), lines("SELECT COUNT(DISTINCT [object_id]), SUM(CASE WHEN [object_id]"
                + " = [parent_object_id] THEN 1 ELSE 0 END) FROM sys.check_constraints"
                + " WHERE [parent_object_id] = OBJECT_ID(?)", "dbo." + table));
    }

    @Test
    void foreignKeysAndTheirColumnsNameTheReferencingTableAsParent() throws SQLException {
        exec("CREATE TABLE [dbo].[" + table + "] ([a] int NOT NULL, [b] int NOT NULL, CONSTRAINT [pk_" + table
                + "] PRIMARY KEY ([a], [b]))");
        exec("CREATE TABLE [dbo].[" + table + "_c] ([x] int NOT NULL, [y] int NULL, [z] int NULL,"
                + " CONSTRAINT [fk_" + table + "] FOREIGN KEY ([y], [z]) REFERENCES [dbo].[" + table + "] ([a], [b]))");
        Object child = scalar("SELECT OBJECT_ID('dbo." + table + "_c')");
        Object parent = scalar("SELECT OBJECT_ID('dbo." + table + "')");
        assertEquals(List.of("fk_" + table + "|" + child + "|" + parent + "|0|0"), lines("SELECT [name],"
                + " [parent_object_id], [referenced_object_id], CAST([is_not_trusted] AS int),"
                + " [delete_referential_action] FROM sys.foreign_keys WHERE [referenced_object_id] = OBJECT_ID(?)",
                "dbo." + table));
        assertEquals(List.of("1|y|a", "2|z|b"), lines("SELECT fkc.[constraint_column_id], pc.[name], rc.[name]"
                + " FROM sys.foreign_keys fk"
                + " JOIN sys.foreign_key_columns fkc ON fkc.[constraint_object_id] = fk.[object_id]"
                + " JOIN sys.columns pc ON pc.[object_id] = fkc.[parent_object_id]"
                + " AND pc.[column_id] = fkc.[parent_column_id]"
                + " JOIN sys.columns rc ON rc.[object_id] = fkc.[referenced_object_id]"
                + " AND rc.[column_id] = fkc.[referenced_column_id]"
                + " WHERE fk.[parent_object_id] = OBJECT_ID(?) ORDER BY fkc.[constraint_column_id]",
                "dbo." + table + "_c"));
    }

    @Test
    void anOrdinaryTableIsNotTemporal() throws SQLException {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL)");
        assertEquals(List.of("0|NON_TEMPORAL_TABLE"), lines("SELECT [temporal_type], [temporal_type_desc]"
                + " FROM sys.tables WHERE [object_id] = OBJECT_ID(?)", "dbo." + table));
    }

    /**
     * ALTER TABLE ... ADD CONSTRAINT ... CHECK on a table with rows (how a replace by switch gives its loaded staging
     * heap the target's CHECKs): the existing rows are checked (547 names the constraint), a constraint added over
     * valid rows is trusted, and it is enforced afterwards.
     */
    @Test
    void checkAddedByAlterTableChecksExistingRowsAndIsTrusted() throws SQLException {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [v] int NOT NULL)");
        exec("INSERT INTO [dbo].[" + table + "] ([id], [v]) VALUES (1, 5), (2, 50)");
        SQLException e = assertError(547, "ALTER TABLE [dbo].[" + table + "] ADD CONSTRAINT [ck_" + table
                + "_lo] CHECK ([v] < 10)");
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("ck_" + table + "_lo"), e.getMessage());
        assertEquals(List.of(), lines("SELECT [name] FROM sys.check_constraints WHERE [parent_object_id] ="
                + " OBJECT_ID(?)", "dbo." + table));
        exec("ALTER TABLE [dbo].[" + table + "] WITH CHECK ADD CONSTRAINT [ck_" + table + "_v] CHECK ([v] > 0)");
        assertEquals(List.of("ck_" + table + "_v|0|([v]>(0))|0"), lines("SELECT [name], [parent_column_id],"
                + " [definition], CAST([is_not_trusted] AS int) FROM sys.check_constraints"
                + " WHERE [parent_object_id] = OBJECT_ID(?)", "dbo." + table));
        assertError(547, "INSERT INTO [dbo].[" + table + "] ([id], [v]) VALUES (3, -1)");
        // a definition written in its normalised form (as read from sys.check_constraints) keeps that form
        exec("ALTER TABLE [dbo].[" + table + "] ADD CONSTRAINT [ck_" + table + "_n] CHECK ([v]>(-5) AND [id]>=(0))");
        assertEquals(List.of("([v]>(-5) AND [id]>=(0))"), lines("SELECT [definition] FROM sys.check_constraints"
                + " WHERE [name] = ?", "ck_" + table + "_n"));
    }
}
