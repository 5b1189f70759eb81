package io.deltafunnel.camel;

import java.util.List;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import io.deltafunnel.emulator.fidelity.ServerUnderTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SqlHookScenarios} against the emulator with {@code bulkEncoder=driver}, plus what needs its fault injection:
 * a transient failure of postSql with {@code transaction=batch} is retried in place without writing the last batch
 * again.
 */
class SqlHookRouteTest extends SqlHookScenarios {

    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(b -> b.port(0).sinkMode(false));

    @Override
    protected ServerUnderTest server() {
        return SERVER;
    }

    @BeforeEach
    @AfterEach
    void clearFaults() {
        SERVER.emulator().faults().clear();
    }

    @Test
    void aTransientPostSqlFailureWithTransactionBatchRunsOnlyPostSqlAgain() throws Exception {
        String post = "/* post-marker */ INSERT INTO [dbo].[" + audit() + "] ([hook], [n])"
                + " VALUES (@deltafunnel_hook, @deltafunnel_rows)";
        // The hook's batch (inside sp_executesql) fails once with a deadlock, before anything of it runs.
        SERVER.emulator().faults().failStatement("post-marker", 1205);
        try (LogLines log = new LogLines(io.deltafunnel.mssql.run.RunWriter.class)) {
            runRoute(source(FIFTY, 10), mssql("transaction=batch&retryDelay=10&preSql=" + raw(auditHook())
                    + "&postSql=" + raw(post)), 5, null);
            assertEquals(1, log.containing("transient failure").size(), log.all()::toString);
        }
        assertTrue(finalFailures().isEmpty(), () -> failures.toString());
        assertEquals(50, count(table), "the last batch is not written twice");
        assertEquals(List.of(List.of("preSql", 0L), List.of("postSql", 50L)),
                query("SELECT [hook], [n] FROM [dbo].[" + audit() + "] ORDER BY [seq]"));
        stopAndAssertNoArrowLeak();
    }
}
