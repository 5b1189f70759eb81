package io.deltafunnel.incremental;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.deltafunnel.delta.ChangeDataFeedException;
import io.deltafunnel.delta.DeltaTableSpec;
import io.deltafunnel.delta.VersionNotFoundException;
import io.deltafunnel.handoff.DeltaFunnelStateStore;
import io.deltafunnel.handoff.IncrementalLoad;
import io.deltafunnel.query.DuckDbSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link IncrementalPlanner} without Camel, over real Delta tables written by the test: the first run, unchanged
 * polls, snapshot versus change-feed plans, the change feed fallback, a state ahead of the table, and the views the
 * planned run registers.
 */
class IncrementalPlannerTest {

    @TempDir
    Path dir;

    /** The state table's contract in memory: source path to the last loaded version, per key. */
    private static final class MemoryStateStore implements DeltaFunnelStateStore {
        final Map<String, Map<String, Long>> versions = new HashMap<>();

        @Override
        public String tableName() {
            return "dbo.deltafunnel_state";
        }

        @Override
        public Map<String, Long> loadedVersions(String key) {
            return Map.copyOf(versions.getOrDefault(key, Map.of()));
        }

        @Override
        public void reset(String key) {
            versions.remove(key);
        }

        /** What the producer does when a run commits. */
        void commit(String key, IncrementalLoad load) {
            for (IncrementalLoad.Source s : load.sources()) {
                versions.computeIfAbsent(key, k -> new HashMap<>()).put(s.source(), s.toVersion());
            }
        }
    }

    /** An insert-only Delta table (id INTEGER, name VARCHAR), each commit one Parquet file written by DuckDB. */
    private static final class Table {
        final Path root;
        private long next;

        Table(Path root, boolean changeFeed) throws Exception {
            this.root = root;
            Files.createDirectories(root.resolve("_delta_log"));
            String schema = "{\\\"type\\\":\\\"struct\\\",\\\"fields\\\":["
                    + "{\\\"name\\\":\\\"id\\\",\\\"type\\\":\\\"integer\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}},"
                    + "{\\\"name\\\":\\\"name\\\",\\\"type\\\":\\\"string\\\",\\\"nullable\\\":true,\\\"metadata\\\":{}}]}";
            commit(List.of("{\"protocol\":{\"minReaderVersion\":1,\"minWriterVersion\":" + (changeFeed ? 4 : 2) + "}}",
                    "{\"metaData\":{\"id\":\"t-" + root.getFileName() + "\",\"format\":{\"provider\":\"parquet\","
                            + "\"options\":{}},\"schemaString\":\"" + schema + "\",\"partitionColumns\":[],"
                            + "\"configuration\":{\"delta.enableChangeDataFeed\":\"" + changeFeed + "\"},"
                            + "\"createdTime\":1}}"));
        }

        /** Appends {@code VALUES}-style rows; returns the new version. */
        long insert(String values) throws Exception {
            String file = String.format(Locale.ROOT, "part-%05d.parquet", next);
            try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                    Statement st = duck.createStatement()) {
                st.execute("COPY (SELECT * FROM (VALUES " + values + ") AS v(id, name)) TO '" + root.resolve(file)
                        + "' (FORMAT parquet)");
            }
            return commit(List.of("{\"add\":{\"path\":\"" + file + "\",\"partitionValues\":{},\"size\":"
                    + Files.size(root.resolve(file)) + ",\"modificationTime\":1,\"dataChange\":true}}"));
        }

        private long commit(List<String> actions) throws Exception {
            List<String> lines = new ArrayList<>(actions);
            lines.add("{\"commitInfo\":{\"timestamp\":" + (1_700_000_000_000L + next * 1000)
                    + ",\"operation\":\"WRITE\"}}");
            Files.writeString(root.resolve("_delta_log").resolve(String.format(Locale.ROOT, "%020d.json", next)),
                    String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
            return next++;
        }

        String path() {
            return root.toString();
        }
    }

    private final MemoryStateStore store = new MemoryStateStore();

    private IncrementalPlanner planner(IncrementalMode mode, Long startVersion, boolean fallback,
            DeltaTableSpec... specs) {
        return new IncrementalPlanner("route r1", mode, store, "k", startVersion, fallback, List.of(specs),
                DuckDbSettings.inMemory());
    }

    private static DeltaTableSpec spec(String view, Table t) {
        return new DeltaTableSpec(view, t.path(), null, null);
    }

    @Test
    void theFirstRunLoadsEverythingAndAnUnchangedTableIsNoRun() throws Exception {
        Table t = new Table(dir.resolve("orders"), false);
        t.insert("(1,'a')");
        IncrementalPlanner p = planner(IncrementalMode.SNAPSHOT, null, false, spec("orders", t));

        IncrementalPlanner.Plan first = p.plan();
        assertTrue(first.changed());
        IncrementalLoad.Source s = first.load().sources().get(0);
        assertNull(s.storedVersion());
        assertNull(s.fromVersion());
        assertEquals(1, s.toVersion());
        assertFalse(s.changes());
        assertEquals("snapshot", first.load().mode());
        assertEquals("dbo.deltafunnel_state", first.load().stateTable());

        store.commit("k", first.load());
        IncrementalPlanner.Plan again = p.plan();
        assertFalse(again.changed(), "nothing new since version 1");
        assertEquals(1L, again.load().sources().get(0).fromVersion());

        t.insert("(2,'b')");
        IncrementalPlanner.Plan next = p.plan();
        assertTrue(next.changed());
        assertEquals(1L, next.load().sources().get(0).storedVersion());
        assertEquals(2, next.load().sources().get(0).toVersion());
    }

    @Test
    void oneChangedTableMakesARunOfAll() throws Exception {
        Table a = new Table(dir.resolve("a"), false);
        Table b = new Table(dir.resolve("b"), false);
        a.insert("(1,'a')");
        b.insert("(1,'b')");
        IncrementalPlanner p = planner(IncrementalMode.SNAPSHOT, null, false, spec("a", a), spec("b", b));
        store.commit("k", p.plan().load());
        assertFalse(p.plan().changed());

        b.insert("(2,'b')");
        IncrementalPlanner.Plan plan = p.plan();
        assertTrue(plan.changed());
        assertEquals(List.of(1L, 2L), plan.load().sources().stream().map(IncrementalLoad.Source::toVersion).toList());
    }

    @Test
    void changesReadTheFeedFromTheStoredVersionAndTheFirstRunAsASnapshotOfInserts() throws Exception {
        Table t = new Table(dir.resolve("cdf"), true);
        t.insert("(1,'a')");
        IncrementalPlanner p = planner(IncrementalMode.CHANGES, null, false, spec("c", t));

        IncrementalPlanner.Plan first = p.plan();
        assertTrue(first.load().sources().get(0).changes());
        assertNull(first.load().sources().get(0).fromVersion());
        assertEquals(List.of("1|a|insert|1"), rows(p, first, "SELECT id, name, _change_type, _commit_version FROM c"));

        store.commit("k", first.load());
        t.insert("(2,'b'),(3,'c')");
        IncrementalPlanner.Plan second = p.plan();
        IncrementalLoad.Source s = second.load().sources().get(0);
        assertEquals(1L, s.fromVersion());
        assertEquals(2, s.toVersion());
        assertTrue(s.changes());
        assertEquals(List.of("2|b|insert|2", "3|c|insert|2"),
                rows(p, second, "SELECT id, name, _change_type, _commit_version FROM c ORDER BY id"));
    }

    @Test
    void theStartVersionReplacesAMissingStateRow() throws Exception {
        Table t = new Table(dir.resolve("start"), true);
        t.insert("(1,'a')");
        t.insert("(2,'b')");
        IncrementalPlanner p = planner(IncrementalMode.CHANGES, 1L, false, spec("c", t));

        IncrementalLoad.Source s = p.plan().load().sources().get(0);
        assertNull(s.storedVersion());
        assertEquals(1L, s.fromVersion());
        assertTrue(s.changes());
        assertEquals(List.of("2|b"), rows(p, p.plan(), "SELECT id, name FROM c"));
    }

    @Test
    void withoutAChangeFeedChangesFailUnlessTheFallbackLoadsTheSnapshot() throws Exception {
        Table t = new Table(dir.resolve("plain"), false);
        t.insert("(1,'a')");
        store.commit("k", planner(IncrementalMode.SNAPSHOT, null, false, spec("p", t)).plan().load());
        t.insert("(2,'b')");

        ChangeDataFeedException refused = assertThrows(ChangeDataFeedException.class,
                () -> planner(IncrementalMode.CHANGES, null, false, spec("p", t)).plan());
        assertTrue(refused.getMessage().contains(t.path()), refused.getMessage());
        assertTrue(refused.getMessage().contains("changeFeedFallback=snapshot"), refused.getMessage());

        IncrementalPlanner fallback = planner(IncrementalMode.CHANGES, null, true, spec("p", t));
        IncrementalPlanner.Plan plan = fallback.plan();
        assertTrue(plan.changed());
        assertFalse(plan.load().sources().get(0).changes(), "the snapshot instead of the feed");
        assertEquals(List.of("1|a", "2|b"), rows(fallback, plan, "SELECT id, name FROM p ORDER BY id"));
    }

    @Test
    void aStateAheadOfTheTableIsAVersionGapNamingKeyAndTable() throws Exception {
        Table t = new Table(dir.resolve("recreated"), true);
        t.insert("(1,'a')");
        store.versions.put("k", Map.of(t.path(), 7L));

        VersionNotFoundException e = assertThrows(VersionNotFoundException.class,
                () -> planner(IncrementalMode.CHANGES, null, false, spec("c", t)).plan());
        assertTrue(e.getMessage().contains("key 'k'") && e.getMessage().contains("version 7")
                && e.getMessage().contains("latest version is 1"), e.getMessage());
    }

    @Test
    void aChangeFeedWhoseCommitsWereCleanedUpCannotBeRead() throws Exception {
        Table t = new Table(dir.resolve("vacuumed"), true);
        t.insert("(1,'a')");
        IncrementalPlanner p = planner(IncrementalMode.CHANGES, null, false, spec("c", t));
        store.commit("k", p.plan().load());
        t.insert("(2,'b')");
        t.insert("(3,'c')");
        IncrementalPlanner.Plan plan = p.plan();
        assertTrue(plan.load().sources().get(0).changes());
        // the log's retention removed a commit inside (1, 3] after planning; 0 stays for the snapshot
        Files.delete(t.root.resolve("_delta_log").resolve(String.format(Locale.ROOT, "%020d.json", 2)));

        Exception e = assertThrows(Exception.class, () -> rows(p, plan, "SELECT * FROM c"));
        assertTrue(e instanceof io.deltafunnel.delta.DeltaException, "a typed Delta failure: " + e);
        assertTrue(e.getMessage().contains(t.path()), e.getMessage());
    }

    @Test
    void resetForgetsTheKey() throws Exception {
        Table t = new Table(dir.resolve("reset"), false);
        t.insert("(1,'a')");
        IncrementalPlanner p = planner(IncrementalMode.SNAPSHOT, null, false, spec("r", t));
        store.commit("k", p.plan().load());
        assertFalse(p.plan().changed());
        p.reset();
        assertTrue(p.plan().changed());
        assertEquals("k", p.stateKey());
    }

    @Test
    void settingsThatCannotBePlannedAreRefused() {
        DeltaTableSpec s = new DeltaTableSpec("v", dir.toString(), null, null);
        assertThrows(IllegalArgumentException.class, () -> planner(IncrementalMode.NONE, null, false, s));
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> planner(IncrementalMode.SNAPSHOT, null, false));
        assertTrue(none.getMessage().contains("route r1"), none.getMessage());
        IllegalArgumentException timestamp = assertThrows(IllegalArgumentException.class,
                () -> planner(IncrementalMode.CHANGES, null, false,
                        new DeltaTableSpec("v", dir.toString(), null, java.time.Instant.parse("2024-01-01T00:00:00Z"))));
        assertTrue(timestamp.getMessage().contains("deltaTimestamp.v"), timestamp.getMessage());
    }

    /** Registers the plan's views on a fresh connection, as the consumer's run does, and reads {@code sql}. */
    private static List<String> rows(IncrementalPlanner p, IncrementalPlanner.Plan plan, String sql) throws Exception {
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            Map<String, Long> pins = p.preparer(plan).prepare(duck, Map.of());
            for (IncrementalLoad.Source s : plan.load().sources()) {
                assertEquals(s.toVersion(), pins.get(s.view()));
            }
            List<String> out = new ArrayList<>();
            try (Statement st = duck.createStatement(); ResultSet rs = st.executeQuery(sql)) {
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    StringBuilder row = new StringBuilder();
                    for (int i = 1; i <= n; i++) {
                        row.append(i > 1 ? "|" : "").append(rs.getString(i));
                    }
                    out.add(row.toString());
                }
            }
            return out;
        }
    }
}
