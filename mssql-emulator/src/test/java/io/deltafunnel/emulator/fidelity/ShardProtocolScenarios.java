package io.deltafunnel.emulator.fidelity;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;

import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import com.microsoft.sqlserver.jdbc.SQLServerBulkCopyOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The statements of the sharded-load protocol (docs/sharding.md) that run concurrently, as SQL Server answers them:
 * the staging heap created by {@code SELECT TOP 0 * INTO} from several shards at once (one wins, the others get
 * 2714), N shards bulk-loading with TABLOCK into that heap in open transactions at the same time (BU locks: nobody
 * waits; the plain two-session case is also {@code LockingScenarios.tablockBulkLoadsIntoAHeapShareTheTableButNotWithReaders}),
 * and the load row taken {@code WITH (UPDLOCK, HOLDLOCK)} by each shard's commit and by the final step, which
 * serialises them.
 *
 * <p>Where SQL Server's row locks and the emulator's table locks part (an update of <em>another</em> row while
 * one row is held with UPDLOCK, HOLDLOCK), the subclasses assert each server's own behaviour: {@code ShardProtocolIT}
 * (no wait) and {@code ShardProtocolTest} (the emulator waits; mssql-emulator/README.md, "Differences from SQL
 * Server"). No timing assertions: waits are shown by a statement in another thread that has not finished while the
 * holder's transaction is open, or by 1222 under a short LOCK_TIMEOUT.
 *
 * <p>Both modes of READ_COMMITTED_SNAPSHOT: {@code ShardProtocolTest}/{@code ShardProtocolIT} run with it OFF,
 * {@code ShardProtocolRcsiTest}/{@code ShardProtocolRcsiIT} with it ON. The protocol's decisions rest only on
 * locked reads (the load row {@code WITH (UPDLOCK, HOLDLOCK)}) and on writes, which lock in both modes; a plain read
 * after the locked one starts after every earlier shard commit and sees it in both modes. Only a plain read of a row
 * another shard is committing differs: it waits with the option OFF, and reads the last committed version with it ON
 * ({@link #aPlainReadOfAShardRowBeingCommittedWaitsOrReadsTheCommittedVersion}).
 */
abstract class ShardProtocolScenarios extends ConcurrentScenarios {


    @BeforeEach
    void createTables() throws SQLException {
        dropAll();
        exec("CREATE TABLE " + target() + " ([id] int NOT NULL PRIMARY KEY, [v] int NOT NULL)");
        exec("CREATE TABLE " + loads() + " ([load_id] int NOT NULL PRIMARY KEY, [status] varchar(16) NOT NULL)");
        exec("CREATE TABLE " + shards() + " ([load_id] int NOT NULL, [shard_index] int NOT NULL,"
                + " [status] varchar(16) NOT NULL, PRIMARY KEY ([load_id], [shard_index]))");
        exec("INSERT INTO " + loads() + " ([load_id], [status]) VALUES (1, 'open'), (2, 'open')");
        exec("INSERT INTO " + shards() + " ([load_id], [shard_index], [status]) VALUES (1, 0, 'pending'),"
                + " (1, 1, 'pending')");
    }

    @AfterEach
    void closeOthers() throws SQLException {
        closeSessions();
        exec("IF @@TRANCOUNT > 0 ROLLBACK");
        exec("SET LOCK_TIMEOUT -1");
        dropAll();
    }

    private void dropAll() throws SQLException {
        for (String suffix : List.of("", "_loads", "_shards", "__df_load_1")) {
            dropIfExists(table + suffix);
        }
    }

    protected String target() {
        return "[dbo].[" + table + "]";
    }

    protected String loads() {
        return "[dbo].[" + table + "_loads]";
    }

    protected String shards() {
        return "[dbo].[" + table + "_shards]";
    }

    protected String staging() {
        return "[dbo].[" + table + "__df_load_1]";
    }

    /** Bulk-copies ids {@code from..to-1} (v = id) into {@code into} on {@code c} with TABLOCK, in c's transaction. */
    private static void bulkTablock(Connection c, String into, int from, int to) throws SQLException {
        try (SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
            SQLServerBulkCopyOptions o = new SQLServerBulkCopyOptions();
            o.setTableLock(true);
            bc.setBulkCopyOptions(o);
            bc.setDestinationTableName(into);
            bc.writeToServer(new IntRows(from, to));
        }
    }

    // ---- step 4: the staging heap ---------------------------------------------------------------------------------

    @Test
    void selectTopZeroIntoAnExistingTableIs2714() throws Exception {
        Connection second = session();
        exec("SELECT TOP 0 * INTO " + staging() + " FROM " + target());
        SQLException e = assertError(2714, second, "SELECT TOP 0 * INTO " + staging() + " FROM " + target());
        assertTrue(e.getMessage().contains(table + "__df_load_1"), e.getMessage());
        assertEquals(0, intScalar(conn, "SELECT COUNT(*) FROM " + staging()));
        assertEquals(2, intScalar(conn, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = '"
                + table + "__df_load_1'"), "the heap has the target's columns");
    }

    @Test
    void shardsCreatingTheStagingHeapAtOnceGetOneTableAndOthers2714() throws Exception {
        int n = 4;
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Integer>> creators = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Connection c = session();
            creators.add(inThread(() -> {
                go.await();
                try {
                    exec(c, "SELECT TOP 0 * INTO " + staging() + " FROM " + target());
                    return 0;
                } catch (SQLException e) {
                    return e.getErrorCode();
                }
            }));
        }
        go.countDown();
        int created = 0;
        for (Future<Integer> f : creators) {
            int r = finished(f);
            if (r == 0) {
                created++;
            } else {
                assertEquals(2714, r, "a shard that lost the race");
            }
        }
        assertEquals(1, created);
        assertEquals(0, intScalar(conn, "SELECT COUNT(*) FROM " + staging()));
    }

    // ---- step 4: parallel shares ------------------------------------------------------------------------------------

    @Test
    void shardsLoadTheHeapWithTablockInParallelAndCommitOneAtATimeOnTheLoadRow() throws Exception {
        exec("SELECT TOP 0 * INTO " + staging() + " FROM " + target());
        Connection a = session();
        Connection b = session();
        a.setAutoCommit(false);
        b.setAutoCommit(false);
        exec(a, "SET LOCK_TIMEOUT 0");
        exec(b, "SET LOCK_TIMEOUT 0");
        // both streams run at once: BU with BU, neither waits (LOCK_TIMEOUT 0 would turn a wait into 1222)
        bulkTablock(a, staging(), 0, 100);
        bulkTablock(b, staging(), 100, 200);
        bulkTablock(a, staging(), 200, 300);
        bulkTablock(b, staging(), 300, 400);
        exec(a, "SET LOCK_TIMEOUT -1");
        exec(b, "SET LOCK_TIMEOUT -1");
        // shard 0's last batch: the load row under UPDLOCK, HOLDLOCK, its shard row done
        assertEquals("open", stringScalar(a, "SELECT [status] FROM " + loads() + " WITH (UPDLOCK, HOLDLOCK)"
                + " WHERE [load_id] = 1"));
        exec(a, "UPDATE " + shards() + " SET [status] = 'done' WHERE [load_id] = 1 AND [shard_index] = 0");
        // shard 1 reaches the same point: it waits for shard 0's commit
        Future<String> bCheck = inThread(() -> stringScalar(b, "SELECT [status] FROM " + loads()
                + " WITH (UPDLOCK, HOLDLOCK) WHERE [load_id] = 1"));
        assertStillWaiting(bCheck);
        a.commit();
        assertEquals("open", finished(bCheck));
        exec(b, "UPDATE " + shards() + " SET [status] = 'done' WHERE [load_id] = 1 AND [shard_index] = 1");
        b.commit();
        // step 5 (by the last shard): all done, the final step runs once
        b.setAutoCommit(false);
        assertEquals("open", stringScalar(b, "SELECT [status] FROM " + loads() + " WITH (UPDLOCK, HOLDLOCK)"
                + " WHERE [load_id] = 1"));
        assertEquals(2, intScalar(b, "SELECT COUNT(*) FROM " + shards() + " WHERE [load_id] = 1 AND [status] = 'done'"));
        exec(b, "INSERT INTO " + target() + " ([id], [v]) SELECT [id], [v] FROM " + staging());
        exec(b, "UPDATE " + loads() + " SET [status] = 'done' WHERE [load_id] = 1");
        b.commit();
        assertEquals(400, intScalar(conn, "SELECT COUNT(*) FROM " + target()));
        assertEquals(79800, intScalar(conn, "SELECT SUM([v]) FROM " + target()));
    }

    @Test
    void aFailedShardsRollbackLeavesNothingOfItsShare() throws Exception {
        exec("SELECT TOP 0 * INTO " + staging() + " FROM " + target());
        Connection a = session();
        Connection b = session();
        a.setAutoCommit(false);
        b.setAutoCommit(false);
        bulkTablock(a, staging(), 0, 50);
        bulkTablock(b, staging(), 50, 100);
        a.rollback(); // shard 0 failed
        b.commit();
        assertEquals(50, intScalar(conn, "SELECT COUNT(*) FROM " + staging()));
        assertEquals(50, intScalar(conn, "SELECT MIN([id]) FROM " + staging()));
    }

    @Test
    void theFinalStepOfAnotherShardWaitsForTheLoadRowAndThenSeesTheCommittedShards() throws Exception {
        Connection a = session();
        Connection b = session();
        a.setAutoCommit(false);
        b.setAutoCommit(false);
        assertEquals("open", stringScalar(a, "SELECT [status] FROM " + loads() + " WITH (UPDLOCK, HOLDLOCK)"
                + " WHERE [load_id] = 1"));
        exec(a, "UPDATE " + shards() + " SET [status] = 'done' WHERE [load_id] = 1 AND [shard_index] = 0");
        Future<Integer> bDone = inThread(() -> {
            stringScalar(b, "SELECT [status] FROM " + loads() + " WITH (UPDLOCK, HOLDLOCK) WHERE [load_id] = 1");
            return intScalar(b, "SELECT COUNT(*) FROM " + shards() + " WHERE [load_id] = 1 AND [status] = 'done'");
        });
        assertStillWaiting(bDone);
        a.commit();
        assertEquals(1, finished(bDone), "the other shard's committed row is seen");
        b.rollback();
    }

    // ---- row locks: the two servers part here (see the subclasses) ---------------------------------------------------

    /** Session {@code holder} holds load row 1 WITH (UPDLOCK, HOLDLOCK) in an open transaction. */
    protected Connection holdingLoadRowOne() throws SQLException {
        Connection holder = session();
        holder.setAutoCommit(false);
        assertEquals("open", stringScalar(holder, "SELECT [status] FROM " + loads() + " WITH (UPDLOCK, HOLDLOCK)"
                + " WHERE [load_id] = 1"));
        return holder;
    }

    @Test
    void anUpdateOfTheHeldRowWaitsUntilTheHolderCommits() throws Exception {
        Connection holder = holdingLoadRowOne();
        Connection other = session();
        exec(other, "SET LOCK_TIMEOUT " + SHORT_TIMEOUT_MS);
        assertError(1222, other, "UPDATE " + loads() + " SET [status] = 'abandoned' WHERE [load_id] = 1");
        exec(other, "SET LOCK_TIMEOUT -1");
        Future<Integer> update = inThread(() -> {
            exec(other, "UPDATE " + loads() + " SET [status] = 'abandoned' WHERE [load_id] = 1");
            return 0;
        });
        assertStillWaiting(update);
        holder.commit();
        assertEquals(0, finished(update));
        assertEquals("abandoned", stringScalar(conn, "SELECT [status] FROM " + loads() + " WHERE [load_id] = 1"));
    }

    /**
     * A plain (READ COMMITTED, no hint) read of a shard row that another shard has changed in its open share
     * transaction: with READ_COMMITTED_SNAPSHOT OFF it waits for that commit (1222 under a short LOCK_TIMEOUT); ON,
     * it does not wait and reads the last committed version ("pending"). Either way the decisions the protocol takes
     * on it are re-checked under the load row's lock before anything is committed.
     */
    @Test
    void aPlainReadOfAShardRowBeingCommittedWaitsOrReadsTheCommittedVersion() throws Exception {
        Connection a = holdingLoadRowOne();
        exec(a, "UPDATE " + shards() + " SET [status] = 'done' WHERE [load_id] = 1 AND [shard_index] = 0");
        String read = "SELECT [status] FROM " + shards() + " WHERE [load_id] = 1 AND [shard_index] = 0";
        if (readCommittedSnapshot()) {
            exec("SET LOCK_TIMEOUT 0");
            assertEquals("pending", stringScalar(conn, read), "the last committed version, without waiting");
        } else {
            exec("SET LOCK_TIMEOUT " + SHORT_TIMEOUT_MS);
            assertError(1222, read);
        }
        exec("SET LOCK_TIMEOUT -1");
        a.commit();
        assertEquals("done", stringScalar(conn, read));
    }

    protected static String stringScalar(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getString(1);
        }
    }

}
