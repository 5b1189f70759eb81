package io.deltafunnel.camel;

import java.util.LinkedHashMap;
import java.util.Map;

import javax.sql.DataSource;

import io.deltafunnel.handoff.DeltaFunnelStateStore;
import io.deltafunnel.handoff.LoadPlanStore;
import io.deltafunnel.incremental.ChangeFeedFallback;
import io.deltafunnel.incremental.IncrementalMode;
import io.deltafunnel.mssql.state.StateTable;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.UriParam;
import org.apache.camel.spi.UriParams;
import org.apache.camel.spi.UriPath;

/**
 * The options of a {@code deltafunnel:} endpoint ({@link DeltaFunnelEndpoint} holds one, beside Camel's scheduler
 * options), as camel-kafka's {@code KafkaConfiguration} holds Kafka's. Each option is described once, in the
 * {@code description} of its field's {@code @UriPath}/{@code @UriParam}; camel-component-maven-plugin renders those
 * into the catalog JSON, the component page and the generated configurer. The accessors below are plain and carry
 * no Javadoc of their own ({@code OptionDescriptionsTest} fails on a second description).
 *
 * <p>Adding an option: a field with its {@code @UriParam} and a getter/setter pair here, and its use in the
 * endpoint; the catalog, the configurer and the component page follow from the build.
 */
@UriParams
public class DeltaFunnelConfiguration {

    @UriPath(description = "A name for this source; it appears in logs, errors and metrics.")
    @Metadata(required = true)
    private String name;

    @UriParam(label = "consumer", description = "The DuckDB SQL query to run on each poll, or where to read it from, as"
            + " camel-sql does: resource:classpath:sql/load.sql, resource:file:/etc/load.sql, or file:/etc/load.sql"
            + " (read once, when the endpoint starts).")
    @Metadata(required = true, supportFileReference = true)
    private String query;

    @UriParam(label = "consumer", description = "The DuckDB database file. By default the runs use an in-memory database (one"
                                                + " instance shared by the component's endpoints, see sharedDuckDb).")
    private String database;

    @UriParam(label = "consumer", description = "SQL statements run on each new DuckDB instance before its first"
                                                + " query, separated by semicolons, e.g. SET memory_limit='2GB';SET"
                                                + " threads=2: once for the shared in-memory instance (sharedDuckDb),"
                                                + " else on each run's new connection.")
    private String initSql;

    @UriParam(label = "consumer", defaultValue = "" + DeltaFunnelEndpoint.DEFAULT_BATCH_SIZE,
              description = "Rows per Arrow batch (one batch per exchange). Must be greater than zero.")
    private int batchSize = DeltaFunnelEndpoint.DEFAULT_BATCH_SIZE;

    @UriParam(label = "consumer", description = "The maximum number of batches (exchanges) to emit per poll; 0 or"
                                                + " negative means no limit. A run that is cut short by this limit"
                                                + " continues on the next poll from the batch where it stopped.")
    private int maxMessagesPerPoll;

    @UriParam(label = "consumer,advanced", defaultValue = "false",
              description = "Whether DuckDB may download and auto-load extensions. Off by default, so that a missing"
                            + " extension fails fast with a clear message and no network wait.")
    private boolean allowExtensionAutoInstall;

    @UriParam(label = "consumer,advanced", defaultValue = "true",
              description = "Whether the runs of an in-memory DuckDB (no database) take their connections from one"
                            + " long-lived DuckDB instance that the component's endpoints with the same initSql and"
                            + " allowExtensionAutoInstall share, instead of starting a new instance per run (and per"
                            + " load plan and shard-safety check). A run's Delta views are TEMP, private to its own"
                            + " connection. The shared instance runs initSql once, when it starts: GLOBAL settings,"
                            + " ATTACH and secrets apply to every run, a SET SESSION option only to the first"
                            + " connection. Starting an instance costs about 0.1 s of CPU, N shard routes in one JVM"
                            + " started 2N+1 per load (docs/sharding.md). While several runs stream at once from the"
                            + " component's shared instances, each runs fewer DuckDB threads, max(1, cores - streams +"
                            + " 1) and never more than it started with, unless initSql sets threads. false: a new"
                            + " instance per run, initSql on each.")
    private boolean sharedDuckDb = true;

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

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getQuery() {
        return query;
    }

    public void setQuery(String query) {
        this.query = query;
    }

    public String getDatabase() {
        return database;
    }

    public void setDatabase(String database) {
        this.database = database;
    }

    public String getInitSql() {
        return initSql;
    }

    public void setInitSql(String initSql) {
        this.initSql = initSql;
    }

    public int getBatchSize() {
        return batchSize;
    }

    public void setBatchSize(int batchSize) {
        this.batchSize = batchSize;
    }

    public int getMaxMessagesPerPoll() {
        return maxMessagesPerPoll;
    }

    public void setMaxMessagesPerPoll(int maxMessagesPerPoll) {
        this.maxMessagesPerPoll = maxMessagesPerPoll;
    }

    public boolean isSharedDuckDb() {
        return sharedDuckDb;
    }

    public void setSharedDuckDb(boolean sharedDuckDb) {
        this.sharedDuckDb = sharedDuckDb;
    }

    public boolean isAllowExtensionAutoInstall() {
        return allowExtensionAutoInstall;
    }

    public void setAllowExtensionAutoInstall(boolean allowExtensionAutoInstall) {
        this.allowExtensionAutoInstall = allowExtensionAutoInstall;
    }

    public Map<String, Object> getDelta() {
        return delta;
    }

    public void setDelta(Map<String, Object> delta) {
        this.delta = delta == null ? null : new LinkedHashMap<>(delta); // keeps the URI order of the views
    }

    public Map<String, Object> getDeltaVersion() {
        return deltaVersion;
    }

    public void setDeltaVersion(Map<String, Object> deltaVersion) {
        this.deltaVersion = deltaVersion;
    }

    public Map<String, Object> getDeltaTimestamp() {
        return deltaTimestamp;
    }

    public void setDeltaTimestamp(Map<String, Object> deltaTimestamp) {
        this.deltaTimestamp = deltaTimestamp;
    }

    public IncrementalMode getIncremental() {
        return incremental;
    }

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

    public void setChangeFeedFallback(ChangeFeedFallback changeFeedFallback) {
        this.changeFeedFallback = changeFeedFallback;
    }

    public int getShardCount() {
        return shardCount;
    }

    public void setShardCount(int shardCount) {
        this.shardCount = shardCount;
    }

    public Integer getShardIndex() {
        return shardIndex;
    }

    public void setShardIndex(Integer shardIndex) {
        this.shardIndex = shardIndex;
    }

    public String getShardView() {
        return shardView;
    }

    public void setShardView(String shardView) {
        this.shardView = shardView;
    }

    public String getLoadId() {
        return loadId;
    }

    public void setLoadId(String loadId) {
        this.loadId = loadId;
    }

    public LoadPlanStore getLoadPlanStore() {
        return loadPlanStore;
    }

    public void setLoadPlanStore(LoadPlanStore loadPlanStore) {
        this.loadPlanStore = loadPlanStore;
    }
}
