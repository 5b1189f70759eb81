package io.deltafunnel.emulator;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import com.microsoft.sqlserver.jdbc.SQLServerException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The T-SQL subset: DDL, DML, MERGE, SELECT INTO, catalog queries, identifiers. */
class SqlSurfaceTest {
    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer();

    private static List<List<Object>> rows(Connection c, String sql) throws Exception {
        List<List<Object>> out = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<Object> r = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    r.add(rs.getObject(i));
                }
                out.add(r);
            }
        }
        return out;
    }

    @Test
    void awkwardIdentifiers() throws Exception {
        String table = "[dbo].[we]]ird; tab -- 'x' \"y\"]";
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE " + table + " ([col ]] one] INT NULL, [select] NVARCHAR(10) NULL,"
                    + " [a;b--c] INT NULL)");
            TestSupport.exec(c, "INSERT INTO " + table + " ([col ]] one], [select], [a;b--c]) VALUES (1, N'it''s', 2)");
            try (SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
                bc.setDestinationTableName(table);
                bc.writeToServer(new ListBulkData().column("col ] one", Types.INTEGER, 10, 0)
                        .column("select", Types.NVARCHAR, 10, 0).column("a;b--c", Types.INTEGER, 10, 0)
                        .row(2, "bulk", 3));
            }
            assertEquals(List.of(List.of(1, "it's", 2), List.of(2, "bulk", 3)),
                    rows(c, "SELECT [col ]] one], [select], [a;b--c] FROM " + table + " ORDER BY 1"));
            assertNotNull(TestSupport.scalar(c, "SELECT OBJECT_ID(N'" + table.replace("'", "''") + "')"));
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM " + table)) {
                assertEquals("col ] one", rs.getMetaData().getColumnName(1));
            }
            TestSupport.exec(c, "DROP TABLE " + table);
        }
    }

    @Test
    void dropVariantsAndObjectId() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[d1] ([id] INT NULL)");
            assertNotNull(TestSupport.scalar(c, "SELECT OBJECT_ID(N'[dbo].[d1]', N'U')"));
            assertNotNull(TestSupport.scalar(c, "SELECT OBJECT_ID('dbo.d1')"));
            TestSupport.exec(c, "IF OBJECT_ID(N'[dbo].[d1]', N'U') IS NOT NULL DROP TABLE [dbo].[d1]");
            assertNull(TestSupport.scalar(c, "SELECT OBJECT_ID(N'[dbo].[d1]', N'U')"));
            TestSupport.exec(c, "IF OBJECT_ID(N'[dbo].[d1]', N'U') IS NOT NULL DROP TABLE [dbo].[d1]");
            TestSupport.exec(c, "DROP TABLE IF EXISTS [dbo].[d1]");
            assertEquals(3701, assertThrows(SQLServerException.class,
                    () -> TestSupport.exec(c, "DROP TABLE [dbo].[d1]")).getErrorCode());
            TestSupport.exec(c, "CREATE TABLE [dbo].[d2] ([id] INT NULL)");
            assertEquals(2714, assertThrows(SQLServerException.class,
                    () -> TestSupport.exec(c, "CREATE TABLE [dbo].[D2] ([id] INT NULL)")).getErrorCode());
        }
    }

    @Test
    void dmlCountsAndQueries() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator()); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE [dbo].[dml] ([id] INT NOT NULL IDENTITY(10,5) PRIMARY KEY,"
                    + " [name] NVARCHAR(50) NULL DEFAULT N'x', [n] INT NULL)");
            assertEquals(3, st.executeUpdate("INSERT INTO [dbo].[dml] ([name], [n]) VALUES (N'a', 1), (N'b', 2),"
                    + " (N'c', 3)"));
            assertEquals(1, st.executeUpdate("INSERT INTO [dbo].[dml] ([n]) VALUES (4)"));
            assertEquals(List.of(List.of(10, "a"), List.of(15, "b"), List.of(20, "c"), List.of(25, "x")),
                    rows(c, "SELECT [id], [name] FROM [dbo].[dml] ORDER BY [id]"));
            assertEquals(2, st.executeUpdate("UPDATE [dbo].[dml] SET [n] = [n] * 10 WHERE [n] >= 3"));
            assertEquals(1, st.executeUpdate("DELETE FROM [dbo].[dml] WHERE [name] = N'a'"));
            assertEquals(3, ((Number) TestSupport.scalar(c, "SELECT COUNT(*) FROM [dbo].[dml]")).intValue());
            assertEquals(List.of(List.of("c", 30)),
                    rows(c, "SELECT TOP 1 [name], [n] FROM [dbo].[dml] WHERE [n] > 5 ORDER BY [n] ASC"));
            assertEquals(0, ((Number) TestSupport.scalar(c, "SELECT @@TRANCOUNT")).intValue());
            assertEquals("dbo", TestSupport.scalar(c, "SELECT SCHEMA_NAME()"));
            assertTrue(((String) TestSupport.scalar(c, "SELECT @@VERSION")).startsWith("Microsoft SQL Server"));
            st.execute("SET NOCOUNT ON; SET XACT_ABORT ON; SET IMPLICIT_TRANSACTIONS OFF;"
                    + " SET TRANSACTION ISOLATION LEVEL READ COMMITTED; SET LOCK_TIMEOUT 5000; SET NOCOUNT OFF");
        }
    }

    @Test
    void mergeWithDeleteUpdateInsert() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator()); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE [dbo].[m_t] ([k] INT NOT NULL PRIMARY KEY, [v] NVARCHAR(20) NULL)");
            st.execute("CREATE TABLE [dbo].[m_s] ([k] INT NOT NULL, [v] NVARCHAR(20) NULL, [c] VARCHAR(10) NULL)");
            st.execute("INSERT INTO [dbo].[m_t] VALUES (1, N'one'), (2, N'two'), (3, N'three')");
            st.execute("INSERT INTO [dbo].[m_s] VALUES (1, N'uno', 'upsert'), (2, NULL, 'delete'),"
                    + " (4, N'cuatro', 'upsert'), (5, N'cinco', 'delete')");
            int n = st.executeUpdate("MERGE INTO [dbo].[m_t] AS T USING [dbo].[m_s] AS S ON (T.[k] = S.[k])"
                    + " WHEN MATCHED AND S.[c] = 'delete' THEN DELETE"
                    + " WHEN MATCHED THEN UPDATE SET T.[v] = S.[v]"
                    + " WHEN NOT MATCHED BY TARGET AND S.[c] <> 'delete' THEN INSERT ([k], [v]) VALUES (S.[k], S.[v]);");
            assertEquals(3, n);
            assertEquals(List.of(List.of(1, "uno"), List.of(3, "three"), List.of(4, "cuatro")),
                    rows(c, "SELECT [k], [v] FROM [dbo].[m_t] ORDER BY [k]"));
        }
    }

    @Test
    void selectIntoAndInsertSelectWithTablock() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator()); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE [dbo].[si_t] ([id] INT NOT NULL IDENTITY(1,1) PRIMARY KEY, [m] MONEY NULL,"
                    + " [d] DATETIME NULL, [s] VARCHAR(10) NULL)");
            st.execute("INSERT INTO [dbo].[si_t] ([m], [d], [s]) VALUES (1.5, '2024-01-01T10:00:00', 'x')");
            st.execute("SELECT TOP 0 * INTO [dbo].[si_s] FROM [dbo].[si_t]");
            assertEquals(0L, TestSupport.count(c, "[dbo].[si_s]"));
            try (ResultSet rs = st.executeQuery("SELECT * FROM [dbo].[si_s]")) {
                ResultSetMetaData md = rs.getMetaData();
                assertTrue(md.isAutoIncrement(1), "SELECT INTO keeps the identity property");
                assertEquals("money", md.getColumnTypeName(2));
                assertEquals("datetime", md.getColumnTypeName(3));
                assertEquals("varchar", md.getColumnTypeName(4));
            }
            st.execute("SET IDENTITY_INSERT [dbo].[si_s] ON");
            st.execute("INSERT INTO [dbo].[si_s] ([id], [m], [d], [s]) VALUES (7, 2.25, '2024-02-02', 'y')");
            st.execute("INSERT INTO [dbo].[si_s] ([m], [d], [s]) VALUES (3, '2024-03-03', 'z')");
            assertEquals(8, ((Number) TestSupport.scalar(c, "SELECT MAX([id]) FROM [dbo].[si_s]")).intValue());
            st.execute("DELETE FROM [dbo].[si_s] WHERE [id] = 8");
            assertEquals(1, st.executeUpdate("INSERT INTO [dbo].[si_t] WITH (TABLOCK) ([m], [d], [s])"
                    + " SELECT [m], [d], [s] FROM [dbo].[si_s]"));
            assertEquals(List.of(List.of(1, "x"), List.of(2, "y")),
                    rows(c, "SELECT [id], [s] FROM [dbo].[si_t] ORDER BY [id]"));
        }
    }

    @Test
    void schemasRenameAndTransfer() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator()); Statement st = c.createStatement()) {
            st.execute("CREATE SCHEMA [stage]");
            st.execute("CREATE TABLE [dbo].[rn_a] ([id] INT NOT NULL IDENTITY(1,1), [v] NVARCHAR(5) NULL)");
            st.execute("INSERT INTO [dbo].[rn_a] ([v]) VALUES (N'a'), (N'b')");
            st.execute("EXEC sp_rename 'dbo.rn_a', 'rn_b'");
            assertNull(TestSupport.scalar(c, "SELECT OBJECT_ID(N'dbo.rn_a')"));
            assertEquals(2L, TestSupport.count(c, "[dbo].[rn_b]"));
            st.execute("ALTER SCHEMA [stage] TRANSFER [dbo].[rn_b]");
            assertNull(TestSupport.scalar(c, "SELECT OBJECT_ID(N'dbo.rn_b')"));
            assertEquals(2L, TestSupport.count(c, "[stage].[rn_b]"));
            st.execute("INSERT INTO [stage].[rn_b] ([v]) VALUES (N'c')");
            assertEquals(3, ((Number) TestSupport.scalar(c, "SELECT MAX([id]) FROM [stage].[rn_b]")).intValue());
            st.execute("EXEC sp_rename 'stage.rn_b.v', 'w', 'COLUMN'");
            assertEquals("c", TestSupport.scalar(c, "SELECT [w] FROM [stage].[rn_b] WHERE [id] = 3"));
        }
    }

    @Test
    void catalogQueriesTheProducerSends() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[cat] ([id] BIGINT NOT NULL IDENTITY(1,1) PRIMARY KEY,"
                    + " [name] NVARCHAR(50) NULL, [big] NVARCHAR(MAX) NULL, [code] VARCHAR(8) NOT NULL,"
                    + " [amount] DECIMAL(18,4) NULL, [ts] DATETIME2(3) NULL, [dto] DATETIMEOFFSET NULL,"
                    + " [flag] BIT NULL, [g] UNIQUEIDENTIFIER NULL, [bin] VARBINARY(MAX) NULL)");
            try (PreparedStatement ps = c.prepareStatement("SELECT TABLE_SCHEMA, TABLE_NAME FROM"
                    + " INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
                ps.setString(1, "dbo");
                ps.setString(2, "cat");
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals("cat", rs.getString(2));
                }
                ps.setString(2, "nope");
                try (ResultSet rs = ps.executeQuery()) {
                    assertTrue(!rs.next());
                }
            }
            List<List<Object>> cols = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE, CHARACTER_MAXIMUM_LENGTH,"
                    + " NUMERIC_PRECISION, NUMERIC_SCALE, DATETIME_PRECISION, IS_NULLABLE, ORDINAL_POSITION FROM"
                    + " INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION")) {
                ps.setString(1, "dbo");
                ps.setString(2, "cat");
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        List<Object> r = new ArrayList<>();
                        for (int i = 1; i <= 8; i++) {
                            Object o = rs.getObject(i);
                            r.add(o instanceof Number ? (Object) ((Number) o).intValue() : o);
                        }
                        cols.add(r);
                    }
                }
            }
            java.util.function.Function<Object[], List<Object>> l = java.util.Arrays::asList;
            assertEquals(List.of(
                    l.apply(new Object[] {"id", "bigint", null, 19, 0, null, "NO", 1}),
                    l.apply(new Object[] {"name", "nvarchar", 50, null, null, null, "YES", 2}),
                    l.apply(new Object[] {"big", "nvarchar", -1, null, null, null, "YES", 3}),
                    l.apply(new Object[] {"code", "varchar", 8, null, null, null, "NO", 4}),
                    l.apply(new Object[] {"amount", "decimal", null, 18, 4, null, "YES", 5}),
                    l.apply(new Object[] {"ts", "datetime2", null, null, null, 3, "YES", 6}),
                    l.apply(new Object[] {"dto", "datetimeoffset", null, null, null, 7, "YES", 7}),
                    l.apply(new Object[] {"flag", "bit", null, null, null, null, "YES", 8}),
                    l.apply(new Object[] {"g", "uniqueidentifier", null, null, null, null, "YES", 9}),
                    l.apply(new Object[] {"bin", "varbinary", -1, null, null, null, "YES", 10})), cols);
            assertEquals(1, ((Number) TestSupport.scalar(c,
                    "SELECT COLUMNPROPERTY(OBJECT_ID(N'[dbo].[cat]'), N'id', 'IsIdentity')")).intValue());
            assertEquals(List.of(List.of("id", 1), List.of("name", 0)), rows(c, "SELECT COLUMN_NAME,"
                    + " COLUMNPROPERTY(OBJECT_ID(TABLE_SCHEMA + '.' + TABLE_NAME), COLUMN_NAME, 'IsIdentity')"
                    + " FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = 'cat' AND ORDINAL_POSITION <= 2"
                    + " ORDER BY ORDINAL_POSITION"));
            assertEquals(List.of(List.of(false), List.of(false)), rows(c, "select is_computed from sys.columns"
                    + " where object_id=OBJECT_ID('[dbo].[cat]') and column_id <= 2 order by column_id ASC"));
        }
    }

    @Test
    void caseInsensitiveLikeSqlLatin1CiAs() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[CiTable] ([k] NVARCHAR(10) NOT NULL PRIMARY KEY, [v] INT NULL)");
            TestSupport.exec(c, "INSERT INTO [dbo].[citable] ([K], [V]) VALUES (N'abc', 1)");
            assertEquals(1, ((Number) TestSupport.scalar(c,
                    "SELECT [v] FROM [DBO].[CITABLE] WHERE [k] = N'ABC'")).intValue());
            assertEquals(2627, assertThrows(SQLServerException.class,
                    () -> TestSupport.exec(c, "INSERT INTO [dbo].[CiTable] VALUES (N'ABC', 2)")).getErrorCode());
            assertEquals("CiTable", TestSupport.scalar(c, "SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES"
                    + " WHERE TABLE_SCHEMA = 'DBO' AND TABLE_NAME = 'citable'"));
        }
    }

    @Test
    void fmtOnlyMetadataCarriesSqlServerTypes() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[fmt] ([id] INT NOT NULL IDENTITY(1,1), [n] NVARCHAR(40) NULL,"
                    + " [m] SMALLMONEY NULL, [t] TIME(3) NULL, [sd] SMALLDATETIME NULL, [ti] TINYINT NULL)");
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("sp_executesql N'SET FMTONLY ON SELECT * FROM [dbo].[fmt] '")) {
                ResultSetMetaData md = rs.getMetaData();
                assertEquals(6, md.getColumnCount());
                assertTrue(md.isAutoIncrement(1));
                assertEquals(ResultSetMetaData.columnNoNulls, md.isNullable(1));
                assertEquals("nvarchar", md.getColumnTypeName(2));
                assertEquals(40, md.getPrecision(2));
                assertEquals("smallmoney", md.getColumnTypeName(3));
                assertEquals("time", md.getColumnTypeName(4));
                assertEquals(3, md.getScale(4));
                assertEquals("smalldatetime", md.getColumnTypeName(5));
                assertEquals("tinyint", md.getColumnTypeName(6));
                assertTrue(!rs.next());
            }
        }
    }

    @Test
    void preparedStatementReuseAndSpPrepare() throws Exception {
        try (Connection c = TestSupport.connect(SERVER.emulator(), ";prepareMethod=prepare")) {
            TestSupport.exec(c, "CREATE TABLE [dbo].[prep] ([id] INT NOT NULL, [s] NVARCHAR(10) NULL)");
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO [dbo].[prep] VALUES (?, ?)")) {
                for (int i = 0; i < 5; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "s" + i);
                    assertEquals(1, ps.executeUpdate());
                }
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT [s] FROM [dbo].[prep] WHERE [id] = ?")) {
                for (int i = 0; i < 5; i++) {
                    ps.setInt(1, i);
                    try (ResultSet rs = ps.executeQuery()) {
                        assertTrue(rs.next());
                        assertEquals("s" + i, rs.getString(1));
                    }
                }
            }
        }
        try (Connection c = TestSupport.connect(SERVER.emulator())) {
            try (PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM [dbo].[prep] WHERE [id] < ?")) {
                for (int i = 0; i < 4; i++) {
                    ps.setInt(1, i);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        assertEquals(i, rs.getInt(1));
                    }
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO [dbo].[prep] VALUES (?, ?)")) {
                for (int i = 10; i < 13; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, "b" + i);
                    ps.addBatch();
                }
                int[] counts = ps.executeBatch();
                assertEquals(3, counts.length);
            }
            assertEquals(8L, TestSupport.count(c, "[dbo].[prep]"));
        }
    }
}
