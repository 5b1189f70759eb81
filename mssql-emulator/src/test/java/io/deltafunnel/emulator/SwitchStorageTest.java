package io.deltafunnel.emulator;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import io.deltafunnel.emulator.semantics.Catalog;
import io.deltafunnel.emulator.semantics.TableDef;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Emulator internals of ALTER TABLE ... SWITCH: the switch moves no row. The target's H2 table after the switch is
 * the very H2 table that held the source's rows (same H2 row ids), and the source's is the target's former, empty
 * one; a rollback exchanges them back. When the H2 tables are not interchangeable (here: the IDENTITY property
 * differs) the rows are copied and each table keeps its H2 table. Emulator-only: it reads the emulator's catalog and
 * H2 database directly.
 */
class SwitchStorageTest {
    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer();

    private static TableDef.Storage storage(String name) {
        return SERVER.emulator().catalog().table("dbo", name).storage();
    }

    /** The H2 row ids of an H2 table, read on an H2 connection of its own (committed rows). */
    private static List<Long> h2RowIds(TableDef.Storage st) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (Connection h2 = SERVER.emulator().database().openSession(); Statement x = h2.createStatement();
                ResultSet rs = x.executeQuery("SELECT _ROWID_ FROM " + st.h2Name() + " ORDER BY _ROWID_")) {
            while (rs.next()) {
                ids.add(rs.getLong(1));
            }
        }
        return ids;
    }

    @Test
    void theTargetTakesOverTheSourcesH2TableAndARollbackGivesItBack() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[st_src] ([id] int NOT NULL PRIMARY KEY, [v] int NOT NULL)");
            TestSupport.exec(c, "CREATE TABLE [dbo].[st_dst] ([id] int NOT NULL PRIMARY KEY, [v] int NOT NULL)");
            TestSupport.exec(c, "INSERT INTO [dbo].[st_src] ([id], [v]) VALUES (1, 10), (2, 20), (3, 30)");
            TableDef.Storage srcBefore = storage("st_src");
            TableDef.Storage dstBefore = storage("st_dst");
            List<Long> rowIds = h2RowIds(srcBefore);
            assertEquals(3, rowIds.size());
            Catalog cat = SERVER.emulator().catalog();
            int generation = cat.storageGeneration();

            TestSupport.exec(c, "BEGIN TRAN");
            TestSupport.exec(c, "ALTER TABLE [dbo].[st_src] SWITCH TO [dbo].[st_dst]");
            assertEquals(srcBefore, storage("st_dst"));
            assertEquals(dstBefore, storage("st_src"));
            assertNotEquals(generation, cat.storageGeneration());
            TestSupport.exec(c, "ROLLBACK");
            assertEquals(srcBefore, storage("st_src"));
            assertEquals(dstBefore, storage("st_dst"));

            TestSupport.exec(c, "ALTER TABLE [dbo].[st_src] SWITCH TO [dbo].[st_dst]");
            assertEquals(srcBefore, storage("st_dst"));
            // the same H2 rows, not copies: H2 row ids unchanged, the former target's H2 table still empty
            assertEquals(rowIds, h2RowIds(storage("st_dst")));
            assertEquals(List.of(), h2RowIds(storage("st_src")));
            assertEquals(3, TestSupport.count(c, "[dbo].[st_dst]"));
        }
    }

    @Test
    void tablesWhoseH2TablesDifferAreCopiedAndKeepTheirH2Tables() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[sc_src] ([id] int IDENTITY(1,1) NOT NULL, [v] int NOT NULL)");
            TestSupport.exec(c, "CREATE TABLE [dbo].[sc_dst] ([id] int NOT NULL, [v] int NOT NULL)");
            TestSupport.exec(c, "INSERT INTO [dbo].[sc_src] ([v]) VALUES (10), (20)");
            TableDef.Storage srcBefore = storage("sc_src");
            TableDef.Storage dstBefore = storage("sc_dst");
            TestSupport.exec(c, "ALTER TABLE [dbo].[sc_src] SWITCH TO [dbo].[sc_dst]");
            assertEquals(srcBefore, storage("sc_src"));
            assertEquals(dstBefore, storage("sc_dst"));
            assertEquals(2, h2RowIds(dstBefore).size());
            assertEquals(List.of(), h2RowIds(srcBefore));
        }
    }
}
