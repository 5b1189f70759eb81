package io.deltafunnel.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.deltafunnel.emulator.fidelity.EmulatorServer;
import io.deltafunnel.emulator.semantics.SqlServerError;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import io.deltafunnel.tds.Collation;
import io.deltafunnel.tds.TdsReader;
import io.deltafunnel.tds.TokenType;
import io.deltafunnel.tds.TypeInfo;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Types;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Where the emulator refuses what SQL Server accepts (emulator only; the shared type scenarios are
 * {@code fidelity.TypeScenarios}): sql_variant and the CLR types, and collations whose code page it does not map.
 * Also the collation bytes of a COLLATE column in COLMETADATA, as mssql-jdbc echoes them in its bulk stream.
 */
class TypeSupportTest {
    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer();

    @Test
    void sqlVariantAndClrTypesAreRefusedAsNotSupported() throws SQLException {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            for (String type : List.of("sql_variant", "geography", "geometry", "hierarchyid")) {
                SQLException e = assertThrows(SQLException.class, () -> TestSupport.exec(c,
                        "CREATE TABLE [dbo].[ts_" + type + "] ([id] int NOT NULL, [v] " + type + " NULL)"));
                assertEquals(SqlServerError.UNSUPPORTED, e.getErrorCode(), e.getMessage());
                assertTrue(e.getMessage().contains("data type " + type + " (column 'v')"), e.getMessage());
                assertTrue(e.getMessage().startsWith("mssql-emulator does not support"), e.getMessage());
            }
        }
    }

    @Test
    void collationsWithoutAMappedCodePageAreRefused() throws SQLException {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            for (String collation : List.of("Japanese_CI_AS", "Latin1_General_100_CI_AS_SC_UTF8", "Nonsense_XY")) {
                SQLException e = assertThrows(SQLException.class, () -> TestSupport.exec(c,
                        "CREATE TABLE [dbo].[ts_coll] ([v] varchar(10) COLLATE " + collation + " NULL)"));
                assertEquals(SqlServerError.UNSUPPORTED, e.getErrorCode(), e.getMessage());
                assertTrue(e.getMessage().contains("collation '" + collation + "' (column 'v')"), e.getMessage());
            }
        }
    }

    @Test
    void colMetadataCarriesTheColumnsCollation() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[ts_cs] ([cs] varchar(10) COLLATE Latin1_General_CS_AS NULL,"
                    + " [bin] nvarchar(10) COLLATE Latin1_General_BIN2 NULL, [plain] varchar(10) NULL)");
            SERVER.emulator().clearCapturedBulkLoads();
            SERVER.emulator().captureBulkLoads(true);
            try (SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
                bc.setDestinationTableName("[dbo].[ts_cs]");
                bc.writeToServer(new ListBulkData().column("cs", Types.VARCHAR, 10, 0)
                        .column("bin", Types.NVARCHAR, 10, 0).column("plain", Types.VARCHAR, 10, 0)
                        .row("a", "b", "c"));
            } finally {
                SERVER.emulator().captureBulkLoads(false);
            }
        }
        // mssql-jdbc copies each column's collation from the server's COLMETADATA into its bulk stream
        byte[] payload = SERVER.emulator().capturedBulkLoads().get(0).payload();
        TdsReader rd = new TdsReader(payload);
        assertEquals(TokenType.COLMETADATA, rd.readUnsignedByte());
        int n = rd.readUnsignedShort();
        Map<String, Collation> sent = new HashMap<>();
        for (int i = 0; i < n; i++) {
            rd.readInt();
            rd.readUnsignedShort();
            TypeInfo t = TypeInfo.read(rd);
            sent.put(rd.readBVarchar(), t.collation());
        }
        assertEquals(Collation.forName("Latin1_General_CS_AS"), sent.get("cs"));
        assertEquals(Collation.forName("Latin1_General_BIN2"), sent.get("bin"));
        assertEquals(Collation.SQL_LATIN1_GENERAL_CP1_CI_AS, sent.get("plain"));
    }
}
