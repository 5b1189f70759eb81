package io.deltafunnel.emulator.fidelity;

import java.sql.SQLException;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** NOT NULL columns: SQL Server raises 515 (severity 16) naming the column and the table. */
abstract class NullabilityScenarios extends Scenarios {

    @Test
    void nullIntoNotNullIs515() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [v] int NULL)");
        SQLException e = assertError(515, "INSERT INTO [dbo].[" + table + "] ([id], [v]) VALUES (NULL, 1)");
        assertTrue(e.getMessage().contains("'id'"), e.getMessage());
        assertTrue(e.getMessage().contains(table), e.getMessage());
        assertEquals(0, ((Number) scalar("SELECT COUNT(*) FROM [dbo].[" + table + "]")).intValue());
    }
}
