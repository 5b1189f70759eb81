package io.deltafunnel.camel;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.deltafunnel.delta.DeltaTableSpec;
import io.deltafunnel.delta.DeltaViews;
import io.deltafunnel.handoff.DeltaFunnelStateStore;
import io.deltafunnel.mssql.bind.ColumnMappingException;
import io.deltafunnel.mssql.state.MssqlStateStore;
import io.deltafunnel.mssql.state.StateConflictException;
import org.apache.camel.Exchange;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code writeMode=history} end to end against the emulator: the target's version rows equal the ones computed here,
 * independently of the product, from the Delta table's snapshots version by version (a key whose row changed or
 * appeared at version v gets a new version valid from v's commit time, and its previous one is closed then; a key
 * gone is closed); with the change feed (inserts, updates with and without change files, deletes, a re-insert,
 * several changes to one key in one run), transaction=run and batch, unsharded and sharded (1, 2, 4); a cut at each
 * step of the final transaction leaves the target and the state as before; a retried run and a replayed one give
 * the same result. Snapshot loads (no change rows) close changed and vanished keys at the run's time.
 */
class HistoryRouteTest extends DeltaRouteTestSupport {

    @TempDir
    Path tmp;

    /** The failures of the last {@link #load} or {@link #loadSharded} call. */
    private List<Throwable> errors = List.of();
    private String key;

    @BeforeEach
    void dropShardState() throws Exception {
        key = table;
        for (String t : List.of("deltafunnel_state_loads", "deltafunnel_state_shards")) {
            dropIfExists(t);
        }
    }

    // ------------------------------------------------------------------ the independent reference

    /** The expected version rows: per key, its versions in order. */
    private static final class Reference {
        /** id -> versions, each {name|amount, from, to}. */
        final Map<Integer, List<String[]>> versions = new TreeMap<>();
        Map<Integer, String> current = new TreeMap<>();

        /** The table moved to {@code rows} (id -> name|amount) at {@code time}. */
        void advance(Map<Integer, String> rows, String time) {
            for (Map.Entry<Integer, String> e : current.entrySet()) {
                if (!e.getValue().equals(rows.get(e.getKey()))) {
                    close(e.getKey(), time);
                }
            }
            for (Map.Entry<Integer, String> e : rows.entrySet()) {
                if (!e.getValue().equals(current.get(e.getKey()))) {
                    versions.computeIfAbsent(e.getKey(), k -> new ArrayList<>())
                            .add(new String[] {e.getValue(), time, null});
                }
            }
            current = new TreeMap<>(rows);
        }

        private void close(int id, String time) {
            List<String[]> v = versions.get(id);
            v.get(v.size() - 1)[2] = time;
        }

        List<String> rows() {
            List<String> out = new ArrayList<>();
            versions.forEach((id, vs) -> vs.forEach(v -> out.add(id + "|" + v[0] + "|" + v[1] + "|" + v[2] + "|"
                    + (v[2] == null ? 1 : 0))));
            return out;
        }
    }

    /** The commit time of version {@code v} as CdfTableWriter writes it, as datetime2 text. */
    private static String commitTime(long v) {
        return LocalDateTime.ofInstant(Instant.ofEpochMilli(1_700_000_000_000L + v * 1000), ZoneOffset.UTC).toString();
    }

    /** The Delta snapshot at {@code version}: id -> name|amount. */
    private Map<Integer, String> snapshot(Path delta, long version) throws Exception {
        DeltaViews.register(duck, List.of(new DeltaTableSpec("snap", delta.toString(), version, null)));
        Map<Integer, String> rows = new LinkedHashMap<>();
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, name, amount FROM snap ORDER BY id")) {
            while (rs.next()) {
                rows.put(rs.getInt(1), rs.getString(2) + "|" + rs.getDouble(3));
            }
        }
        return rows;
    }

    /** The reference after loading versions (from, to]: the first load (from = null) sees only version {@code to}. */
    private void advance(Reference ref, Path delta, Long from, long to) throws Exception {
        for (long v = from == null ? to : from + 1; v <= to; v++) {
            ref.advance(snapshot(delta, v), commitTime(v));
        }
    }

    private static String text(Object time) {
        if (time == null) {
            return null;
        }
        if (time instanceof Timestamp t) {
            return t.toLocalDateTime().toString();
        }
        return time instanceof LocalDateTime l ? l.toString() : LocalDateTime.parse(time.toString().replace(' ', 'T'))
                .toString();
    }

    /** The target's version rows: id|name|amount|valid_from|valid_to|is_current. */
    private List<String> target(String tableName) throws Exception {
        List<String> rows = new ArrayList<>();
        for (List<Object> r : query("SELECT [id], [name], [amount], [valid_from], [valid_to], CAST([is_current] AS int)"
                + " FROM [dbo].[" + tableName + "] ORDER BY [id], [valid_from]")) {
            rows.add(((Number) r.get(0)).intValue() + "|" + r.get(1) + "|" + ((Number) r.get(2)).doubleValue() + "|"
                    + text(r.get(3)) + "|" + text(r.get(4)) + "|" + r.get(5));
        }
        return rows;
    }

    private Long stateVersion() throws Exception {
        Map<String, Long> state = new MssqlStateStore(this::jdbc, "dbo.deltafunnel_state").loadedVersions(key);
        return state.isEmpty() ? null : state.values().iterator().next();
    }

    // ------------------------------------------------------------------ routes

    /** One poll of an incremental route (a fresh route each time); returns its last exchange when its run ended. */
    private Exchange load(Path delta, String consumerOptions, String mssqlOptions) throws Exception {
        OneRunRoutes.Ended ended = runs.run("deltafunnel:" + runs.nextId() + "?delta.t=" + delta
                + "&query=RAW(SELECT * FROM t)&batchSize=2&stateDataSource=#stateDs&stateKey=" + key
                + "&repeatCount=1&initialDelay=0&sendEmptyMessageWhenIdle=true&bridgeErrorHandler=true&"
                + consumerOptions, mssql(mssqlOptions));
        errors = ended.failures();
        return ended.last();
    }

    private static String history(String transaction) {
        return "writeMode=history&keyColumns=id&createTable=true&transaction=" + transaction;
    }

    private Exchange loadChanges(Path delta, String transaction) throws Exception {
        return load(delta, "incremental=changes", history(transaction));
    }

    // ------------------------------------------------------------------ tests

    @ParameterizedTest(name = "transaction={0}")
    @ValueSource(strings = {"run", "batch"})
    void changeFeedGivesEveryVersionOfEveryKey(String transaction) throws Exception {
        CdfTableWriter w = new CdfTableWriter(duck, tmp.resolve("t"), true);
        Reference ref = new Reference();
        w.insert("(1,'a',1.0),(2,'b',2.0),(3,'c',3.0)");
        w.insert("(4,'d',4.0),(5,'e',5.0)");
        loadChanges(w.path(), transaction);                   // first load: the snapshot as inserts
        advance(ref, w.path(), null, w.version());
        assertEquals(ref.rows(), target(table));
        assertEquals(w.version(), stateVersion());

        long from = w.version();
        w.update("amount * 10 AS amount", "id IN (1, 4)", true);
        w.delete("id = 2", true);
        w.insert("(6,'f',6.0)");
        loadChanges(w.path(), transaction);                   // three versions in one run
        advance(ref, w.path(), from, w.version());
        assertEquals(ref.rows(), target(table));

        from = w.version();
        w.update("name || '!' AS name", "id = 3", false);     // copy-on-write without change files
        w.delete("id = 5", false);
        w.update("amount + 1 AS amount", "id = 6", true);
        w.update("amount + 1 AS amount", "id = 6", true);     // the same key twice in one run: both versions
        w.delete("id = 6", true);                             // ... then deleted
        w.insert("(2,'back',2.5)");                           // re-inserted after its delete
        loadChanges(w.path(), transaction);
        advance(ref, w.path(), from, w.version());
        assertEquals(ref.rows(), target(table));

        from = w.version();
        w.insert("(6,'again',7.0)");                          // re-inserted in a later run
        w.update("amount + 1 AS amount", "id = 6", true);
        loadChanges(w.path(), transaction);
        advance(ref, w.path(), from, w.version());
        assertEquals(ref.rows(), target(table));
        assertEquals(w.version(), stateVersion());
        assertTrue(errors.isEmpty(), errors.toString());
        assertTrue(ref.rows().size() > 12, "the reference has intermediate versions: " + ref.rows());

        // a poll without new versions changes nothing
        List<String> before = target(table);
        Exchange idle = loadChanges(w.path(), transaction);
        assertTrue(idle.getIn().getHeader(DeltaFunnelConstants.UNCHANGED, Boolean.class));
        assertEquals(before, target(table));
        // createTable made the three history columns
        assertEquals(List.of(List.of("is_current", "bit", "NO"), List.of("valid_from", "datetime2", "NO"),
                List.of("valid_to", "datetime2", "YES")), query("SELECT COLUMN_NAME, DATA_TYPE, IS_NULLABLE"
                + " FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = '" + table + "' AND COLUMN_NAME IN"
                + " ('valid_from', 'valid_to', 'is_current') ORDER BY COLUMN_NAME"));
        assertEquals(List.of(), query("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE '"
                + table + "\\_\\_df\\_%' ESCAPE '\\'"), "staging table dropped");
        stopAndAssertNoArrowLeak();
    }

    /** A cut at each step of the final transaction: target and state as before; the next poll applies it once. */
    @ParameterizedTest(name = "transaction={0}")
    @ValueSource(strings = {"run", "batch"})
    void aCutAtEachStepLeavesTheTargetAsBefore(String transaction) throws Exception {
        CdfTableWriter w = new CdfTableWriter(duck, tmp.resolve("t"), true);
        Reference ref = new Reference();
        w.insert("(1,'a',1.0),(2,'b',2.0),(3,'c',3.0)");
        loadChanges(w.path(), transaction);
        advance(ref, w.path(), null, w.version());
        long from = w.version();
        w.update("amount + 1 AS amount", "id = 1", true);
        w.update("amount + 1 AS amount", "id = 1", true);
        w.delete("id = 2", true);
        w.insert("(4,'d',4.0)");
        List<String> before = target(table);
        assertEquals(ref.rows(), before);
        // the close (MERGE), the insert of the versions, the state write: permanent failures, rolled back
        for (String step : List.of("[__df_seq] = 1", "[__df_next] IS NULL", "deltafunnel_state")) {
            SERVER.emulator().faults().failStatement(step, 547);
            loadChanges(w.path(), transaction);
            assertFalse(errors.isEmpty(), "a cut at " + step + " fails the run");
            assertEquals(before, target(table), "a cut at " + step + " leaves the target as before");
            assertEquals(from, stateVersion(), "a cut at " + step + " leaves the state as before");
            SERVER.emulator().faults().clear();
        }
        // a failing bulk copy into the staging table (not transient): nothing of the run
        SERVER.emulator().faults().failBulkLoad(1, 1, 547);
        loadChanges(w.path(), transaction);
        assertFalse(errors.isEmpty());
        assertEquals(before, target(table));
        SERVER.emulator().faults().clear();
        // the commit itself lost: in doubt; the next poll lets the state decide (applied exactly once)
        SERVER.emulator().faults().failStatement("COMMIT", 10054);
        loadChanges(w.path(), transaction);
        SERVER.emulator().faults().clear();
        loadChanges(w.path(), transaction);
        advance(ref, w.path(), from, w.version());
        assertEquals(ref.rows(), target(table));
        assertEquals(w.version(), stateVersion());
        assertTrue(errors.isEmpty(), errors.toString());
        stopAndAssertNoArrowLeak();
    }

    /** A connection lost during the bulk copy: the run is replayed and applied once. */
    @ParameterizedTest(name = "transaction={0}")
    @ValueSource(strings = {"run", "batch"})
    void aTransientFailureReplaysTheRunOnce(String transaction) throws Exception {
        CdfTableWriter w = new CdfTableWriter(duck, tmp.resolve("t"), true);
        Reference ref = new Reference();
        w.insert("(1,'a',1.0),(2,'b',2.0),(3,'c',3.0)");
        loadChanges(w.path(), transaction);
        advance(ref, w.path(), null, w.version());
        long from = w.version();
        w.update("amount + 1 AS amount", "id = 1", true);
        w.insert("(4,'d',4.0),(5,'e',5.0)");
        w.update("amount + 1 AS amount", "id = 4", true);
        SERVER.emulator().faults().dropConnectionDuringBulkLoad(1, 1);
        load(w.path(), "incremental=changes", history(transaction) + "&retryDelay=10");
        advance(ref, w.path(), from, w.version());
        assertEquals(ref.rows(), target(table));
        assertTrue(errors.isEmpty(), errors.toString());
        stopAndAssertNoArrowLeak();
    }

    /** A consumer that missed the commit plans the same run again: refused by the state, nothing versioned twice. */
    @Test
    void aReplayOfACommittedRunIsRefusedAndChangesNothing() throws Exception {
        CdfTableWriter w = new CdfTableWriter(duck, tmp.resolve("t"), true);
        w.insert("(1,'a',1.0),(2,'b',2.0)");
        loadChanges(w.path(), "run");
        w.update("amount + 1 AS amount", "id = 1", true);
        DeltaFunnelStateStore real = new MssqlStateStore(this::jdbc, "dbo.deltafunnel_state");
        Map<String, Long> before = real.loadedVersions(key);
        loadChanges(w.path(), "run");
        List<String> after = target(table);
        DeltaFunnelStateStore stale = frozenStateStore(real, before);
        context.getRegistry().bind("staleStore", stale);
        load(w.path(), "incremental=changes&stateStore=#staleStore", history("run"));
        assertEquals(1, errors.size());
        Throwable t = errors.get(0);
        while (t != null && !(t instanceof StateConflictException)) {
            t = t.getCause();
        }
        assertNotNull(t, "expected a StateConflictException, got " + errors.get(0));
        assertEquals(after, target(table), "not versioned twice");
        stopAndAssertNoArrowLeak();
    }

    /**
     * Sharded final steps (1, 2, 4 shards): every version of the change feed, as unsharded. transaction=run only: a
     * shard's share commits as one transaction with its done row (transaction=batch is refused for shards).
     */
    @Test
    void shardedChangesGiveTheSameVersionsWithOneTwoAndFourShards() throws Exception {
        String transaction = "run";
        CdfTableWriter w = new CdfTableWriter(duck, tmp.resolve("t"), true);
        for (int c = 0; c < 4; c++) {
            StringBuilder values = new StringBuilder();
            for (int r = 0; r < 4; r++) {
                int id = c * 4 + r;
                values.append(r == 0 ? "" : ",").append('(').append(id).append(",'n").append(id).append("',")
                        .append(id * 1.5).append(')');
            }
            w.insert(values.toString());
        }
        long first = w.version();
        w.update("amount * 10 AS amount", "id % 3 = 0 AND id > 0", true); // every update changes a value
        w.update("amount + 1 AS amount", "id % 6 = 0", true);
        w.delete("id % 5 = 1", true);
        w.insert("(1,'back',0.5),(100,'new',1.0)");
        Reference ref = new Reference();
        advance(ref, w.path(), null, first);
        advance(ref, w.path(), first, w.version());
        String base = table;
        for (int shards : new int[] {1, 2, 4}) {
            table = base + "_" + shards;
            dropIfExists(table);
            for (String t : List.of("deltafunnel_state_loads", "deltafunnel_state_shards")) {
                dropIfExists(t);
            }
            exec("IF OBJECT_ID('dbo.deltafunnel_state') IS NOT NULL DELETE FROM [dbo].[deltafunnel_state]"
                    + " WHERE [route] = N'hs" + shards + "'");
            for (String pin : List.of("&deltaVersion.t=" + first, "")) {
                loadSharded(w.path(), shards, "incremental=changes" + pin, history(transaction));
            }
            assertEquals(ref.rows(), target(table), shards + " shards");
        }
        stopAndAssertNoArrowLeak();
    }

    /** N shard routes of one load at once; returns when every shard's run ended, with no failure. */
    private void loadSharded(Path delta, int shards, String consumerOptions, String mssqlOptions) throws Exception {
        List<String> uris = new ArrayList<>();
        for (int i = 0; i < shards; i++) {
            uris.add("deltafunnel:hs" + shards + "?delta.t=" + delta + "&query=RAW(SELECT * FROM t)&batchSize=2"
                    + "&stateDataSource=#stateDs&shardCount=" + shards + "&shardIndex=" + i
                    + (shards == 1 ? "&stateKey=hs1" : "") + "&repeatCount=1&initialDelay=0&bridgeErrorHandler=true"
                    + "&sendEmptyMessageWhenIdle=true&" + consumerOptions);
        }
        errors = runs.runAll(uris, mssql(mssqlOptions), 120).failures();
        assertTrue(errors.isEmpty(), errors.toString());
    }

    /**
     * Snapshot loads (no change rows; incremental=snapshot): a changed row closes its current version and opens a new
     * one, a vanished key is closed, an unchanged row is left alone; every time is the run's one time, within the run.
     */
    @ParameterizedTest(name = "transaction={0}")
    @ValueSource(strings = {"run", "batch"})
    void snapshotLoadsCompareWithTheCurrentRows(String transaction) throws Exception {
        String opts = history(transaction);
        CdfTableWriter w = new CdfTableWriter(duck, tmp.resolve("t"), false);
        LocalDateTime t0 = LocalDateTime.now(ZoneOffset.UTC).minusSeconds(1);
        w.insert("(1,'a',1.0),(2,'b',2.0),(3,NULL,3.0)");
        load(w.path(), "incremental=snapshot", opts);
        LocalDateTime t1 = LocalDateTime.now(ZoneOffset.UTC).plusSeconds(1);
        w.update("'bb' AS name", "id = 2", false);
        w.insert("(4,'d',4.0)");
        load(w.path(), "incremental=snapshot", opts);
        w.delete("id IN (1, 4)", false);
        w.update("'c' AS name", "id = 3", false);
        w.insert("(5,'e',5.0),(6,'f',6.0)");
        load(w.path(), "incremental=snapshot", opts);
        LocalDateTime t2 = LocalDateTime.now(ZoneOffset.UTC).plusSeconds(1);
        assertTrue(errors.isEmpty(), errors::toString);
        List<List<Object>> rows = query("SELECT [id], [name], [valid_from], [valid_to], CAST([is_current] AS int)"
                + " FROM [dbo].[" + table + "] ORDER BY [id], [valid_from]");
        // the runs' times, in order of the runs: the first run's rows all share one, and so on
        List<String> times = rows.stream().map(r -> text(r.get(2))).distinct().sorted().toList();
        assertEquals(3, times.size(), rows::toString);
        String r1 = times.get(0);
        String r2 = times.get(1);
        String r3 = times.get(2);
        assertTrue(LocalDateTime.parse(r1).isAfter(t0) && LocalDateTime.parse(r1).isBefore(t1), r1);
        assertTrue(LocalDateTime.parse(r3).isBefore(t2), r3);
        List<String> got = rows.stream().map(r -> r.get(0) + "|" + r.get(1) + "|" + text(r.get(2)) + "|"
                + text(r.get(3)) + "|" + r.get(4)).toList();
        assertEquals(List.of(
                "1|a|" + r1 + "|" + r3 + "|0",       // unchanged in run 2, absent from run 3
                "2|b|" + r1 + "|" + r2 + "|0",       // changed in run 2
                "2|bb|" + r2 + "|null|1",
                "3|null|" + r1 + "|" + r3 + "|0",    // NULL equals NULL in run 2; changed in run 3
                "3|c|" + r3 + "|null|1",
                "4|d|" + r2 + "|" + r3 + "|0",
                "5|e|" + r3 + "|null|1",
                "6|f|" + r3 + "|null|1"), got);
        assertEquals(w.version(), stateVersion());
        stopAndAssertNoArrowLeak();
    }

    /** Custom column names, and a target created by hand with datetime columns and a surrogate identity key. */
    @Test
    void customHistoryColumnsOnAnExistingTarget() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([sk] int IDENTITY(1,1) NOT NULL PRIMARY KEY, [id] int NOT NULL,"
                + " [name] nvarchar(20) NULL, [amount] float NULL, [since] datetime NOT NULL, [until] datetime NULL,"
                + " [live] bit NOT NULL)");
        String opts = "writeMode=history&keyColumns=id&validFromColumn=since&validToColumn=until&currentColumn=live";
        CdfTableWriter w = new CdfTableWriter(duck, tmp.resolve("t"), false);
        w.insert("(1,'a',1.0)");
        load(w.path(), "incremental=snapshot", opts);
        w.update("'b' AS name", "id = 1", false);
        load(w.path(), "incremental=snapshot", opts);
        assertTrue(errors.isEmpty(), errors::toString);
        List<List<Object>> rows = query("SELECT [sk], [name], CAST([live] AS int), CASE WHEN [until] IS NULL THEN 0"
                + " ELSE 1 END FROM [dbo].[" + table + "] ORDER BY [sk]");
        assertEquals(List.of(List.of(1, "a", 0, 1), List.of(2, "b", 1, 0)), rows);
        stopAndAssertNoArrowLeak();
    }

    // ------------------------------------------------------------------ bad input, before anything is written

    private ColumnMappingException refused(String createSql, String options) throws Exception {
        exec(createSql);
        runRoute(source("SELECT 1 AS id, 'a' AS name, 1.0::DOUBLE AS amount", 10), mssql(options), 1, null);
        assertEquals(1, finalFailures().size(), failures::toString);
        assertTrue(finalFailures().get(0) instanceof ColumnMappingException, finalFailures().get(0)::toString);
        assertEquals(0, count(table), "nothing written");
        assertEquals(List.of(), query("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE '"
                + table + "\\_\\_df\\_%' ESCAPE '\\'"), "no staging table left");
        ColumnMappingException e = (ColumnMappingException) finalFailures().get(0);
        failures.clear();
        exec("DROP TABLE [dbo].[" + table + "]");
        return e;
    }

    @Test
    void historyColumnsOfWrongTypesOrMissingAreRefusedNamingThem() throws Exception {
        String cols = "[id] int NOT NULL, [name] nvarchar(20) NULL, [amount] float NULL";
        String opts = "writeMode=history&keyColumns=id";
        ColumnMappingException e = refused("CREATE TABLE [dbo].[" + table + "] (" + cols + ", [valid_from] int NOT NULL,"
                + " [valid_to] datetime2 NULL, [is_current] bit NOT NULL)", opts);
        assertEquals("valid_from", e.column());
        assertTrue(e.getMessage().contains("datetime2 or datetime") && e.getMessage().contains("int"), e.getMessage());
        e = refused("CREATE TABLE [dbo].[" + table + "] (" + cols + ", [valid_from] datetime2 NOT NULL,"
                + " [valid_to] datetime2 NOT NULL, [is_current] bit NOT NULL)", opts);
        assertEquals("valid_to", e.column());
        assertTrue(e.getMessage().contains("nullable"), e.getMessage());
        e = refused("CREATE TABLE [dbo].[" + table + "] (" + cols + ", [valid_from] datetime2 NOT NULL,"
                + " [valid_to] datetime2 NULL, [is_current] int NOT NULL)", opts);
        assertEquals("is_current", e.column());
        assertTrue(e.getMessage().contains("bit"), e.getMessage());
        e = refused("CREATE TABLE [dbo].[" + table + "] (" + cols + ", [valid_from] datetime2 NOT NULL,"
                + " [valid_to] datetime2 NULL)", opts);
        assertEquals("is_current", e.column());
        assertTrue(e.getMessage().contains("has no column"), e.getMessage());
        e = refused("CREATE TABLE [dbo].[" + table + "] (" + cols + ", [valid_from] datetime2 NOT NULL,"
                + " [valid_to] datetime2 NULL, [is_current] bit NOT NULL)", opts + "&columnMapping=amount:valid_to");
        assertEquals("valid_to", e.column());
        assertTrue(e.getMessage().contains("fills itself"), e.getMessage());
        stopAndAssertNoArrowLeak();
    }

    /**
     * A snapshot load (not a change feed) whose rows repeat a key (across batches here) is refused in the final step,
     * before the target is touched: a typed error naming the table, the key columns and the duplicate key value; the
     * target keeps its versions and no staging table is left. Both encoders (HistoryDirectRouteTest).
     */
    @Test
    void aSnapshotThatRepeatsAKeyIsRefusedNamingItBeforeTheTargetIsTouched() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20) NULL, [amount] float NULL,"
                + " [valid_from] datetime2 NOT NULL, [valid_to] datetime2 NULL, [is_current] bit NOT NULL)",
                "INSERT INTO [dbo].[" + table + "] VALUES (1, N'old', 0.5, '2020-01-01', NULL, 1)");
        List<String> before = target(table);
        runRoute(source("SELECT * FROM (VALUES (1, 'a', 1.0::DOUBLE), (2, 'b', 2.0::DOUBLE), (3, 'c', 3.0::DOUBLE),"
                + " (2, 'bb', 2.5::DOUBLE), (3, 'cc', 3.5::DOUBLE)) v(id, name, amount) ORDER BY id, name", 2),
                mssql("writeMode=history&keyColumns=id&maxRetries=0"), 3, null);
        assertEquals(1, finalFailures().size(), failures::toString);
        io.deltafunnel.mssql.BulkLoadException f = finalFailures().get(0);
        assertTrue(f instanceof io.deltafunnel.mssql.session.HistoryDuplicateKeyException, f::toString);
        io.deltafunnel.mssql.session.HistoryDuplicateKeyException e =
                (io.deltafunnel.mssql.session.HistoryDuplicateKeyException) f;
        assertEquals(List.of("id"), e.keyColumns());
        assertEquals(List.of(2), e.key(), "the first duplicate key");
        assertTrue(e.getMessage().contains(table) && e.getMessage().contains("(id) = (2)")
                && e.getMessage().contains("and 1 other keys"), e.getMessage());
        assertTrue(e.permanent(), "not retried");
        assertEquals(before, target(table), "the target as before");
        assertEquals(List.of(), query("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE '"
                + table + "\\_\\_df\\_%' ESCAPE '\\'"), "no staging table left");
        failures.clear();
        stopAndAssertNoArrowLeak();
    }

    @Test
    void historyWithoutKeyColumnsIsRefusedBeforeAnythingIsWritten() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL, [name] nvarchar(20) NULL, [amount] float NULL,"
                + " [valid_from] datetime2 NOT NULL, [valid_to] datetime2 NULL, [is_current] bit NOT NULL)");
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> runRoute(
                source("SELECT 1 AS id, 'a' AS name, 1.0::DOUBLE AS amount", 10), mssql("writeMode=history"), 1,
                null));
        Throwable t = e;
        while (t.getCause() != null && !(t instanceof IllegalArgumentException)) {
            t = t.getCause();
        }
        assertTrue(t.getMessage().contains("writeMode=history needs keyColumns"), t.toString());
        assertEquals(0, count(table));
    }
}
