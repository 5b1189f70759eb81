package io.deltafunnel.handoff;

import java.util.Objects;

/**
 * Which share of a sharded load a run carries, travelling with every exchange of the run (header
 * {@code CamelDeltaFunnelShard}) from the {@code deltafunnel:} consumer to the {@code deltafunnel-mssql:} producer.
 * The consumer took it from the load plan ({@link LoadPlanStore#join}); the producer commits the share into the
 * load's staging table together with the shard's "done" row, and the shard that completes the set runs the load's
 * final step. Protocol: {@code docs/sharding.md}.
 *
 * @param stateTable  the state table, {@code [schema.]table}; the load tables are its siblings
 *                    ({@code <table>_loads}, {@code <table>_shards})
 * @param loadKey     the key that shards of one load share (the consumer's {@code stateKey}, by default the
 *                    endpoint's name)
 * @param loadId      the load this run belongs to
 * @param shardIndex  0-based index of this shard
 * @param shardCount  N, the number of shards of the load
 * @param alreadyDone the plan showed this shard done when the run started: the run reads nothing and only lets the
 *                    producer complete the load if that is still owed
 */
public record ShardAssignment(String stateTable, String loadKey, String loadId, int shardIndex, int shardCount,
        boolean alreadyDone) {

    public ShardAssignment {
        Objects.requireNonNull(stateTable, "stateTable");
        Objects.requireNonNull(loadKey, "loadKey");
        Objects.requireNonNull(loadId, "loadId");
        if (shardCount < 1 || shardIndex < 0 || shardIndex >= shardCount) {
            throw new IllegalArgumentException("shard " + shardIndex + " of " + shardCount);
        }
    }

    /** {@code load <id> shard <i>/<N>} for logs and messages. */
    public String describe() {
        return "load " + loadId + " shard " + shardIndex + "/" + shardCount;
    }
}
