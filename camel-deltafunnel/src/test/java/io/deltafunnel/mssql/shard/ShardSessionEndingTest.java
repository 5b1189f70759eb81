package io.deltafunnel.mssql.shard;

import static io.deltafunnel.mssql.shard.ShardLoadScenarios.plainRows;
import static io.deltafunnel.mssql.shard.ShardLoadScenarios.run;
import static io.deltafunnel.mssql.shard.ShardLoadScenarios.shareOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import io.deltafunnel.handoff.ShardAssignment;
import io.deltafunnel.mssql.BulkEncoder;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.WorkOutcome;
import io.deltafunnel.mssql.WriteMode;
import io.deltafunnel.mssql.channel.ConnectionSettings;
import io.deltafunnel.mssql.channel.SqlChannel;
import io.deltafunnel.mssql.channel.SqlChannelProvider;
import io.deltafunnel.mssql.run.ChannelFactory;
import io.deltafunnel.mssql.run.RetryPolicy;
import io.deltafunnel.mssql.run.RunFailures;
import io.deltafunnel.mssql.run.RunWriter;
import io.deltafunnel.mssql.session.LoadStatus;
import io.deltafunnel.mssql.session.StagingTable;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * How a shard's session ends when something goes wrong (issue 24), with the emulator's fault injection and channels
 * wrapped to act behind the session's back, for both encoders: a failed rollback aborts the connection (nothing of
 * the share is committed); the claim waits for an earlier session, bounded by the claim timeout (then transient); an
 * encoder fallback releases the lock before closing its channel; a session that lost its lock does not commit; a
 * failed lock release evicts the connection.
 */
class ShardSessionEndingTest {

    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(b -> b.port(0).sinkMode(false));

    static final String STATE = ShardLoadScenarios.STATE;
    /** Failure guard only: the claim waits for the test's latch-driven release, never this long. */
    static final Duration GUARD = Duration.ofSeconds(60);

    private String table;
    private final List<Connection> holders = new ArrayList<>();
    private final List<SqlChannel> deferred = new CopyOnWriteArrayList<>();
    private ExecutorService pool;

    @BeforeEach
    void setUp(TestInfo info) throws Exception {
        table = ("se_" + info.getTestMethod().orElseThrow().getName() + "_" + info.getDisplayName())
                .replaceAll("[^A-Za-z0-9]", "_").toLowerCase(Locale.ROOT);
        table = table.substring(0, Math.min(table.length(), 60));
        exec("IF OBJECT_ID('dbo." + table + "') IS NOT NULL DROP TABLE [dbo].[" + table + "]");
        exec("CREATE TABLE [dbo].[" + table + "] ([id] int NOT NULL PRIMARY KEY, [name] nvarchar(40) NULL)");
        pool = Executors.newCachedThreadPool();
    }

    @AfterEach
    void tearDown() throws Exception {
        SERVER.emulator().faults().clear();
        for (Connection c : holders) {
            c.close();
        }
        for (SqlChannel c : deferred) {
            c.close();
        }
        pool.shutdownNow();
    }

    // ---------------------------------------------------------------- helpers

    private static void exec(String sql) throws SQLException {
        try (Connection c = SERVER.connect(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private static long scalar(String sql) throws SQLException {
        try (Connection c = SERVER.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private String newLoad(int shards) throws SQLException {
        String id = UUID.randomUUID().toString();
        try (Connection c = SERVER.connect()) {
            ShardLoadPlans.open(c, STATE, id, "key-" + table, shards);
        }
        return id;
    }

    private ShardAssignment shard(String load, int index, int count) {
        return new ShardAssignment(STATE, "key-" + table, load, index, count, false);
    }

    private BulkLoadSettings settings() {
        return BulkLoadSettings.defaults(new TableName("dbo", table)).withWriteMode(WriteMode.APPEND, List.of());
    }

    private static ConnectionSettings connection(DataSource ds) {
        return new ConnectionSettings(ds, ds == null ? SERVER.jdbcUrl() : null, SERVER.user(), SERVER.password(), 0,
                null);
    }

    private static SqlChannelProvider channels(BulkEncoder encoder) {
        return ChannelFactory.channels("test", connection(null), encoder, false, false);
    }

    private static RunWriter writer(BulkLoadSettings settings, SqlChannelProvider channels, Duration claimTimeout) {
        return new RunWriter(settings, channels, RetryPolicy.NONE, 4, d -> true).shardClaimTimeout(claimTimeout);
    }

    private long stagingRows(String load) throws SQLException {
        return scalar("SELECT COUNT(*) FROM " + StagingTable.forLoad(new TableName("dbo", table), load).quoted());
    }

    private String shardStatus(String load, int index) throws SQLException {
        try (Connection c = SERVER.connect(); PreparedStatement ps = c.prepareStatement("SELECT [status] FROM"
                + " [dbo].[df_shard_state_shards] WHERE [load_id] = ? AND [shard_index] = ?")) {
            ps.setString(1, load);
            ps.setInt(2, index);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }

    /** What happens on a channel before a call reaches it. */
    @FunctionalInterface
    interface Before {
        void call(SqlChannel real, String method, Object[] args) throws Exception;
    }

    /**
     * Channels of {@code inner}, each wrapped: {@code before} runs before every call; {@code refuse} makes
     * {@code cannotWrite} refuse (so the run falls back to {@code inner}); with {@code deferClose} a close only
     * collects the channel (its session stays, as a session SQL Server has not ended yet).
     */
    private SqlChannelProvider wrapped(SqlChannelProvider inner, Before before, boolean refuse, boolean deferClose) {
        return new SqlChannelProvider() {
            @Override
            public SqlChannel open() throws SQLException {
                SqlChannel real = inner.open();
                return (SqlChannel) Proxy.newProxyInstance(SqlChannel.class.getClassLoader(),
                        new Class<?>[] {SqlChannel.class}, (proxy, m, args) -> {
                            Object[] a = args == null ? new Object[0] : args;
                            if (refuse && m.getName().equals("cannotWrite")) {
                                return "column id: refused by the test";
                            }
                            if (deferClose && (m.getName().equals("close") || m.getName().equals("abort"))) {
                                deferred.add(real);
                                return null;
                            }
                            before.call(real, m.getName(), a);
                            try {
                                return m.invoke(real, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                        });
            }

            @Override
            public SqlChannelProvider fallback() {
                return refuse ? inner : inner.fallback();
            }
        };
    }

    private static boolean sqlContains(String method, Object[] args, String text) {
        return (method.equals("query") || method.equals("update") || method.equals("execute")) && args.length > 0
                && args[0] instanceof String sql && sql.contains(text);
    }

    /** A session of the test's own holding the shard's application lock (owner Session). */
    private Connection holdShardLock(String load, int index) throws SQLException {
        Connection c = SERVER.connect();
        holders.add(c);
        try (PreparedStatement ps = c.prepareStatement("DECLARE @r int; EXEC @r = sp_getapplock @Resource = ?,"
                + " @LockMode = N'Exclusive', @LockOwner = N'Session', @LockTimeout = 0; SELECT @r;")) {
            ps.setString(1, "deltafunnel:" + load + ":" + index);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertEquals(0, rs.getInt(1), "the test's session holds the shard");
            }
        }
        return c;
    }

    private static void releaseShardLock(Connection c, String load, int index) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DECLARE @r int; EXEC @r = sp_releaseapplock @Resource = ?,"
                + " @LockOwner = N'Session'; SELECT @r;")) {
            ps.setString(1, "deltafunnel:" + load + ":" + index);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                assertEquals(0, rs.getInt(1));
            }
        }
    }

    private static List<Throwable> suppressedChain(Throwable t) {
        List<Throwable> out = new ArrayList<>();
        for (Throwable s : t.getSuppressed()) {
            out.add(s);
            out.addAll(suppressedChain(s));
        }
        return out;
    }

    private static boolean hasErrorNumber(Throwable t, int number) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SQLException sql && sql.getErrorCode() == number) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- a failed rollback

    @ParameterizedTest
    @EnumSource(value = BulkEncoder.class, names = {"DRIVER", "DIRECT"})
    void aFailedRollbackAbortsTheSessionAndCommitsNothingOfTheShare(BulkEncoder encoder) throws Exception {
        String load = newLoad(2);
        List<ShardLoadScenarios.Row> rows = plainRows(0, 40);
        try (RunWriter w = writer(settings(), channels(encoder), GUARD)) {
            // shard 0 (20 rows, batches of 7): its second bulk load fails (an error that keeps the transaction, so
            // the first batch's 7 rows are still in it), and the rollback fails too
            SERVER.emulator().faults().failBulkLoad(2, 3, 50000);
            SERVER.emulator().faults().failStatement("ROLLBACK TRAN", 50001);
            BulkLoadException failed = assertThrows(BulkLoadException.class, () -> run(w, "s0", 1,
                    shareOf(rows, 0, 2), false, null, shard(load, 0, 2)));
            assertTrue(hasErrorNumber(failed, 50000), failed.toString());
            assertEquals(WorkOutcome.ROLLED_BACK, failed.outcome());
            assertEquals(0, stagingRows(load), "nothing of the share was committed");
            assertEquals("pending", shardStatus(load, 0));
            assertTrue(suppressedChain(failed).stream().anyMatch(s -> hasErrorNumber(s, 50001)),
                    "the rollback failure is reported, suppressed on the primary failure");

            assertEquals(LoadStatus.SHARD_DONE, run(w, "s0", 2, shareOf(rows, 0, 2), false, null,
                    shard(load, 0, 2)).loadStatus());
            assertEquals(LoadStatus.LOAD_DONE, run(w, "s1", 1, shareOf(rows, 1, 2), false, null,
                    shard(load, 1, 2)).loadStatus());
        }
        assertEquals(40, scalar("SELECT COUNT(*) FROM [dbo].[" + table + "]"));
        assertEquals(40, scalar("SELECT COUNT(DISTINCT [id]) FROM [dbo].[" + table + "]"));
    }

    // ---------------------------------------------------------------- the claim's wait

    @ParameterizedTest
    @EnumSource(value = BulkEncoder.class, names = {"DRIVER", "DIRECT"})
    void theClaimWaitsForAnEarlierSessionOfTheShardAndSucceedsWhenItEnds(BulkEncoder encoder) throws Exception {
        String load = newLoad(1);
        Connection earlier = holdShardLock(load, 0); // e.g. a killed run's session, still rolling back
        CountDownLatch claimSent = new CountDownLatch(1);
        SqlChannelProvider channels = wrapped(channels(encoder), (real, method, args) -> {
            if (sqlContains(method, args, "sp_getapplock")) {
                claimSent.countDown();
            }
        }, false, false);
        Future<LoadStatus> shardRun;
        try (RunWriter w = writer(settings(), channels, GUARD)) {
            shardRun = pool.submit(() -> run(w, "s0", 2, plainRows(0, 10), false, null, shard(load, 0, 1))
                    .loadStatus());
            assertTrue(claimSent.await(GUARD.toSeconds(), TimeUnit.SECONDS), "the claim was sent");
            assertThrows(TimeoutException.class, () -> shardRun.get(300, TimeUnit.MILLISECONDS),
                    "the claim waits while the earlier session holds the shard");
            releaseShardLock(earlier, load, 0);
            assertEquals(LoadStatus.LOAD_DONE, shardRun.get(GUARD.toSeconds(), TimeUnit.SECONDS));
        }
        assertEquals(10, scalar("SELECT COUNT(*) FROM [dbo].[" + table + "]"));
    }

    @ParameterizedTest
    @EnumSource(value = BulkEncoder.class, names = {"DRIVER", "DIRECT"})
    void aClaimNotGrantedWithinTheTimeoutIsTransientAndWritesNothing(BulkEncoder encoder) throws Exception {
        String load = newLoad(1);
        holdShardLock(load, 0); // never released during the test
        try (RunWriter w = writer(settings(), channels(encoder), Duration.ofMillis(200))) {
            ShardLockException e = assertThrows(ShardLockException.class, () -> run(w, "s0", 1, plainRows(0, 10),
                    false, null, shard(load, 0, 1)));
            assertEquals(ShardLockException.Reason.NOT_GRANTED, e.reason());
            assertEquals(1222, e.errorNumber());
            assertTrue(RunFailures.retryable(e), "a lock not granted in time is retried (replayed)");
            assertEquals(WorkOutcome.ROLLED_BACK, e.outcome());
            assertTrue(e.getMessage().contains("shardClaimTimeout"), e.getMessage());
        }
        assertEquals(0, scalar("SELECT COUNT(*) FROM [dbo].[" + table + "]"));
        assertEquals("pending", shardStatus(load, 0));
    }

    // ---------------------------------------------------------------- encoder fallback

    @ParameterizedTest
    @EnumSource(value = BulkEncoder.class, names = {"DRIVER", "DIRECT"})
    void anEncoderFallbackReleasesTheClaimBeforeClosingTheRefusedChannel(BulkEncoder encoder) throws Exception {
        String load = newLoad(1);
        // The refused channel's close does not end its session (SQL Server ends it asynchronously); the fallback
        // claims without waiting, so it succeeds only when the refused channel released the lock first.
        SqlChannelProvider channels = wrapped(channels(encoder), (real, method, args) -> { }, true, true);
        try (RunWriter w = writer(settings(), channels, Duration.ZERO)) {
            assertEquals(LoadStatus.LOAD_DONE, run(w, "s0", 1, plainRows(0, 10), false, null, shard(load, 0, 1))
                    .loadStatus());
        }
        assertEquals(1, deferred.size(), "the refused channel was given up");
        assertEquals(10, scalar("SELECT COUNT(*) FROM [dbo].[" + table + "]"));
    }

    // ---------------------------------------------------------------- a lost lock

    @ParameterizedTest
    @EnumSource(value = BulkEncoder.class, names = {"DRIVER", "DIRECT"})
    void aSessionThatLostItsApplicationLockDoesNotCommitItsShare(BulkEncoder encoder) throws Exception {
        String load = newLoad(2);
        AtomicInteger dropped = new AtomicInteger();
        // Before the share's done-row update, the lock is released behind the session's back: what a silent
        // reconnect (a new session without the lock) amounts to.
        SqlChannelProvider channels = wrapped(channels(encoder), (real, method, args) -> {
            if (sqlContains(method, args, "SET [status] = ?, [run_id] = ?") && dropped.getAndIncrement() == 0) {
                real.query("DECLARE @r int; EXEC @r = sp_releaseapplock @Resource = ?, @LockOwner = N'Session';"
                        + " SELECT @r;", "deltafunnel:" + load + ":0");
            }
        }, false, false);
        try (RunWriter w = writer(settings(), channels, GUARD)) {
            ShardLockException e = assertThrows(ShardLockException.class, () -> run(w, "s0", 1,
                    shareOf(plainRows(0, 20), 0, 2), false, null, shard(load, 0, 2)));
            assertEquals(ShardLockException.Reason.LOST, e.reason());
            assertTrue(RunFailures.retryable(e), "transient: the replay claims again");
            assertEquals(WorkOutcome.ROLLED_BACK, e.outcome());
        }
        assertEquals(1, dropped.get());
        assertEquals(0, stagingRows(load), "nothing of the share was committed");
        assertEquals("pending", shardStatus(load, 0));
    }

    // ---------------------------------------------------------------- a failed release

    /** A DataSource whose connections record whether they were aborted or only closed (handed back, as to a pool). */
    static final class CountingDataSource {
        final AtomicInteger closed = new AtomicInteger();
        final AtomicInteger aborted = new AtomicInteger();

        DataSource dataSource() {
            return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(),
                    new Class<?>[] {DataSource.class}, (proxy, m, args) -> {
                        if (!m.getName().equals("getConnection")) {
                            throw new UnsupportedOperationException(m.getName());
                        }
                        Connection real = SERVER.connect();
                        return Proxy.newProxyInstance(Connection.class.getClassLoader(),
                                new Class<?>[] {Connection.class}, (p, cm, cargs) -> {
                                    if (cm.getName().equals("abort")) {
                                        aborted.incrementAndGet();
                                    } else if (cm.getName().equals("close")) {
                                        closed.incrementAndGet();
                                    }
                                    try {
                                        return cm.invoke(real, cargs);
                                    } catch (InvocationTargetException e) {
                                        throw e.getCause();
                                    }
                                });
                    });
        }
    }

    @ParameterizedTest
    @EnumSource(value = BulkEncoder.class, names = {"DRIVER"})
    void aFailedLockReleaseAbortsThePooledConnection(BulkEncoder encoder) throws Exception {
        String load = newLoad(1);
        CountingDataSource counting = new CountingDataSource();
        SqlChannelProvider channels = ChannelFactory.channels("test", connection(counting.dataSource()), encoder,
                false, false);
        SERVER.emulator().faults().failStatement("sp_releaseapplock", 50002);
        try (RunWriter w = writer(settings(), channels, GUARD)) {
            // an empty share (the proxy connection is not one the driver's bulk copy accepts)
            assertEquals(LoadStatus.LOAD_DONE, run(w, "s0", 1, List.of(), false, null, shard(load, 0, 1))
                    .loadStatus());
        }
        assertEquals(1, counting.aborted.get(), "the connection that may still hold the lock is evicted");
        assertEquals("done", shardStatus(load, 0));
        // the lock went with the aborted session: a new claim is granted at once
        Connection next = holdShardLock(load, 0);
        releaseShardLock(next, load, 0);
    }
}
