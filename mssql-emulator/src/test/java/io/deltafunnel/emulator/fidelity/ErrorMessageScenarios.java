package io.deltafunnel.emulator.fidelity;

import java.sql.PreparedStatement;
import java.sql.SQLException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Names in error messages: SQL Server repeats an object or column name as the statement wrote it (mixed case kept,
 * brackets dropped, schema prefix kept when written), never folded to upper case. Users and tests read these
 * messages (DeltaFunnel's typed exceptions quote them).
 */
abstract class ErrorMessageScenarios extends Scenarios {

    @BeforeEach
    void createTable() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE [dbo].[" + table + "] ([Id] int NOT NULL, [Name] nvarchar(20) NULL)");
    }

    @AfterEach
    void dropTable() throws SQLException {
        dropIfExists(table);
    }

    private String t() {
        return "[dbo].[" + table + "]";
    }

    @Test
    void anUnknownColumnIsNamedAsWritten() {
        SQLException e = assertError(207, "SELECT [Id], Score FROM " + t());
        assertEquals("Invalid column name 'Score'.", e.getMessage());
        e = assertError(207, "UPDATE " + t() + " SET [Rej_Reason] = N'x' WHERE [Id] = 1");
        assertEquals("Invalid column name 'Rej_Reason'.", e.getMessage());
        e = assertError(207, "INSERT INTO " + t() + " ([Id], lowerCol) VALUES (1, 2)");
        assertEquals("Invalid column name 'lowerCol'.", e.getMessage());
    }

    @Test
    void anUnknownColumnOfAQualifiedReferenceIsNamedWithoutItsQualifier() {
        SQLException e = assertError(207, "SELECT x.Id, x.MissingCol FROM " + t() + " AS x");
        assertEquals("Invalid column name 'MissingCol'.", e.getMessage());
    }

    @Test
    void anUnknownTableIsNamedAsWrittenWithItsSchema() {
        SQLException e = assertError(208, "SELECT COUNT(*) FROM dbo.Rej_Log_Missing");
        assertEquals("Invalid object name 'dbo.Rej_Log_Missing'.", e.getMessage());
        e = assertError(208, "INSERT INTO Rej_Log_Missing (id) VALUES (1)");
        assertEquals("Invalid object name 'Rej_Log_Missing'.", e.getMessage());
        e = assertError(208, "DELETE FROM [dbo].[Rej_Log_Missing] WHERE [id] = 1");
        assertEquals("Invalid object name 'dbo.Rej_Log_Missing'.", e.getMessage());
    }

    @Test
    void anUnknownColumnInAPreparedStatementIsNamedAsWritten() throws SQLException {
        try (PreparedStatement ps = conn.prepareStatement("SELECT [Id] FROM " + t() + " WHERE MixedCase = ?")) {
            ps.setInt(1, 1);
            SQLException e = assertThrows(SQLException.class, ps::executeQuery);
            assertEquals(207, e.getErrorCode(), e.getMessage());
            assertEquals("Invalid column name 'MixedCase'.", e.getMessage());
        }
    }

    @Test
    void anExistingTableIsNamedAsTheCreateWroteIt() {
        String upper = table.toUpperCase(java.util.Locale.ROOT);
        SQLException e = assertError(2714, "CREATE TABLE dbo." + upper + " ([x] int)");
        assertEquals("There is already an object named '" + upper + "' in the database.", e.getMessage());
    }
}
