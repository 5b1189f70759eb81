package io.deltafunnel.mssql.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.WriteMode;
import io.deltafunnel.mssql.bind.ColumnMappingException;
import io.deltafunnel.mssql.channel.JdbcSqlChannel;
import io.deltafunnel.mssql.channel.SqlChannel;
import io.deltafunnel.mssql.channel.SqlChannelProvider;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A run whose channel cannot write its columns ({@link SqlChannel#cannotWrite}) switches to the provider's fallback
 * before anything is written, or fails naming the reason when there is none.
 */
class BulkLoadSessionFallbackTest {

    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(b -> b.port(0).sinkMode(false));

    static Connection jdbc() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", SERVER.emulator().user());
        p.setProperty("password", SERVER.emulator().password());
        return DriverManager.getConnection(SERVER.emulator().jdbcUrl(), p);
    }

    /** A driver channel that claims it cannot write, counting how often it was opened. */
    static SqlChannelProvider refusing(AtomicInteger opened, SqlChannelProvider fallback) {
        return new SqlChannelProvider() {
            @Override
            public SqlChannel open() throws SQLException {
                opened.incrementAndGet();
                JdbcSqlChannel real = new JdbcSqlChannel(jdbc());
                return (SqlChannel) java.lang.reflect.Proxy.newProxyInstance(SqlChannel.class.getClassLoader(),
                        new Class<?>[] {SqlChannel.class}, (proxy, m, args) -> {
                            if (m.getName().equals("cannotWrite")) {
                                return "column name: test refusal";
                            }
                            if (m.getName().equals("encoder")) {
                                return "refusing";
                            }
                            try {
                                return m.invoke(real, args);
                            } catch (java.lang.reflect.InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
            }

            @Override
            public SqlChannelProvider fallback() {
                return fallback;
            }
        };
    }

    static void create(String table) throws SQLException {
        try (Connection c = jdbc(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20))");
        }
    }

    static long count(String table) throws SQLException {
        try (Connection c = jdbc(); Statement st = c.createStatement();
             var rs = st.executeQuery("SELECT COUNT(*) FROM [dbo].[" + table + "]")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static VectorSchemaRoot batch(BufferAllocator a, int rows) {
        IntVector id = new IntVector("id", a);
        VarCharVector name = new VarCharVector("name", a);
        id.allocateNew(rows);
        name.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
            id.set(i, i);
            name.setSafe(i, ("n" + i).getBytes(StandardCharsets.UTF_8));
        }
        VectorSchemaRoot root = new VectorSchemaRoot(List.of(id, name));
        root.setRowCount(rows);
        return root;
    }

    @Test
    void switchesToTheFallbackBeforeWritingAnything() throws Exception {
        create("fb_ok");
        AtomicInteger opened = new AtomicInteger();
        SqlChannelProvider driver = SqlChannelProvider.driver(BulkLoadSessionFallbackTest::jdbc);
        BulkLoadSettings settings = BulkLoadSettings.defaults(new TableName("dbo", "fb_ok"))
                .withWriteMode(WriteMode.REPLACE, List.of());
        try (BufferAllocator a = new RootAllocator(); VectorSchemaRoot root = batch(a, 7);
             BulkLoadSession s = BulkLoadSession.start("run-fb", settings, refusing(opened, driver))) {
            s.write(root, false);
            assertEquals("driver", s.encoder());
            s.write(root, true);
            assertEquals(BulkLoadSession.State.COMMITTED, s.state());
            assertEquals(14, s.stats().outputRows());
        }
        assertEquals(1, opened.get());
        assertEquals(14, count("fb_ok"));
        try (Connection c = jdbc(); Statement st = c.createStatement();
             var rs = st.executeQuery("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE 'fb_ok__df%'")) {
            rs.next();
            assertEquals(0, rs.getLong(1), "the refused channel's staging table was dropped");
        }
    }

    @Test
    void theFallbackIsOneStepNotAChain() throws Exception {
        create("fb_once");
        AtomicInteger first = new AtomicInteger();
        AtomicInteger second = new AtomicInteger();
        AtomicInteger third = new AtomicInteger();
        // a fallback that cannot write either, although it names a fallback of its own: the run fails on it
        SqlChannelProvider never = refusing(third, null);
        BulkLoadSettings settings = BulkLoadSettings.defaults(new TableName("dbo", "fb_once"));
        try (BufferAllocator a = new RootAllocator(); VectorSchemaRoot root = batch(a, 3);
             BulkLoadSession s = BulkLoadSession.start("run-once", settings,
                     refusing(first, refusing(second, never)))) {
            ColumnMappingException e = assertThrows(ColumnMappingException.class, () -> s.write(root, true));
            assertTrue(e.getMessage().contains("test refusal") && e.getMessage().contains("bulkEncoder=refusing"),
                    e.getMessage());
            assertEquals(BulkLoadSession.State.FAILED, s.state());
        }
        assertEquals(1, first.get());
        assertEquals(1, second.get());
        assertEquals(0, third.get(), "no fallback of the fallback");
        assertEquals(0, count("fb_once"));
    }

    @Test
    void failsNamingTheReasonWithoutFallback() throws Exception {
        create("fb_none");
        BulkLoadSettings settings = BulkLoadSettings.defaults(new TableName("dbo", "fb_none"));
        try (BufferAllocator a = new RootAllocator(); VectorSchemaRoot root = batch(a, 3);
             BulkLoadSession s = BulkLoadSession.start("run-none", settings, refusing(new AtomicInteger(), null))) {
            ColumnMappingException e = assertThrows(ColumnMappingException.class, () -> s.write(root, true));
            assertTrue(e.getMessage().contains("test refusal") && e.getMessage().contains("bulkEncoderFallback"),
                    e.getMessage());
            assertEquals(BulkLoadSession.State.FAILED, s.state());
        }
        assertEquals(0, count("fb_none"));
    }
}
