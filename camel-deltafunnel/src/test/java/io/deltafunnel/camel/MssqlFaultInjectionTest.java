package io.deltafunnel.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.handoff.ReplayRequest;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.SqlServerErrors;
import io.deltafunnel.mssql.WorkOutcome;
import io.deltafunnel.mssql.run.RetriesExhaustedException;

import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.builder.NotifyBuilder;
import org.apache.camel.component.mock.MockEndpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Faults injected into the emulator's BULK_LOAD handling: every transient error number is retried and the run lands
 * exactly once; permanent errors are not retried; connection drops leave the target unchanged; batch-mode statistics
 * equal the committed rows.
 */
class MssqlFaultInjectionTest extends EmulatorRouteTestSupport {

    /** 50 rows, ids 0..49, in 5 batches of 10. */
    static final String FIFTY = AbstractMssqlScenarios.FIFTY;

    /** How a run is written; append and merge add 50 rows to 3 seeded ones, replace leaves exactly 50. */
    enum Mode {
        RUN("transaction=run", true, 53),
        BATCH("transaction=batch", false, 53),
        REPLACE("writeMode=replace", true, 50),
        MERGE("writeMode=merge&keyColumns=id", true, 53);

        final String options;
        final boolean replays;
        final int rowsAfter;

        Mode(String options, boolean replays, int rowsAfter) {
            this.options = options;
            this.replays = replays;
            this.rowsAfter = rowsAfter;
        }
    }

    /** (run id, attempt, batch index) of every exchange that reached the producer. */
    record Seen(String runId, int attempt, int index) {
    }

    private final List<Seen> seen = new CopyOnWriteArrayList<>();

    private final Processor recordAttempt = e -> seen.add(new Seen(
            e.getIn().getHeader(DeltaFunnelConstants.RUN_ID, String.class),
            e.getIn().getHeader(DeltaFunnelConstants.ATTEMPT, Integer.class),
            e.getProperty(Exchange.BATCH_INDEX, Integer.class)));

    private void createAndSeed() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20) NULL)");
        for (int i = 0; i < 3; i++) {
            exec("INSERT INTO [dbo].[" + table + "] ([id], [name]) VALUES (" + (1000 + i) + ", N'old')");
        }
    }

    private List<List<Object>> contents() throws Exception {
        return query("SELECT [id], [name] FROM [dbo].[" + table + "] ORDER BY [id]");
    }

    /** Every id 0..49 exactly once with its name, plus the seeded rows unless replaced. */
    private void assertLandedExactlyOnce(Mode mode) throws Exception {
        List<List<Object>> rows = contents();
        assertEquals(mode.rowsAfter, rows.size(), "rows in the target");
        for (int i = 0; i < 50; i++) {
            assertEquals(List.of(i, "v" + i), rows.get(i));
        }
        assertEquals(0, ((Number) query("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE '"
                + table + "[_][_]df[_]%'").get(0).get(0)).intValue(), "staging table left behind");
    }

    private void assertFinalStats() {
        MockEndpoint out = getMockEndpoint("mock:out");
        Exchange last = out.getExchanges().get(out.getExchanges().size() - 1);
        assertTrue(last.getProperty(Exchange.BATCH_COMPLETE, Boolean.class));
        assertEquals(new HandoffStats(5, 50, 5, 50), last.getProperty(DeltaFunnelConstants.HANDOFF_STATS));
    }

    /** The attempts seen: attempt 1 up to the failed batch, then (when replayed) attempt 2 from batch 0 to 4. */
    private void assertAttempts(Mode mode, int failedBatch) {
        List<Seen> expected = new ArrayList<>();
        String runId = seen.get(0).runId();
        if (mode.replays) {
            for (int i = 0; i <= failedBatch; i++) {
                expected.add(new Seen(runId, 1, i));
            }
            for (int i = 0; i < 5; i++) {
                expected.add(new Seen(runId, 2, i));
            }
        } else {
            for (int i = 0; i < 5; i++) {
                expected.add(new Seen(runId, 1, i));
            }
        }
        assertEquals(expected, seen);
    }

    // ---- replace by switch (issue 26): a cut at the switch, a switch the server refuses ----

    /** The second switch of the final step: the staging table into the target (the target's rows are out already). */
    private String switchIn() {
        return "SWITCH TO [dbo].[" + table + "]";
    }

    @Test
    void aCutAtTheSwitchLeavesTheTargetAsBefore() throws Exception {
        createAndSeed();
        exec("CREATE CLUSTERED INDEX [cx] ON [dbo].[" + table + "] ([id])");
        List<List<Object>> before = contents();
        SERVER.emulator().faults().failStatement(switchIn(), 1205);
        runRoute(source(FIFTY, 10), mssql("writeMode=replace&replaceStrategy=switch&maxRetries=0"), 5,
                recordAttempt, null);
        BulkLoadException e = assertSingleFinalFailure();
        assertEquals(1205, e.errorNumber());
        assertEquals(WorkOutcome.ROLLED_BACK, e.outcome());
        assertEquals(before, contents(), "the first switch (the target's rows out) was rolled back too");
        assertEquals(0, ((Number) query("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE '"
                + table + "[_][_]df[_]%'").get(0).get(0)).intValue(), "staging or holding table left behind");
        stopAndAssertNoArrowLeak();
    }

    @Test
    void aTransientErrorAtTheSwitchIsReplayedAndTheRunLandsExactlyOnce() throws Exception {
        createAndSeed();
        exec("CREATE CLUSTERED INDEX [cx] ON [dbo].[" + table + "] ([id])");
        SERVER.emulator().faults().failStatement(switchIn(), 1205);
        runRoute(source(FIFTY, 10), mssql("writeMode=replace&replaceStrategy=switch&retryDelay=1"), 5 + 5,
                recordAttempt, null);
        assertEquals(List.of(), finalFailures());
        assertEquals(2, ReplayRequest.find(failures.get(0)).attempt());
        assertLandedExactlyOnce(Mode.REPLACE);
        assertFinalStats();
        assertAttempts(Mode.REPLACE, 4);
        stopAndAssertNoArrowLeak();
    }

    @Test
    void aSwitchTheServerRefusesFallsBackToTheCopyInTheSameTransaction() throws Exception {
        createAndSeed();
        exec("CREATE CLUSTERED INDEX [cx] ON [dbo].[" + table + "] ([id])");
        SERVER.emulator().faults().failStatement(switchIn(), 4947);
        try (LogLines log = new LogLines(io.deltafunnel.mssql.session.TableSwitch.class)) {
            runRoute(source(FIFTY, 10), mssql("writeMode=replace"), 5, recordAttempt, null);
            assertEquals(List.of(), failures);
            List<String> reasons = log.containing("instead of switching");
            assertEquals(1, reasons.size(), log.all()::toString);
            assertTrue(reasons.get(0).contains("error 4947"), reasons::toString);
        }
        assertLandedExactlyOnce(Mode.REPLACE);
        assertFinalStats();
        stopAndAssertNoArrowLeak();
    }

    static Stream<Arguments> transientNumbersAndModes() {
        List<Arguments> out = new ArrayList<>();
        for (int number : SqlServerErrors.TRANSIENT_ERROR_NUMBERS.stream().sorted().toList()) {
            for (Mode mode : List.of(Mode.RUN, Mode.BATCH, Mode.REPLACE)) {
                out.add(Arguments.of(number, mode));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "error {0} {1}")
    @MethodSource("transientNumbersAndModes")
    void transientErrorIsRetriedAndTheRunLandsExactlyOnce(int errorNumber, Mode mode) throws Exception {
        createAndSeed();
        SERVER.emulator().faults().failBulkLoad(3, 0, errorNumber); // batch 2 of the first attempt
        runRoute(source(FIFTY, 10), mssql(mode.options + "&retryDelay=1"), mode.replays ? 3 + 5 : 5, recordAttempt,
                null);
        assertEquals(List.of(), finalFailures());
        if (mode.replays) {
            ReplayRequest replay = ReplayRequest.find(failures.get(0));
            assertEquals(2, replay.attempt());
            assertEquals(errorNumber, failures.get(0).errorNumber());
            assertEquals(WorkOutcome.ROLLED_BACK, failures.get(0).outcome());
        } else {
            assertEquals(List.of(), failures, "batch mode retries in place: the route sees no failure");
        }
        assertLandedExactlyOnce(mode);
        assertFinalStats();
        assertAttempts(mode, 2);
        stopAndAssertNoArrowLeak();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("allModes")
    void connectionDropMidBulkIsRetriedAndTheRunLandsExactlyOnce(Mode mode) throws Exception {
        createAndSeed();
        SERVER.emulator().faults().dropConnectionDuringBulkLoad(2, 5); // in the middle of batch 1
        runRoute(source(FIFTY, 10), mssql(mode.options + "&retryDelay=1"), mode.replays ? 2 + 5 : 5, recordAttempt,
                null);
        assertEquals(List.of(), finalFailures());
        assertLandedExactlyOnce(mode);
        assertFinalStats();
        assertAttempts(mode, 1);
        stopAndAssertNoArrowLeak();
    }

    static Stream<Mode> allModes() {
        return Stream.of(Mode.values());
    }

    static Stream<Mode> replayedModes() {
        return Stream.of(Mode.RUN, Mode.REPLACE, Mode.MERGE);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("replayedModes")
    void connectionDropMidBulkWithoutRetriesLeavesTheTargetUnchanged(Mode mode) throws Exception {
        createAndSeed();
        List<List<Object>> before = contents();
        SERVER.emulator().faults().dropConnectionDuringBulkLoad(3, 5);
        runRoute(source(FIFTY, 10), mssql(mode.options + "&maxRetries=0"), 3, recordAttempt, null);
        assertEquals(before, contents());
        BulkLoadException e = assertSingleFinalFailure();
        assertNull(ReplayRequest.find(e));
        assertEquals(WorkOutcome.ROLLED_BACK, e.outcome());
        assertTrue(SqlServerErrors.isTransient(e), "a dropped connection is transient");
        assertEquals(0, ((Number) query("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE '"
                + table + "[_][_]df[_]%'").get(0).get(0)).intValue(), "staging table left behind");
        stopAndAssertNoArrowLeak();
    }

    @ParameterizedTest(name = "error {0}")
    @ValueSource(ints = {547, 2627})
    void permanentErrorIsNotRetriedInRunMode(int errorNumber) throws Exception {
        createAndSeed();
        List<List<Object>> before = contents();
        SERVER.emulator().faults().failBulkLoad(3, 0, errorNumber);
        runRoute(source(FIFTY, 10), mssql("transaction=run&retryDelay=1"), 3, recordAttempt, null);
        assertEquals(before, contents());
        BulkLoadException e = assertSingleFinalFailure();
        assertEquals(List.of(e), failures, "no replay was requested");
        assertFalse(e instanceof RetriesExhaustedException);
        assertEquals(errorNumber, e.errorNumber());
        assertEquals(WorkOutcome.ROLLED_BACK, e.outcome());
        assertTrue(seen.stream().allMatch(s -> s.attempt() == 1), seen::toString);
        stopAndAssertNoArrowLeak();
    }

    @ParameterizedTest(name = "error {0}")
    @ValueSource(ints = {547, 2627})
    void permanentErrorIsNotRetriedInBatchModeAndStatsEqualCommittedRows(int errorNumber) throws Exception {
        createAndSeed();
        SERVER.emulator().faults().failBulkLoad(3, 0, errorNumber);
        runRoute(source(FIFTY, 10), mssql("transaction=batch&retryDelay=1"), 3, recordAttempt, null);
        BulkLoadException e = assertSingleFinalFailure();
        assertEquals(errorNumber, e.errorNumber());
        assertEquals(WorkOutcome.COMMITTED, e.outcome());
        assertEquals(2, e.stats().outputBatches());
        assertEquals(e.stats().outputRows(), count(table) - 3, "stats = committed rows");
        assertEquals(20, e.stats().outputRows());
        stopAndAssertNoArrowLeak();
    }

    @Test
    void batchModeStatsEqualCommittedRowsWhenRetriesRunOut() throws Exception {
        createAndSeed();
        SERVER.emulator().faults().failBulkLoad(3, 4, 1205); // batch 2, then its two retries
        SERVER.emulator().faults().failBulkLoad(4, 0, 1222);
        SERVER.emulator().faults().failBulkLoad(5, 9, 40501);
        runRoute(source(FIFTY, 10), mssql("transaction=batch&retryDelay=1&maxRetries=2"), 3, recordAttempt, null);
        RetriesExhaustedException e = assertInstanceOf(RetriesExhaustedException.class, assertSingleFinalFailure());
        assertEquals(3, e.attempts());
        assertEquals(40501, e.errorNumber());
        assertEquals(WorkOutcome.COMMITTED, e.outcome());
        assertEquals(new HandoffStats(3, 30, 2, 20), e.stats());
        assertEquals(20, count(table) - 3);
        assertTrue(e.getMessage().contains("gave up after 3 attempts"), e.getMessage());
        stopAndAssertNoArrowLeak();
    }

    @Test
    void runReplaysAreBoundedByMaxRetries() throws Exception {
        createAndSeed();
        List<List<Object>> before = contents();
        SERVER.emulator().faults().failBulkLoad(1, 0, 1205); // batch 0 of attempt 1, 2 and 3
        SERVER.emulator().faults().failBulkLoad(2, 0, 1205);
        SERVER.emulator().faults().failBulkLoad(3, 0, 1205);
        runRoute(source(FIFTY, 10), mssql("retryDelay=1&retryBackoffMultiplier=3&maxRetries=2"), 3, recordAttempt,
                null);
        assertEquals(before, contents());
        RetriesExhaustedException e = assertInstanceOf(RetriesExhaustedException.class, assertSingleFinalFailure());
        assertEquals(3, e.attempts());
        assertEquals(WorkOutcome.ROLLED_BACK, e.outcome());
        String runId = seen.get(0).runId();
        assertEquals(List.of(new Seen(runId, 1, 0), new Seen(runId, 2, 0), new Seen(runId, 3, 0)), seen);
        assertEquals(List.of(1L, 3L), failures.stream().map(ReplayRequest::find).filter(r -> r != null)
                .map(r -> r.delay().toMillis()).toList(), "exponential backoff: 1 ms, then 3 ms");
        stopAndAssertNoArrowLeak();
    }

    @Test
    @Timeout(60)
    void stopDuringAReplayWaitDoesNotHang() throws Exception {
        createAndSeed();
        List<List<Object>> before = contents();
        SERVER.emulator().faults().failBulkLoad(2, 0, 1205);
        runRoute(source(FIFTY, 10), mssql("retryDelay=600000"), 2, recordAttempt, null); // would wait 10 minutes
        assertEquals(2, ReplayRequest.find(failures.get(0)).attempt());
        context.stop(); // bounded by @Timeout: the replay wait ends at once
        assertEquals(before, contents());
        assertTrue(seen.stream().allMatch(s -> s.attempt() == 1), seen::toString);
    }

    @Test
    @Timeout(60)
    void stopDuringABatchRetryWaitDoesNotHang() throws Exception {
        createAndSeed();
        SERVER.emulator().faults().failBulkLoad(2, 0, 1205);
        NotifyBuilder failedOnce = new NotifyBuilder(context).whenDone(1).create();
        runRoute(source(FIFTY, 10), mssql("transaction=batch&retryDelay=600000"), 1, recordAttempt, null);
        assertTrue(failedOnce.matches(30, TimeUnit.SECONDS));
        Thread.sleep(200); // let batch 1 reach its retry wait (the stop below works either way)
        context.stop(); // bounded by @Timeout: the producer's retry wait sees the context stopping
        assertEquals(10, count(table) - 3, "batch 0 committed, batch 1 never retried");
    }

    private BulkLoadException assertSingleFinalFailure() {
        List<BulkLoadException> end = finalFailures();
        assertEquals(1, end.size(), () -> end.toString());
        return end.get(0);
    }
}
