package io.deltafunnel.mssql.shard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import io.deltafunnel.emulator.fidelity.ServerUnderTest;
import io.deltafunnel.handoff.IncrementalLoad;
import io.deltafunnel.handoff.ShardPlanException;
import io.deltafunnel.mssql.BulkEncoder;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.TransactionMode;
import io.deltafunnel.mssql.WorkOutcome;
import io.deltafunnel.mssql.WriteMode;
import io.deltafunnel.mssql.channel.ConnectionSettings;
import io.deltafunnel.mssql.channel.SqlChannel;
import io.deltafunnel.mssql.channel.SqlChannelProvider;
import io.deltafunnel.mssql.run.ChannelFactory;
import io.deltafunnel.mssql.run.RunWriter;
import io.deltafunnel.mssql.session.LoadStatus;
import io.deltafunnel.mssql.session.StagingTable;
import io.deltafunnel.mssql.state.StateConflictException;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The sharded-load scenarios against the emulator, plus what needs its fault injection: a shard failed mid-bulk
 * leaves nothing and its re-run completes the load; a failed final step is retried by a re-run of a done shard.
 */
class ShardLoadTest extends ShardLoadScenarios {

    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(b -> b.port(0).sinkMode(false));

    @Override
    protected ServerUnderTest server() {
        return SERVER;
    }

    @AfterEach
    void clearFaults() {
        SERVER.emulator().faults().clear();
    }

    private long stagingRows(String load) throws Exception {
        return scalar("SELECT COUNT(*) FROM " + StagingTable.forLoad(new TableName("dbo", table), load).quoted());
    }

    @ParameterizedTest
    @EnumSource(value = BulkEncoder.class, names = {"DRIVER", "DIRECT"})
    void aShardFailedMidBulkLeavesNothingAndItsReRunCompletesTheLoad(BulkEncoder encoder) throws Exception {
        createTarget(table);
        seed(table, 100, 105);
        String load = newLoad(2);
        BulkLoadSettings settings = settings(table, WriteMode.REPLACE);
        List<Row> rows = plainRows(0, 40);
        try (RunWriter w = writer(settings, encoder)) {
            assertEquals(LoadStatus.SHARD_DONE, run(w, "s0", 1, shareOf(rows, 0, 2), false, null,
                    shard(load, 0, 2, false)).loadStatus());
            // shard 1: its second bulk load fails after 3 rows (a deadlock victim), its third one the connection drops
            SERVER.emulator().faults().failBulkLoad(2, 3, 1205);
            BulkLoadException failed = assertThrows(BulkLoadException.class, () -> run(w, "s1", 1,
                    shareOf(rows, 1, 2), false, null, shard(load, 1, 2, false)));
            assertEquals(WorkOutcome.ROLLED_BACK, failed.outcome());
            assertTrue(failed.getMessage().contains("load " + load + " shard 1/2")
                    && failed.getMessage().contains("nothing of this shard remains"), failed.getMessage());
            assertEquals(20, stagingRows(load), "only shard 0's share is in staging");
            assertEquals("pending", query("SELECT [status] FROM [dbo].[df_shard_state_shards] WHERE [load_id] = '"
                    + load + "' AND [shard_index] = 1").get(0).get(0));
            assertEquals(5, contents(table).size(), "the target is untouched");

            SERVER.emulator().faults().dropConnectionDuringBulkLoad(1, 2);
            assertThrows(BulkLoadException.class, () -> run(w, "s1", 2, shareOf(rows, 1, 2), false, null,
                    shard(load, 1, 2, false)));
            assertEquals(20, stagingRows(load));

            assertEquals(LoadStatus.LOAD_DONE, run(w, "s1", 3, shareOf(rows, 1, 2), false, null,
                    shard(load, 1, 2, false)).loadStatus());
        }
        assertEquals(plainRows(0, 40).stream().map(r -> List.<Object>of((long) r.id(), r.name())).toList(),
                contents(table));
        assertEquals(List.of(List.of("done", 1L, 40L)), query("SELECT [status], [finished_by], [final_rows]"
                + " FROM [dbo].[df_shard_state_loads] WHERE [load_id] = '" + load + "'"));
    }

    @ParameterizedTest
    @EnumSource(value = BulkEncoder.class, names = {"DRIVER", "DIRECT"})
    void aFailedFinalStepIsRetriedByAReRunOfADoneShard(BulkEncoder encoder) throws Exception {
        createTarget(table);
        String load = newLoad(2);
        BulkLoadSettings settings = settings(table, WriteMode.APPEND);
        List<Row> rows = plainRows(0, 30);
        try (RunWriter w = writer(settings, encoder)) {
            run(w, "s0", 1, shareOf(rows, 0, 2), false, null, shard(load, 0, 2, false));
            SERVER.emulator().faults().failStatement("INSERT INTO [dbo].[" + table + "] WITH (TABLOCK)", 1205);
            BulkLoadException failed = assertThrows(BulkLoadException.class, () -> run(w, "s1", 1,
                    shareOf(rows, 1, 2), false, null, shard(load, 1, 2, false)));
            assertEquals(WorkOutcome.COMMITTED, failed.outcome(), "the share is committed");
            assertTrue(failed.getMessage().contains("final step"), failed.getMessage());
            assertEquals(0, contents(table).size());
            assertEquals(2, scalar("SELECT COUNT(*) FROM [dbo].[df_shard_state_shards] WHERE [load_id] = '" + load
                    + "' AND [status] = 'done'"));
            assertEquals(30, stagingRows(load));
            // the consumer's re-run of shard 0 (already done): one empty batch, which runs the owed final step
            assertEquals(LoadStatus.LOAD_DONE, run(w, "s0-again", 1, List.of(), false, null,
                    shard(load, 0, 2, true)).loadStatus());
        }
        assertEquals(30, contents(table).size());
        assertEquals(List.of(List.of("done", 0L, 30L)), query("SELECT [status], [finished_by], [final_rows]"
                + " FROM [dbo].[df_shard_state_loads] WHERE [load_id] = '" + load + "'"));
    }

    @Test
    void aStateConflictRollsBackTheFinalStepOnly() throws Exception {
        createTarget(table);
        String load = newLoad(2);
        IncrementalLoad planned = new IncrementalLoad(STATE, table + "-key", "snapshot",
                List.of(new IncrementalLoad.Source("t", "/data/" + table, null, null, 7, false)));
        try (RunWriter w = writer(settings(table, WriteMode.APPEND), BulkEncoder.DRIVER)) {
            run(w, "s0", 1, shareOf(plainRows(0, 20), 0, 2), false, planned, shard(load, 0, 2, false));
            // another writer moved the state after the load was planned
            exec("INSERT INTO " + STATE + " ([route], [source], [version], [run_id], [updated_at]) VALUES (N'"
                    + table + "-key', N'/data/" + table + "', 9, N'other', SYSUTCDATETIME())");
            BulkLoadException e = assertThrows(BulkLoadException.class, () -> run(w, "s1", 1,
                    shareOf(plainRows(0, 20), 1, 2), false, planned, shard(load, 1, 2, false)));
            assertInstanceOf(StateConflictException.class, e);
            assertEquals(WorkOutcome.COMMITTED, e.outcome(), "the share is committed, the final step rolled back");
        }
        assertEquals(0, contents(table).size());
        assertEquals(9, scalar("SELECT [version] FROM " + STATE + " WHERE [route] = '" + table + "-key'"));
        assertEquals("open", query("SELECT [status] FROM [dbo].[df_shard_state_loads] WHERE [load_id] = '" + load
                + "'").get(0).get(0));
    }

    @Test
    void anAbandonedLoadAndTransactionBatchAreRefused() throws Exception {
        createTarget(table);
        String load = newLoad(2);
        try (RunWriter batchMode = writer(settings(table, WriteMode.APPEND).withTransactionMode(TransactionMode.BATCH),
                BulkEncoder.DRIVER)) {
            ShardPlanException e = assertThrows(ShardPlanException.class, () -> run(batchMode, "b", 1,
                    plainRows(0, 5), false, null, shard(load, 0, 2, false)));
            assertTrue(e.getMessage().contains("transaction=batch"), e.getMessage());
        }
        exec("UPDATE [dbo].[df_shard_state_loads] SET [status] = 'abandoned' WHERE [load_id] = '" + load + "'");
        try (RunWriter w = writer(settings(table, WriteMode.APPEND), BulkEncoder.DRIVER)) {
            ShardPlanException e = assertThrows(ShardPlanException.class, () -> run(w, "a", 1, plainRows(0, 5),
                    false, null, shard(load, 0, 2, false)));
            assertTrue(e.getMessage().contains("abandoned"), e.getMessage());
        }
        assertEquals(0, contents(table).size());
    }

    private boolean stagingExists(String load) throws Exception {
        return scalar("SELECT COUNT(*) FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_NAME = '"
                + StagingTable.forLoad(new TableName("dbo", table), load).table() + "'") > 0;
    }

    @ParameterizedTest
    @EnumSource(value = BulkEncoder.class, names = {"DRIVER", "DIRECT"})
    void aReRunThatFindsTheLoadDoneDropsAStagingTableLeftByAnInDoubtFinalCommit(BulkEncoder encoder)
            throws Exception {
        createTarget(table);
        String load = newLoad(2);
        BulkLoadSettings settings = settings(table, WriteMode.APPEND);
        runShards(2, load, settings, encoder, plainRows(0, 20), false, null);
        // what a final step whose commit was in doubt (and did commit) leaves: the load done, its staging table kept
        exec("SELECT TOP 0 * INTO " + StagingTable.forLoad(new TableName("dbo", table), load).quoted()
                + " FROM [dbo].[" + table + "]");
        assertTrue(stagingExists(load));
        try (RunWriter w = writer(settings, encoder)) {
            assertEquals(LoadStatus.ALREADY_DONE, run(w, "again", 1, List.of(), false, null,
                    shard(load, 1, 2, true)).loadStatus());
        }
        assertTrue(!stagingExists(load), "the re-run dropped the staging table");
        assertEquals(20, contents(table).size());
    }

    @ParameterizedTest
    @EnumSource(value = BulkEncoder.class, names = {"DRIVER", "DIRECT"})
    void aShardWhoseLoadIsAbandonedWhileItSetsUpLeavesNoStagingTable(BulkEncoder encoder) throws Exception {
        createTarget(table);
        String load = newLoad(2);
        BulkLoadSettings settings = settings(table, WriteMode.APPEND);
        ConnectionSettings connection = new ConnectionSettings(null, SERVER.jdbcUrl(), SERVER.user(),
                SERVER.password(), 0, null);
        SqlChannelProvider real = ChannelFactory.channels("test", connection, encoder, false, false);
        // the operator abandons the load (and drops its staging table, none yet) after the shard's start-up check,
        // right before the shard creates the staging table
        SqlChannelProvider abandoning = () -> {
            SqlChannel c = real.open();
            return (SqlChannel) Proxy.newProxyInstance(SqlChannel.class.getClassLoader(),
                    new Class<?>[] {SqlChannel.class}, (proxy, method, args) -> {
                        if (method.getName().equals("execute") && ((String) args[0]).startsWith("SELECT TOP 0 *")) {
                            exec("UPDATE [dbo].[df_shard_state_loads] SET [status] = 'abandoned' WHERE [load_id] = '"
                                    + load + "' AND [status] = 'open'");
                            exec("DROP TABLE IF EXISTS " + StagingTable.forLoad(new TableName("dbo", table), load)
                                    .quoted());
                        }
                        try {
                            return method.invoke(c, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        };
        ShardSession session = ShardSession.start("late", settings, abandoning, shard(load, 0, 2, false), null);
        try (BufferAllocator a = new RootAllocator(); VectorSchemaRoot root = batch(a, plainRows(0, 5), false)) {
            ShardPlanException refused = assertThrows(ShardPlanException.class, () -> session.write(root, true));
            assertTrue(refused.getMessage().contains("abandoned") && refused.getMessage().contains("dropped"),
                    refused.getMessage());
        }
        assertTrue(!stagingExists(load), "no staging table outlives the abandoned load");
        assertEquals(0, contents(table).size());
    }
}
