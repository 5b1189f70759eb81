package io.deltafunnel.handoff;

import java.util.Map;
import java.util.Objects;

/**
 * The plan of a sharded load as the state tables hold it: every shard of the load reads exactly these Delta
 * versions, so that the shares add up to one snapshot (or one set of changes).
 *
 * @param loadId      the load's id
 * @param shardCount  N
 * @param status      {@code open}, {@code done} (the final step ran) or {@code abandoned} (by an operator)
 * @param versions    Delta table path (the {@code delta.<view>} value, as the state table's {@code source}) to the
 *                    pinned version
 * @param incremental the incremental run every shard loads (its stored/from/to versions), or null for a
 *                    non-incremental load
 * @param shardDone   the asking shard's share is already committed
 * @param created     this call created the plan (the asking shard was the first)
 * @param files       the recorded file assignment of the sharded view's snapshot: each data file, keyed by its
 *                    percent-decoded path (as the log's reconciliation keys files), to the shard that reads it;
 *                    empty when none was recorded (a plan of changes only, or of an older version)
 */
public record LoadPlan(String loadId, int shardCount, String status, Map<String, Long> versions,
        IncrementalLoad incremental, boolean shardDone, boolean created, Map<String, Integer> files) {

    public LoadPlan {
        Objects.requireNonNull(loadId, "loadId");
        Objects.requireNonNull(status, "status");
        versions = Map.copyOf(versions);
        files = files == null ? Map.of() : Map.copyOf(files);
    }

    /** A plan without a recorded file assignment. */
    public LoadPlan(String loadId, int shardCount, String status, Map<String, Long> versions,
            IncrementalLoad incremental, boolean shardDone, boolean created) {
        this(loadId, shardCount, status, versions, incremental, shardDone, created, Map.of());
    }

    /**
     * What a new plan pins: made by the first shard, before the plan lock is taken.
     *
     * @param files the file assignment of the sharded view's snapshot (decoded path to shard), or empty
     */
    public record Pinned(Map<String, Long> versions, IncrementalLoad incremental, Map<String, Integer> files) {
        public Pinned {
            versions = Map.copyOf(versions);
            files = files == null ? Map.of() : Map.copyOf(files);
        }

        public Pinned(Map<String, Long> versions, IncrementalLoad incremental) {
            this(versions, incremental, Map.of());
        }
    }
}
