package io.deltafunnel.camel;

import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.bind.ColumnMappingException;
import io.deltafunnel.mssql.state.MssqlStateStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code mergeStrategy} (upsert, deleteInsert, insertOnly, updateOnly) and {@code deleteMode=soft} end to end
 * against the emulator (issue 26): plain batches and change rows ({@code incremental=changes}) for every strategy with
 * {@code transaction=run} and {@code batch}, sharded loads of 1, 2 and 4 shards, a cut at each statement of the final
 * step (target and state as before), a replayed run, soft deletes set and cleared by a re-insert, and the bad input
 * refused before anything is written. Every expected target is computed here, in Java, from the source rows the test
 * wrote ({@link Source}, {@link #apply}), never read back from SQL.
 */
class MergeStrategiesRouteTest extends DeltaRouteTestSupport {

    @TempDir
    Path tmp;

    /** The failures of the last {@link #loadShards} call. */
    private List<Throwable> errors = List.of();

    // ---- the reference: source rows and what each strategy makes of them ----

    record Row(int id, String name, double amount) {
        String text() {
            return id + "|" + name + "|" + amount;
        }
    }

    /** One change row of the feed: {@code insert}, {@code update_preimage}, {@code update_postimage}, {@code delete}. */
    record Change(Row row, String type, long version) {
    }

    /**
     * The Delta table written through {@link CdfTableWriter} and, beside it, in Java: its rows and the change rows
     * since the last load, as the change data feed reports them.
     */
    final class Source {
        final CdfTableWriter writer;
        final Map<Integer, Row> rows = new TreeMap<>();
        final List<Change> pending = new ArrayList<>();

        Source(String name) throws Exception {
            writer = new CdfTableWriter(duck, tmp.resolve(name), true);
        }

        void insert(Row... added) throws Exception {
            long v = writer.insert(Stream.of(added).map(r -> "(" + r.id() + ",'" + r.name() + "'," + r.amount() + ")")
                    .collect(Collectors.joining(",")));
            for (Row r : added) {
                rows.put(r.id(), r);
                pending.add(new Change(r, "insert", v));
            }
        }

        /** amount * 10 for {@code ids}. */
        void update(Integer... ids) throws Exception {
            long v = writer.update("amount * 10 AS amount", "id IN (" + list(ids) + ")", true);
            for (int id : ids) {
                Row old = rows.get(id);
                Row now = new Row(id, old.name(), old.amount() * 10);
                rows.put(id, now);
                pending.add(new Change(old, "update_preimage", v));
                pending.add(new Change(now, "update_postimage", v));
            }
        }

        void delete(Integer... ids) throws Exception {
            long v = writer.delete("id IN (" + list(ids) + ")", true);
            for (int id : ids) {
                pending.add(new Change(rows.remove(id), "delete", v));
            }
        }

        /** The change rows a load takes, which it then no longer has pending. */
        List<Change> take() {
            List<Change> out = List.copyOf(pending);
            pending.clear();
            return out;
        }

        private static String list(Integer... ids) {
            return Stream.of(ids).map(String::valueOf).collect(Collectors.joining(","));
        }
    }

    /** How a test's target marks soft-deleted rows: not at all (hard), a bit or a datetime2 column. */
    enum Soft {
        HARD(""), BIT("&deleteMode=soft&softDeleteColumn=is_deleted"),
        TIMESTAMP("&deleteMode=soft&softDeleteColumn=deleted_at:datetime2");

        final String options;

        Soft(String options) {
            this.options = options;
        }

        String column() {
            return this == BIT ? "is_deleted" : this == TIMESTAMP ? "deleted_at" : null;
        }

        /** The column's value of a live row, as {@link #target} reads it. */
        String cleared() {
            return this == BIT ? "0" : "null";
        }

        /** The column's value of a row deleted by {@code c}: 1, or the commit's timestamp (CdfTableWriter's). */
        String flag(Change c) {
            return this == BIT ? "1" : String.valueOf(1_700_000_000_000L + c.version() * 1000);
        }
    }

    /** The last change per key, as the producer ranks them: highest version, then not-a-delete; no preimages. */
    static Map<Integer, Change> lastChanges(List<Change> changes) {
        Map<Integer, Change> last = new LinkedHashMap<>();
        for (Change c : changes) {
            if (c.type().equals("update_preimage")) {
                continue;
            }
            Change seen = last.get(c.row().id());
            if (seen == null || c.version() > seen.version()
                    || c.version() == seen.version() && seen.type().equals("delete") && !c.type().equals("delete")) {
                last.put(c.row().id(), c);
            }
        }
        return last;
    }

    /**
     * Applies {@code changes} to the expected {@code target} (id to "id|name|amount[|soft]") as {@code strategy}
     * does: upsert and deleteInsert end the same; insertOnly touches no existing row; updateOnly inserts nothing; a
     * soft delete keeps the row's values and sets the column, every other written row gets it cleared.
     */
    static void apply(Map<Integer, String> target, List<Change> changes, String strategy, Soft soft) {
        for (Change c : lastChanges(changes).values()) {
            int id = c.row().id();
            boolean present = target.containsKey(id);
            if (c.type().equals("delete")) {
                if (strategy.equals("insertOnly") || !present) {
                    continue;
                }
                if (soft == Soft.HARD) {
                    target.remove(id);
                } else {
                    String old = target.get(id);
                    target.put(id, old.substring(0, old.lastIndexOf('|') + 1) + soft.flag(c));
                }
                continue;
            }
            if (strategy.equals("insertOnly") && present || strategy.equals("updateOnly") && !present) {
                continue;
            }
            target.put(id, c.row().text() + (soft == Soft.HARD ? "" : "|" + soft.cleared()));
        }
    }

    /** The target's rows as "id|name|amount[|soft]" by id. */
    private Map<Integer, String> target(String tableName, Soft soft) throws Exception {
        Map<Integer, String> rows = new TreeMap<>();
        for (List<Object> r : query("SELECT [id], [name], [amount]" + (soft == Soft.HARD ? "" : ", ["
                + soft.column() + "]") + " FROM [dbo].[" + tableName + "] ORDER BY [id]")) {
            String text = ((Number) r.get(0)).intValue() + "|" + r.get(1) + "|" + ((Number) r.get(2)).doubleValue();
            if (soft == Soft.BIT) {
                text += "|" + (r.get(3) == null ? "null" : (Boolean) r.get(3) ? "1" : "0");
            } else if (soft == Soft.TIMESTAMP) {
                text += "|" + (r.get(3) == null ? "null" : String.valueOf(((Timestamp) r.get(3)).toLocalDateTime()
                        .toInstant(ZoneOffset.UTC).toEpochMilli()));
            }
            rows.put(((Number) r.get(0)).intValue(), text);
        }
        return rows;
    }

    // ---- running loads ----

    /** One incremental poll of {@code source} into the test's table (a fresh route, as after a restart). */
    private void load(Source source, String stateKey, String mssqlOptions) throws Exception {
        loadShards(source, stateKey, 1, table, mssqlOptions);
    }

    /**
     * One incremental run of {@code shards} shard routes at once (1: the ordinary unsharded run) from {@code source}
     * into {@code tableName}; returns when every shard's run ended, its failures in {@link #errors}.
     */
    private void loadShards(Source source, String name, int shards, String tableName, String mssqlOptions)
            throws Exception {
        String producer = mssql(mssqlOptions).replace("dbo." + table + "?", "dbo." + tableName + "?");
        List<String> uris = new ArrayList<>();
        for (int i = 0; i < shards; i++) {
            uris.add("deltafunnel:" + name + "?delta.t=" + source.writer.path()
                    + "&query=RAW(SELECT * FROM t)&batchSize=2&incremental=changes&stateDataSource=#stateDs"
                    + "&repeatCount=1&initialDelay=0&sendEmptyMessageWhenIdle=true&bridgeErrorHandler=true"
                    + (shards == 1 ? "&stateKey=" + name : "&shardCount=" + shards + "&shardIndex=" + i));
        }
        errors = runs.runAll(uris, producer, 120).failures();
    }

    private Long stateVersion(String stateKey) throws Exception {
        Map<String, Long> state = new MssqlStateStore(this::jdbc, "dbo.deltafunnel_state").loadedVersions(stateKey);
        return state.isEmpty() ? null : state.values().iterator().next();
    }

    private void assertNoStagingLeft(String tableName) throws Exception {
        assertEquals(List.of(), query("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME LIKE '"
                + tableName + "[_][_]df[_]%'"), "staging table left behind");
    }

    private static String mergeOptions(String strategy, Soft soft) {
        return "writeMode=merge&keyColumns=id&createTable=true&mergeStrategy=" + strategy + soft.options;
    }

    /**
     * A first load, then three loads of changes (sharded: all of them in one second load): updates, deletes and
     * inserts, a key changed twice in one run, a key
     * deleted and re-inserted in one run, a re-insert of a key deleted by an earlier run, a delete of a key the
     * target never had, the same key updated in two versions of one run.
     */
    private void changeRuns(String strategy, Soft soft, String transaction, int shards, String name)
            throws Exception {
        String tableName = shards == 0 ? table : table + "_" + shards;
        int n = Math.max(shards, 1);
        dropIfExists(tableName);
        Source src = new Source(name);
        Map<Integer, String> expected = new TreeMap<>();
        src.insert(new Row(1, "a", 1), new Row(2, "b", 2), new Row(3, "c", 3), new Row(4, "d", 4));
        src.insert(new Row(5, "e", 5), new Row(6, "f", 6));
        String options = mergeOptions(strategy, soft) + "&transaction=" + transaction;
        // the first load is the snapshot as inserts: every strategy but updateOnly fills the new table
        loadShards(src, name, n, tableName, options);
        assertEquals(List.of(), errors);
        apply(expected, src.take(), strategy, soft);
        assertEquals(expected, target(tableName, soft), "first load");
        if (strategy.equals("updateOnly")) {
            // updateOnly never inserts: seed the target by hand (as a reference loaded before)
            for (Row r : src.rows.values()) {
                exec("INSERT INTO [dbo].[" + tableName + "] ([id], [name], [amount]" + (soft == Soft.HARD ? ""
                        : ", [" + soft.column() + "]") + ") VALUES (" + r.id() + ", '" + r.name() + "', "
                        + r.amount() + (soft == Soft.HARD ? "" : ", " + (soft == Soft.BIT ? "0" : "NULL")) + ")");
                expected.put(r.id(), r.text() + (soft == Soft.HARD ? "" : "|" + soft.cleared()));
            }
        }
        src.update(1, 4);
        src.delete(2);
        src.insert(new Row(7, "g", 7), new Row(8, "h", 8));
        src.update(4);                                 // the same key in two versions of one run
        boolean everyStep = shards == 0;               // sharded: all the changes below in one second load
        if (everyStep) {
            loadShards(src, name, n, tableName, options);
            assertEquals(List.of(), errors);
            apply(expected, src.take(), strategy, soft);
            assertEquals(expected, target(tableName, soft), "second load: updates, a delete, inserts");
        }

        src.delete(3, 7);
        src.insert(new Row(3, "again", 30));           // deleted and re-inserted within one run
        src.insert(new Row(2, "back", 20));            // re-insert of a key an earlier run deleted
        src.update(5);
        src.delete(5);                                 // updated, then deleted in one run
        if (everyStep) {
            loadShards(src, name, n, tableName, options);
            assertEquals(List.of(), errors);
            apply(expected, src.take(), strategy, soft);
            assertEquals(expected, target(tableName, soft), "third load: deletes, re-inserts");
        }

        src.insert(new Row(9, "i", 9));
        src.delete(9);                                 // a key the target never had, deleted
        src.update(6);
        loadShards(src, name, n, tableName, options);
        assertEquals(List.of(), errors);
        apply(expected, src.take(), strategy, soft);
        assertEquals(expected, target(tableName, soft), everyStep ? "fourth load" : "second load, " + n + " shards");
        assertNoStagingLeft(tableName);
        assertEquals(src.writer.version(), stateVersion(name), "the state advanced with the data");
    }

    static Stream<Arguments> strategiesModesAndTransactions() {
        List<Arguments> out = new ArrayList<>();
        for (String strategy : List.of("upsert", "deleteInsert", "insertOnly", "updateOnly")) {
            for (Soft soft : Soft.values()) {
                if (strategy.equals("insertOnly") && soft != Soft.HARD) {
                    continue; // refused: see insertOnlyWithSoftDeletesIsRefused
                }
                out.add(Arguments.of(strategy, soft, "run"));
                if (soft == Soft.HARD) {
                    out.add(Arguments.of(strategy, soft, "batch")); // the staging rows commit per batch
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} transaction={2}")
    @MethodSource("strategiesModesAndTransactions")
    void changeRowsEqualTheReference(String strategy, Soft soft, String transaction) throws Exception {
        changeRuns(strategy, soft, transaction, 0, "c_" + strategy + "_" + soft + "_" + transaction);
        stopAndAssertNoArrowLeak();
    }

    static Stream<Arguments> strategiesAndModes() {
        return Stream.of(Arguments.of("upsert", Soft.HARD), Arguments.of("deleteInsert", Soft.HARD),
                Arguments.of("insertOnly", Soft.HARD), Arguments.of("updateOnly", Soft.HARD),
                Arguments.of("deleteInsert", Soft.BIT), Arguments.of("upsert", Soft.TIMESTAMP));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("strategiesAndModes")
    void shardedChangeRowsWithOneTwoAndFourShardsEqualTheReference(String strategy, Soft soft) throws Exception {
        dropStateTables();
        for (int shards : new int[] {1, 2, 4}) {
            changeRuns(strategy, soft, "run", shards, "s" + shards + "_" + strategy + "_" + soft);
        }
        stopAndAssertNoArrowLeak();
    }

    // ---- plain batches ----

    /** Source rows ids 5..24 (name v<id>), target seeded with ids 0..9 (name old): the reference in Java. */
    private Map<Integer, String> plainReference(String strategy, Map<Integer, String> seeded) {
        Map<Integer, String> expected = new TreeMap<>(seeded);
        for (int i = 5; i < 25; i++) {
            boolean present = expected.containsKey(i);
            if (strategy.equals("insertOnly") && present || strategy.equals("updateOnly") && !present) {
                continue;
            }
            expected.put(i, i + "|v" + i);
        }
        return expected;
    }

    private Map<Integer, String> seedPlain() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL PRIMARY KEY, [name] nvarchar(20) NULL)");
        Map<Integer, String> seeded = new TreeMap<>();
        for (int i = 0; i < 10; i++) {
            exec("INSERT INTO [dbo].[" + table + "] VALUES (" + i + ", N'old')");
            seeded.put(i, i + "|old");
        }
        return seeded;
    }

    private Map<Integer, String> plainTarget() throws Exception {
        Map<Integer, String> rows = new TreeMap<>();
        for (List<Object> r : query("SELECT [id], [name] FROM [dbo].[" + table + "]")) {
            rows.put(((Number) r.get(0)).intValue(), r.get(0) + "|" + r.get(1));
        }
        return rows;
    }

    private static final String PLAIN = "SELECT i::INTEGER AS id, 'v' || i AS name FROM range(5, 25) t(i) ORDER BY i";

    static Stream<Arguments> strategiesAndTransactions() {
        return Stream.of("upsert", "deleteInsert", "insertOnly", "updateOnly")
                .flatMap(s -> Stream.of(Arguments.of(s, "run"), Arguments.of(s, "batch")));
    }

    @ParameterizedTest(name = "{0} transaction={1}")
    @MethodSource("strategiesAndTransactions")
    void plainBatchesEqualTheReference(String strategy, String transaction) throws Exception {
        Map<Integer, String> expected = plainReference(strategy, seedPlain());
        runRoute(source(PLAIN, 4), mssql("writeMode=merge&keyColumns=id&mergeStrategy=" + strategy
                + "&transaction=" + transaction), 5, null);
        assertEquals(List.of(), failures);
        assertEquals(expected, plainTarget());
        assertNoStagingLeft(table);
        stopAndAssertNoArrowLeak();
    }

    /** Plain batches through 1, 2 and 4 shards (consumer {@code shardCount}): the final step applies the strategy. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("strategiesAndTransactions")
    void shardedPlainBatchesEqualTheReference(String strategy, String transaction) throws Exception {
        if (transaction.equals("batch")) {
            return; // a sharded share commits as one transaction per shard: transaction=batch changes nothing here
        }
        Path delta = tmp.resolve("plain_" + strategy);
        CdfTableWriter w = new CdfTableWriter(duck, delta, false);
        StringBuilder values = new StringBuilder();
        for (int i = 5; i < 25; i++) {
            values.append(values.length() == 0 ? "" : ",").append("(").append(i).append(",'v").append(i).append("',1.0)");
            if (i % 5 == 4) {
                w.insert(values.toString()); // one file per commit: the shards split them
                values.setLength(0);
            }
        }
        String base = table;
        dropStateTables();
        for (int shards : new int[] {1, 2, 4}) {
            table = base + "_" + shards;
            dropIfExists(table);
            Map<Integer, String> expected = plainReference(strategy, seedPlain());
            exec("ALTER TABLE [dbo].[" + table + "] ADD [amount] float NULL");
            List<String> uris = new ArrayList<>();
            for (int i = 0; i < shards; i++) {
                uris.add("deltafunnel:plain_" + strategy + "_" + shards + "?delta.t=" + delta
                        + "&query=RAW(SELECT id, name FROM t)&batchSize=3&stateDataSource=#stateDs&repeatCount=1"
                        + "&initialDelay=0&bridgeErrorHandler=true&shardCount=" + shards + "&shardIndex=" + i);
            }
            errors = runs.runAll(uris, mssql("writeMode=merge&keyColumns=id&mergeStrategy=" + strategy), 120)
                    .failures();
            assertEquals(List.of(), errors);
            assertEquals(expected, plainTarget(), strategy + " with " + shards + " shards");
            assertNoStagingLeft(table);
        }
        stopAndAssertNoArrowLeak();
    }

    // ---- a cut at each step, and a replayed run ----

    /** The statements of each strategy's final step, by a text the emulator's statement faults match. */
    static Stream<Arguments> stepsOfEachStrategy() {
        List<Arguments> out = new ArrayList<>();
        out.add(Arguments.of("upsert", Soft.HARD, "MERGE INTO", "run"));
        out.add(Arguments.of("upsert", Soft.BIT, "MERGE INTO", "run"));
        out.add(Arguments.of("insertOnly", Soft.HARD, "MERGE INTO", "run"));
        out.add(Arguments.of("updateOnly", Soft.TIMESTAMP, "MERGE INTO", "run"));
        out.add(Arguments.of("deleteInsert", Soft.HARD, "DELETE T FROM", "run"));
        out.add(Arguments.of("deleteInsert", Soft.HARD, "INSERT INTO [dbo].[", "run"));
        out.add(Arguments.of("deleteInsert", Soft.BIT, "UPDATE T SET", "run"));
        out.add(Arguments.of("deleteInsert", Soft.BIT, "DELETE T FROM", "run"));
        out.add(Arguments.of("deleteInsert", Soft.BIT, "INSERT INTO [dbo].[", "run"));
        out.add(Arguments.of("deleteInsert", Soft.HARD, "UPDATE [dbo].[deltafunnel_state] SET", "run"));
        // transaction=batch: the staging batches are committed, the final step is the same transaction as above
        out.add(Arguments.of("upsert", Soft.HARD, "MERGE INTO", "batch"));
        out.add(Arguments.of("deleteInsert", Soft.BIT, "DELETE T FROM", "batch"));
        out.add(Arguments.of("updateOnly", Soft.HARD, "UPDATE [dbo].[deltafunnel_state] SET", "batch"));
        return out.stream();
    }

    /**
     * A permanent error at {@code step} fails the run: target and state stay as before the run, no staging table is
     * left; a transient one at the same step replays the run, which lands exactly the reference once; a further run
     * with nothing new changes nothing.
     */
    @ParameterizedTest(name = "{0} {1} cut at {2} transaction={3}")
    @MethodSource("stepsOfEachStrategy")
    void aCutAtEachStepLeavesTheTargetAsBeforeAndTheReplayLandsOnce(String strategy, Soft soft, String step,
            String transaction) throws Exception {
        String key = "cut_" + table;
        Source src = new Source("cut");
        src.insert(new Row(1, "a", 1), new Row(2, "b", 2), new Row(3, "c", 3));
        String options = mergeOptions(strategy, soft) + "&transaction=" + transaction;
        Map<Integer, String> expected = new TreeMap<>();
        if (strategy.equals("updateOnly")) {
            load(src, key, options.replace("mergeStrategy=updateOnly", "mergeStrategy=upsert"));
        } else {
            load(src, key, options);
        }
        assertEquals(List.of(), errors);
        apply(expected, src.take(), strategy.equals("updateOnly") ? "upsert" : strategy, soft);
        long loaded = src.writer.version();
        src.update(1);
        src.delete(2);
        src.insert(new Row(4, "d", 4));
        Map<Integer, String> before = target(table, soft);
        assertEquals(expected, before);
        String fault = step.equals("INSERT INTO [dbo].[") ? step + table + "] (" : step;
        SERVER.emulator().faults().failStatement(fault, 547);
        load(src, key, options + "&maxRetries=0");
        assertEquals(1, errors.size(), errors::toString);
        assertEquals(before, target(table, soft), "a cut at " + step + " leaves the target as before");
        assertEquals(loaded, stateVersion(key), "nor the state advanced");
        assertNoStagingLeft(table);

        SERVER.emulator().faults().clear();
        SERVER.emulator().faults().failStatement(fault, 1205);         // transient: the run is replayed
        load(src, key, options + "&retryDelay=10");
        assertEquals(List.of(), errors);
        apply(expected, src.take(), strategy, soft);
        assertEquals(expected, target(table, soft), "the replayed run landed once");
        assertEquals(src.writer.version(), stateVersion(key));
        load(src, key, options);                                       // nothing new: nothing changes
        assertEquals(List.of(), errors);
        assertEquals(expected, target(table, soft));
        assertNoStagingLeft(table);
        stopAndAssertNoArrowLeak();
    }

    // ---- soft deletes ----

    static Stream<Arguments> softStrategies() {
        List<Arguments> out = new ArrayList<>();
        for (String strategy : List.of("upsert", "deleteInsert", "updateOnly")) {
            out.add(Arguments.of(strategy, Soft.BIT));
            out.add(Arguments.of(strategy, Soft.TIMESTAMP));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("softStrategies")
    void aSoftDeleteSetsTheColumnAndAReinsertClearsIt(String strategy, Soft soft) throws Exception {
        String key = "soft_" + table;
        Source src = new Source("soft");
        src.insert(new Row(1, "a", 1), new Row(2, "b", 2), new Row(3, "c", 3));
        String options = mergeOptions(strategy, soft);
        load(src, key, options.replace("mergeStrategy=updateOnly", "mergeStrategy=upsert"));
        assertEquals(List.of(), errors);
        src.take();
        String type = soft == Soft.BIT ? "bit" : "datetime2";
        assertEquals(List.of(List.of(type, "YES")), query("SELECT DATA_TYPE, IS_NULLABLE FROM"
                + " INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = '" + table + "' AND COLUMN_NAME = '"
                + soft.column() + "'"), "createTable created the column");
        src.delete(2, 3);
        long deletedAt = src.writer.version();
        load(src, key, options);
        assertEquals(List.of(), errors);
        Map<Integer, String> rows = target(table, soft);
        assertEquals(3, rows.size(), "the deleted rows stay: " + rows);
        assertEquals("1|a|1.0|" + soft.cleared(), rows.get(1));
        String flag = soft.flag(new Change(null, "delete", deletedAt));
        assertEquals("2|b|2.0|" + flag, rows.get(2));
        assertEquals("3|c|3.0|" + flag, rows.get(3));

        src.insert(new Row(2, "back", 20));              // the re-insert clears it
        load(src, key, options);
        assertEquals(List.of(), errors);
        rows = target(table, soft);
        assertEquals("2|back|20.0|" + soft.cleared(), rows.get(2));
        assertEquals("3|c|3.0|" + flag, rows.get(3));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void schemaEvolutionAddsTheSoftDeleteColumnToAnExistingTarget() throws Exception {
        String key = "evolve_" + table;
        Source src = new Source("evolve");
        src.insert(new Row(1, "a", 1), new Row(2, "b", 2));
        load(src, key, "writeMode=merge&keyColumns=id&createTable=true");
        assertEquals(List.of(), errors);
        src.take();
        src.delete(1);
        long v = src.writer.version();
        load(src, key, "writeMode=merge&keyColumns=id&deleteMode=soft&softDeleteColumn=deleted_at:datetime2"
                + "&schemaEvolution=addColumns");
        assertEquals(List.of(), errors);
        assertEquals(Map.of(1, "1|a|1.0|" + (1_700_000_000_000L + v * 1000), 2, "2|b|2.0|null"),
                target(table, Soft.TIMESTAMP));
        stopAndAssertNoArrowLeak();
    }

    // ---- bad input: refused before anything is written ----

    private static Throwable rootOf(Throwable e, Class<?> type) {
        Throwable t = e;
        while (t.getCause() != null && !type.isInstance(t)) {
            t = t.getCause();
        }
        return t;
    }

    @Test
    void mergeOptionsWithoutWriteModeMergeAreRefusedAtTheEndpoint() {
        for (String options : List.of("writeMode=append&mergeStrategy=deleteInsert",
                "writeMode=replace&mergeStrategy=upsert", "deleteMode=soft&softDeleteColumn=d",
                "writeMode=merge&keyColumns=id&deleteMode=soft", "writeMode=merge&keyColumns=id&softDeleteColumn=d",
                "writeMode=merge&keyColumns=id&mergeStrategy=insertOnly&deleteMode=soft&softDeleteColumn=d",
                "writeMode=merge&keyColumns=id&mergeStrategy=mergeAll",
                "writeMode=merge&keyColumns=id&deleteMode=soft&softDeleteColumn=d:int")) {
            Exception e = assertThrows(Exception.class, () -> context.getEndpoint(mssql(options)), options);
            Throwable root = rootOf(e, IllegalArgumentException.class);
            assertInstanceOf(IllegalArgumentException.class, root, options);
            String option = options.contains("mergeAll") ? "mergeStrategy" : options.contains(":int")
                    ? "bit or datetime2" : options.contains("insertOnly") ? "insertOnly"
                    : options.contains("writeMode=merge") ? "deleteMode" : "writeMode=merge";
            assertTrue(root.getMessage().contains(option), options + ": " + root.getMessage());
        }
    }

    private List<List<Object>> seedWithColumn(String softType) throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL PRIMARY KEY, [name] nvarchar(20) NULL,"
                + " [amount] float NULL" + (softType == null ? "" : ", [gone] " + softType) + ")",
                "INSERT INTO [dbo].[" + table + "] ([id], [name], [amount]) VALUES (1000, N'old', 1)");
        return query("SELECT * FROM [dbo].[" + table + "] ORDER BY 1");
    }

    private BulkLoadException failsBeforeWriting(String options, List<List<Object>> before) throws Exception {
        runRoute(source("SELECT 1 AS id, 'x' AS name, 2.5::DOUBLE AS amount", 10), mssql(options), 1, null);
        assertEquals(1, failures.size(), failures::toString);
        assertEquals(before, query("SELECT * FROM [dbo].[" + table + "] ORDER BY 1"), "nothing written");
        assertNoStagingLeft(table);
        return failures.get(0);
    }

    @Test
    void aSoftDeleteColumnOfAWrongTypeIsRefusedBeforeAnythingIsWritten() throws Exception {
        List<List<Object>> before = seedWithColumn("nvarchar(10) NULL");
        BulkLoadException e = failsBeforeWriting("writeMode=merge&keyColumns=id&deleteMode=soft"
                + "&softDeleteColumn=gone", before);
        assertInstanceOf(ColumnMappingException.class, e);
        assertEquals("gone", e.column());
        assertTrue(e.getMessage().contains("nvarchar(10)") && e.getMessage().contains("needs a bit"),
                e.getMessage());
        stopAndAssertNoArrowLeak();
    }

    @Test
    void aSoftDeleteColumnOfAnotherTypeThanConfiguredIsRefused() throws Exception {
        List<List<Object>> before = seedWithColumn("bit NULL");
        BulkLoadException e = failsBeforeWriting("writeMode=merge&keyColumns=id&deleteMode=soft"
                + "&softDeleteColumn=gone:datetime2", before);
        assertTrue(e.getMessage().contains("not datetime2"), e.getMessage());
        stopAndAssertNoArrowLeak();
    }

    @Test
    void aNotNullSoftDeleteColumnIsRefused() throws Exception {
        List<List<Object>> before = seedWithColumn("bit NOT NULL DEFAULT 0");
        BulkLoadException e = failsBeforeWriting("writeMode=merge&keyColumns=id&deleteMode=soft"
                + "&softDeleteColumn=gone", before);
        assertTrue(e.getMessage().contains("NOT NULL"), e.getMessage());
        stopAndAssertNoArrowLeak();
    }

    @Test
    void aMissingSoftDeleteColumnWithoutSchemaEvolutionIsRefused() throws Exception {
        List<List<Object>> before = seedWithColumn(null);
        BulkLoadException e = failsBeforeWriting("writeMode=merge&keyColumns=id&deleteMode=soft"
                + "&softDeleteColumn=gone&createTable=true", before);
        assertTrue(e.getMessage().contains("does not exist") && e.getMessage().contains("schemaEvolution=addColumns"),
                e.getMessage());
        assertEquals(List.of(), query("SELECT COLUMN_NAME FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = '"
                + table + "' AND COLUMN_NAME = 'gone'"));
        stopAndAssertNoArrowLeak();
    }

    @Test
    void aSoftDeleteColumnTheSourceWritesIsRefused() throws Exception {
        List<List<Object>> before = seedWithColumn("bit NULL");
        BulkLoadException e = failsBeforeWriting("writeMode=merge&keyColumns=id&deleteMode=soft"
                + "&softDeleteColumn=name", before);
        assertEquals("name", e.column());
        assertTrue(e.getMessage().contains("written by source column"), e.getMessage());
        stopAndAssertNoArrowLeak();
    }

    @Test
    void aDatetime2SoftDeleteColumnNeedsTheCommitTimestampOfChangeRows() throws Exception {
        List<List<Object>> before = seedWithColumn("datetime2 NULL");
        runRoute(source("SELECT 1 AS id, 'x' AS name, 2.5::DOUBLE AS amount, 'delete' AS _change_type", 10),
                mssql("writeMode=merge&keyColumns=id&deleteMode=soft&softDeleteColumn=gone"), 1, null);
        assertEquals(1, failures.size(), failures::toString);
        assertTrue(failures.get(0).getMessage().contains("_commit_timestamp"), failures.get(0).getMessage());
        assertEquals(before, query("SELECT * FROM [dbo].[" + table + "] ORDER BY 1"));
        assertNoStagingLeft(table);
        stopAndAssertNoArrowLeak();
    }

    @Test
    void updateOnlyWithOnlyKeyColumnsWritesNothing() throws Exception {
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL PRIMARY KEY)",
                "INSERT INTO [dbo].[" + table + "] VALUES (1), (2)");
        runRoute(source("SELECT i::INTEGER AS id FROM range(0, 5) t(i)", 10),
                mssql("writeMode=merge&keyColumns=id&mergeStrategy=updateOnly"), 1, null);
        assertEquals(List.of(), failures);
        assertEquals(List.of(List.of(1), List.of(2)), query("SELECT [id] FROM [dbo].[" + table + "] ORDER BY 1"));
        stopAndAssertNoArrowLeak();
    }
}
