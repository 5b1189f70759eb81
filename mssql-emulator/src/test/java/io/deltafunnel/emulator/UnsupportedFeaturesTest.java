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
 * What the emulator refuses clearly (50100) instead of doing something SQL Server would not: triggers (so
 * FIRE_TRIGGERS has nothing to fire), foreign key actions other than NO ACTION, INSERT BULK hints outside MS-TDS's
 * grammar. Emulator-only: SQL Server accepts the first two.
 */
class UnsupportedFeaturesTest {
    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer();

    private static void refused(Connection c, String sql, String what) {
        SQLException e = assertThrows(SQLException.class, () -> TestSupport.exec(c, sql), sql);
        assertEquals(50100, e.getErrorCode(), e.getMessage());
        assertTrue(e.getMessage().contains(what), e.getMessage());
    }

    @Test
    void triggersCascadesAndUnknownBulkHintsAreRefused() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[uf_p] ([id] int NOT NULL PRIMARY KEY)");
            refused(c, "CREATE TRIGGER [dbo].[uf_tr] ON [dbo].[uf_p] AFTER INSERT AS SELECT 1", "CREATE TRIGGER");
            refused(c, "CREATE TABLE [dbo].[uf_c] ([pid] int REFERENCES [dbo].[uf_p] ([id]) ON DELETE CASCADE)",
                    "CASCADE");
            refused(c, "INSERT BULK [dbo].[uf_p] ([id] Int) WITH (KEEP_IDENTITY)", "KEEP_IDENTITY");
        }
    }
}
