package io.deltafunnel.camel;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.deltafunnel.delta.DeltaTableSpec;
import io.deltafunnel.delta.DeltaViews;
import io.deltafunnel.mssql.reject.RejectTable;
import io.deltafunnel.mssql.reject.RunRejects;
import io.deltafunnel.mssql.reject.TooManyRejectedRowsException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.camel.Exchange;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * maxRejectedRows / rejectTable / rejectEndpoint through the route into the emulator, on real Delta tables: bad rows
 * caught by the client-side check (left out of the batch) and rows SQL Server refuses (2627, 2601, 547: found by
 * splitting the batch under savepoints; 515, 8115 and 2628 after another session altered the column during the run)
 * are set aside into the reject table in the transaction of the loaded rows; a resumed {@code transaction=batch} run
 * counts the rejects committed before it. Every case checks that the target's rows and the reject table's source rows together are the source exactly, no
 * row twice; one bad row more than the limit leaves the target as it was and no reject row.
 */
class RejectedRowsRouteTest extends EmulatorRouteTestSupport {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path tmp;

    private Connection duck;
    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private final List<Map<String, Object>> lastHeaders = new CopyOnWriteArrayList<>();
    private final List<String> sent = new CopyOnWriteArrayList<>();
    private int routes;
    private String rejects;

    @BeforeEach
    void openDuck() throws Exception {
        duck = DriverManager.getConnection("jdbc:duckdb:");
        rejects = table + "_rejects";
        dropIfExists(rejects);
        com.microsoft.sqlserver.jdbc.SQLServerDataSource ds = new com.microsoft.sqlserver.jdbc.SQLServerDataSource();
        ds.setURL(SERVER.emulator().jdbcUrl());
        ds.setUser(SERVER.emulator().user());
        ds.setPassword(SERVER.emulator().password());
        context.getRegistry().bind("stateDs", ds);
        for (String t : List.of("deltafunnel_state", "deltafunnel_state_loads", "deltafunnel_state_shards")) {
            dropIfExists(t);
        }
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("direct:rejected").routeId("rejected-sink").process(e -> sent.add(e.getIn().getBody(String.class)));
            }
        });
    }

    @AfterEach
    void closeDuck() throws Exception {
        duck.close();
    }

    private String rejectOptions(int max) {
        return "maxRejectedRows=" + max + "&rejectTable=dbo." + rejects;
    }

    /** A Delta table (id integer, name string) of {@code select}'s rows, one version. */
    private Path delta(String name, String select) throws Exception {
        SchemaEvolvingDeltaTable t = new SchemaEvolvingDeltaTable(duck, tmp.resolve(name));
        t.commit(null, List.of(SchemaEvolvingDeltaTable.field("id", "integer"),
                SchemaEvolvingDeltaTable.field("name", "string")), select);
        return t.path();
    }

    /** One run of {@code delta} into the test's table; returns the run's failure or null. */
    private Throwable load(Path delta, int batchSize, String mssqlOptions) throws Exception {
        return load(delta, batchSize, mssqlOptions, null);
    }

    /** Done once the run's first exchange has passed the producer (its batch written), before the next batch. */
    @FunctionalInterface
    interface AfterFirstBatch {
        void run() throws Exception;
    }

    private Throwable load(Path delta, int batchSize, String mssqlOptions, AfterFirstBatch afterFirstBatch)
            throws Exception {
        String id = "rejects" + (routes++);
        java.util.concurrent.atomic.AtomicBoolean first = new java.util.concurrent.atomic.AtomicBoolean(true);
        CountDownLatch ended = new CountDownLatch(1);
        errors.clear();
        lastHeaders.clear();
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                onException(Exception.class).handled(true).process(e -> {
                    Exception caught = e.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class);
                    if (io.deltafunnel.handoff.ReplayRequest.find(caught) == null) {
                        errors.add(caught);
                        ended.countDown();
                    }
                });
                from("deltafunnel:" + id + "?delta.t=" + delta + "&query=RAW(SELECT * FROM t)&batchSize=" + batchSize
                        + "&repeatCount=1&initialDelay=0")
                        .routeId(id)
                        .to(mssql(mssqlOptions))
                        .process(e -> {
                            if (afterFirstBatch != null && first.getAndSet(false)) {
                                afterFirstBatch.run();
                            }
                            if (e.getProperty(Exchange.BATCH_COMPLETE, false, Boolean.class)) {
                                lastHeaders.add(Map.copyOf(e.getIn().getHeaders()));
                                ended.countDown();
                            }
                        });
            }
        });
        assertTrue(ended.await(120, TimeUnit.SECONDS), "route " + id + " did not end its run");
        BufferAllocator allocator = ((DeltaFunnelEndpoint) context.getRoute(id).getEndpoint()).getAllocator();
        context.getRouteController().stopRoute(id);
        context.removeRoute(id);
        if (allocator != null) {
            assertEquals(0, allocator.getAllocatedMemory(), "Arrow memory outstanding after route " + id);
        }
        return errors.isEmpty() ? null : errors.get(0);
    }

    private static String text(Object v) {
        return v == null ? "null" : v instanceof Number n ? Long.toString(n.longValue()) : v.toString();
    }

    private List<String> source(Path delta) throws Exception {
        DeltaViews.register(duck, List.of(new DeltaTableSpec("snap", delta.toString(), null, null)));
        List<String> rows = new ArrayList<>();
        try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery("SELECT id, name FROM snap")) {
            while (rs.next()) {
                rows.add(text(rs.getObject(1)) + "|" + text(rs.getObject(2)));
            }
        }
        return rows.stream().sorted().toList();
    }

    private List<String> targetRows() throws Exception {
        List<String> rows = new ArrayList<>();
        for (List<Object> r : query("SELECT [id], [name] FROM [dbo].[" + table + "]")) {
            rows.add(text(r.get(0)) + "|" + text(r.get(1)));
        }
        return rows;
    }

    /** The reject table's rows: source row (id|name) and error number or check name. */
    private List<String[]> rejectRows() throws Exception {
        List<String[]> rows = new ArrayList<>();
        for (List<Object> r : query("SELECT [source_row], [error_number], [check_name], [column_name], [run_id],"
                + " [target_table], [batch_index], [row_index], [message], [rejected_at], [route_key] FROM [dbo].["
                + rejects + "]")) {
            JsonNode row = JSON.readTree((String) r.get(0));
            String source = text(row.get("id").isNull() ? null : row.get("id").asLong()) + "|"
                    + (row.get("name").isNull() ? "null" : row.get("name").asText());
            rows.add(new String[] {source, r.get(1) == null ? (String) r.get(2) : text(r.get(1)), (String) r.get(3),
                    (String) r.get(4), (String) r.get(5), text(r.get(6)), text(r.get(7)), (String) r.get(8),
                    text(r.get(9)), (String) r.get(10)});
        }
        return rows;
    }

    /** Target rows + reject rows == the source rows exactly, no row twice; returns the rejected source rows. */
    private List<String> assertReconciles(Path delta, List<String> targetBefore) throws Exception {
        List<String> target = new ArrayList<>(targetRows());
        for (String b : targetBefore) {
            assertTrue(target.remove(b), "row " + b + " of the target before the run is gone");
        }
        List<String> rejected = rejectRows().stream().map(r -> r[0]).toList();
        List<String> all = new ArrayList<>(target);
        all.addAll(rejected);
        assertEquals(new HashSet<>(all).size(), all.size(), "a row is in the target or reject table twice");
        assertEquals(source(delta), all.stream().sorted().toList(), "target + rejects vs source");
        return rejected.stream().sorted().toList();
    }

    private long rejectedHeader() {
        assertEquals(1, lastHeaders.size(), "the run's last exchange");
        return ((Number) lastHeaders.get(0).get(DeltaFunnelConstants.REJECTED_ROWS)).longValue();
    }

    @Test
    void oneBadRowIn100000IsSetAsideAndTheOthersLoad() throws Exception {
        Path d = delta("big", "SELECT i::INTEGER AS id, CASE WHEN i = 54321 THEN 'much too long here' ELSE 'n' || (i % 1000)"
                + " END AS name FROM range(100000) r(i)");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(10) NULL)");
        assertEquals(null, load(d, 16384, rejectOptions(10)));
        assertEquals(List.of("54321|much too long here"), assertReconciles(d, List.of()));
        assertEquals(99_999, count(table));
        assertEquals(1, rejectedHeader());
        String[] r = rejectRows().get(0);
        assertEquals("too-long", r[1]);
        assertEquals("name", r[2]);
        assertEquals("dbo." + table, r[4]);
        assertEquals("3", r[5], "batch index");            // 54321 = 3 * 16384 + 5169
        assertEquals("5169", r[6], "row index in the batch");
        assertTrue(r[7].contains("nvarchar(10)"), r[7]);
        assertTrue(!r[8].equals("null"), "rejected_at");
        assertTrue(r[9] != null && r[9].startsWith("rejects"), "route key " + r[9]);
    }

    @Test
    void severalBadRowsOfOneBatchFailingDifferentChecksAreEachSetAsideOnce() throws Exception {
        Path d = delta("several", "SELECT * FROM (VALUES (1, 'ok'), (2, NULL), (300, 'x'), (4, 'toolongvalue'),"
                + " (5, 'fine'), (600, NULL), (7, 'seven')) v(id, name)");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] tinyint NOT NULL, [name] nvarchar(5) NOT NULL)");
        assertEquals(null, load(d, 100, rejectOptions(5) + "&transaction=batch"));
        assertEquals(List.of("2|null", "300|x", "4|toolongvalue", "600|null"), assertReconciles(d, List.of()));
        assertEquals(4, rejectedHeader());
        Map<String, String> checks = new java.util.TreeMap<>();
        for (String[] r : rejectRows()) {
            checks.put(r[0], r[1] + " " + r[2]);
        }
        assertEquals(Map.of("2|null", "not-null name", "300|x", "out-of-range id", "4|toolongvalue", "too-long name",
                "600|null", "out-of-range id"), checks);
        // the row refused in two columns is one reject row naming both
        String both = rejectRows().stream().filter(r -> r[0].equals("600|null")).findFirst().orElseThrow()[7];
        assertTrue(both.contains("column id") && both.contains("column name"), both);
    }

    @Test
    void duplicateKeysRefusedBySqlServerAreFoundByBisectionAndSetAside() throws Exception {
        Path d = delta("dups", "SELECT i::INTEGER AS id, 'v' || i AS name FROM range(1000) r(i)");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL PRIMARY KEY, [name] nvarchar(20) NULL)",
                "INSERT INTO [dbo].[" + table + "] VALUES (17, 'old17'), (500, 'old500'), (999, 'old999')");
        List<String> before = targetRows();
        assertEquals(null, load(d, 400, rejectOptions(3)));
        assertEquals(List.of("17|v17", "500|v500", "999|v999"), assertReconciles(d, before));
        assertEquals(Set.of("2627"), Set.copyOf(rejectRows().stream().map(r -> r[1]).toList()));
        assertEquals(3, rejectedHeader());
    }

    @Test
    void uniqueIndexAndCheckConstraintViolationsAreSetAside() throws Exception {
        Path d = delta("uq", "SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (3, 'a'), (-4, 'c'), (5, 'd'), (6, 'e'))"
                + " v(id, name)");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL CONSTRAINT [CK_" + table + "_id] CHECK ([id] > 0),"
                + " [name] nvarchar(20) NULL)", "CREATE UNIQUE INDEX [UX_" + table + "] ON [dbo].[" + table
                + "] ([name])");
        assertEquals(null, load(d, 100, rejectOptions(2) + "&checkConstraints=true"));
        assertEquals(List.of("-4|c", "3|a"), assertReconciles(d, List.of()));
        Map<String, String> numbers = new java.util.TreeMap<>();
        for (String[] r : rejectRows()) {
            numbers.put(r[0], r[1]);
        }
        assertEquals(Map.of("3|a", "2601", "-4|c", "547"), numbers);
    }

    /**
     * A {@code transaction=batch} run whose target column is altered by another session after the producer read the
     * target's columns (at the run's set-up) and after its first batch committed: the client-side check still passes
     * the values the old column took, and the later batches' bulk statements declare the old type, so SQL Server
     * itself refuses them for one row's data. The rows are found by bisection and set aside with SQL Server's number.
     */
    private void assertServerRefusesAfterTheTargetChanged(String alter, String select, List<String> bad,
            int errorNumber) throws Exception {
        Path d = delta("changed" + errorNumber, select);
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20) NULL)");
        // after batch 0 committed, before batch 1: another session alters the column
        Throwable e = load(d, 4, rejectOptions(bad.size()) + "&transaction=batch&maxRetries=0",
                () -> exec(alter.replace("%t", "[dbo].[" + table + "]")));
        assertEquals(null, e);
        assertEquals(bad, assertReconciles(d, List.of()));
        assertEquals(Set.of(Integer.toString(errorNumber)), Set.copyOf(rejectRows().stream().map(r -> r[1]).toList()),
                "SQL Server's error number, not a client-side check");
        assertEquals(bad.size(), rejectedHeader());
    }

    @Test
    void aColumnMadeNotNullDuringTheRunIs515FromSqlServer() throws Exception {
        assertServerRefusesAfterTheTargetChanged("ALTER TABLE %t ALTER COLUMN [name] nvarchar(20) NOT NULL",
                "SELECT i::INTEGER AS id, CASE WHEN i IN (5, 13) THEN NULL ELSE 'n' || i END AS name"
                        + " FROM range(20) r(i)", List.of("13|null", "5|null"), 515);
    }

    @Test
    void aColumnNarrowedDuringTheRunIs8115FromSqlServer() throws Exception {
        assertServerRefusesAfterTheTargetChanged("ALTER TABLE %t ALTER COLUMN [id] smallint NOT NULL",
                "SELECT CASE WHEN i IN (6, 11) THEN 40000 + i ELSE i END::INTEGER AS id, 'n' || i AS name"
                        + " FROM range(20) r(i)", List.of("40006|n6", "40011|n11"), 8115);
    }

    @Test
    void aStringColumnShortenedDuringTheRunIs2628FromSqlServer() throws Exception {
        assertServerRefusesAfterTheTargetChanged("ALTER TABLE %t ALTER COLUMN [name] nvarchar(5) NULL",
                "SELECT i::INTEGER AS id, CASE WHEN i IN (7, 17) THEN 'longer than five' ELSE 'n' || i END AS name"
                        + " FROM range(20) r(i)", List.of("17|longer than five", "7|longer than five"), 2628);
    }

    @Test
    void oneBadRowMoreThanTheLimitFailsTheRunAndKeepsNothing() throws Exception {
        Path d = delta("limit", "SELECT * FROM (VALUES (1, 'a'), (2, 'toolongvalue'), (3, 'c'), (4, 'toolongvalue'),"
                + " (5, 'toolongvalue')) v(id, name)");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL PRIMARY KEY, [name] nvarchar(5) NULL)",
                "INSERT INTO [dbo].[" + table + "] VALUES (100, 'old')");
        List<String> before = targetRows();
        Throwable e = load(d, 2, rejectOptions(2) + "&maxRetries=0");
        TooManyRejectedRowsException t = assertInstanceOf(TooManyRejectedRowsException.class, e);
        assertTrue(t.getMessage().contains("maxRejectedRows=2"), t.getMessage());
        assertEquals(before, targetRows());
        assertEquals(0, count(rejects));
        // server-side rejections over the limit too: both rows duplicate the existing key 100
        Path dup = delta("limit2", "SELECT * FROM (VALUES (7, 'a'), (100, 'b'), (8, 'c'), (100, 'd')) v(id, name)");
        assertInstanceOf(TooManyRejectedRowsException.class, load(dup, 10, rejectOptions(1) + "&maxRetries=0"
                + "&transaction=batch"));
        assertEquals(before, targetRows());
        assertEquals(0, count(rejects));
    }

    @Test
    void withoutMaxRejectedRowsTheFirstBadRowFailsTheRunAsBefore() throws Exception {
        Path d = delta("none", "SELECT * FROM (VALUES (1, 'a'), (2, 'toolongvalue')) v(id, name)");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(5) NULL)");
        Throwable e = load(d, 10, "maxRetries=0");
        assertInstanceOf(io.deltafunnel.mssql.bind.ValueOutOfRangeException.class, e);
        assertEquals(0, count(table));
        assertEquals(0, query("SELECT 1 FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME = '" + rejects + "'").size());
    }

    @Test
    void theRejectTableHasTheDocumentedColumns() throws Exception {
        Path d = delta("cols", "SELECT * FROM (VALUES (1, 'a')) v(id, name)");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(5) NULL)");
        assertEquals(null, load(d, 10, rejectOptions(1)));
        List<String> columns = new ArrayList<>();
        for (List<Object> r : query("SELECT COLUMN_NAME, DATA_TYPE FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = '"
                + rejects + "' ORDER BY ORDINAL_POSITION")) {
            columns.add(r.get(0) + " " + r.get(1));
        }
        assertEquals(List.of("run_id nvarchar", "route_key nvarchar", "target_table nvarchar", "batch_index bigint",
                "row_index bigint", "source_row nvarchar", "column_name nvarchar", "error_number int",
                "check_name nvarchar", "message nvarchar", "rejected_at datetime2"), columns);
        assertEquals(RejectTable.COLUMNS.size(), columns.size());
        assertEquals(0, rejectedHeader());
    }

    @Test
    void anExistingRejectTableOfAnotherShapeIsRefusedBeforeAnythingIsWritten() throws Exception {
        Path d = delta("shape", "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) v(id, name)");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(5) NULL)",
                "CREATE TABLE [dbo].[" + rejects + "] ([run_id] nvarchar(64), [payload] nvarchar(max))");
        Throwable e = load(d, 10, rejectOptions(1) + "&maxRetries=0");
        RejectTable.RejectTableException r = assertInstanceOf(RejectTable.RejectTableException.class, e);
        assertTrue(r.getMessage().contains("column 'source_row' is missing")
                && r.getMessage().contains("column 'payload' is not a reject table column"), r.getMessage());
        assertEquals(0, count(table));
    }

    @Test
    void anInvalidRejectTableNameOrAMissingOneIsRefusedWhenTheEndpointIsCreated() {
        Exception e = assertThrows(Exception.class, () -> context.getEndpoint(mssql(rejectOptions(1)
                .replace("dbo." + rejects, "a.b.c.d"))));
        assertTrue(causeMessages(e).contains("rejectTable must be [schema.]table"), causeMessages(e));
        Exception m = assertThrows(Exception.class, () -> context.getEndpoint(mssql("maxRejectedRows=3")));
        assertTrue(causeMessages(m).contains("maxRejectedRows=3 needs rejectTable"), causeMessages(m));
    }

    private static String causeMessages(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            sb.append(t.getMessage()).append(" | ");
        }
        return sb.toString();
    }

    @Test
    void theRejectEndpointGetsTheRunsRejectedRowsAsJsonLinesAfterTheCommit() throws Exception {
        Path d = delta("endpoint", "SELECT * FROM (VALUES (1, 'a'), (2, 'toolongvalue'), (3, 'c')) v(id, name)");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(5) NULL)");
        assertEquals(null, load(d, 10, rejectOptions(1) + "&rejectEndpoint=direct:rejected"));
        assertEquals(1, sent.size());
        String[] lines = sent.get(0).split("\n");
        assertEquals(1, lines.length);
        JsonNode line = JSON.readTree(lines[0]);
        assertEquals(2, line.get("row").get("id").asInt());
        assertEquals("toolongvalue", line.get("row").get("name").asText());
        assertEquals("too-long", line.get("check").asText());
        assertEquals("dbo." + table, line.get("targetTable").asText());
        assertEquals(rejectRows().get(0)[3], line.get("runId").asText());
    }

    @Test
    void aRejectEndpointThatDoesNotResolveFailsTheStartBeforeAnythingIsWritten() throws Exception {
        Path d = delta("badendpoint", "SELECT * FROM (VALUES (1, 'a')) v(id, name)");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(5) NULL)");
        Exception e = assertThrows(Exception.class, () -> context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("deltafunnel:bad?delta.t=" + d + "&query=RAW(SELECT * FROM t)&repeatCount=1&initialDelay=0")
                        .routeId("bad").to(mssql(rejectOptions(1) + "&rejectEndpoint=nosuchscheme:x"));
            }
        }));
        assertTrue(causeMessages(e).contains("rejectEndpoint 'nosuchscheme:x' does not resolve"), causeMessages(e));
        assertEquals(0, count(table));
    }

    @Test
    void replaceAndMergeSetRowsAsideAndCommitThemWithTheFinalStep() throws Exception {
        Path d = delta("modes", "SELECT * FROM (VALUES (1, 'a'), (2, 'toolongvalue'), (3, 'c'), (4, 'd')) v(id, name)");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL PRIMARY KEY, [name] nvarchar(5) NULL)",
                "INSERT INTO [dbo].[" + table + "] VALUES (9, 'old')");
        assertEquals(null, load(d, 2, rejectOptions(1) + "&writeMode=replace"));
        assertEquals(List.of("2|toolongvalue"), assertReconciles(d, List.of()));
        exec("DELETE FROM [dbo].[" + rejects + "]", "UPDATE [dbo].[" + table + "] SET [name] = 'x'");
        assertEquals(null, load(d, 2, rejectOptions(1) + "&writeMode=merge&keyColumns=id"));
        assertEquals(List.of("2|toolongvalue"), assertReconciles(d, List.of()));
    }

    @Test
    void mergeSetsAsideEveryRowOfADuplicateSourceKey() throws Exception {
        Path d = delta("mergedups", "SELECT * FROM (VALUES (1, 'a'), (2, 'b1'), (3, 'c'), (2, 'b2'), (4, 'd'),"
                + " (4, 'd2'), (4, 'd3')) v(id, name)");
        // key 4 is in the target (8672: one target row changed twice), key 2 is not (2627: inserted twice)
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL PRIMARY KEY, [name] nvarchar(5) NULL)",
                "INSERT INTO [dbo].[" + table + "] VALUES (4, 'old')");
        assertEquals(null, load(d, 3, rejectOptions(5) + "&writeMode=merge&keyColumns=id"));
        assertEquals(List.of("2|b1", "2|b2", "4|d", "4|d2", "4|d3"), assertReconciles(d, List.of("4|old")));
        Set<String> numbers = Set.copyOf(rejectRows().stream().map(r -> r[1]).toList());
        assertTrue(Set.of("8672", "2627").containsAll(numbers), "error numbers " + numbers);
        assertEquals(5, rejectedHeader());
        assertEquals(2L, ((Number) lastHeaders.get(0).get(DeltaFunnelConstants.OUTPUT_ROWS)).longValue());
        // over the limit: nothing kept
        exec("DELETE FROM [dbo].[" + table + "] WHERE [id] <> 4", "DELETE FROM [dbo].[" + rejects + "]");
        assertInstanceOf(TooManyRejectedRowsException.class, load(d, 3, rejectOptions(4)
                + "&writeMode=merge&keyColumns=id&maxRetries=0"));
        assertEquals(List.of("4|old"), targetRows());
        assertEquals(0, count(rejects));
    }

    /**
     * writeMode=history from a snapshot with maxRejectedRows: every row of a key that several source rows share is set
     * aside (which is the current version is not known), as merge does with its duplicates; the other keys get their
     * versions. The reject rows carry the check {@code duplicate-key} (no SQL Server error refused them) and the key
     * columns. Both encoders (RejectedRowsDirectRouteTest).
     */
    @Test
    void historySnapshotSetsAsideEveryRowOfARepeatedKey() throws Exception {
        Path d = delta("histdups", "SELECT * FROM (VALUES (1, 'a'), (2, 'b1'), (3, 'c'), (2, 'b2'), (4, 'd'),"
                + " (4, 'd2'), (4, 'd3')) v(id, name)");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(5) NULL,"
                + " [valid_from] datetime2 NOT NULL, [valid_to] datetime2 NULL, [is_current] bit NOT NULL)");
        assertEquals(null, load(d, 3, rejectOptions(5) + "&writeMode=history&keyColumns=id"));
        assertEquals(List.of("2|b1", "2|b2", "4|d", "4|d2", "4|d3"), assertReconciles(d, List.of()));
        for (String[] r : rejectRows()) {
            assertEquals(RunRejects.DUPLICATE_KEY, r[1], "check name, no error number");
            assertEquals("id", r[2], "the key columns");
            assertTrue(r[7].contains("(id) = (" + r[0].substring(0, 1) + ")"), r[7]);
        }
        assertEquals(5, rejectedHeader());
        assertEquals(List.of(List.of(1, 1), List.of(3, 1)), query("SELECT [id], CAST([is_current] AS int) FROM [dbo].["
                + table + "] ORDER BY [id]"));
        // over the limit: nothing kept
        exec("DELETE FROM [dbo].[" + table + "]", "DELETE FROM [dbo].[" + rejects + "]");
        assertInstanceOf(TooManyRejectedRowsException.class, load(d, 3, rejectOptions(4)
                + "&writeMode=history&keyColumns=id&maxRetries=0"));
        assertEquals(List.of(), targetRows());
        assertEquals(0, count(rejects));
    }

    @Test
    void aCutRunLeavesNoRejectRowsAndTheReRunReconcilesExactly() throws Exception {
        Path d = delta("cut", "SELECT i::INTEGER AS id, CASE WHEN i % 7 = 3 THEN 'toolongvalue' ELSE 'n' || i END AS name"
                + " FROM range(40) r(i)");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(5) NULL)");
        SERVER.emulator().faults().dropConnectionDuringBulkLoad(3, 1); // the third bulk load of the run
        Throwable e = load(d, 10, rejectOptions(10) + "&maxRetries=0");
        assertTrue(e != null, "the cut run failed");
        assertEquals(0, count(table));
        assertEquals(0, count(rejects), "a rolled-back run leaves no rejects behind");
        SERVER.emulator().faults().clear();
        assertEquals(null, load(d, 10, rejectOptions(10)));
        assertEquals(6, assertReconciles(d, List.of()).size());
    }

    @Test
    void incrementalChangesSetRowsAsideWithTheirStateKey() throws Exception {
        SchemaEvolvingDeltaTable t = new SchemaEvolvingDeltaTable(duck, tmp.resolve("cdf")).withChangeDataFeed();
        t.commit(null, List.of(SchemaEvolvingDeltaTable.field("id", "integer"),
                SchemaEvolvingDeltaTable.field("name", "string")),
                "SELECT * FROM (VALUES (1, 'a'), (2, 'toolongvalue'), (3, 'c')) v(id, name)");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL PRIMARY KEY, [name] nvarchar(5) NULL)");
        String id = "changes" + (routes++);
        CountDownLatch ended = new CountDownLatch(1);
        errors.clear();
        context.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                onException(Exception.class).handled(true).process(e -> {
                    errors.add(e.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class));
                    ended.countDown();
                });
                from("deltafunnel:" + id + "?delta.t=" + t.path() + "&query=RAW(SELECT * FROM t)&batchSize=2"
                        + "&stateDataSource=#stateDs&stateKey=" + table + "&repeatCount=1&initialDelay=0"
                        + "&bridgeErrorHandler=true&incremental=changes")
                        .routeId(id)
                        .to(mssql("writeMode=merge&keyColumns=id&" + rejectOptions(1)))
                        .process(e -> {
                            if (e.getProperty(Exchange.BATCH_COMPLETE, false, Boolean.class)) {
                                ended.countDown();
                            }
                        });
            }
        });
        assertTrue(ended.await(60, TimeUnit.SECONDS));
        context.getRouteController().stopRoute(id);
        context.removeRoute(id);
        assertEquals(List.of(), errors);
        assertEquals(List.of("2|toolongvalue"), assertReconciles(t.path(), List.of()));
        assertEquals(table, rejectRows().get(0)[9], "the state key");
    }

    @Test
    void aTransientErrorKeepsTheRetryPathAndIsNeverBisected() throws Exception {
        Path d = delta("transient", "SELECT i::INTEGER AS id, 'n' || i AS name FROM range(20) r(i)");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(5) NULL)");
        SERVER.emulator().faults().failBulkLoad(1, 3, 1205); // deadlock victim: transient, dooms the transaction
        Throwable e = load(d, 10, rejectOptions(20) + "&maxRetries=0");
        assertTrue(e != null && causeMessages(e).contains("1205"), "fails with 1205: " + e);
        assertEquals(0, count(table));
        assertEquals(0, count(rejects));
        SERVER.emulator().faults().failBulkLoad(1, 3, 1205);
        assertEquals(null, load(d, 10, rejectOptions(20) + "&transaction=batch&retryDelay=1"));
        assertEquals(List.of(), assertReconciles(d, List.of()), "retried in place: nothing set aside");
    }

    /**
     * A {@code transaction=batch} run with committed batches and committed reject rows (rows 2 and 7 too long, in
     * batches 0 and 1) whose batch 3 fails with a transient 1205: the producer resumes the run on a new session and
     * writes batch 3 again, where SQL Server refuses key 17 (2627, held by the target). The resumed session counts the
     * rejects committed before against the limit, and no reject row is written twice.
     */
    private Path resumedSource() throws Exception {
        Path d = delta("resumed", "SELECT i::INTEGER AS id, CASE WHEN i IN (2, 7) THEN 'toolongvalue' ELSE 'n' || i END"
                + " AS name FROM range(30) r(i)");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL PRIMARY KEY, [name] nvarchar(5) NULL)",
                "INSERT INTO [dbo].[" + table + "] VALUES (17, 'old17')");
        // batches 0-2 write one bulk statement each; the 4th bulk load of the run is batch 3's
        SERVER.emulator().faults().failBulkLoad(4, 0, 1205);
        return d;
    }

    @Test
    void aResumedBatchRunCountsTheRejectsCommittedBeforeAndWritesNoneTwice() throws Exception {
        Path d = resumedSource();
        List<String> before = targetRows();
        assertEquals(null, load(d, 5, rejectOptions(3) + "&transaction=batch&retryDelay=1"
                + "&rejectEndpoint=direct:rejected"));
        assertEquals(List.of("17|n17", "2|toolongvalue", "7|toolongvalue"), assertReconciles(d, before));
        assertEquals(3, rejectedHeader());
        assertEquals(Set.of("too-long", "2627"), Set.copyOf(rejectRows().stream().map(r -> r[1]).toList()));
        assertEquals(1, Set.copyOf(rejectRows().stream().map(r -> r[3]).toList()).size(), "one run id");
        // the endpoint gets the run's rejects once each: the committed ones of the first session too
        List<Integer> ids = new ArrayList<>();
        for (String body : sent) {
            for (String line : body.split("\n")) {
                ids.add(JSON.readTree(line).get("row").get("id").asInt());
            }
        }
        assertEquals(List.of(2, 7, 17), ids.stream().sorted().toList());
    }

    @Test
    void aResumedBatchRunOverTheLimitWithTheRejectsCommittedBeforeFails() throws Exception {
        Path d = resumedSource();
        List<String> before = targetRows();
        // 2 rejects committed with batches 0 and 1; the resumed batch 3 finds the third: one more than 2
        Throwable e = load(d, 5, rejectOptions(2) + "&transaction=batch&retryDelay=1");
        assertInstanceOf(TooManyRejectedRowsException.class, e);
        List<String> target = new ArrayList<>(targetRows());
        target.removeAll(before);
        List<String> committed = new ArrayList<>(target);
        committed.addAll(rejectRows().stream().map(r -> r[0]).toList());
        assertEquals(new HashSet<>(committed).size(), committed.size(), "a row is in the target or reject table twice");
        // batches 0-2 (ids 0-14) stay committed with their two rejects; batch 3 and after are not written
        assertEquals(source(d).stream().filter(r -> Integer.parseInt(r.split("\\|")[0]) < 15).toList(),
                committed.stream().sorted().toList());
        assertEquals(List.of("2|toolongvalue", "7|toolongvalue"),
                rejectRows().stream().map(r -> r[0]).sorted().toList());
    }

    /** The shards of one sharded load of {@code delta}, run at the same time; returns their failures. */
    private List<Throwable> loadSharded(Path delta, int shards, String mssqlOptions) throws Exception {
        CountDownLatch ended = new CountDownLatch(shards);
        errors.clear();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < shards; i++) {
            String id = "shard" + (routes++);
            ids.add(id);
            int index = i;
            context.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    onException(Exception.class).handled(true).process(e -> {
                        Exception caught = e.getProperty(Exchange.EXCEPTION_CAUGHT, Exception.class);
                        if (io.deltafunnel.handoff.ReplayRequest.find(caught) == null) {
                            errors.add(caught);
                            ended.countDown();
                        }
                    });
                    from("deltafunnel:sharded?delta.t=" + delta + "&query=RAW(SELECT * FROM t)&batchSize=3"
                            + "&stateDataSource=#stateDs&shardCount=" + shards + "&shardIndex=" + index
                            + "&repeatCount=1&initialDelay=0&bridgeErrorHandler=true")
                            .routeId(id)
                            .to(mssql(mssqlOptions))
                            .process(e -> {
                                if (e.getProperty(Exchange.BATCH_COMPLETE, false, Boolean.class)) {
                                    ended.countDown();
                                }
                            });
                }
            });
        }
        assertTrue(ended.await(120, TimeUnit.SECONDS), "not every shard ended its run");
        for (String id : ids) {
            context.getRouteController().stopRoute(id);
            context.removeRoute(id);
        }
        return List.copyOf(errors);
    }

    /** A Delta table of several files (one per version), two bad rows in each. */
    private Path shardedTable() throws Exception {
        SchemaEvolvingDeltaTable t = new SchemaEvolvingDeltaTable(duck, tmp.resolve("sharded"));
        t.commit(null, List.of(SchemaEvolvingDeltaTable.field("id", "integer"),
                SchemaEvolvingDeltaTable.field("name", "string")),
                "SELECT i::INTEGER AS id, CASE WHEN i IN (3, 7) THEN 'toolongvalue' ELSE 'n' || i END AS name"
                        + " FROM range(0, 10) r(i)");
        for (int f = 1; f < 4; f++) {
            t.commit(null, null, "SELECT i::INTEGER AS id, CASE WHEN i IN (" + (f * 10 + 3) + ", " + (f * 10 + 7)
                    + ") THEN 'toolongvalue' ELSE 'n' || i END AS name FROM range(" + (f * 10) + ", " + (f * 10 + 10)
                    + ") r(i)");
        }
        return t.path();
    }

    @Test
    void aShardedLoadSetsRowsAsideInEachShareWithinTheLoadsLimit() throws Exception {
        Path d = shardedTable();
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(5) NULL)");
        assertEquals(List.of(), loadSharded(d, 2, "writeMode=replace&" + rejectOptions(8)));
        assertEquals(8, assertReconciles(d, List.of()).size());
    }

    @Test
    void aShardedLoadOverItsLimitInSumFailsAndKeepsTheTargetAsItWas() throws Exception {
        Path d = shardedTable();
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(5) NULL)",
                "INSERT INTO [dbo].[" + table + "] VALUES (100, 'old')");
        List<Throwable> failures = loadSharded(d, 2, "writeMode=replace&maxRetries=0&" + rejectOptions(7));
        assertTrue(failures.stream().anyMatch(f -> f instanceof TooManyRejectedRowsException), "failures " + failures);
        assertEquals(List.of("100|old"), targetRows());
        assertTrue(count(rejects) <= 7, "at most the limit committed by a share");
    }
}
