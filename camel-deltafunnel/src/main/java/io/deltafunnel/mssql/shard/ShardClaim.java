package io.deltafunnel.mssql.shard;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

import io.deltafunnel.handoff.ShardAssignment;
import io.deltafunnel.handoff.ShardPlanException;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.channel.SqlChannel;

/**
 * A shard's claim (docs/sharding.md, step 3): the application lock {@code deltafunnel:<load id>:<shard index>},
 * Exclusive, owner {@code Session}, that makes one session the only writer of the shard. Taken on every channel
 * the shard's run opens ({@link #claim}), checked right before the share commits ({@link #checkHeld}) and released
 * at the end ({@link #release}); it also ends with the session. Holds no channel: the caller owns each one.
 */
final class ShardClaim {

    private final String resource;
    private final Duration timeout;
    private final int statementTimeoutSeconds;
    private final Supplier<String> prefix;
    private final Supplier<BulkLoadException.Context> context;
    private final Function<String, ShardPlanException> refusal;

    /**
     * @param timeout                 how long {@link #claim} waits for the lock (0 to {@link Integer#MAX_VALUE} ms)
     * @param statementTimeoutSeconds the run's statement timeout (0 = none), lengthened by the wait while claiming
     * @param prefix                  what a failure message starts with (the shard, run, target)
     * @param context                 the run's failure context at the moment of a failure
     * @param refusal                 a permanent refusal of the run with this message
     */
    ShardClaim(ShardAssignment shard, Duration timeout, int statementTimeoutSeconds, Supplier<String> prefix,
            Supplier<BulkLoadException.Context> context, Function<String, ShardPlanException> refusal) {
        this("deltafunnel:" + shard.loadId() + ":" + shard.shardIndex(), timeout, statementTimeoutSeconds, prefix,
                context, refusal);
    }

    /**
     * The load's final-step lock {@code deltafunnel:<load id>:final} (same mode, owner and wait): a replace by switch
     * takes it before it builds the target's indexes on the load's staging table and keeps it until its session
     * ends, so that two shards that both see every share done never build that shape at the same time, and the one
     * that waited finds the load done.
     */
    static ShardClaim finalStep(ShardAssignment shard, Duration timeout, int statementTimeoutSeconds,
            Supplier<String> prefix, Supplier<BulkLoadException.Context> context,
            Function<String, ShardPlanException> refusal) {
        return new ShardClaim("deltafunnel:" + shard.loadId() + ":final", timeout, statementTimeoutSeconds, prefix,
                context, refusal);
    }

    private ShardClaim(String resource, Duration timeout, int statementTimeoutSeconds, Supplier<String> prefix,
            Supplier<BulkLoadException.Context> context, Function<String, ShardPlanException> refusal) {
        this.resource = resource;
        this.timeout = Objects.requireNonNull(timeout, "claimTimeout");
        if (timeout.isNegative() || timeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the shard claim timeout must be 0 to " + Integer.MAX_VALUE
                    + " ms, got " + timeout.toMillis() + " ms");
        }
        this.statementTimeoutSeconds = statementTimeoutSeconds;
        this.prefix = prefix;
        this.context = context;
        this.refusal = refusal;
    }

    /** The lock's resource name, {@code deltafunnel:<load id>:<shard index>}. */
    String resource() {
        return resource;
    }

    /**
     * {@code sp_getapplock}, Exclusive, owner Session, waiting at most the claim timeout (an earlier session of this
     * shard may still be rolling back). By return code: 0/1 granted; -1 not granted in time and -3 deadlock victim
     * are a transient {@link ShardLockException}; anything else a refusal.
     */
    void claim(SqlChannel c) throws SQLException {
        int waitMillis = (int) timeout.toMillis();
        if (statementTimeoutSeconds > 0) {
            // the statement may wait for the lock: its own timeout must not end it first
            c.setQueryTimeout(statementTimeoutSeconds + (int) Math.ceil(waitMillis / 1000.0));
        }
        List<Object[]> r;
        try {
            r = c.query("DECLARE @r int; EXEC @r = sp_getapplock @Resource = ?, @LockMode = N'Exclusive',"
                    + " @LockOwner = N'Session', @LockTimeout = ?; SELECT @r;", resource, waitMillis);
        } finally {
            if (statementTimeoutSeconds > 0 && !c.isClosed()) {
                c.setQueryTimeout(statementTimeoutSeconds);
            }
        }
        int result = returnCode(r);
        if (result == -1) {
            throw lockException(ShardLockException.Reason.NOT_GRANTED, "application lock " + resource + " was not"
                    + " granted within the claim timeout of " + waitMillis + " ms (shardClaimTimeout): another"
                    + " runner holds this shard, or an earlier session of it is still ending; nothing was written");
        }
        if (result == -3) {
            throw lockException(ShardLockException.Reason.DEADLOCK, "sp_getapplock on " + resource + " chose this"
                    + " session as a deadlock victim (-3); nothing was written");
        }
        if (result < 0) {
            throw refusal.apply("sp_getapplock on " + resource + " returned " + result + " (not granted)");
        }
    }

    /**
     * In the share's transaction, right before its commit: the session must still hold the application lock. A
     * silent reconnect (mssql-jdbc's idle-connection resiliency) gives a new session without it, and a second
     * runner could then be writing the same shard.
     */
    void checkHeld(SqlChannel c) throws SQLException {
        List<Object[]> r = c.query("SELECT APPLOCK_MODE(N'public', ?, N'Session')", resource);
        Object mode = r.isEmpty() ? null : r.get(0)[0];
        if (!"Exclusive".equals(mode)) {
            throw lockException(ShardLockException.Reason.LOST, "this session no longer holds application lock "
                    + resource + " (APPLOCK_MODE is " + mode + "; the connection was probably re-established); the"
                    + " share is rolled back");
        }
    }

    /** {@code sp_releaseapplock}; a failure or a return code other than 0 throws (the caller aborts the session). */
    void release(SqlChannel c) throws SQLException {
        List<Object[]> r = c.query("DECLARE @r int; EXEC @r = sp_releaseapplock @Resource = ?,"
                + " @LockOwner = N'Session'; SELECT @r;", resource);
        int result = returnCode(r);
        if (result != 0) {
            throw new SQLException("sp_releaseapplock on " + resource + " returned " + result);
        }
    }

    private static int returnCode(List<Object[]> r) {
        return r.isEmpty() || r.get(0)[0] == null ? Integer.MIN_VALUE : ((Number) r.get(0)[0]).intValue();
    }

    private ShardLockException lockException(ShardLockException.Reason reason, String message) {
        return new ShardLockException(reason, resource, prefix.get() + message, context.get());
    }
}
