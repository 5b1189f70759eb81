package io.deltafunnel.mssql.direct;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.SqlServerErrors;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.WorkOutcome;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.ColumnMapper;
import io.deltafunnel.mssql.bind.Rejection;
import io.deltafunnel.mssql.bind.TargetCatalog;
import io.deltafunnel.mssql.bind.ValueOutOfRangeException;
import io.deltafunnel.mssql.channel.BulkBatch;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The direct channel's SQL surface (parameters, result sets, transactions, errors) against the emulator. */
class DirectSqlChannelTest {

    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(b -> b.port(0).sinkMode(false));

    @BeforeAll
    static void start() throws Exception {
        try (Connection c = jdbc(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE [dbo].[kv] ([k] nvarchar(100) NOT NULL PRIMARY KEY, [v] bigint NULL, [n] int NULL)");
        }
    }

    static Connection jdbc() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", SERVER.emulator().user());
        p.setProperty("password", SERVER.emulator().password());
        return DriverManager.getConnection(SERVER.emulator().jdbcUrl(), p);
    }

    static DirectSqlChannel channel() throws Exception {
        return new DirectSqlChannel(DirectTdsConnection.open(DirectTdsConnection.options().host("localhost")
                .port(SERVER.emulator().port()).database("master").user(SERVER.emulator().user()).password(SERVER.emulator().password())
                .trustServerCertificate(true)));
    }

    static long jdbcCount(String key) throws SQLException {
        try (Connection c = jdbc(); var ps = c.prepareStatement("SELECT COUNT(*) FROM [dbo].[kv] WHERE [k] = ?")) {
            ps.setString(1, key);
            try (var rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * The direct channel writes the driver-neutral {@link BulkBatch} (no mssql-jdbc adapter on this path): a batch
     * not validated yet is validated by the channel, and a value that does not fit is rejected before anything is
     * sent, naming column and run-wide row, with the session still usable.
     */
    @Test
    void bulkWriteTakesTheDriverNeutralBatchAndValidatesItFirst() throws Exception {
        TableName table = new TableName("dbo", "neutral_batch");
        try (Connection j = jdbc(); Statement st = j.createStatement()) {
            st.execute("CREATE TABLE [dbo].[neutral_batch] ([id] int NOT NULL, [name] nvarchar(5) NULL)");
        }
        BulkLoadSettings settings = BulkLoadSettings.defaults(table);
        BulkLoadException.Context ctx = BulkLoadException.Context.of(table.toString(), WorkOutcome.ROLLED_BACK,
                HandoffStats.ZERO);
        try (BufferAllocator allocator = new RootAllocator();
                IntVector id = new IntVector("id", allocator);
                VarCharVector name = new VarCharVector("name", allocator);
                VectorSchemaRoot root = VectorSchemaRoot.of(id, name);
                DirectSqlChannel c = channel()) {
            for (int r = 0; r < 3; r++) {
                id.setSafe(r, r + 1);
            }
            name.setSafe(0, "ab".getBytes(StandardCharsets.UTF_8));
            name.setNull(1);
            name.setSafe(2, "cde".getBytes(StandardCharsets.UTF_8));
            root.setRowCount(3);
            List<BoundColumn> columns = ColumnMapper.bind(root.getSchema(), TargetCatalog.describe(c, table), Map.of(),
                    c.temporalAsText(), ctx);

            BulkBatch batch = new BulkBatch(root, columns, 0);
            assertFalse(batch.validated());
            c.bulkWrite(table, batch, settings);
            assertTrue(batch.validated(), "the channel validated the batch before writing it");
            assertEquals(List.of("1|ab", "2|null", "3|cde"), rows());

            name.setSafe(1, "toolong".getBytes(StandardCharsets.UTF_8)); // 7 characters into nvarchar(5)
            BulkBatch bad = new BulkBatch(root, columns, 100);
            ValueOutOfRangeException r = assertThrows(ValueOutOfRangeException.class,
                    () -> c.bulkWrite(table, bad, settings));
            assertEquals("name", r.rejection().sourceColumn());
            assertEquals(1, r.rejection().row());
            assertEquals(101, r.rowInRun());
            assertEquals(Rejection.TOO_LONG, r.rejection().check());
            assertFalse(bad.validated());
            assertFalse(c.isClosed(), "nothing was sent: the session stays usable");
            assertEquals(1, c.update("DELETE FROM [dbo].[neutral_batch] WHERE [id] = ?", 1));
        }
        assertEquals(List.of("2|null", "3|cde"), rows());
    }

    private static List<String> rows() throws SQLException {
        List<String> out = new ArrayList<>();
        try (Connection j = jdbc(); Statement st = j.createStatement();
                ResultSet rs = st.executeQuery("SELECT [id], [name] FROM [dbo].[neutral_batch] ORDER BY [id]")) {
            while (rs.next()) {
                out.add(rs.getInt(1) + "|" + rs.getString(2));
            }
        }
        return out;
    }

    @Test
    void placeholdersAreNumberedOutsideStringsIdentifiersAndComments() {
        assertEquals("SELECT '?', [a?b], @P0 -- ?\n, @P1 /* ? */ WHERE x = @P2 AND y = 'it''s ?'",
                RpcRequestBuilder.numberPlaceholders(
                        "SELECT '?', [a?b], ? -- ?\n, ? /* ? */ WHERE x = ? AND y = 'it''s ?'"));
    }

    @Test
    void boundParametersRoundTripAndAreNeverSqlText() throws Exception {
        String hostile = "x'); DROP TABLE [dbo].[kv]; --? ñ😀";
        try (DirectSqlChannel c = channel()) {
            assertEquals(1, c.update("INSERT INTO [dbo].[kv] ([k], [v], [n]) VALUES (?, ?, ?)", hostile, 42L, 7));
            assertEquals(1, c.update("INSERT INTO [dbo].[kv] ([k], [v], [n]) VALUES (?, ?, ?)", "nulls", null, null));
            List<Object[]> rows = c.query("SELECT [k], [v], [n] FROM [dbo].[kv] WHERE [k] = ?", hostile);
            assertEquals(1, rows.size());
            assertArrayEquals(new Object[] {hostile, 42L, 7}, rows.get(0));
            List<Object[]> nulls = c.query("SELECT [v], [n] FROM [dbo].[kv] WHERE [k] = ?", "nulls");
            assertArrayEquals(new Object[] {null, null}, nulls.get(0));
            assertTrue(c.query("SELECT [k] FROM [dbo].[kv] WHERE [k] = ?", "absent").isEmpty());
        }
        assertEquals(1, jdbcCount(hostile));
    }

    @Test
    void rollbackDiscardsAndCommitKeepsTheTransactionsWork() throws Exception {
        try (DirectSqlChannel c = channel()) {
            c.setAutoCommit(false);
            assertFalse(c.getAutoCommit());
            c.update("INSERT INTO [dbo].[kv] ([k], [v]) VALUES (?, ?)", "rolled", 1L);
            assertEquals(1, c.query("SELECT [k] FROM [dbo].[kv] WHERE [k] = ?", "rolled").size(),
                    "visible inside the transaction");
            c.rollback();
            assertEquals(0, c.query("SELECT [k] FROM [dbo].[kv] WHERE [k] = ?", "rolled").size());
            c.update("INSERT INTO [dbo].[kv] ([k], [v]) VALUES (?, ?)", "committed", 2L);
            c.commit();
            c.setAutoCommit(true);
            assertTrue(c.getAutoCommit());
        }
        assertEquals(1, jdbcCount("committed"));
        assertEquals(0, jdbcCount("rolled"));
    }

    @Test
    void closingWithAnOpenTransactionRollsItBack() throws Exception {
        DirectSqlChannel c = channel();
        c.setAutoCommit(false);
        c.update("INSERT INTO [dbo].[kv] ([k], [v]) VALUES (?, ?)", "abandoned", 1L);
        c.close();
        // The server rolls back what a closed session did not commit.
        for (int i = 0; i < 100 && SERVER.emulator().openConnections() > 0; i++) {
            Thread.sleep(20);
        }
        assertEquals(0, jdbcCount("abandoned"));
    }

    @Test
    void transactionDescriptorFollowsTheServersEnvChanges() throws Exception {
        try (DirectTdsConnection c = DirectTdsConnection.open(DirectTdsConnection.options().host("localhost")
                .port(SERVER.emulator().port()).user(SERVER.emulator().user()).password(SERVER.emulator().password())
                .trustServerCertificate(true))) {
            assertFalse(c.inTransaction());
            c.executeBatch("BEGIN TRANSACTION");
            assertTrue(c.inTransaction());
            c.execute("INSERT INTO [dbo].[kv] ([k], [v]) VALUES (?, ?)", "in-tx", 3L);
            c.executeBatch("COMMIT TRANSACTION");
            assertFalse(c.inTransaction());
        }
        assertEquals(1, jdbcCount("in-tx"));
    }

    @Test
    void serverErrorsKeepTheirNumberAndTheChannelStaysUsable() throws Exception {
        try (DirectSqlChannel c = channel()) {
            SQLException missing = assertThrows(SQLException.class,
                    () -> c.query("SELECT * FROM [dbo].[no_such_table]"));
            assertEquals(208, missing.getErrorCode());
            assertFalse(SqlServerErrors.isTransient(missing));
            c.update("INSERT INTO [dbo].[kv] ([k]) VALUES (?)", "pk");
            SQLException duplicate = assertThrows(SQLException.class,
                    () -> c.update("INSERT INTO [dbo].[kv] ([k]) VALUES (?)", "pk"));
            assertEquals(2627, duplicate.getErrorCode());
            assertFalse(c.isClosed());
            assertEquals(1, c.query("SELECT [k] FROM [dbo].[kv] WHERE [k] = ?", "pk").size());
        }
    }

    @Test
    void aBrokenConnectionIsAConnectionFailure() throws Exception {
        DirectSqlChannel c = channel();
        c.close();
        SQLException e = assertThrows(SQLException.class, () -> c.execute("SELECT 1"));
        assertTrue(SqlServerErrors.isConnectionFailure(e), e.getSQLState());
    }
}
