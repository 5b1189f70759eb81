package io.deltafunnel.emulator;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import java.sql.Connection;
import java.sql.SQLException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the emulator refuses (50100) around ALTER TABLE ... SWITCH and temporal tables, listed in the README's
 * differences: a switch into a table that a FOREIGN KEY of another table references (SQL Server's answer is not
 * verified), a PARTITION number that is not a literal, WITH options of SWITCH, and system-versioned temporal tables
 * in CREATE TABLE and ALTER TABLE (created as ordinary tables before, which would hide the difference).
 * Emulator-only: SQL Server behaves differently in each.
 */
class SwitchEmulatorOnlyTest {
    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer();

    private static void refused(Connection c, String sql, String what) {
        SQLException e = assertThrows(SQLException.class, () -> TestSupport.exec(c, sql), sql);
        assertEquals(50100, e.getErrorCode(), e.getMessage());
        assertTrue(e.getMessage().contains(what), e.getMessage());
    }

    @Test
    void aSwitchIntoAReferencedTableIsRefusedAndNothingMoves() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[so_src] ([id] int NOT NULL PRIMARY KEY)");
            TestSupport.exec(c, "CREATE TABLE [dbo].[so_dst] ([id] int NOT NULL PRIMARY KEY)");
            TestSupport.exec(c, "CREATE TABLE [dbo].[so_child] ([pid] int NOT NULL CONSTRAINT [fk_so_child]"
                    + " REFERENCES [dbo].[so_dst] ([id]))");
            TestSupport.exec(c, "INSERT INTO [dbo].[so_src] ([id]) VALUES (1)");
            refused(c, "ALTER TABLE [dbo].[so_src] SWITCH TO [dbo].[so_dst]",
                    "ALTER TABLE SWITCH into table 'master.dbo.so_dst', which is referenced by FOREIGN KEY constraint"
                    + " 'fk_so_child'");
            assertEquals(1, TestSupport.count(c, "[dbo].[so_src]"));
            refused(c, "ALTER TABLE [dbo].[so_src] SWITCH PARTITION $PARTITION.pf(1) TO [dbo].[so_dst]",
                    "PARTITION number");
            refused(c, "ALTER TABLE [dbo].[so_src] SWITCH TO [dbo].[so_dst] WITH (WAIT_AT_LOW_PRIORITY"
                    + " (MAX_DURATION = 1 MINUTES, ABORT_AFTER_WAIT = NONE))", "WITH options");
        }
    }

    @Test
    void systemVersionedTemporalTablesAreRefused() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            refused(c, "CREATE TABLE [dbo].[so_temporal] ([id] int NOT NULL PRIMARY KEY,"
                    + " [valid_from] datetime2 GENERATED ALWAYS AS ROW START NOT NULL,"
                    + " [valid_to] datetime2 GENERATED ALWAYS AS ROW END NOT NULL,"
                    + " PERIOD FOR SYSTEM_TIME ([valid_from], [valid_to]))"
                    + " WITH (SYSTEM_VERSIONING = ON (HISTORY_TABLE = [dbo].[so_history]))",
                    "system-versioned temporal tables");
            refused(c, "CREATE TABLE [dbo].[so_temporal] ([id] int NOT NULL PRIMARY KEY)"
                    + " WITH (SYSTEM_VERSIONING = ON)", "system-versioned temporal tables (SYSTEM_VERSIONING)");
            assertEquals(0, ((Number) TestSupport.scalar(c,
                    "SELECT COUNT(*) FROM sys.tables WHERE [name] = 'so_temporal'")).intValue());
            TestSupport.exec(c, "CREATE TABLE [dbo].[so_plain] ([id] int NOT NULL PRIMARY KEY)");
            refused(c, "ALTER TABLE [dbo].[so_plain] SET (SYSTEM_VERSIONING = ON)", "system-versioned temporal tables");
            refused(c, "ALTER TABLE [dbo].[so_plain] ADD PERIOD FOR SYSTEM_TIME ([a], [b])",
                    "system-versioned temporal tables (PERIOD FOR SYSTEM_TIME)");
        }
    }
}
