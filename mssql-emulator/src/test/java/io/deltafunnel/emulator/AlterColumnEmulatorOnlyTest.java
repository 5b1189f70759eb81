package io.deltafunnel.emulator;

import io.deltafunnel.emulator.exec.DdlHandler;
import io.deltafunnel.emulator.fidelity.EmulatorServer;

import com.microsoft.sqlserver.jdbc.SQLServerException;

import java.sql.Connection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The emulator-only side of ALTER TABLE ADD / ALTER COLUMN: inside a user transaction both are refused with 50101
 * (H2 would commit the transaction; SQL Server runs them transactionally), in auto-commit mode they run; the
 * conversions outside the supported families are refused with 50100.
 */
class AlterColumnEmulatorOnlyTest {
    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer();

    @Test
    void addAndAlterColumnAreRefusedInsideATransactionAndRunInAutoCommit() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[alter_tx] ([id] int NOT NULL PRIMARY KEY, [v] int NULL)");
            TestSupport.exec(c, "BEGIN TRAN");
            assertEquals(DdlHandler.DDL_IN_TRANSACTION, assertThrows(SQLServerException.class,
                    () -> TestSupport.exec(c, "ALTER TABLE [dbo].[alter_tx] ADD [w] int NULL")).getErrorCode());
            assertEquals(DdlHandler.DDL_IN_TRANSACTION, assertThrows(SQLServerException.class,
                    () -> TestSupport.exec(c, "ALTER TABLE [dbo].[alter_tx] ALTER COLUMN [v] bigint NULL"))
                    .getErrorCode());
            assertEquals(1, ((Number) TestSupport.scalar(c, "SELECT @@TRANCOUNT")).intValue(),
                    "the refusal ends only the statement");
            TestSupport.exec(c, "ROLLBACK");
            TestSupport.exec(c, "ALTER TABLE [dbo].[alter_tx] ADD [w] int NULL");
            TestSupport.exec(c, "ALTER TABLE [dbo].[alter_tx] ALTER COLUMN [v] bigint NULL");
            assertEquals("bigint", TestSupport.scalar(c, "SELECT [DATA_TYPE] FROM INFORMATION_SCHEMA.COLUMNS"
                    + " WHERE [TABLE_NAME] = 'alter_tx' AND [COLUMN_NAME] = 'v'"));
        }
    }

    @Test
    void aConversionAcrossTypeFamiliesIsRefused() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[alter_family] ([id] int NOT NULL PRIMARY KEY, [v] int NULL)");
            assertEquals(50100, assertThrows(SQLServerException.class,
                    () -> TestSupport.exec(c, "ALTER TABLE [dbo].[alter_family] ALTER COLUMN [v] varchar(10) NULL"))
                    .getErrorCode());
        }
    }
}
