package io.deltafunnel.emulator;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import com.microsoft.sqlserver.jdbc.SQLServerBulkCopyOptions;
import com.microsoft.sqlserver.jdbc.SQLServerSortOrder;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Batch sizes, hints, column mappings, KEEP_IDENTITY and KEEP_NULLS as SQL Server applies them. */
class BulkCopyOptionsTest {
    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer();

    private static ListBulkData rows(int n) {
        ListBulkData d = new ListBulkData().column("id", Types.INTEGER, 10, 0).column("v", Types.NVARCHAR, 20, 0);
        for (int i = 1; i <= n; i++) {
            d.row(i, "v" + i);
        }
        return d;
    }

    private static List<String> strings(Connection c, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                StringBuilder b = new StringBuilder();
                for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                    b.append(i > 1 ? "|" : "").append(rs.getString(i));
                }
                out.add(b.toString());
            }
        }
        return out;
    }

    @Test
    void batchSizesAndAllHints() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[bo_hints] ([id] INT NOT NULL PRIMARY KEY, [v] NVARCHAR(20) NULL)");
            long before = SERVER.emulator().bulkRowsDecoded();
            try (SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
                bc.setDestinationTableName("[dbo].[bo_hints]");
                SQLServerBulkCopyOptions o = new SQLServerBulkCopyOptions();
                o.setBatchSize(5); // 10 rows: two full rounds plus the driver's extra empty round
                o.setTableLock(true);
                o.setCheckConstraints(true);
                o.setFireTriggers(true);
                o.setKeepNulls(true);
                bc.setBulkCopyOptions(o);
                bc.addColumnOrderHint("id", SQLServerSortOrder.ASCENDING);
                bc.writeToServer(rows(10));
            }
            assertEquals(10L, TestSupport.count(c, "[dbo].[bo_hints]"));
            assertEquals(10L, SERVER.emulator().bulkRowsDecoded() - before);
        }
    }

    @Test
    void columnSubsetMappedByNameAndDefaults() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[bo_map] ([id] INT NOT NULL IDENTITY(1,1) PRIMARY KEY,"
                    + " [a] NVARCHAR(10) NULL, [b] INT NULL DEFAULT 42, [c] NVARCHAR(10) NULL DEFAULT N'dflt')");
            ListBulkData src = new ListBulkData().column("x", Types.INTEGER, 10, 0).column("y", Types.NVARCHAR, 10, 0)
                    .row(7, "first").row(null, "second");
            try (SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
                bc.setDestinationTableName("[dbo].[bo_map]");
                bc.addColumnMapping("y", "a");
                bc.addColumnMapping("x", "b");
                bc.writeToServer(src);
            }
            // without KEEP_NULLS a NULL for a column with a default gets the default; unsent columns too
            assertEquals(List.of("1|first|7|dflt", "2|second|42|dflt"),
                    strings(c, "SELECT [id], [a], [b], [c] FROM [dbo].[bo_map] ORDER BY [id]"));
            ListBulkData src2 = new ListBulkData().column("x", Types.INTEGER, 10, 0).row((Object) null);
            try (SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
                bc.setDestinationTableName("[dbo].[bo_map]");
                SQLServerBulkCopyOptions o = new SQLServerBulkCopyOptions();
                o.setKeepNulls(true);
                bc.setBulkCopyOptions(o);
                bc.addColumnMapping("x", "b");
                bc.writeToServer(src2);
            }
            assertEquals(List.of("3|null|null|dflt"),
                    strings(c, "SELECT [id], [a], [b], [c] FROM [dbo].[bo_map] WHERE [id] = 3"));
        }
    }

    @Test
    void keepIdentity() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[bo_ident] ([id] INT NOT NULL IDENTITY(1,1) PRIMARY KEY,"
                    + " [v] NVARCHAR(20) NULL)");
            ListBulkData d = new ListBulkData().column("id", Types.INTEGER, 10, 0).column("v", Types.NVARCHAR, 20, 0)
                    .row(100, "kept").row(200, "kept2");
            try (SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
                bc.setDestinationTableName("[dbo].[bo_ident]");
                SQLServerBulkCopyOptions o = new SQLServerBulkCopyOptions();
                o.setKeepIdentity(true);
                bc.setBulkCopyOptions(o);
                bc.writeToServer(d);
            }
            ListBulkData d2 = new ListBulkData().column("id", Types.INTEGER, 10, 0).column("v", Types.NVARCHAR, 20, 0)
                    .row(999, "generated");
            try (SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
                bc.setDestinationTableName("[dbo].[bo_ident]");
                bc.writeToServer(d2);
            }
            // like SQL Server, explicit identity values move the identity past them
            assertEquals(List.of("100|kept", "200|kept2", "201|generated"),
                    strings(c, "SELECT [id], [v] FROM [dbo].[bo_ident] ORDER BY [id]"));
        }
    }

    @Test
    void internalTransactionAndCachedMetadata() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[bo_itx] ([id] INT NOT NULL, [v] NVARCHAR(20) NULL)");
        }
        String url = SERVER.emulator().jdbcUrl() + ";user=" + SERVER.emulator().user() + ";password={" + SERVER.emulator().password()
                + "};cacheBulkCopyMetadata=true";
        try (SQLServerBulkCopy bc = new SQLServerBulkCopy(url)) {
            bc.setDestinationTableName("[dbo].[bo_itx]");
            SQLServerBulkCopyOptions o = new SQLServerBulkCopyOptions();
            o.setUseInternalTransaction(true);
            o.setBatchSize(3);
            bc.setBulkCopyOptions(o);
            bc.writeToServer(rows(7));
        }
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            assertEquals(7L, TestSupport.count(c, "[dbo].[bo_itx]"));
        }
    }

    @Test
    void driverAbandoningTheStreamIsHandled() throws Exception {
        // in native temporal mode mssql-jdbc cannot send a java.sql.Time value: it aborts the BULK_LOAD message
        // mid-stream with the ignore bit and waits for the server's answer
        try (Connection c = TestSupport.connect(SERVER.emulator(), ";sendTemporalDataTypesAsStringForBulkCopy=false")) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[bo_ignore] ([id] INT NOT NULL, [t] TIME(3) NULL)");
            ListBulkData d = new ListBulkData().column("id", Types.INTEGER, 10, 0).column("t", Types.TIME, 12, 3);
            for (int i = 0; i < 3000; i++) {
                d.row(i, i < 2500 ? "10:11:12.123000000" : (Object) java.sql.Time.valueOf("10:11:12"));
            }
            try (SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
                bc.setDestinationTableName("[dbo].[bo_ignore]");
                org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> bc.writeToServer(d));
            }
        }
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            assertEquals(0L, TestSupport.count(c, "[dbo].[bo_ignore]"));
        }
    }

    @Test
    void emptySourceAndSinkMode() throws Exception {
        try (MssqlEmulator sink = MssqlEmulator.builder().sinkMode(true).start();
                Connection c = TestSupport.connect(sink)) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[sink] ([id] INT NOT NULL, [v] NVARCHAR(20) NULL)");
            try (SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
                bc.setDestinationTableName("[dbo].[sink]");
                bc.writeToServer(rows(0));
                bc.writeToServer(rows(1234));
            }
            assertEquals(1234L, sink.bulkRowsDecoded());
            assertEquals(0L, TestSupport.count(c, "[dbo].[sink]"));
        }
    }
}
