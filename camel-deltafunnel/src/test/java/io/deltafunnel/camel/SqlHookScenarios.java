package io.deltafunnel.camel;

import java.util.ArrayList;
import java.util.List;

import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.WorkOutcome;
import io.deltafunnel.mssql.session.HookFailedException;
import io.deltafunnel.mssql.session.SqlHooks;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * preSql and postSql through the route (issue 26, section 5; docs/producer.md "SQL hooks"): the hooks' effects are
 * committed with the load, see the run's values as T-SQL variables, run in the documented order (after the truncate,
 * before the first batch; after the last batch or the final step), once per run with {@code transaction=batch}, and a
 * failing hook rolls the run back with a {@link HookFailedException} naming hook, batch and error number. Each test
 * writes an audit table {@code <table>_audit} from its hooks. Run against the emulator with both encoders
 * ({@code SqlHookRouteTest}, {@code SqlHookDirectRouteTest}) and against SQL Server ({@code SqlHookRouteIT}).
 */
abstract class SqlHookScenarios extends MssqlRouteTestSupport {

    static final String FIFTY = AbstractMssqlScenarios.FIFTY;

    @BeforeEach
    void tables(TestInfo info) throws Exception {
        nameTable(info);
        drop(table);
        drop(audit());
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20) NULL)");
        exec("CREATE TABLE [dbo].[" + audit() + "] ([seq] int IDENTITY(1,1) NOT NULL, [hook] nvarchar(10) NULL,"
                + " [run_id] nvarchar(200) NULL, [target] nvarchar(300) NULL, [schema_name] nvarchar(128) NULL,"
                + " [table_name] nvarchar(128) NULL, [write_mode] nvarchar(20) NULL, [n] bigint NULL,"
                + " [batches] bigint NULL, [load_id] nvarchar(200) NULL, [seen] bigint NULL)");
    }

    protected void drop(String name) throws Exception {
        exec("IF OBJECT_ID('dbo." + name + "') IS NOT NULL DROP TABLE [dbo].[" + name + "]");
    }

    protected String audit() {
        return table + "_audit";
    }

    /** A hook writing one audit row with every variable, and how many rows the target holds now. */
    protected String auditHook() {
        return "DECLARE @seen bigint; SELECT @seen = COUNT(*) FROM [dbo].[" + table + "];"
                + " INSERT INTO [dbo].[" + audit() + "] ([hook], [run_id], [target], [schema_name], [table_name],"
                + " [write_mode], [n], [batches], [load_id], [seen]) VALUES (@deltafunnel_hook, @deltafunnel_run_id,"
                + " @deltafunnel_target, @deltafunnel_schema, @deltafunnel_table, @deltafunnel_write_mode,"
                + " @deltafunnel_rows, @deltafunnel_batches, @deltafunnel_load_id, @seen)";
    }

    /** URL-safe: the hook text as a RAW() option value. */
    protected static String raw(String sql) {
        return "RAW(" + sql + ")";
    }

    /** The audit rows: hook, target, schema, table, write mode, rows, batches, load id, rows seen in the target. */
    protected List<List<Object>> auditRows() throws Exception {
        return query("SELECT [hook], [target], [schema_name], [table_name], [write_mode], [n], [batches], [load_id],"
                + " [seen] FROM [dbo].[" + audit() + "] ORDER BY [seq]");
    }

    protected List<List<Object>> contents() throws Exception {
        return query("SELECT [id], [name] FROM [dbo].[" + table + "] ORDER BY [id]");
    }

    protected void seedOld(int rows) throws Exception {
        for (int i = 0; i < rows; i++) {
            exec("INSERT INTO [dbo].[" + table + "] ([id], [name]) VALUES (" + (1000 + i) + ", N'old')");
        }
    }

    private static List<Object> row(Object... values) {
        return java.util.Arrays.asList(values);
    }

    @Test
    void postSqlAuditRowIsCommittedWithTheLoadAndSeesTheVariables() throws Exception {
        runRoute(source(FIFTY, 10), mssql("preSql=" + raw(auditHook()) + "&postSql=" + raw(auditHook())), 5, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(AbstractMssqlScenarios.fiftyNewRows(), contents());
        String target = "dbo." + table;
        assertEquals(List.of(row("preSql", target, "dbo", table, "append", 0L, 0L, null, 0L),
                row("postSql", target, "dbo", table, "append", 50L, 5L, null, 50L)), auditRows());
        List<List<Object>> runIds = query("SELECT DISTINCT [run_id] FROM [dbo].[" + audit() + "]");
        assertEquals(1, runIds.size(), runIds::toString);
        assertNotNull(runIds.get(0).get(0));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void aFailingPostSqlRollsTheRunBack() throws Exception {
        seedOld(3);
        List<List<Object>> before = contents();
        // The first batch of postSql writes its audit row, the second fails: everything goes.
        String post = auditHook() + "\nGO\nINSERT INTO [dbo].[" + table + "] ([id], [name]) VALUES (1 / 0, N'x')";
        // A multi-line hook set on the endpoint's configuration, as a route's bean or YAML property would be.
        String uri = mssql("maxRetries=0&preSql=" + raw(auditHook()));
        context.getEndpoint(uri, DeltaFunnelMssqlEndpoint.class).getConfiguration().setPostSql(post);
        runRoute(source(FIFTY, 10), uri, 5, null);
        HookFailedException e = singleHookFailure();
        assertEquals(SqlHooks.Hook.POST_SQL, e.hook());
        assertEquals(2, e.batch());
        assertEquals(2, e.batches());
        assertEquals(3, e.firstLine());
        assertEquals(8134, e.errorNumber());
        assertEquals(WorkOutcome.ROLLED_BACK, e.outcome());
        assertEquals(50, e.stats().outputRows(), "what was accepted before: " + e.stats());
        assertTrue(e.getMessage().contains("postSql failed in batch 2 of 2") && e.getMessage().contains(table),
                e.getMessage());
        assertEquals(before, contents());
        assertEquals(List.of(), auditRows());
        stopAndAssertNoArrowLeak();
    }

    @Test
    void aFailingPreSqlRollsTheRunBackBeforeAnyRowIsWritten() throws Exception {
        seedOld(2);
        List<List<Object>> before = contents();
        runRoute(source(FIFTY, 10), mssql("writeMode=truncate&maxRetries=0&preSql="
                + raw("INSERT INTO [dbo].[no_such_table_" + table + "] ([x]) VALUES (1)")), 1, null);
        HookFailedException e = singleHookFailure();
        assertEquals(SqlHooks.Hook.PRE_SQL, e.hook());
        assertEquals(208, e.errorNumber());
        assertEquals(0, e.stats().outputRows());
        assertEquals(WorkOutcome.ROLLED_BACK, e.outcome());
        assertEquals(before, contents(), "the truncate is rolled back with the run");
        stopAndAssertNoArrowLeak();
    }

    @Test
    void truncateModeRunsPreSqlAfterTheTruncateAndBeforeTheFirstBatch() throws Exception {
        seedOld(3);
        runRoute(source(FIFTY, 10), mssql("writeMode=truncate&preSql=" + raw(auditHook()) + "&postSql="
                + raw(auditHook())), 5, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(AbstractMssqlScenarios.fiftyNewRows(), contents());
        List<List<Object>> audit = auditRows();
        assertEquals(List.of("preSql", 0L, 0L), List.of(audit.get(0).get(0), audit.get(0).get(5),
                audit.get(0).get(8)), "preSql sees the target truncated and nothing written yet");
        assertEquals(List.of("postSql", 50L, 50L), List.of(audit.get(1).get(0), audit.get(1).get(5),
                audit.get(1).get(8)));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void transactionBatchRunsEachHookOncePerRunInItsOwnTransaction() throws Exception {
        runRoute(source(FIFTY, 10), mssql("transaction=batch&preSql=" + raw(auditHook()) + "&postSql="
                + raw(auditHook())), 5, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(50, count(table));
        assertEquals(List.of(row("preSql", 0L, 0L), row("postSql", 50L, 50L)),
                query("SELECT [hook], [n], [seen] FROM [dbo].[" + audit() + "] ORDER BY [seq]"));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void transactionBatchPostSqlFailureLeavesTheCommittedBatches() throws Exception {
        runRoute(source(FIFTY, 10), mssql("transaction=batch&maxRetries=0&preSql=" + raw(auditHook())
                + "&postSql=" + raw("SELECT 1 / 0")), 5, null);
        HookFailedException e = singleHookFailure();
        assertEquals(SqlHooks.Hook.POST_SQL, e.hook());
        assertEquals(WorkOutcome.COMMITTED, e.outcome());
        assertEquals(50, e.stats().outputRows());
        assertEquals(50, count(table), "the batches committed one by one stay");
        assertEquals(1, auditRows().size(), "preSql committed in its own transaction");
        stopAndAssertNoArrowLeak();
    }

    @Test
    void replaceRunsTheHooksInTheFinalTransaction() throws Exception {
        seedOld(4);
        runRoute(source(FIFTY, 10), mssql("writeMode=replace&preSql=" + raw(auditHook()) + "&postSql="
                + raw(auditHook())), 5, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(AbstractMssqlScenarios.fiftyNewRows(), contents());
        assertEquals(List.of(row("preSql", "replace", 50L, 4L), row("postSql", "replace", 50L, 50L)),
                query("SELECT [hook], [write_mode], [n], [seen] FROM [dbo].[" + audit() + "] ORDER BY [seq]"),
                "preSql sees the old rows (the staging table is loaded), postSql the new ones");
        stopAndAssertNoArrowLeak();
    }

    @Test
    void aFailingPostSqlLeavesAReplacedTargetAsBefore() throws Exception {
        seedOld(4);
        List<List<Object>> before = contents();
        runRoute(source(FIFTY, 10), mssql("writeMode=replace&maxRetries=0&preSql=" + raw(auditHook())
                + "&postSql=" + raw("SELECT 1 / 0")), 5, null);
        HookFailedException e = singleHookFailure();
        assertEquals(WorkOutcome.ROLLED_BACK, e.outcome());
        assertEquals(before, contents());
        assertEquals(List.of(), auditRows());
        assertEquals(List.of(), query("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE '"
                + table + "[_][_]df[_]%'"), "staging and holding tables dropped");
        stopAndAssertNoArrowLeak();
    }

    @Test
    void mergeRunsPostSqlAfterTheMerge() throws Exception {
        exec("DELETE FROM [dbo].[" + table + "]");
        exec("INSERT INTO [dbo].[" + table + "] ([id], [name]) VALUES (0, N'old'), (99, N'kept')");
        runRoute(source(FIFTY, 10), mssql("writeMode=merge&keyColumns=id&postSql=" + raw(auditHook())), 5, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(List.of(row("postSql", "merge", 50L, 51L)),
                query("SELECT [hook], [write_mode], [n], [seen] FROM [dbo].[" + audit() + "]"));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void resourceClasspathHook() throws Exception {
        runRoute(source(FIFTY, 25), mssql("postSql=resource:classpath:hooks/audit-post.sql"), 2, null);
        assertTrue(failures.isEmpty(), () -> failures.toString());
        assertEquals(List.of(row("postSql", "dbo." + table, 50L)),
                query("SELECT [hook], [target], [n] FROM [dbo].[" + audit() + "]"));
        stopAndAssertNoArrowLeak();
    }

    protected HookFailedException singleHookFailure() {
        List<BulkLoadException> all = new ArrayList<>(finalFailures());
        assertEquals(1, all.size(), all::toString);
        return assertInstanceOf(HookFailedException.class, all.get(0), all.get(0)::toString);
    }
}
