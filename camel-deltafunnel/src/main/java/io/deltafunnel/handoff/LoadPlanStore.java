package io.deltafunnel.handoff;

/**
 * Where the shards of a load agree on one plan. The truth is the load tables in the target database (next to the
 * state table); the SQL Server implementation is {@code io.deltafunnel.mssql.shard.MssqlLoadPlans}.
 */
public interface LoadPlanStore {

    /** Makes the pins of a new plan; called at most once per {@link #join}, while the plan lock is held. */
    @FunctionalInterface
    interface PlanMaker {
        LoadPlan.Pinned pin() throws Exception;
    }

    /**
     * The plan shard {@code shardIndex} of {@code shardCount} must load, in one transaction under
     * {@code UPDLOCK, HOLDLOCK}: with {@code loadId} the load of that id (created when missing), without it the
     * open load of {@code loadKey} (created when there is none). A new load gets the pins of {@code maker} and one
     * {@code pending} row per shard.
     *
     * @throws ShardPlanException when the load exists with another shard count or load key, or was abandoned
     */
    LoadPlan join(String loadKey, String loadId, int shardCount, int shardIndex, PlanMaker maker) throws Exception;

    /** The state table's name, {@code [schema.]table}; the load tables are its siblings. */
    String stateTableName();
}
