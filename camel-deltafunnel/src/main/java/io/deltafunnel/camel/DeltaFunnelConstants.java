package io.deltafunnel.camel;

import org.apache.camel.spi.Metadata;

/**
 * Exchange headers set by the {@code deltafunnel:} consumer and the {@code deltafunnel-mssql:} producer.
 *
 * <p>All counters are cumulative for the run, the current batch included. Input counters come from the
 * consumer (what the query produced); output counters from the producer (what SQL Server accepted).
 */
public final class DeltaFunnelConstants {

    @Metadata(label = "consumer", description = "Identifier of the run (one poll) this batch belongs to: the same for"
                                                + " every exchange of a run, different across runs.",
              javaType = "String")
    public static final String RUN_ID = "CamelDeltaFunnelRunId";

    @Metadata(label = "consumer", description = "The 1-based attempt of the run this batch belongs to: 1, or 2, 3, ..."
                                                + " when the run is replayed from its first batch (same run id) because"
                                                + " the writer rolled it back after a transient failure.",
              javaType = "int")
    public static final String ATTEMPT = "CamelDeltaFunnelAttempt";

    @Metadata(label = "consumer", description = "Number of rows in this exchange's Arrow batch.", javaType = "long")
    public static final String BATCH_ROWS = "CamelDeltaFunnelBatchRows";

    @Metadata(label = "consumer", description = "Batches produced by the query in this run so far, this one included.",
              javaType = "long")
    public static final String INPUT_BATCHES = "CamelDeltaFunnelInputBatches";

    @Metadata(label = "consumer", description = "Rows produced by the query in this run so far, this batch included.",
              javaType = "long")
    public static final String INPUT_ROWS = "CamelDeltaFunnelInputRows";

    @Metadata(label = "consumer", description = "The rows this run will deliver in all, when the Delta log says so"
                                                + " up front (for a progress percentage): the query reads one"
                                                + " delta.VIEW table whole (select all columns from the view and"
                                                + " nothing else), the view is read as a snapshot (not incremental),"
                                                + " and every data file of it has stats.numRecords; each file counts"
                                                + " its numRecords less its deletion vector's cardinality. In a sharded"
                                                + " load (shardCount of 2 or more) of that view: the rows of this"
                                                + " shard's share of the files (0 for a shard already done). Absent"
                                                + " when unknown; never estimated.",
              javaType = "long")
    public static final String EXPECTED_ROWS = "CamelDeltaFunnelExpectedRows";

    @Metadata(label = "consumer", description = "The Delta Lake version read for each registered table in this"
                                                + " run, as a map from view name to version (only when delta.VIEW"
                                                + " tables are registered).",
              javaType = "java.util.Map<String, Long>")
    public static final String DELTA_VERSIONS = "CamelDeltaFunnelDeltaVersions";

    @Metadata(label = "producer", description = "Batches SQL Server accepted in this run so far, this one included.",
              javaType = "long")
    public static final String OUTPUT_BATCHES = "CamelDeltaFunnelOutputBatches";

    @Metadata(label = "producer", description = "Rows SQL Server accepted in this run so far, this batch included.",
              javaType = "long")
    public static final String OUTPUT_ROWS = "CamelDeltaFunnelOutputRows";

    @Metadata(label = "producer", description = "Rows of this run set aside so far instead of loaded (maxRejectedRows),"
            + " this batch included: the batch's input rows are its output rows plus its rejected rows. On the body"
            + " sent to rejectEndpoint: the rows in it.", javaType = "long")
    public static final String REJECTED_ROWS = "CamelDeltaFunnelRejectedRows";

    @Metadata(label = "consumer", description = "Incremental runs: what the run loads (state table, state key, mode,"
                                                + " and per Delta table the stored, from and to versions). The producer"
                                                + " records it in the state table in the same transaction as the data.",
              javaType = "io.deltafunnel.handoff.IncrementalLoad")
    public static final String INCREMENTAL = "CamelDeltaFunnelIncremental";

    @Metadata(label = "consumer", description = "Incremental runs: the state as one line, e.g. 'key=orders-route"
                                                + " mode=changes orders: 3 -> 5' (from -> to version per table; 'full'"
                                                + " for a full snapshot), also on the empty exchange of an unchanged poll.",
              javaType = "String")
    public static final String STATE = "CamelDeltaFunnelState";

    @Metadata(label = "consumer", description = "True on the empty exchange sent for a poll whose tables have not"
                                                + " changed (only with sendEmptyMessageWhenIdle=true); the producer"
                                                + " writes nothing for it.",
              javaType = "boolean")
    public static final String UNCHANGED = "CamelDeltaFunnelUnchanged";

    @Metadata(label = "consumer", description = "Sharded loads (shardCount > 1): the load id, shard index and count"
                                                + " and the state table of this run's share; the producer commits the"
                                                + " share with the shard's done row and the last shard runs the final"
                                                + " step (docs/sharding.md).",
              javaType = "io.deltafunnel.handoff.ShardAssignment")
    public static final String SHARD = "CamelDeltaFunnelShard";

    @Metadata(label = "producer", description = "Sharded loads: what the run's last exchange did to the load:"
                                                + " 'shard-done' (the share is committed, other shards are still"
                                                + " missing), 'load-done' (this shard completed the set and ran the"
                                                + " final step into the target) or 'already-done' (the shard was done"
                                                + " before; nothing written, a final step still owed was run).",
              javaType = "String")
    public static final String LOAD_STATUS = "CamelDeltaFunnelLoadStatus";

    /**
     * Exchange <em>property</em> (not a header) set by the producer: the run's
     * {@link io.deltafunnel.handoff.HandoffStats} after this batch (input and output counters together).
     */
    public static final String HANDOFF_STATS = "CamelDeltaFunnelHandoffStats";

    private DeltaFunnelConstants() {
    }
}
