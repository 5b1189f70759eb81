package io.deltafunnel.handoff;

/**
 * Where the shards of a load agree on one plan. The truth is the load tables in the target database (next to the
 * state table); the SQL Server implementation is {@code io.deltafunnel.mssql.shard.MssqlLoadPlans}.
 */
public interface LoadPlanStore {

    /**
     * Makes the pins of a new plan (reading the Delta logs, maybe remote); called at most once per {@link #join},
     * before the plan lock is taken and outside any transaction, when no plan was found. A shard that planned first
     * while these pins were made wins: its plan is used and these pins are discarded.
     */
    @FunctionalInterface
    interface PlanMaker {
        LoadPlan.Pinned pin() throws Exception;
    }

    /**
     * The plan shard {@code shardIndex} of {@code shardCount} must load, read (and created) in one transaction under
     * {@code UPDLOCK, HOLDLOCK}, the pins made before that transaction: with {@code loadId} the load of that id (created when missing), without it the
     * open load of {@code loadKey} (created when there is none). A new load gets the pins of {@code maker} and one
     * {@code pending} row per shard.
     *
     * @throws ShardPlanException when the load exists with another shard count or load key, or was abandoned
     */
    LoadPlan join(String loadKey, String loadId, int shardCount, int shardIndex, PlanMaker maker) throws Exception;

    /** The state table's name, {@code [schema.]table}; the load tables are its siblings. */
    String stateTableName();
}
