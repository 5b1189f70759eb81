package io.deltafunnel.handoff;

/**
 * A shard cannot take part in a load: the load's plan was made for another shard count or write mode (or another
 * load key), or the load was abandoned. Permanent: retrying the same run gives the same answer, so it is never
 * retried in place. (A shard whose application lock is held by another session past the claim timeout is a
 * transient {@code io.deltafunnel.mssql.shard.ShardLockException} instead.)
 */
public class ShardPlanException extends HandoffException {

    private static final long serialVersionUID = 1L;

    private final String loadId;
    private final int shardIndex;

    /**
     * @param phase   {@link HandoffPhase#QUERY_SETUP} when the consumer's plan join refused the shard,
     *                {@link HandoffPhase#DOWNSTREAM} when the producer did
     * @param loadId  the load concerned, or null when none was found
     * @param stats   what was accepted before the refusal (zero when nothing was written)
     */
    public ShardPlanException(HandoffPhase phase, String message, String loadId, int shardIndex, HandoffStats stats,
            Throwable cause) {
        super(phase, message, stats, cause);
        this.loadId = loadId;
        this.shardIndex = shardIndex;
    }

    /** The load concerned, or null when none was found. */
    public String loadId() {
        return loadId;
    }

    public int shardIndex() {
        return shardIndex;
    }
}
