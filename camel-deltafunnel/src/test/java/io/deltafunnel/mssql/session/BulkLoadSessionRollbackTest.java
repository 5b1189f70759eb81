package io.deltafunnel.mssql.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import io.deltafunnel.mssql.BulkEncoder;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.WorkOutcome;
import io.deltafunnel.mssql.WriteMode;
import io.deltafunnel.mssql.channel.ConnectionSettings;
import io.deltafunnel.mssql.channel.SqlChannelProvider;
import io.deltafunnel.mssql.run.ChannelFactory;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A run whose rollback fails after a failed batch (both encoders, with the emulator's fault injection): the
 * connection is aborted, auto-commit is never switched on over the open transaction, nothing of the run is
 * committed, and the rollback's failure is reported suppressed on the batch's failure.
 */
class BulkLoadSessionRollbackTest {

    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(b -> b.port(0).sinkMode(false));

    @AfterEach
    void clearFaults() {
        SERVER.emulator().faults().clear();
    }

    private static SqlChannelProvider channels(BulkEncoder encoder) {
        return ChannelFactory.channels("test", new ConnectionSettings(null, SERVER.jdbcUrl(), SERVER.user(),
                SERVER.password(), 0, null), encoder, false, false);
    }

    private static void exec(String sql) throws SQLException {
        try (var c = SERVER.connect(); var st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static List<Throwable> suppressedChain(Throwable t) {
        List<Throwable> out = new ArrayList<>();
        for (Throwable s : t.getSuppressed()) {
            out.add(s);
            out.addAll(suppressedChain(s));
        }
        return out;
    }

    private static boolean hasErrorNumber(Throwable t, int number) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SQLException sql && sql.getErrorCode() == number) {
                return true;
            }
        }
        return false;
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"DRIVER, APPEND", "DIRECT, APPEND", "DRIVER, REPLACE", "DIRECT, REPLACE"})
    void aFailedRollbackAbortsTheConnectionAndCommitsNothing(BulkEncoder encoder, WriteMode mode) throws Exception {
        String table = ("rb_" + encoder + "_" + mode).toLowerCase(java.util.Locale.ROOT);
        exec("IF OBJECT_ID('dbo." + table + "') IS NOT NULL DROP TABLE [dbo].[" + table + "]");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20))");
        BulkLoadSettings settings = BulkLoadSettings.defaults(new TableName("dbo", table)).withWriteMode(mode,
                List.of());
        try (BufferAllocator a = new RootAllocator(); VectorSchemaRoot root = BulkLoadSessionFallbackTest.batch(a, 7);
             BulkLoadSession s = BulkLoadSession.start("run-rb", settings, channels(encoder))) {
            s.write(root, false);
            // the second batch fails with an error that keeps the transaction (the first batch still in it), and
            // so does the rollback
            SERVER.emulator().faults().failBulkLoad(1, 3, 50000);
            SERVER.emulator().faults().failStatement("ROLLBACK TRAN", 50001);
            BulkLoadException e = assertThrows(BulkLoadException.class, () -> s.write(root, true));
            assertTrue(hasErrorNumber(e, 50000), e.toString());
            assertEquals(WorkOutcome.ROLLED_BACK, e.outcome());
            assertTrue(suppressedChain(e).stream().anyMatch(x -> hasErrorNumber(x, 50001)),
                    "the rollback failure is reported, suppressed on the batch's failure");
            assertEquals(BulkLoadSession.State.FAILED, s.state());
        }
        try (var c = SERVER.connect(); var st = c.createStatement();
             var rs = st.executeQuery("SELECT COUNT(*) FROM [dbo].[" + table + "]")) {
            rs.next();
            assertEquals(0, rs.getLong(1), "nothing of the run was committed");
        }
    }
}
