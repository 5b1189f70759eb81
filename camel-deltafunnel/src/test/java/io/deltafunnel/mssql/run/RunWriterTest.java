package io.deltafunnel.mssql.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;

import io.deltafunnel.arrow.RecordBatches;
import io.deltafunnel.emulator.fidelity.EmulatorServer;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.mssql.BulkEncoder;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.TransactionMode;
import io.deltafunnel.mssql.WriteMode;
import io.deltafunnel.mssql.channel.ConnectionSettings;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link RunWriter} without a CamelContext: runs, attempts, in-place retries and replay requests. */
class RunWriterTest {

    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(b -> b.port(0).sinkMode(false));

    private static final RetryPolicy RETRY = new RetryPolicy(2, Duration.ZERO, 1.0, Duration.ZERO);

    static Connection jdbc() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", SERVER.emulator().user());
        p.setProperty("password", SERVER.emulator().password());
        return DriverManager.getConnection(SERVER.emulator().jdbcUrl(), p);
    }

    static void exec(String sql) throws SQLException {
        try (Connection c = jdbc(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    static long count(String table) throws SQLException {
        try (Connection c = jdbc(); Statement st = c.createStatement();
             var rs = st.executeQuery("SELECT COUNT(*) FROM [dbo].[" + table + "]")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    static RunWriter writer(BulkLoadSettings settings, BulkEncoder encoder, int maxOpenRuns) {
        ConnectionSettings connection = new ConnectionSettings(null, SERVER.emulator().jdbcUrl(),
                SERVER.emulator().user(), SERVER.emulator().password(), 0, null);
        return new RunWriter(settings, ChannelFactory.channels("test", connection, encoder, false, false), RETRY,
                maxOpenRuns, d -> true);
    }

    static VectorSchemaRoot batch(BufferAllocator a, int from, int rows) {
        IntVector id = new IntVector("id", a);
        VarCharVector name = new VarCharVector("name", a);
        id.allocateNew(rows);
        name.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
            id.set(i, from + i);
            name.setSafe(i, ("n" + (from + i)).getBytes(StandardCharsets.UTF_8));
        }
        VectorSchemaRoot root = new VectorSchemaRoot(List.of(id, name));
        root.setRowCount(rows);
        return root;
    }

    static RunWriter.Written write(RunWriter w, BufferAllocator a, String run, int attempt, int index, boolean last,
            int rows, List<HandoffStats> progress) {
        try (VectorSchemaRoot root = batch(a, index * 1000, rows);
             RecordBatches batches = RecordBatches.borrowing(root)) {
            return w.write(new RunWriter.Batch(run, false, attempt, index, last, null, null), batches,
                    progress::add);
        }
    }

    @ParameterizedTest
    @EnumSource(value = BulkEncoder.class, names = {"DRIVER", "DIRECT"})
    void concurrentRunsKeepTheirSessionsAndABatchTooManyIsRefused(BulkEncoder encoder) throws Exception {
        String table = "rw_runs_" + encoder.name().toLowerCase();
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20) NULL)");
        List<HandoffStats> progress = new CopyOnWriteArrayList<>();
        try (BufferAllocator a = new RootAllocator();
             RunWriter w = writer(BulkLoadSettings.defaults(new TableName("dbo", table)), encoder, 2)) {
            write(w, a, "r1", 1, 0, false, 5, progress);
            write(w, a, "r2", 1, 0, false, 7, progress);
            assertEquals(List.of("r1", "r2"), w.openRunIds());
            TooManyOpenRunsException refused = assertThrows(TooManyOpenRunsException.class,
                    () -> write(w, a, "r3", 1, 0, true, 1, progress));
            assertEquals(List.of("r1", "r2"), refused.openRunIds());
            RunWriter.Written done = write(w, a, "r1", 1, 1, true, 3, progress);
            assertEquals(8, done.stats().outputRows());
            assertEquals(null, done.loadStatus());
            assertEquals(List.of("r2"), w.openRunIds()); // (the table is read after close: r2 still locks it)
        }
        assertEquals(8, count(table), "r1 committed, close() discarded the open run r2");
        assertEquals(8, progress.get(progress.size() - 1).outputRows());
    }

    @Test
    void aBatchModeAppendIsRetriedInPlaceOnANewConnection() throws Exception {
        exec("CREATE TABLE [dbo].[rw_inplace] ([id] int NOT NULL, [name] nvarchar(20) NULL)");
        BulkLoadSettings settings = BulkLoadSettings.defaults(new TableName("dbo", "rw_inplace"))
                .withTransactionMode(TransactionMode.BATCH);
        try (BufferAllocator a = new RootAllocator(); RunWriter w = writer(settings, BulkEncoder.DRIVER, 1)) {
            write(w, a, "r", 1, 0, false, 4, new CopyOnWriteArrayList<>());
            SERVER.emulator().faults().failBulkLoad(1, 0, 1205); // a deadlock victim: transient
            RunWriter.Written done = write(w, a, "r", 1, 1, true, 6, new CopyOnWriteArrayList<>());
            assertEquals(10, done.stats().outputRows());
            assertEquals(2, done.stats().outputBatches());
        }
        assertEquals(10, count("rw_inplace"));
    }

    @Test
    void aRunModeFailureAsksForAReplayAndRefusesTheRestOfTheAttempt() throws Exception {
        exec("CREATE TABLE [dbo].[rw_replay] ([id] int NOT NULL, [name] nvarchar(20) NULL)");
        BulkLoadSettings settings = BulkLoadSettings.defaults(new TableName("dbo", "rw_replay"))
                .withWriteMode(WriteMode.REPLACE, List.of());
        try (BufferAllocator a = new RootAllocator(); RunWriter w = writer(settings, BulkEncoder.DRIVER, 1)) {
            write(w, a, "r", 1, 0, false, 4, new CopyOnWriteArrayList<>());
            SERVER.emulator().faults().failBulkLoad(1, 0, 1205);
            RunReplayException replay = assertThrows(RunReplayException.class,
                    () -> write(w, a, "r", 1, 1, false, 6, new CopyOnWriteArrayList<>()));
            assertEquals(2, replay.attempt());
            // The same batch again (a redelivery) gets the same failure; the next batch of attempt 1 is refused.
            BulkLoadException again = assertThrows(BulkLoadException.class,
                    () -> write(w, a, "r", 1, 1, false, 6, new CopyOnWriteArrayList<>()));
            assertSame(replay, again);
            assertInstanceOf(RunRefusedException.class, assertThrows(BulkLoadException.class,
                    () -> write(w, a, "r", 1, 2, true, 1, new CopyOnWriteArrayList<>())));
            assertEquals(0, count("rw_replay"));
            write(w, a, "r", 2, 0, false, 4, new CopyOnWriteArrayList<>());
            assertEquals(10, write(w, a, "r", 2, 1, true, 6, new CopyOnWriteArrayList<>()).stats().outputRows());
        }
        assertEquals(10, count("rw_replay"));
    }
}
