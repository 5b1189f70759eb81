package io.deltafunnel.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import io.deltafunnel.emulator.fidelity.ServerUnderTest;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.SqlServerErrors;
import io.deltafunnel.mssql.WorkOutcome;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.camel.Exchange;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The end-to-end scenarios against the in-JVM SQL Server emulator, plus the emulator's fault injection. */
class MssqlEmulatorRouteTest extends AbstractMssqlScenarios {

    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(b -> b.port(0).password("Str0ng!Passw0rd").sinkMode(false));

    @AfterEach
    void clearFaults() {
        SERVER.emulator().faults().clear();
    }

    @Override
    protected ServerUnderTest server() {
        return SERVER;
    }

    /**
     * A target with a PRIMARY KEY and a UNIQUE constraint is replaced by a switch, not copied: the staging table gets
     * both keys (ALTER TABLE ... ADD CONSTRAINT, TargetShape), and the target keeps its object (its object_id, to
     * which SQL Server ties its permissions), its keys and their enforcement.
     */
    @Test
    void aPrimaryKeyTargetIsSwitchedAndKeepsItsKeys() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL CONSTRAINT [pk_" + table + "] PRIMARY KEY,"
                + " [name] nvarchar(20) NULL CONSTRAINT [uq_" + table + "] UNIQUE)");
        seedOld(1);
        List<List<Object>> shape = indexesAndChecks();
        assertEquals(List.of(List.of("pk_" + table, "CLUSTERED"), List.of("uq_" + table, "NONCLUSTERED")), shape);
        Object objectId = query("SELECT OBJECT_ID('dbo." + table + "')").get(0).get(0);
        try (LogLines log = new LogLines(io.deltafunnel.mssql.session.TableSwitch.class)) {
            runRoute(source(FIFTY, 10), mssql("writeMode=replace&replaceStrategy=switch"), 5, null);
            assertTrue(failures.isEmpty(), () -> failures.toString());
            assertEquals(1, log.containing("by ALTER TABLE ... SWITCH").size(), log.all()::toString);
            assertEquals(List.of(), log.containing("instead of switching"), log.all()::toString);
        }
        assertEquals(fiftyNewRows(), contents());
        assertEquals(shape, indexesAndChecks(), "the target keeps its keys");
        assertEquals(objectId, query("SELECT OBJECT_ID('dbo." + table + "')").get(0).get(0), "the same object");
        assertEquals(2627, assertThrowsSql(() -> exec("INSERT INTO [dbo].[" + table + "] ([id]) VALUES (3)")));
        assertNoStagingOrHolding();
        stopAndAssertNoArrowLeak();
    }

    /**
     * A staging shape that cannot be built (the loaded rows repeat a primary key value: 1505 building the key on the
     * staging table, after the load): replaceStrategy=switch fails with the target as before; auto logs one line with
     * the error and copies, where the duplicate fails the run (2627) with the target as before.
     */
    @Test
    void aStagingShapeThatCannotBeBuiltMakesAutoCopyAndSwitchFail() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL PRIMARY KEY, [name] nvarchar(20) NULL)");
        seedOld(7);
        List<List<Object>> before = contents();
        String duplicates = "SELECT (i % 40)::INTEGER AS id, 'v' || i AS name FROM range(0, 50) t(i) ORDER BY i";
        try (LogLines log = new LogLines(io.deltafunnel.mssql.session.TableSwitch.class)) {
            runRoute(source(duplicates, 10), mssql("writeMode=replace&replaceStrategy=switch&maxRetries=0"), 5, null);
            BulkLoadException e = singleFailure();
            assertTrue(e instanceof io.deltafunnel.mssql.session.SwitchRefusedException, e::toString);
            assertTrue(e.getMessage().contains(table) && e.getMessage().contains("1505"), e.getMessage());
            assertEquals(before, contents());
            assertNoStagingOrHolding();
            failures.clear();
            runRoute(source(duplicates, 10), mssql("writeMode=replace&maxRetries=0"), 5, null);
            assertEquals(2627, singleFailure().errorNumber(), () -> failures.toString());
            List<String> reasons = log.containing("instead of switching");
            assertEquals(1, reasons.size(), log.all()::toString);
            assertTrue(reasons.get(0).startsWith("WARN") && reasons.get(0).contains("error 1505"), reasons::toString);
        }
        assertEquals(before, contents());
        assertNoStagingOrHolding();
        stopAndAssertNoArrowLeak();
    }

    /** The error number of the SQLException {@code r} throws. */
    private static int assertThrowsSql(org.junit.jupiter.api.function.Executable r) {
        return org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, r).getErrorCode();
    }

    @Test
    void runTransactionServerErrorAtThirdBulkLoadLeavesTargetExactlyAsBefore() throws Exception {
        createIdName("nvarchar(20)");
        seedOld(3);
        List<List<Object>> before = contents();
        SERVER.emulator().faults().failBulkLoad(3, 0, 1205);
        runRoute(source(FIFTY, 10), mssql("maxRetries=0"), 3, null);
        assertEquals(before, contents());
        BulkLoadException e = singleFailure();
        assertEquals(1205, e.errorNumber());
        assertEquals(WorkOutcome.ROLLED_BACK, e.outcome());
        assertEquals(20, e.stats().outputRows());
        assertTrue(e.getCause() instanceof SQLException sql && SqlServerErrors.isTransient(sql));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void connectionDroppedDuringReplaceLeavesTargetAndNoStagingTable() throws Exception {
        createIdName("nvarchar(20)");
        seedOld(3);
        List<List<Object>> before = contents();
        SERVER.emulator().faults().dropConnectionDuringBulkLoad(2, 5);
        runRoute(source(FIFTY, 10), mssql("writeMode=replace&maxRetries=0"), 2, null);
        assertEquals(before, contents());
        assertEquals(WorkOutcome.ROLLED_BACK, singleFailure().outcome());
        assertEquals(List.of(), query("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE '"
                + table + "[_][_]df[_]%'"));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void temporalWireModeIsDetectedFromTheConnection() throws Exception {
        java.util.Properties p = new java.util.Properties();
        p.setProperty("user", user());
        p.setProperty("password", password());
        try (java.sql.Connection text = java.sql.DriverManager.getConnection(jdbcUrl(), p);
                java.sql.Connection nat = java.sql.DriverManager.getConnection(
                        jdbcUrl() + ";sendTemporalDataTypesAsStringForBulkCopy=false", p)) {
            assertTrue(io.deltafunnel.mssql.session.BulkLoadSessionAccess.temporalAsText(text));
            assertTrue(!io.deltafunnel.mssql.session.BulkLoadSessionAccess.temporalAsText(nat));
        }
    }

    // ---------------------------------------------------------------- runs told apart by run id (producer only)

    private BufferAllocator allocator;

    private VectorSchemaRoot batch(int firstId, int rows) {
        if (allocator == null) {
            allocator = new RootAllocator();
        }
        IntVector id = new IntVector("id", allocator);
        VarCharVector name = new VarCharVector("name", allocator);
        id.allocateNew(rows);
        name.allocateNew(rows);
        for (int i = 0; i < rows; i++) {
            id.set(i, firstId + i);
            name.setSafe(i, ("n" + (firstId + i)).getBytes(StandardCharsets.UTF_8));
        }
        VectorSchemaRoot root = new VectorSchemaRoot(List.of(id, name));
        root.setRowCount(rows);
        return root;
    }

    private Exchange send(String runId, Boolean complete, VectorSchemaRoot body) {
        Exchange exchange = new DefaultExchange(context);
        exchange.getIn().setBody(body);
        if (runId != null) {
            exchange.getIn().setHeader(DeltaFunnelConstants.RUN_ID, runId);
        }
        if (complete != null) {
            exchange.setProperty(Exchange.BATCH_COMPLETE, complete);
        }
        Exchange result = template.send(mssql(""), exchange);
        body.close();
        return result;
    }

    @AfterEach
    void closeAllocator() {
        if (allocator != null) {
            assertEquals(0, allocator.getAllocatedMemory());
            allocator.close();
        }
    }

    @Test
    void exchangeWithoutRunIdIsACompleteRunOfOne() throws Exception {
        createIdName("nvarchar(20)");
        Exchange result = send(null, null, batch(0, 4));
        assertNull(result.getException());
        assertEquals(1L, result.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_BATCHES));
        assertEquals(4L, result.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_ROWS));
        assertEquals(4, count(table));
    }

    /**
     * A new run id while an older run is open gets a session of its own (one per run id, up to maxOpenRuns): both
     * runs commit their own rows. Both only insert, so neither waits for the other's uncommitted rows.
     */
    @Test
    void newRunIdGetsItsOwnSessionBesideTheOpenOlderRun() throws Exception {
        createIdName("nvarchar(20)");
        assertNull(send("A", false, batch(0, 3)).getException());
        assertNull(send("A", false, batch(3, 3)).getException());
        Exchange b = send("B", true, batch(100, 2));
        assertNull(b.getException());
        assertEquals(1L, b.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_BATCHES));
        assertEquals(2L, b.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_ROWS));
        Exchange a = send("A", true, batch(6, 3));
        assertNull(a.getException());
        assertEquals(3L, a.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_BATCHES));
        assertEquals(9L, a.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_ROWS));
        assertEquals(11, count(table));
        assertEquals(List.of(100, "n100"), contents().get(9));
    }

    @Test
    void stoppingTheProducerRollsBackTheOpenRun() throws Exception {
        createIdName("nvarchar(20)");
        Exchange a = send("A", false, batch(0, 3));
        assertNull(a.getException());
        assertEquals(3L, a.getMessage().getHeader(DeltaFunnelConstants.OUTPUT_ROWS));
        context.stop();
        assertEquals(0, count(table));
    }

    @Test
    void batchModeCommitsEachBatchAndLowerCaseOptionsWork() throws Exception {
        createIdName("nvarchar(20)");
        DeltaFunnelMssqlEndpoint ep = context.getEndpoint(mssql("transaction=batch&writeMode=append"),
                DeltaFunnelMssqlEndpoint.class);
        assertEquals(io.deltafunnel.mssql.TransactionMode.BATCH, ep.getConfiguration().getTransaction());
        Exchange exchange = new DefaultExchange(context);
        VectorSchemaRoot body = batch(0, 3);
        exchange.getIn().setBody(body);
        exchange.getIn().setHeader(DeltaFunnelConstants.RUN_ID, "R");
        exchange.setProperty(Exchange.BATCH_COMPLETE, false);
        assertNull(template.send(ep, exchange).getException());
        body.close();
        assertEquals(3, count(table), "batch committed although the run is still open");
        context.stop();
        assertEquals(3, count(table));
    }

    @Test
    void wrongBodyIsRefused() throws Exception {
        Exchange result = template.send(mssql(""), e -> e.getIn().setBody("not arrow"));
        assertInstanceOf(org.apache.camel.InvalidPayloadException.class, result.getException());
    }
}
