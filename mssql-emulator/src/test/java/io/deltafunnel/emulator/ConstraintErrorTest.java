package io.deltafunnel.emulator;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import com.microsoft.sqlserver.jdbc.SQLServerException;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** SQL Server's checks on bulk rows; a failing round leaves none of its rows. */
class ConstraintErrorTest {
    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer();

    /** Two good rows (round 1, batch size 2), then a round with a good row and the bad one. */
    private static SQLServerException loadWithBadFourthRow(String table, Object[] bad) throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[" + table + "] ([id] INT NOT NULL, [name] NVARCHAR(5) NOT NULL,"
                    + " [amount] DECIMAL(5,2) NULL, [tiny] TINYINT NULL, [d] DATETIME2(3) NULL)");
        }
        ListBulkData data = new ListBulkData()
                .column("id", Types.INTEGER, 10, 0)
                .column("name", Types.NVARCHAR, 50, 0)
                .column("amount", Types.DECIMAL, 10, 2)
                .column("tiny", Types.SMALLINT, 5, 0)
                .column("d", Types.VARCHAR, 30, 0)
                .row(1, "a", new BigDecimal("1.00"), (short) 1, "2024-01-01 00:00:00")
                .row(2, "b", new BigDecimal("2.00"), (short) 2, "2024-01-02 00:00:00")
                .row(3, "c", new BigDecimal("3.00"), (short) 3, "2024-01-03 00:00:00")
                .row(bad);
        try (Connection c = TestSupport.connect(SERVER.emulator()); SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
            bc.setDestinationTableName("[dbo].[" + table + "]");
            com.microsoft.sqlserver.jdbc.SQLServerBulkCopyOptions o =
                    new com.microsoft.sqlserver.jdbc.SQLServerBulkCopyOptions();
            o.setBatchSize(2);
            bc.setBulkCopyOptions(o);
            return assertThrows(SQLServerException.class, () -> bc.writeToServer(data));
        }
    }

    private static void assertOnlyFirstRound(String table) throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            assertEquals(2L, TestSupport.count(c, "[dbo].[" + table + "]"));
            assertEquals(0L, TestSupport.count(c, "[dbo].[" + table + "] WHERE [id] >= 3"));
        }
    }

    @Test
    void nullIntoNotNull515() throws Exception {
        SQLServerException e = loadWithBadFourthRow("e515", new Object[] {4, null, null, null, null});
        assertEquals(515, e.getErrorCode());
        assertTrue(e.getMessage().contains("Cannot insert the value NULL into column 'name', table 'master.dbo.e515';"
                + " column does not allow nulls. INSERT fails."), e.getMessage());
        assertOnlyFirstRound("e515");
    }

    @Test
    void overLongStringIsRejected() throws Exception {
        // mssql-jdbc checks string lengths against the destination metadata itself (error code 0) before sending;
        // the server-side 2628 check is exercised with a raw TDS client in RawProtocolTest
        SQLServerException e = loadWithBadFourthRow("e2628", new Object[] {4, "toolong", null, null, null});
        assertTrue(e.getMessage().contains("name"), e.getMessage());
        assertOnlyFirstRound("e2628");
    }

    @Test
    void numberIntoTooShortString8115() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[e8115s] ([id] INT NOT NULL, [s] NVARCHAR(3) NULL)");
        }
        ListBulkData data = new ListBulkData().column("id", Types.INTEGER, 10, 0).column("s", Types.INTEGER, 10, 0)
                .row(1, 123).row(2, 12345);
        try (Connection c = TestSupport.connect(SERVER.emulator()); SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
            bc.setDestinationTableName("[dbo].[e8115s]");
            assertEquals(8115, assertThrows(SQLServerException.class, () -> bc.writeToServer(data)).getErrorCode());
        }
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            assertEquals(0L, TestSupport.count(c, "[dbo].[e8115s]"));
        }
    }

    @Test
    void decimalOverflow8115() throws Exception {
        SQLServerException e = loadWithBadFourthRow("e8115",
                new Object[] {4, "d", new BigDecimal("1000.00"), null, null});
        assertEquals(8115, e.getErrorCode());
        assertTrue(e.getMessage().contains("Arithmetic overflow"), e.getMessage());
        assertOnlyFirstRound("e8115");
    }

    @Test
    void tinyintOverflow8115() throws Exception {
        SQLServerException e = loadWithBadFourthRow("e8115t", new Object[] {4, "d", null, (short) 256, null});
        assertEquals(8115, e.getErrorCode());
        assertOnlyFirstRound("e8115t");
    }

    @Test
    void badDateText241() throws Exception {
        SQLServerException e = loadWithBadFourthRow("e241", new Object[] {4, "d", null, null, "2024-13-45"});
        assertEquals(241, e.getErrorCode());
        assertTrue(e.getMessage().contains("Conversion failed when converting date and/or time from character"
                + " string."), e.getMessage());
        assertOnlyFirstRound("e241");
    }

    @Test
    void sqlInsertErrorsUseSqlServerNumbers() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[sqlerr] ([id] INT NOT NULL PRIMARY KEY, [s] VARCHAR(3) NULL,"
                    + " [t] TINYINT NULL, [m] SMALLMONEY NULL)");
            TestSupport.exec(c, "INSERT INTO [dbo].[sqlerr] ([id]) VALUES (1)");
            assertEquals(515, assertThrows(SQLServerException.class,
                    () -> TestSupport.exec(c, "INSERT INTO [dbo].[sqlerr] ([id]) VALUES (NULL)")).getErrorCode());
            assertEquals(2627, assertThrows(SQLServerException.class,
                    () -> TestSupport.exec(c, "INSERT INTO [dbo].[sqlerr] ([id]) VALUES (1)")).getErrorCode());
            SQLServerException trunc = assertThrows(SQLServerException.class,
                    () -> TestSupport.exec(c, "INSERT INTO [dbo].[sqlerr] ([id], [s]) VALUES (2, 'abcd')"));
            assertEquals(2628, trunc.getErrorCode());
            assertTrue(trunc.getMessage().contains("column 's'"), trunc.getMessage());
            assertEquals(220, assertThrows(SQLServerException.class,
                    () -> TestSupport.exec(c, "INSERT INTO [dbo].[sqlerr] ([id], [t]) VALUES (3, 300)"))
                    .getErrorCode());
            assertEquals(8115, assertThrows(SQLServerException.class,
                    () -> TestSupport.exec(c, "INSERT INTO [dbo].[sqlerr] ([id], [m]) VALUES (4, 214748.3648)"))
                    .getErrorCode());
            assertEquals(1L, TestSupport.count(c, "[dbo].[sqlerr]"));
        }
    }
}
