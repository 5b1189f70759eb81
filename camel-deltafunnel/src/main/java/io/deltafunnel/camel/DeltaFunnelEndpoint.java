package io.deltafunnel.camel;

import java.util.List;

import javax.sql.DataSource;

import io.deltafunnel.delta.DeltaTableSpec;
import io.deltafunnel.delta.DeltaTableSpecs;
import io.deltafunnel.handoff.BatchSizes;
import io.deltafunnel.handoff.DeltaFunnelStateStore;
import io.deltafunnel.incremental.ChangeFeedFallback;
import io.deltafunnel.incremental.IncrementalMode;
import io.deltafunnel.incremental.IncrementalPlanner;
import io.deltafunnel.incremental.RunSource;
import io.deltafunnel.mssql.state.MssqlStateStore;
import io.deltafunnel.mssql.shard.MssqlLoadPlans;
import io.deltafunnel.query.DuckDbSettings;
import io.deltafunnel.query.SqlScript;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.camel.Category;
import org.apache.camel.Consumer;
import org.apache.camel.Processor;
import org.apache.camel.Producer;
import org.apache.camel.spi.UriEndpoint;
import org.apache.camel.spi.UriParam;
import org.apache.camel.support.ScheduledPollEndpoint;

/**
 * Runs a DuckDB query on each poll and emits its result as Apache Arrow batches, one
 * {@link org.apache.arrow.vector.VectorSchemaRoot} per exchange.
 *
 * <p>Each poll is one <em>run</em>. The body of every exchange is a {@code VectorSchemaRoot} owned by the
 * consumer: it is valid until the exchange completes and is closed right after, on success and on failure.
 * A processor that keeps data beyond that must copy it.
 *
 * <p>The options live in {@link DeltaFunnelConfiguration}, each described there once.
 */
@UriEndpoint(firstVersion = "0.1.0", scheme = "deltafunnel", title = "DeltaFunnel",
             syntax = "deltafunnel:name", consumerOnly = true,
             category = { Category.DATABASE, Category.BIGDATA }, headersClass = DeltaFunnelConstants.class)
public class DeltaFunnelEndpoint extends ScheduledPollEndpoint {

    /** Rows per Arrow batch when {@code batchSize} is not set. */
    public static final int DEFAULT_BATCH_SIZE = 65_536;

    @UriParam
    private DeltaFunnelConfiguration configuration = new DeltaFunnelConfiguration();

    /** The query text: the query option, or the file it refers to, read when the endpoint starts. */
    private volatile String queryText;

    private BufferAllocator allocator;

    public DeltaFunnelEndpoint(String uri, DeltaFunnelComponent component) {
        super(uri, component);
    }

    @Override
    public DeltaFunnelComponent getComponent() {
        return (DeltaFunnelComponent) super.getComponent();
    }

    @Override
    public Producer createProducer() {
        throw new UnsupportedOperationException("deltafunnel: is a consumer only; write with deltafunnel-mssql:");
    }

    @Override
    public Consumer createConsumer(Processor processor) throws Exception {
        BatchSizes.requirePositive("batchSize", configuration.getBatchSize());
        DeltaFunnelConsumer consumer = new DeltaFunnelConsumer(this, processor);
        consumer.setMaxMessagesPerPoll(configuration.getMaxMessagesPerPoll());
        configureConsumer(consumer);
        return consumer;
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        queryText = QueryReference.resolve(getCamelContext(), describe(), configuration.getQuery());
        allocator = getComponent().rootAllocator().newChildAllocator(describe(), 0, Long.MAX_VALUE);
    }

    @Override
    protected void doStop() throws Exception {
        super.doStop();
        if (allocator != null) {
            // Fails loudly (IllegalStateException) if any batch was not released.
            allocator.close();
            allocator = null;
        }
    }

    /** The endpoint's Arrow allocator, from which every batch body is allocated; null while stopped. */
    public BufferAllocator getAllocator() {
        return allocator;
    }

    /**
     * The Delta tables to register before each run, from the {@code delta.}, {@code deltaVersion.} and
     * {@code deltaTimestamp.} options ({@link DeltaTableSpecs}).
     *
     * @throws IllegalArgumentException naming the option when a pin is malformed or names no registered view
     */
    public List<DeltaTableSpec> deltaSpecs() {
        return DeltaTableSpecs.of(configuration.getDelta(), configuration.getDeltaVersion(),
                configuration.getDeltaTimestamp());
    }

    IncrementalMode incrementalMode() {
        IncrementalMode incremental = configuration.getIncremental();
        return incremental == null ? IncrementalMode.NONE : incremental;
    }

    /** What the polls of the consumer of route {@code routeId} read: the options mapped onto a {@link RunSource}. */
    RunSource runSource(String routeId) {
        List<DeltaTableSpec> specs = deltaSpecs();
        String key = stateKey(routeId);
        return new RunSource(describe(), specs, incrementalPlanner(key, specs), sharding(key, specs));
    }

    /** Whether this endpoint loads one shard of a sharded load ({@code shardCount > 1}). */
    boolean sharded() {
        return configuration.getShardCount() != 1;
    }

    /** The state key: the option, else (sharded) the endpoint's name, else the route id. */
    private String stateKey(String routeId) {
        String stateKey = configuration.getStateKey();
        if (stateKey != null && !stateKey.isBlank()) {
            return stateKey;
        }
        return sharded() ? configuration.getName() : routeId;
    }

    /** The planner of an incremental consumer; null for incremental=none. */
    private IncrementalPlanner incrementalPlanner(String key, List<DeltaTableSpec> specs) {
        IncrementalMode mode = incrementalMode();
        if (mode == IncrementalMode.NONE) {
            return null;
        }
        DeltaFunnelStateStore store = configuration.getStateStore();
        if (store == null) {
            DataSource ds = configuration.getStateDataSource();
            if (ds == null) {
                throw new IllegalArgumentException(describe() + ": incremental=" + mode
                        + " needs stateDataSource (the target database) or stateStore");
            }
            store = new MssqlStateStore(ds::getConnection, configuration.getStateTable());
        }
        return new IncrementalPlanner(describe(), mode, store, key, configuration.getStartVersion(),
                configuration.getChangeFeedFallback() == ChangeFeedFallback.SNAPSHOT, specs, duckDbSettings());
    }

    /**
     * The shard this endpoint loads ({@link RunSource.Sharding#of}); null when not sharded.
     *
     * @throws IllegalArgumentException naming the option when the sharding options do not fit together
     */
    private RunSource.Sharding sharding(String key, List<DeltaTableSpec> specs) {
        DeltaFunnelConfiguration c = configuration;
        RunSource.Sharding sharding = RunSource.Sharding.of(describe(), c.getShardCount(), c.getShardIndex(),
                c.getShardView(), c.getLoadId(), key, specs, () -> {
                    if (c.getLoadPlanStore() != null) {
                        return c.getLoadPlanStore();
                    }
                    DataSource ds = c.getStateDataSource();
                    if (ds == null) {
                        throw new IllegalArgumentException(describe() + ": a sharded load (shardCount="
                                + c.getShardCount() + ") needs stateDataSource (the target database, where the load"
                                + " plan lives) or loadPlanStore");
                    }
                    return new MssqlLoadPlans(ds::getConnection, c.getStateTable());
                }, duckDbSettings());
        // the shard routes of one load in this Camel context read each pinned snapshot once
        return sharding == null ? null : sharding.sharing(getComponent().sharedSnapshots());
    }

    DuckDbSettings duckDbSettings() {
        DuckDbSettings own = new DuckDbSettings(configuration.getDatabase(),
                SqlScript.statements(configuration.getInitSql()), configuration.isAllowExtensionAutoInstall());
        return own.inMemoryDatabase() && configuration.isSharedDuckDb() ? own.sharedBy(getComponent().duckDbInstances())
                : own;
    }

    /** {@code deltafunnel:<name>}, as logs and errors name this endpoint. */
    String describe() {
        return "deltafunnel:" + configuration.getName();
    }

    /**
     * The SQL the runs execute: the {@code query} option, or the content of the file or classpath resource it names
     * ({@code resource:classpath:…}, {@code resource:file:…}, {@code file:…}), read when the endpoint started.
     */
    public String queryText() {
        String text = queryText;
        return text != null ? text : configuration.getQuery();
    }

    /** This endpoint's options (the scheduler's are Camel's, on the endpoint itself). */
    public DeltaFunnelConfiguration getConfiguration() {
        return configuration;
    }

    public void setConfiguration(DeltaFunnelConfiguration configuration) {
        this.configuration = configuration;
    }
}
