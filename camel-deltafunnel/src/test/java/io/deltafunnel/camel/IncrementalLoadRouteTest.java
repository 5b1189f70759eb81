package io.deltafunnel.camel;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.deltafunnel.delta.DeltaTableSpec;
import io.deltafunnel.delta.DeltaViews;
import io.deltafunnel.handoff.DeltaFunnelStateStore;
import io.deltafunnel.mssql.state.MssqlStateStore;
import io.deltafunnel.mssql.state.StateConflictException;
import org.apache.camel.Exchange;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Incremental loads through the route into the emulator: snapshot-incremental and change mode on generated CDF
 * tables (inserts, updates, deletes, with and without change files), unchanged polls, crashes before/during/after
 * the commit, operator controls.
 */
class IncrementalLoadRouteTest extends DeltaRouteTestSupport {

    @TempDir
    Path tmp;

    private final List<Throwable> errors = new CopyOnWriteArrayList<>();
    private final List<Map<String, Object>> runHeaders = new CopyOnWriteArrayList<>();
    private String key;

    @BeforeEach
    void keyIsTheTable() {
        key = table;
    }

    /** One poll of an incremental route (a fresh route each time, as after a restart); returns when its run ended. */
    private Exchange load(Path delta, String consumerOptions, String mssqlOptions) throws Exception {
        OneRunRoutes.Ended run = runs.run("deltafunnel:" + runs.nextId() + "?delta.t=" + delta
                + "&query=RAW(SELECT * FROM t)&batchSize=2&stateDataSource=#stateDs&stateKey=" + key
                + "&repeatCount=1&initialDelay=0&sendEmptyMessageWhenIdle=true&bridgeErrorHandler=true&"
                + consumerOptions, mssql(mssqlOptions));
        errors.clear();
        errors.addAll(run.failures());
        runHeaders.addAll(run.headers());
        return run.last();
    }

    private Exchange loadChanges(Path delta) throws Exception {
        return load(delta, "incremental=changes", "writeMode=merge&keyColumns=id&createTable=true");
    }

    /** Sorted rows of the Delta snapshot at {@code version}, as text. */
    private List<String> snapshot(Path delta, long version) throws Exception {
        DeltaViews.register(duck, List.of(new DeltaTableSpec("snap", delta.toString(), version, null)));
        List<String> rows = new ArrayList<>();
        try (Statement st = duck.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, name, amount FROM snap ORDER BY id")) {
            while (rs.next()) {
                rows.add(rs.getInt(1) + "|" + rs.getString(2) + "|" + rs.getDouble(3));
            }
        }
        return rows;
    }

    private List<String> target() throws Exception {
        List<String> rows = new ArrayList<>();
        for (List<Object> r : query("SELECT [id], [name], [amount] FROM [dbo].[" + table + "] ORDER BY [id]")) {
            rows.add(((Number) r.get(0)).intValue() + "|" + r.get(1) + "|" + ((Number) r.get(2)).doubleValue());
        }
        return rows;
    }

    private Long stateVersion() throws Exception {
        Map<String, Long> state = new MssqlStateStore(this::jdbc, "dbo.deltafunnel_state").loadedVersions(key);
        return state.isEmpty() ? null : state.values().iterator().next();
    }

    private void assertTargetAt(Path delta, long version) throws Exception {
        assertEquals(snapshot(delta, version), target(), "target vs source snapshot at version " + version);
        assertEquals(version, stateVersion(), "state version");
    }

    @Test
    void changeModeFollowsInsertsUpdatesDeletesWithAndWithoutChangeFiles() throws Exception {
        CdfTableWriter w = new CdfTableWriter(duck, tmp.resolve("t"), true);
        w.insert("(1,'a',1.0),(2,'b',2.0),(3,'c',3.0)");
        w.insert("(4,'d',4.0),(5,'e',5.0)");
        loadChanges(w.path());                       // first load: snapshot as inserts
        assertTargetAt(w.path(), w.version());

        w.update("amount * 10 AS amount", "id IN (1, 4)", true);
        w.delete("id = 2", true);
        w.insert("(6,'f',6.0)");
        Exchange run = loadChanges(w.path());        // three versions in one run
        assertTargetAt(w.path(), w.version());
        String state = run.getIn().getHeader(DeltaFunnelConstants.STATE, String.class);
        assertTrue(state.contains("t: 2 -> 5"), state);

        w.update("name || '!' AS name", "id = 3", false); // copy-on-write without change files
        w.delete("id = 5", false);
        w.update("amount + 1 AS amount", "id = 6", true);
        w.update("amount + 1 AS amount", "id = 6", true); // same key twice in one batch: last wins
        w.delete("id = 6", true);                          // ... then deleted
        loadChanges(w.path());
        assertTargetAt(w.path(), w.version());

        w.insert("(6,'again',7.0)");                        // re-inserted after delete
        loadChanges(w.path());
        assertTargetAt(w.path(), w.version());
        assertTrue(errors.isEmpty(), errors.toString());
        // change columns never reach the target
        assertEquals(List.of(), query("SELECT COLUMN_NAME FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = '" + table
                + "' AND COLUMN_NAME LIKE '\\_c%' ESCAPE '\\'"));
    }

    @Test
    void unchangedTableProducesNoLoad() throws Exception {
        CdfTableWriter w = new CdfTableWriter(duck, tmp.resolve("t"), true);
        w.insert("(1,'a',1.0)");
        loadChanges(w.path());
        assertTargetAt(w.path(), 1);
        exec("UPDATE [dbo].[" + table + "] SET [name] = 'touched by hand'");
        Exchange idle = loadChanges(w.path());
        assertNotNull(idle);
        assertTrue(idle.getIn().getHeader(DeltaFunnelConstants.UNCHANGED, Boolean.class));
        assertFalse(idle.getIn().getHeader(DeltaFunnelConstants.STATE, String.class).isEmpty());
        assertEquals("touched by hand", query("SELECT [name] FROM [dbo].[" + table + "]").get(0).get(0),
                "an unchanged table is not loaded again");
        // snapshot mode too
        key = key + "_s";
        load(w.path(), "incremental=snapshot", "writeMode=replace&createTable=true");
        Exchange idle2 = load(w.path(), "incremental=snapshot", "writeMode=replace&createTable=true");
        assertTrue(idle2.getIn().getHeader(DeltaFunnelConstants.UNCHANGED, Boolean.class));
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    void snapshotIncrementalReloadsOnlyWhenTheTableAdvanced() throws Exception {
        CdfTableWriter w = new CdfTableWriter(duck, tmp.resolve("t"), false);
        w.insert("(1,'a',1.0),(2,'b',2.0)");
        load(w.path(), "incremental=snapshot", "writeMode=replace&createTable=true");
        assertTargetAt(w.path(), 1);
        w.delete("id = 1", false);
        w.insert("(3,'c',3.0)");
        Exchange run = load(w.path(), "incremental=snapshot", "writeMode=replace&createTable=true");
        assertTargetAt(w.path(), 3);
        assertEquals(Map.of("t", 3L), run.getIn().getHeader(DeltaFunnelConstants.DELTA_VERSIONS));
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    void tableWithoutChangeFeedIsRefusedOrFallsBack() throws Exception {
        CdfTableWriter w = new CdfTableWriter(duck, tmp.resolve("t"), false);
        w.insert("(1,'a',1.0)");
        loadChanges(w.path());                     // first load is a snapshot: allowed
        w.insert("(2,'b',2.0)");
        load(w.path(), "incremental=changes", "writeMode=merge&keyColumns=id");
        assertEquals(1, errors.size());
        assertTrue(String.valueOf(errors.get(0)).contains("delta.enableChangeDataFeed"), errors.get(0).toString());
        assertEquals(1L, stateVersion());
        load(w.path(), "incremental=changes&changeFeedFallback=snapshot", "writeMode=merge&keyColumns=id");
        assertTargetAt(w.path(), 2);
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    void crashBeforeCommitIsNotAppliedAndRestartAppliesOnce() throws Exception {
        CdfTableWriter w = new CdfTableWriter(duck, tmp.resolve("t"), true);
        w.insert("(1,'a',1.0),(2,'b',2.0)");
        loadChanges(w.path());
        w.update("amount + 1 AS amount", "id = 1", true);
        w.delete("id = 2", true);
        SERVER.emulator().faults().failStatement("MERGE INTO", 547);          // permanent: the run fails, rolled back
        loadChanges(w.path());
        assertFalse(errors.isEmpty());
        assertTargetAt(w.path(), 1);                                 // nothing of the failed run
        SERVER.emulator().faults().clear();
        loadChanges(w.path());                                       // restart
        assertTargetAt(w.path(), 3);
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    void crashDuringCommitStateWriteOrCommitRollsBackDataAndState() throws Exception {
        CdfTableWriter w = new CdfTableWriter(duck, tmp.resolve("t"), true);
        w.insert("(1,'a',1.0),(2,'b',2.0)");
        loadChanges(w.path());
        w.update("amount + 1 AS amount", "id = 1", true);
        SERVER.emulator().faults().failStatement("deltafunnel_state", 547);   // the state write inside the merge transaction
        loadChanges(w.path());
        assertFalse(errors.isEmpty());
        assertTargetAt(w.path(), 1);
        SERVER.emulator().faults().clear();
        w.delete("id = 2", true);
        SERVER.emulator().faults().failStatement("COMMIT", 10054);             // the commit itself fails: in doubt, not retried
        loadChanges(w.path());
        assertFalse(errors.isEmpty());
        SERVER.emulator().faults().clear();
        loadChanges(w.path());                                        // restart: state decides, applied exactly once
        assertTargetAt(w.path(), 3);
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    void transientFailureReplaysTheRunOnce() throws Exception {
        CdfTableWriter w = new CdfTableWriter(duck, tmp.resolve("t"), true);
        w.insert("(1,'a',1.0),(2,'b',2.0),(3,'c',3.0)");
        loadChanges(w.path());
        w.update("amount + 1 AS amount", "id = 1", true);
        w.insert("(4,'d',4.0),(5,'e',5.0)");
        SERVER.emulator().faults().dropConnectionDuringBulkLoad(1, 1);
        load(w.path(), "incremental=changes", "writeMode=merge&keyColumns=id&retryDelay=10");
        assertTargetAt(w.path(), 3);
        assertTrue(errors.isEmpty(), errors.toString());
    }

    @Test
    void crashAfterCommitThenReplayOfTheSameRunIsRefused() throws Exception {
        // snapshot mode with append: a second application would duplicate every row
        CdfTableWriter w = new CdfTableWriter(duck, tmp.resolve("t"), false);
        w.insert("(1,'a',1.0),(2,'b',2.0)");
        DeltaFunnelStateStore real = new MssqlStateStore(this::jdbc, "dbo.deltafunnel_state");
        Map<String, Long> before = real.loadedVersions(key);
        // A consumer that does not learn of the commit (crashed right after it) plans the same run again.
        DeltaFunnelStateStore stale = frozenStateStore(real, before);
        context.getRegistry().bind("staleStore", stale);
        load(w.path(), "incremental=snapshot", "writeMode=append&createTable=true");
        assertTargetAt(w.path(), 1);
        load(w.path(), "incremental=snapshot&stateStore=#staleStore", "writeMode=append&createTable=true");
        assertEquals(1, errors.size());
        assertTrue(io.deltafunnel.handoff.ReplayRequest.find(errors.get(0)) == null);
        Throwable t = errors.get(0);
        while (t != null && !(t instanceof StateConflictException)) {
            t = t.getCause();
        }
        assertNotNull(t, "expected a StateConflictException, got " + errors.get(0));
        assertTargetAt(w.path(), 1);                                  // not applied twice
    }

    @Test
    void operatorStartVersionAndReset() throws Exception {
        CdfTableWriter w = new CdfTableWriter(duck, tmp.resolve("t"), true);
        w.insert("(1,'a',1.0)");
        w.insert("(2,'b',2.0)");
        // start from version 1: only the changes of version 2 are loaded
        loadChanges(w.path().resolve("."));
        exec("DELETE FROM [dbo].[" + table + "]");
        exec("DELETE FROM [dbo].[deltafunnel_state] WHERE [route] = '" + key + "'");
        load(w.path(), "incremental=changes&startVersion=1", "writeMode=merge&keyColumns=id");
        assertEquals(List.of("2|b|2.0"), target());
        assertEquals(2L, stateVersion());
        // reset: loads anew (full snapshot as inserts)
        exec("DELETE FROM [dbo].[" + table + "]");
        Exchange run = load(w.path(), "incremental=changes&resetState=true", "writeMode=merge&keyColumns=id");
        assertTrue(run.getIn().getHeader(DeltaFunnelConstants.STATE, String.class).contains("full -> 2"));
        assertTargetAt(w.path(), 2);
        assertTrue(errors.isEmpty(), errors.toString());
    }
}
