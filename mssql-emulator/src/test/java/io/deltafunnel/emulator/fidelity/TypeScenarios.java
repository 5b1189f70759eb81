package io.deltafunnel.emulator.fidelity;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.Arrays;
import java.util.List;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import io.deltafunnel.emulator.ListBulkData;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Types and collations as SQL Server reports them: an {@code xml} column is created, filled by INSERT and by bulk
 * copy, read back, and described in the catalog; a column's {@code COLLATE} is kept and reported in sys.columns and
 * INFORMATION_SCHEMA.COLUMNS and survives a bulk copy; COLLATE on a non-character column is 447.
 */
abstract class TypeScenarios extends Scenarios {

    @Test
    void xmlColumnHoldsSimpleValuesAndIsDescribed() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [x] xml NULL)");
        exec("INSERT INTO [dbo].[" + table + "] ([id], [x]) VALUES (1, N'<a>1</a>'), (2, NULL)");
        try (Statement st = conn.createStatement();
                ResultSet rs = st.executeQuery("SELECT [id], [x] FROM [dbo].[" + table + "] ORDER BY [id]")) {
            assertEquals("xml", rs.getMetaData().getColumnTypeName(2));
            assertEquals(Types.LONGNVARCHAR, rs.getMetaData().getColumnType(2));
            assertTrue(rs.next());
            assertEquals("<a>1</a>", rs.getString(2));
            assertTrue(rs.next());
            assertEquals(null, rs.getString(2));
        }
        assertEquals(List.of(List.of(241, -1)), rows("SELECT CAST(system_type_id AS int), CAST(max_length AS int)"
                + " FROM sys.columns WHERE object_id = OBJECT_ID('dbo." + table + "') AND name = 'x'"));
        assertEquals(null, scalar("SELECT collation_name FROM sys.columns WHERE object_id = OBJECT_ID('dbo." + table
                + "') AND name = 'x'"));
        assertEquals(List.of(Arrays.asList("xml", -1, null)), rows("SELECT DATA_TYPE, CHARACTER_MAXIMUM_LENGTH,"
                + " COLLATION_NAME FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = '" + table
                + "' AND COLUMN_NAME = 'x'"));
    }

    @Test
    void bulkCopyIntoATableWithAnXmlColumnMappedOrNot() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(10) NULL, [x] xml NULL)");
        ListBulkData unmapped = new ListBulkData().column("id", Types.INTEGER, 10, 0)
                .column("name", Types.NVARCHAR, 10, 0).row(1, "one");
        try (SQLServerBulkCopy bc = new SQLServerBulkCopy(conn)) {
            bc.setDestinationTableName("[dbo].[" + table + "]");
            bc.addColumnMapping("id", "id");
            bc.addColumnMapping("name", "name");
            bc.writeToServer(unmapped);
        }
        ListBulkData mapped = new ListBulkData().column("id", Types.INTEGER, 10, 0)
                .column("x", Types.NVARCHAR, 100, 0).row(2, "<b>two</b>");
        try (SQLServerBulkCopy bc = new SQLServerBulkCopy(conn)) {
            bc.setDestinationTableName("[dbo].[" + table + "]");
            bc.addColumnMapping("id", "id");
            bc.addColumnMapping("x", "x");
            bc.writeToServer(mapped);
        }
        assertEquals(List.of(Arrays.asList(1, "one", null), Arrays.asList(2, null, "<b>two</b>")),
                rows("SELECT [id], [name], CAST([x] AS nvarchar(max)) FROM [dbo].[" + table + "] ORDER BY [id]"));
    }

    @Test
    void columnCollationIsKeptAndReported() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [cs] varchar(10) COLLATE Latin1_General_CS_AS"
                + " NULL, [ncs] nvarchar(10) COLLATE sql_latin1_general_cp1_cs_as NULL, [plain] varchar(10) NULL)");
        String sys = "SELECT name, collation_name FROM sys.columns WHERE object_id = OBJECT_ID('dbo." + table
                + "') ORDER BY column_id";
        assertEquals(List.of(Arrays.asList("id", null), List.of("cs", "Latin1_General_CS_AS"),
                List.of("ncs", "SQL_Latin1_General_CP1_CS_AS"), List.of("plain", "SQL_Latin1_General_CP1_CI_AS")),
                rows(sys));
        assertEquals(List.of(Arrays.asList("id", null), List.of("cs", "Latin1_General_CS_AS"),
                List.of("ncs", "SQL_Latin1_General_CP1_CS_AS"), List.of("plain", "SQL_Latin1_General_CP1_CI_AS")),
                rows("SELECT COLUMN_NAME, COLLATION_NAME FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = '"
                        + table + "' ORDER BY ORDINAL_POSITION"));
        // the bulk copy reads the column's collation from the server's metadata and sends it back
        ListBulkData data = new ListBulkData().column("id", Types.INTEGER, 10, 0)
                .column("cs", Types.VARCHAR, 10, 0).column("ncs", Types.NVARCHAR, 10, 0)
                .column("plain", Types.VARCHAR, 10, 0).row(1, "Abc", "Déf", "ghi");
        try (SQLServerBulkCopy bc = new SQLServerBulkCopy(conn)) {
            bc.setDestinationTableName("[dbo].[" + table + "]");
            bc.writeToServer(data);
        }
        assertEquals(List.of(List.of(1, "Abc", "Déf", "ghi")),
                rows("SELECT [id], [cs], [ncs], [plain] FROM [dbo].[" + table + "]"));
    }

    @Test
    void collateOnANonCharacterColumnIs447() throws SQLException {
        dropIfExists(table);
        SQLException e = assertError(447, "CREATE TABLE [dbo].[" + table + "] ([id] int COLLATE Latin1_General_CS_AS"
                + " NOT NULL)");
        assertTrue(e.getMessage().contains("COLLATE"), e.getMessage());
    }
}
