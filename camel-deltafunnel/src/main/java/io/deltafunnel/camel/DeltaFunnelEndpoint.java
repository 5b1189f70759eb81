package io.deltafunnel.camel;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import io.deltafunnel.delta.DeltaTableSpec;
import io.deltafunnel.delta.DeltaTableSpecs;
import io.deltafunnel.handoff.BatchSizes;
import io.deltafunnel.handoff.DeltaFunnelStateStore;
import io.deltafunnel.handoff.LoadPlanStore;
import io.deltafunnel.incremental.ChangeFeedFallback;
import io.deltafunnel.incremental.IncrementalMode;
import io.deltafunnel.incremental.IncrementalPlanner;
import io.deltafunnel.incremental.RunSource;
import io.deltafunnel.mssql.state.MssqlStateStore;
import io.deltafunnel.mssql.state.StateTable;
import io.deltafunnel.mssql.shard.MssqlLoadPlans;
import io.deltafunnel.query.DuckDbSettings;
import io.deltafunnel.query.SqlScript;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.camel.Category;
import org.apache.camel.Consumer;
import org.apache.camel.Processor;
import org.apache.camel.Producer;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.UriEndpoint;
import org.apache.camel.spi.UriParam;
import org.apache.camel.spi.UriPath;
import org.apache.camel.support.ScheduledPollEndpoint;

/**
 * Runs a DuckDB query on each poll and emits its result as Apache Arrow batches, one
 * {@link org.apache.arrow.vector.VectorSchemaRoot} per exchange.
 *
 * <p>Each poll is one <em>run</em>. The body of every exchange is a {@code VectorSchemaRoot} owned by the
 * consumer: it is valid until the exchange completes and is closed right after, on success and on failure.
 * A processor that keeps data beyond that must copy it.
 */
@UriEndpoint(firstVersion = "0.1.0", scheme = "deltafunnel", title = "DeltaFunnel",
             syntax = "deltafunnel:name", consumerOnly = true,
             category = { Category.DATABASE, Category.BIGDATA }, headersClass = DeltaFunnelConstants.class)
public class DeltaFunnelEndpoint extends ScheduledPollEndpoint {

    /** Rows per Arrow batch when {@code batchSize} is not set. */
    public static final int DEFAULT_BATCH_SIZE = 65_536;

    @UriPath(description = "A name for this source; it appears in logs, errors and metrics.")
    @Metadata(required = true)
    private String name;

    @UriParam(label = "consumer", description = "The DuckDB SQL query to run on each poll, or where to read it from, as"
            + " camel-sql does: resource:classpath:sql/load.sql, resource:file:/etc/load.sql, or file:/etc/load.sql"
            + " (read once, when the endpoint starts).")
    @Metadata(required = true, supportFileReference = true)
    private String query;

    /** The query text: {@link #query}, or the file it refers to, read when the endpoint starts. */
    private volatile String queryText;

    @UriParam(label = "consumer", description = "The DuckDB database file. By default each run uses a private in-memory database.")
    private String database;

    @UriParam(label = "consumer", description = "SQL statements run on each new DuckDB connection before the query,"
                                                + " separated by semicolons, e.g. SET memory_limit='2GB';SET threads=2.")
    private String initSql;

    @UriParam(label = "consumer", defaultValue = "" + DEFAULT_BATCH_SIZE,
              description = "Rows per Arrow batch (one batch per exchange). Must be greater than zero.")
    private int batchSize = DEFAULT_BATCH_SIZE;

    @UriParam(label = "consumer", description = "The maximum number of batches (exchanges) to emit per poll; 0 or"
                                                + " negative means no limit. A run that is cut short by this limit"
                                                + " continues on the next poll from the batch where it stopped.")
    private int maxMessagesPerPoll;

    @UriParam(label = "consumer,advanced", defaultValue = "false",
              description = "Whether DuckDB may download and auto-load extensions. Off by default, so that a missing"
                            + " extension fails fast with a clear message and no network wait.")
    private boolean allowExtensionAutoInstall;

    @UriParam(label = "consumer", prefix = "delta.", multiValue = true,
              description = "Delta Lake tables to expose to the query as DuckDB views: delta.VIEW=PATH (the table directory),"
                            + " for example delta.orders=/lake/orders. Before each run the latest snapshot (or the"
                            + " pinned one) is resolved and registered as the view VIEW.")
    private Map<String, Object> delta;

    @UriParam(label = "consumer", prefix = "deltaVersion.", multiValue = true,
              description = "Time travel by version: deltaVersion.VIEW=N reads version N of the"
                            + " table registered as delta.VIEW.")
    private Map<String, Object> deltaVersion;

    @UriParam(label = "consumer", prefix = "deltaTimestamp.", multiValue = true,
              description = "Time travel by time: deltaTimestamp.VIEW=INSTANT (ISO-8601, e.g."
                            + " 2024-05-01T12:00:00Z) reads the latest version committed at or before that instant.")
    private Map<String, Object> deltaTimestamp;

    @UriParam(label = "consumer,incremental", defaultValue = "NONE",
              description = "Incremental loads of the delta.VIEW tables, with the last loaded version kept in the"
                            + " target's state table: none (every poll reads the latest snapshot), snapshot (a poll"
                            + " whose tables have not advanced emits nothing; otherwise the snapshot), changes (the"
                            + " change data feed since the last loaded version, with _change_type, _commit_version and"
                            + " _commit_timestamp; apply with writeMode=merge). Case-insensitive.")
    private IncrementalMode incremental = IncrementalMode.NONE;

    @UriParam(label = "consumer,incremental", description = "Where the last loaded versions are read: a"
                                                            + " DeltaFunnelStateStore bean. Default: an"
                                                            + " MssqlStateStore over stateDataSource and stateTable.")
    private DeltaFunnelStateStore stateStore;

    @UriParam(label = "consumer,incremental", description = "The target SQL Server database (the same one the"
                                                            + " deltafunnel-mssql: producer writes), to read the state"
                                                            + " table from.")
    private DataSource stateDataSource;

    @UriParam(label = "consumer,incremental", defaultValue = StateTable.DEFAULT_NAME,
              description = "The state table, [schema.]table, in the target database. Created when missing.")
    private String stateTable = StateTable.DEFAULT_NAME;

    @UriParam(label = "consumer,incremental", description = "The key of this route's rows in the state table (and,"
                                                            + " sharded, of its loads). Default: the route id; for a"
                                                            + " sharded endpoint (shardCount of 2 or more) the endpoint's name,"
                                                            + " so that the N shards share one load.")
    private String stateKey;

    @UriParam(label = "consumer,incremental", description = "Operator control: when the state has no row for a"
                                                            + " table, act as if this version had been loaded (changes"
                                                            + " are read from the next version on).")
    private Long startVersion;

    @UriParam(label = "consumer,incremental", defaultValue = "false",
              description = "Operator control: delete this key's state rows when the consumer starts, so that the"
                            + " next run loads anew (or from startVersion).")
    private boolean resetState;

    @UriParam(label = "consumer,incremental", defaultValue = "FAIL",
              description = "incremental=changes on a table without delta.enableChangeDataFeed=true: fail the poll"
                            + " with a clear error, or load the table's snapshot (snapshot-incremental). Case-insensitive.")
    private ChangeFeedFallback changeFeedFallback = ChangeFeedFallback.FAIL;

    @UriParam(label = "consumer,sharding", defaultValue = "1",
              description = "Sharded loads: the number of shards N the load is split into (1 = not sharded). Each"
                            + " shard is one consumer (a route, or a pod of a Kubernetes Indexed Job) that reads the"
                            + " files of shardView whose hash of path, mod N, is its shardIndex; the shards agree on"
                            + " one plan in the load tables beside the state table (docs/sharding.md).")
    private int shardCount = 1;

    @UriParam(label = "consumer,sharding",
              description = "Sharded loads: the 0-based index of this shard, 0 .. shardCount-1 (required when"
                            + " shardCount is 2 or more), e.g. the JOB_COMPLETION_INDEX environment variable of a"
                            + " Kubernetes Indexed Job's pod.")
    private Integer shardIndex;

    @UriParam(label = "consumer,sharding",
              description = "Sharded loads: the delta.VIEW whose data files are split over the shards; the other"
                            + " views are read whole by every shard. Default: the only delta.VIEW (required when"
                            + " there are several).")
    private String shardView;

    @UriParam(label = "consumer,sharding",
              description = "Sharded loads: the load's id, the same for all its shards (e.g. the Kubernetes Job's"
                            + " name), at most 64 characters. Without it a shard joins the open load of its stateKey,"
                            + " or starts a new one.")
    private String loadId;

    @UriParam(label = "consumer,sharding",
              description = "Sharded loads: where the shards of a load agree on its plan, a LoadPlanStore bean."
                            + " Default: an MssqlLoadPlans over stateDataSource and stateTable (the tables"
                            + " STATETABLE_loads and STATETABLE_shards).")
    private LoadPlanStore loadPlanStore;

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
        BatchSizes.requirePositive("batchSize", batchSize);
        DeltaFunnelConsumer consumer = new DeltaFunnelConsumer(this, processor);
        consumer.setMaxMessagesPerPoll(maxMessagesPerPoll);
        configureConsumer(consumer);
        return consumer;
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        queryText = QueryReference.resolve(getCamelContext(), "deltafunnel:" + name, query);
        allocator = getComponent().rootAllocator().newChildAllocator("deltafunnel:" + name, 0, Long.MAX_VALUE);
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
        return DeltaTableSpecs.of(delta, deltaVersion, deltaTimestamp);
    }

    IncrementalMode incrementalMode() {
        return incremental == null ? IncrementalMode.NONE : incremental;
    }

    /** What the polls of the consumer of route {@code routeId} read: the options mapped onto a {@link RunSource}. */
    RunSource runSource(String routeId) {
        List<DeltaTableSpec> specs = deltaSpecs();
        String key = stateKey(routeId);
        return new RunSource("deltafunnel:" + name, specs, incrementalPlanner(key, specs), sharding(key, specs));
    }

    /** Whether this endpoint loads one shard of a sharded load ({@code shardCount > 1}). */
    boolean sharded() {
        return shardCount != 1;
    }

    /** The state key: the option, else (sharded) the endpoint's name, else the route id. */
    private String stateKey(String routeId) {
        if (stateKey != null && !stateKey.isBlank()) {
            return stateKey;
        }
        return sharded() ? name : routeId;
    }

    /** The planner of an incremental consumer; null for incremental=none. */
    private IncrementalPlanner incrementalPlanner(String key, List<DeltaTableSpec> specs) {
        IncrementalMode mode = incrementalMode();
        if (mode == IncrementalMode.NONE) {
            return null;
        }
        DeltaFunnelStateStore store = stateStore;
        if (store == null) {
            if (stateDataSource == null) {
                throw new IllegalArgumentException("deltafunnel:" + name + ": incremental=" + mode
                        + " needs stateDataSource (the target database) or stateStore");
            }
            DataSource ds = stateDataSource;
            store = new MssqlStateStore(ds::getConnection, stateTable);
        }
        return new IncrementalPlanner("deltafunnel:" + name, mode, store, key, startVersion,
                changeFeedFallback == ChangeFeedFallback.SNAPSHOT, specs, duckDbSettings());
    }

    /**
     * The shard this endpoint loads ({@link RunSource.Sharding#of}); null when not sharded.
     *
     * @throws IllegalArgumentException naming the option when the sharding options do not fit together
     */
    private RunSource.Sharding sharding(String key, List<DeltaTableSpec> specs) {
        return RunSource.Sharding.of("deltafunnel:" + name, shardCount, shardIndex, shardView, loadId, key, specs,
                () -> {
                    if (loadPlanStore != null) {
                        return loadPlanStore;
                    }
                    if (stateDataSource == null) {
                        throw new IllegalArgumentException("deltafunnel:" + name + ": a sharded load (shardCount="
                                + shardCount + ") needs stateDataSource (the target database, where the load plan"
                                + " lives) or loadPlanStore");
                    }
                    DataSource ds = stateDataSource;
                    return new MssqlLoadPlans(ds::getConnection, stateTable);
                }, duckDbSettings());
    }

    DuckDbSettings duckDbSettings() {
        return new DuckDbSettings(database, SqlScript.statements(initSql), allowExtensionAutoInstall);
    }

    public String getName() {
        return name;
    }

    /** A name for this source; it appears in logs, errors and metrics. */
    public void setName(String name) {
        this.name = name;
    }

    public String getQuery() {
        return query;
    }

    /**
     * The SQL the runs execute: the {@code query} option, or the content of the file or classpath resource it names
     * ({@code resource:classpath:…}, {@code resource:file:…}, {@code file:…}), read when the endpoint started.
     */
    public String queryText() {
        String text = queryText;
        return text != null ? text : query;
    }

    /** The DuckDB SQL query to run on each poll. */
    public void setQuery(String query) {
        this.query = query;
    }

    public String getDatabase() {
        return database;
    }

    /** The DuckDB database file. By default each run uses a private in-memory database. */
    public void setDatabase(String database) {
        this.database = database;
    }

    public String getInitSql() {
        return initSql;
    }

    /** SQL statements run on each new DuckDB connection before the query, separated by semicolons. */
    public void setInitSql(String initSql) {
        this.initSql = initSql;
    }

    public int getBatchSize() {
        return batchSize;
    }

    /** Rows per Arrow batch (one batch per exchange). Must be greater than zero. */
    public void setBatchSize(int batchSize) {
        this.batchSize = batchSize;
    }

    public int getMaxMessagesPerPoll() {
        return maxMessagesPerPoll;
    }

    /** The maximum number of batches (exchanges) to emit per poll; 0 or negative means no limit. */
    public void setMaxMessagesPerPoll(int maxMessagesPerPoll) {
        this.maxMessagesPerPoll = maxMessagesPerPoll;
    }

    public Map<String, Object> getDelta() {
        return delta;
    }

    /** Delta Lake tables to expose to the query as DuckDB views: delta.&lt;view&gt;=&lt;table path&gt;. */
    public void setDelta(Map<String, Object> delta) {
        this.delta = delta == null ? null : new LinkedHashMap<>(delta);
    }

    public Map<String, Object> getDeltaVersion() {
        return deltaVersion;
    }

    /** Time travel by version: deltaVersion.&lt;view&gt;=&lt;version&gt;. */
    public void setDeltaVersion(Map<String, Object> deltaVersion) {
        this.deltaVersion = deltaVersion;
    }

    public Map<String, Object> getDeltaTimestamp() {
        return deltaTimestamp;
    }

    /** Time travel by time: deltaTimestamp.&lt;view&gt;=&lt;ISO-8601 instant&gt;. */
    public void setDeltaTimestamp(Map<String, Object> deltaTimestamp) {
        this.deltaTimestamp = deltaTimestamp;
    }

    public IncrementalMode getIncremental() {
        return incremental;
    }

    /** none, snapshot or changes (case-insensitive). */
    public void setIncremental(IncrementalMode incremental) {
        this.incremental = incremental;
    }

    public DeltaFunnelStateStore getStateStore() {
        return stateStore;
    }

    public void setStateStore(DeltaFunnelStateStore stateStore) {
        this.stateStore = stateStore;
    }

    public DataSource getStateDataSource() {
        return stateDataSource;
    }

    public void setStateDataSource(DataSource stateDataSource) {
        this.stateDataSource = stateDataSource;
    }

    public String getStateTable() {
        return stateTable;
    }

    public void setStateTable(String stateTable) {
        this.stateTable = stateTable;
    }

    public String getStateKey() {
        return stateKey;
    }

    public void setStateKey(String stateKey) {
        this.stateKey = stateKey;
    }

    public Long getStartVersion() {
        return startVersion;
    }

    public void setStartVersion(Long startVersion) {
        this.startVersion = startVersion;
    }

    public boolean isResetState() {
        return resetState;
    }

    public void setResetState(boolean resetState) {
        this.resetState = resetState;
    }

    public ChangeFeedFallback getChangeFeedFallback() {
        return changeFeedFallback;
    }

    /** fail or snapshot (case-insensitive). */
    public void setChangeFeedFallback(ChangeFeedFallback changeFeedFallback) {
        this.changeFeedFallback = changeFeedFallback;
    }

    public boolean isAllowExtensionAutoInstall() {
        return allowExtensionAutoInstall;
    }

    /** Whether DuckDB may download and auto-load extensions. Off by default. */
    public void setAllowExtensionAutoInstall(boolean allowExtensionAutoInstall) {
        this.allowExtensionAutoInstall = allowExtensionAutoInstall;
    }

    public int getShardCount() {
        return shardCount;
    }

    /**
     * Sharded loads: the number of shards N the load is split into (1 = not sharded). Each shard is one consumer (a
     * route, or a pod of a Kubernetes Indexed Job) that reads the files of shardView whose hash of path, mod N, is
     * its shardIndex; the shards agree on one plan in the load tables beside the state table (docs/sharding.md).
     */
    public void setShardCount(int shardCount) {
        this.shardCount = shardCount;
    }

    public Integer getShardIndex() {
        return shardIndex;
    }

    /**
     * Sharded loads: the 0-based index of this shard, 0 .. shardCount-1 (required when shardCount is 2 or more),
     * e.g. the JOB_COMPLETION_INDEX environment variable of a Kubernetes Indexed Job's pod.
     */
    public void setShardIndex(Integer shardIndex) {
        this.shardIndex = shardIndex;
    }

    public String getShardView() {
        return shardView;
    }

    /**
     * Sharded loads: the delta.VIEW whose data files are split over the shards; the other views are read whole by
     * every shard. Default: the only delta.VIEW (required when there are several).
     */
    public void setShardView(String shardView) {
        this.shardView = shardView;
    }

    public String getLoadId() {
        return loadId;
    }

    /**
     * Sharded loads: the load's id, the same for all its shards (e.g. the Kubernetes Job's name), at most 64
     * characters. Without it a shard joins the open load of its stateKey, or starts a new one.
     */
    public void setLoadId(String loadId) {
        this.loadId = loadId;
    }

    public LoadPlanStore getLoadPlanStore() {
        return loadPlanStore;
    }

    /**
     * Sharded loads: where the shards of a load agree on its plan, a LoadPlanStore bean. Default: an MssqlLoadPlans
     * over stateDataSource and stateTable (the tables STATETABLE_loads and STATETABLE_shards).
     */
    public void setLoadPlanStore(LoadPlanStore loadPlanStore) {
        this.loadPlanStore = loadPlanStore;
    }
}
