package io.deltafunnel.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.deltafunnel.arrow.read.UnsupportedArrowTypeException;
import io.deltafunnel.handoff.HandoffException;
import io.deltafunnel.handoff.QuerySetupException;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.WorkOutcome;
import io.deltafunnel.mssql.bind.ColumnMappingException;
import io.deltafunnel.mssql.bind.ValueOutOfRangeException;

import org.apache.camel.Exchange;
import org.apache.camel.builder.NotifyBuilder;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;

/**
 * One test per kind of bad input: each asserts the error's type, the key words of its message, and that the target
 * is unchanged. (Delta-specific bad inputs are covered with the Delta reader.)
 */
class MssqlBadInputTest extends EmulatorRouteTestSupport {

    private List<List<Object>> before;

    /** {@code [id] int NOT NULL, [name] <nameType>} with one row that must survive every failure. */
    private void target(String nameType) throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] " + nameType + " NULL)",
                "INSERT INTO [dbo].[" + table + "] ([id], [name]) VALUES (1000, N'old')");
        before = contents();
    }

    private List<List<Object>> contents() throws Exception {
        return query("SELECT * FROM [dbo].[" + table + "] ORDER BY 1");
    }

    private void assertUnchanged() throws Exception {
        assertEquals(before, contents(), "the target changed");
    }

    private BulkLoadException single() {
        assertEquals(1, failures.size(), failures::toString);
        return failures.get(0);
    }

    private static void assertMentions(Exception e, String... words) {
        for (String w : words) {
            assertTrue(e.getMessage().contains(w), () -> "'" + w + "' not in: " + e.getMessage());
        }
    }

    @Test
    void badSql() throws Exception {
        target("nvarchar(20)");
        List<Exception> errors = new CopyOnWriteArrayList<>();
        String src = "deltafunnel:bad?query=RAW(SELEC id FROM nowhere)&repeatCount=1&initialDelay=0"
                + "&bridgeErrorHandler=true";
        NotifyBuilder done = new NotifyBuilder(context).whenDone(1).create();
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                onException(HandoffException.class).handled(true)
                        .process(e -> errors.add(e.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class)));
                from(src).to(mssql(""));
            }
        });
        assertTrue(done.matches(30, TimeUnit.SECONDS));
        assertEquals(1, errors.size(), errors::toString);
        QuerySetupException e = assertInstanceOf(QuerySetupException.class, errors.get(0));
        assertMentions(e, "deltafunnel:bad", "query could not be started", "SELEC");
        assertEquals(0, e.stats().inputBatches());
        assertUnchanged();
        context.stop();
    }

    @Test
    void missingTargetWithoutCreateTable() throws Exception {
        runRoute(source("SELECT 1 AS id", 10), mssql("createTable=false"), 1, null);
        ColumnMappingException e = assertInstanceOf(ColumnMappingException.class, single());
        assertMentions(e, "dbo." + table, "does not exist", "createTable=true");
        assertEquals(List.of(), query("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME = '"
                + table + "'"), "nothing was created");
        stopAndAssertNoArrowLeak();
    }

    @Test
    void targetMissingASourceColumn() throws Exception {
        target("nvarchar(20)");
        runRoute(source("SELECT 1 AS id, 'x' AS name, 2.5 AS price", 10), mssql(""), 1, null);
        ColumnMappingException e = assertInstanceOf(ColumnMappingException.class, single());
        assertEquals("price", e.column());
        assertMentions(e, "dbo." + table, "price", "has no target column");
        assertUnchanged();
        stopAndAssertNoArrowLeak();
    }

    @Test
    void targetColumnTooShort() throws Exception {
        target("nvarchar(5)");
        runRoute(source(AbstractMssqlScenarios.FIFTY_BAD_AT_25, 10), mssql(""), 3, null);
        ValueOutOfRangeException e = assertInstanceOf(ValueOutOfRangeException.class, single());
        assertEquals("name", e.column());
        assertEquals(25, e.rowInRun());
        assertEquals(WorkOutcome.ROLLED_BACK, e.outcome());
        assertMentions(e, "dbo." + table, "column name", "row 5 of the batch (row 25 of the run)", "12 characters",
                "longer than", "nvarchar(5)");
        assertUnchanged();
        stopAndAssertNoArrowLeak();
    }

    @Test
    void decimalOverflow() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [amount] decimal(5,2) NULL)",
                "INSERT INTO [dbo].[" + table + "] ([id], [amount]) VALUES (1000, 1.25)");
        before = contents();
        runRoute(source("SELECT i::INTEGER AS id, (CASE WHEN i = 7 THEN 12345.6 ELSE 1.5 END)::DECIMAL(10,2) AS amount"
                + " FROM range(0, 10) t(i) ORDER BY i", 10), mssql(""), 1, null);
        ValueOutOfRangeException e = assertInstanceOf(ValueOutOfRangeException.class, single());
        assertEquals("amount", e.column());
        assertEquals(7, e.rowInRun());
        assertMentions(e, "dbo." + table, "12345.60", "does not fit", "decimal(5,2)");
        assertUnchanged();
        stopAndAssertNoArrowLeak();
    }

    @Test
    void nullIntoNotNull() throws Exception {
        target("nvarchar(20)");
        runRoute(source("SELECT CASE WHEN i = 4 THEN NULL ELSE i END::INTEGER AS id, 'n' AS name"
                + " FROM range(0, 10) t(i) ORDER BY i", 10), mssql(""), 1, null);
        ValueOutOfRangeException e = assertInstanceOf(ValueOutOfRangeException.class, single());
        assertEquals("id", e.column());
        assertEquals(4, e.rowInRun());
        assertMentions(e, "dbo." + table, "NULL into NOT NULL column id");
        assertUnchanged();
        stopAndAssertNoArrowLeak();
    }

    @Test
    void arrowTypeThatCannotBeMapped() throws Exception {
        target("nvarchar(20)");
        runRoute(source("SELECT 1 AS id, INTERVAL 3 DAY AS name", 10), mssql(""), 1, null);
        ColumnMappingException e = assertInstanceOf(ColumnMappingException.class, single());
        assertInstanceOf(UnsupportedArrowTypeException.class, e.getCause());
        assertEquals("name", e.column());
        assertMentions(e, "dbo." + table, "Arrow type", "cannot be written to SQL Server");
        assertUnchanged();
        stopAndAssertNoArrowLeak();
    }

    /** A name with ], ;, both quotes and --: only ever quoted as an identifier, never executed. */
    static final String HOSTILE = "x]; DROP TABLE dbo.victim; --'\"";

    private static String bracketed(String name) {
        return "[" + name.replace("]", "]]") + "]";
    }

    @Test
    void hostileTableNameIsQuotedNeverExecuted() throws Exception {
        dropIfExists("victim");
        exec("IF OBJECT_ID('dbo." + bracketed(HOSTILE).replace("'", "''") + "') IS NOT NULL DROP TABLE [dbo]."
                + bracketed(HOSTILE));
        exec("CREATE TABLE [dbo].[victim] ([id] int NOT NULL)", "INSERT INTO [dbo].[victim] ([id]) VALUES (7)");

        DeltaFunnelMssqlEndpoint missing = context.getEndpoint(mssql("createTable=false"),
                DeltaFunnelMssqlEndpoint.class);
        missing.getConfiguration().setTable("dbo." + bracketed(HOSTILE));
        runRoute(source("SELECT 1 AS id", 10), missing.getEndpointUri(), 1, null);
        // The endpoint URI above resolves to the same endpoint instance, whose table was set programmatically.
        ColumnMappingException e = assertInstanceOf(ColumnMappingException.class, single());
        assertMentions(e, "does not exist", HOSTILE);
        assertEquals(List.of(List.of(7)), query("SELECT [id] FROM [dbo].[victim]"), "victim was touched");

        failures.clear();
        DeltaFunnelMssqlEndpoint created = context.getEndpoint(mssql("createTable=true"),
                DeltaFunnelMssqlEndpoint.class);
        created.getConfiguration().setTable("dbo." + bracketed(HOSTILE));
        runRoute(source("SELECT 1 AS id", 10), created.getEndpointUri(), 1, null);
        assertEquals(List.of(), failures);
        assertEquals(List.of(List.of(1)), query("SELECT [id] FROM [dbo]." + bracketed(HOSTILE)));
        assertEquals(List.of(List.of(7)), query("SELECT [id] FROM [dbo].[victim]"), "victim was touched");
        stopAndAssertNoArrowLeak();
    }

    @Test
    void wrongPasswordIsNotRetriedAndNeverShown() throws Exception {
        target("nvarchar(20)");
        String wrong = "Wr0ng-" + System.nanoTime();
        String uri = "deltafunnel-mssql:dbo." + table + "?url=RAW(" + jdbcUrl() + ")&username=" + user()
                + "&password=RAW(" + wrong + ")&retryDelay=1" + encoderOptions();
        runRoute(source("SELECT 1 AS id, 'x' AS name", 10), uri, 1, null);
        BulkLoadException e = single();
        assertEquals(18456, e.errorNumber());
        assertNull(io.deltafunnel.handoff.ReplayRequest.find(e), "a login failure is permanent");
        assertMentions(e, "cannot connect to SQL Server", "Login failed", user());
        assertFalse(e.getMessage().contains(wrong), e.getMessage());
        for (Throwable t = e; t != null; t = t.getCause()) {
            assertFalse(String.valueOf(t.getMessage()).contains(wrong), t.toString());
        }
        assertUnchanged();
        stopAndAssertNoArrowLeak();
    }

    @Test
    void unreachableServerFailsWithinTheLoginTimeout() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        String url = "jdbc:sqlserver://localhost:" + closedPort + ";databaseName=master;encrypt=true;"
                + "trustServerCertificate=true";
        String uri = "deltafunnel-mssql:dbo." + table + "?url=RAW(" + url + ")&username=sa&password=RAW(x)"
                + "&loginTimeout=2&maxRetries=0" + encoderOptions();
        // runRoute waits at most 60 s: a hanging connect would fail the test instead of blocking the build.
        runRoute(source("SELECT 1 AS id", 10), uri, 1, null);
        BulkLoadException e = single();
        assertMentions(e, "dbo." + table, "cannot connect to SQL Server", Integer.toString(closedPort));
        assertTrue(io.deltafunnel.mssql.SqlServerErrors.isTransient(e), "a refused connection is transient");
        assertEquals(0, e.stats().outputBatches());
        stopAndAssertNoArrowLeak();
    }
}
