package io.deltafunnel.mssql.session;

import java.sql.SQLException;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.SqlServerErrors;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.TransactionMode;
import io.deltafunnel.mssql.WriteMode;
import io.deltafunnel.mssql.bind.BatchCheck;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.ColumnMapper;
import io.deltafunnel.mssql.bind.ColumnMappingException;
import io.deltafunnel.mssql.bind.Rejection;
import io.deltafunnel.mssql.bind.TargetCatalog;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.mssql.bind.TargetTable;
import io.deltafunnel.mssql.bind.ValueOutOfRangeException;
import io.deltafunnel.mssql.channel.BulkBatch;
import io.deltafunnel.mssql.channel.SqlChannel;
import io.deltafunnel.mssql.channel.SqlChannelProvider;
import io.deltafunnel.mssql.reject.RejectTable;
import io.deltafunnel.mssql.reject.RowBisection;
import io.deltafunnel.mssql.reject.RunRejects;
import io.deltafunnel.mssql.state.StateTable;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the first batch of a run sets up before any row is written: the channel (opened from the provider, or from
 * its fallback when the first encoder cannot write the columns), the target (resolved, or created with
 * {@code createTable=true}, a concurrent creation tolerated), the column binding (identity and merge-key checks), the
 * staging table when the run writes through one, and the incremental state table. All of it is DDL or catalog
 * reading, run with auto-commit on, before the run's transaction starts.
 *
 * <p>The fields stay readable after a failed {@link #prepare} so that the run can clean up what was set up (close the
 * channel, drop a staging table this run created). Owned by one run; not thread-safe.
 */
public final class RunSetup {

    private static final Logger LOG = LoggerFactory.getLogger(RunSetup.class);

    /** A step run on every channel right after it is opened (e.g. a sharded run's claim), before anything else. */
    @FunctionalInterface
    public interface OnOpen {
        void run(SqlChannel channel) throws SQLException;

        /**
         * Run on a channel the set-up gives up for the fallback's, before it is closed (e.g. releasing the claim:
         * SQL Server ends a closed session asynchronously, so its locks may outlive the close for a while).
         */
        default void beforeFallback(SqlChannel channel) throws SQLException {
        }
    }

    private final String runId;
    private final BulkLoadSettings settings;
    private final Function<TableName, TableName> stagingFor;
    private final boolean sharedStaging;
    private final OnOpen onOpen;
    private final Supplier<BulkLoadException.Context> context;
    private SqlChannelProvider provider;

    private SqlChannel channel;
    private TableName target;
    private StagingTable staging;
    private boolean stagingCreated;
    private Schema schema;
    private List<BoundColumn> columns;
    private List<BoundColumn> dataColumns;
    private boolean changeRows;
    private String identityColumn;
    /** A deleteMode=soft merge's soft-delete column, or null. */
    private MergeStatement.SoftColumn softColumn;

    /**
     * @param stagingFor    the staging table's name for the resolved target, or null when the run writes straight
     *                      into the target
     * @param sharedStaging the staging table is shared (a sharded load's): an existing one is used as it is, and it
     *                      is never dropped here
     * @param onOpen        run on each channel right after it is opened, or null
     * @param context       the run's failure context at the moment of a failure
     */
    public RunSetup(String runId, BulkLoadSettings settings, SqlChannelProvider provider,
            Function<TableName, TableName> stagingFor, boolean sharedStaging, OnOpen onOpen,
            Supplier<BulkLoadException.Context> context) {
        this.runId = runId;
        this.settings = settings;
        this.provider = provider;
        this.stagingFor = stagingFor;
        this.sharedStaging = sharedStaging;
        this.onOpen = onOpen;
        this.context = context;
    }

    /**
     * Opens the channel and sets up everything for a run whose batches have {@code arrowSchema}. When the channel
     * cannot write the bound columns ({@link SqlChannel#cannotWrite}), it is given up (its staging table dropped)
     * and the set-up runs once more on the provider's fallback: one explicit step, never a chain of fallbacks. A
     * fallback that cannot write the columns either fails the run like a provider without fallback.
     *
     * @param stateTable the incremental run's state table (created when missing), or null
     */
    public void prepare(Schema arrowSchema, StateTable stateTable, boolean incremental) throws SQLException {
        String cannot = setUp(arrowSchema, stateTable, incremental);
        if (cannot == null) {
            return;
        }
        SqlChannelProvider fallback = provider.fallback();
        if (fallback == null) {
            throw cannotWrite(cannot);
        }
        LOG.warn("Run {} on {}: bulkEncoder={} cannot write this run ({}); using the mssql-jdbc path", runId,
                settings.table(), channel.encoder(), cannot);
        if (stagingCreated) {
            dropStaging(channel);
        }
        if (onOpen != null) {
            onOpen.beforeFallback(channel);
        }
        closeChannel();
        provider = fallback;
        columns = null;
        cannot = setUp(arrowSchema, stateTable, incremental);
        if (cannot != null) {
            throw cannotWrite(cannot);
        }
    }

    private ColumnMappingException cannotWrite(String reason) {
        return new ColumnMappingException("bulkEncoder=" + channel.encoder() + " cannot write this run: " + reason
                + " (set bulkEncoderFallback=true to use the mssql-jdbc path instead)", context.get());
    }

    /**
     * One set-up on a channel opened from {@link #provider}: null when the channel can write the bound columns, else
     * why not (the channel and what was set up stay, for the caller to give up or clean up).
     */
    private String setUp(Schema arrowSchema, StateTable stateTable, boolean incremental) throws SQLException {
        try {
            channel = provider.open();
        } catch (SQLException e) {
            // Same SQLState and error number, so that SqlServerErrors classifies it as before.
            throw new SQLException("cannot connect to SQL Server: " + e.getMessage(), e.getSQLState(),
                    e.getErrorCode(), e);
        }
        channel.setQueryTimeout(settings.timeoutSeconds());
        if (onOpen != null) {
            onOpen.run(channel);
        }
        boolean temporalAsText = channel.temporalAsText();
        BulkLoadException.Context ctx = context.get();
        changeRows = arrowSchema.getFields().stream()
                .anyMatch(f -> f.getName().equalsIgnoreCase(MergeStatement.CHANGE_COLUMNS.get(0)));
        boolean history = settings.writeMode() == WriteMode.HISTORY;
        if (changeRows && settings.writeMode() != WriteMode.MERGE && !history) {
            throw new ColumnMappingException("the batch carries change rows (column _change_type); they can only be"
                    + " applied with writeMode=merge or writeMode=history and keyColumns, not "
                    + settings.writeMode(), ctx);
        }
        if (changeRows && history && arrowSchema.getFields().stream()
                .noneMatch(f -> f.getName().equalsIgnoreCase(MergeStatement.CHANGE_COLUMNS.get(1)))) {
            throw new ColumnMappingException("writeMode=history applies change rows in _commit_version order, but the"
                    + " batch has _change_type without _commit_version", ctx);
        }
        if (incremental && settings.transactionMode() == TransactionMode.BATCH
                && (settings.writeMode() == WriteMode.APPEND || settings.writeMode() == WriteMode.TRUNCATE)) {
            throw new ColumnMappingException("an incremental run records its Delta versions in the same transaction"
                    + " as its data; that needs transaction=run, or writeMode=replace/merge (not transaction=batch with "
                    + settings.writeMode() + ")", ctx);
        }
        if (stateTable != null) {
            stateTable.ensure(channel); // DDL, outside the run's transaction
        }
        Schema dataSchema = changeRows ? new Schema(arrowSchema.getFields().stream()
                .filter(f -> !MergeStatement.isChangeColumn(f.getName())).toList()) : arrowSchema;
        boolean soft = settings.writeMode() == WriteMode.MERGE && settings.merge().soft();
        if (soft) {
            SoftDeleteColumn.checkNotASourceColumn(dataSchema, settings, ctx);
        }
        target = resolveOrCreate(dataSchema, ctx);
        TargetTable table = TargetCatalog.describe(channel, target);
        // schemaEvolution: refuses listing every column, or adds/widens them; DDL before the run's transaction and
        // before the staging table is copied from the target.
        table = SchemaEvolver.evolve(channel, table, dataSchema, settings, temporalAsText, runId, ctx);
        if (settings.writeMode() == WriteMode.MERGE) {
            HistoryStatement.refuseTemporal("merge", target, TargetCatalog.temporalType(channel, target), ctx);
        }
        if (history) {
            // Before the binding: a source column that maps onto a history column is named as such.
            HistoryStatement.check(table, settings.history(), mappedTargetNames(dataSchema),
                    TargetCatalog.temporalType(channel, target), ctx);
            table = HistoryStatement.dataTable(table, settings.history());
        }
        if (soft) {
            // checked, or added under schemaEvolution: DDL, before the staging table copies the target's columns
            boolean hasTimestamp = arrowSchema.getFields().stream()
                    .anyMatch(f -> f.getName().equalsIgnoreCase(MergeStatement.CHANGE_COLUMNS.get(2)));
            softColumn = SoftDeleteColumn.ensure(channel, table, settings, changeRows, hasTimestamp, runId, ctx);
        }
        TargetTable bindTable = table;
        if (settings.rejects().enabled()) {
            // maxRejectedRows: the reject table is created (DDL, outside the run's transaction) or its shape checked
            new RejectTable(TableName.parse(settings.rejects().rejectTable())).ensure(channel, ctx);
        }
        // Binding against the target first: a mapping error is reported before any staging table exists.
        List<BoundColumn> targetBound = ColumnMapper.bind(dataSchema, table, settings.columnMapping(), temporalAsText,
                ctx);
        ColumnMapper.checkIdentity(targetBound, settings.keepIdentity(), target, ctx);
        identityColumn = targetBound.stream().map(BoundColumn::target).filter(TargetColumn::identity)
                .map(TargetColumn::name).findFirst().orElse(null);
        schema = arrowSchema;
        if (stagingFor != null) {
            staging = new StagingTable(stagingFor.apply(target));
            // DDL outside the run's transaction. Marked first: a failed creation is cleaned up as well.
            stagingCreated = !sharedStaging;
            boolean created = staging.create(channel, target, history ? bindTable.columns().stream()
                    .map(TargetColumn::name).toList() : null, arrowSchema, changeRows, sharedStaging);
            if (sharedStaging && created) {
                LOG.info("Run {}: created the load's staging table {}", runId, staging);
            }
        }
        if (changeRows) {
            // The change columns exist only in the staging table: bind the whole batch against it.
            columns = ColumnMapper.bind(arrowSchema, TargetCatalog.describe(channel, staging.name()),
                    settings.columnMapping(), temporalAsText, ctx);
            dataColumns = columns.stream().filter(c -> !MergeStatement.isChangeColumn(c.sourceName())).toList();
        } else {
            columns = targetBound;
            dataColumns = columns;
        }
        if (settings.writeMode() == WriteMode.MERGE || history) {
            checkKeys();
        }
        return channel.cannotWrite(destination(), arrowSchema, columns);
    }

    private TableName resolveOrCreate(Schema dataSchema, BulkLoadException.Context ctx) throws SQLException {
        TableName found = TargetCatalog.find(channel, settings.table());
        if (found != null) {
            return found;
        }
        if (!settings.createTable()) {
            throw new ColumnMappingException("target table " + settings.table()
                    + " does not exist (set createTable=true to create it from the Arrow schema)", ctx);
        }
        String ddl = ColumnMapper.createTableSql(settings.table(), dataSchema, settings.columnMapping(), ctx,
                settings.typeSettings());
        if (settings.writeMode() == WriteMode.MERGE && settings.merge().soft()) {
            ddl = SoftDeleteColumn.withColumn(ddl, settings.merge());
        }
        if (settings.writeMode() == WriteMode.HISTORY) {
            // createTable's columns, then the three history columns
            ddl = ddl.substring(0, ddl.length() - 1) + HistoryStatement.createColumns(settings.history()) + ")";
        }
        LOG.info("Run {}: creating {}", runId, settings.table());
        try {
            channel.execute(ddl);
        } catch (SQLException e) {
            // Created by a concurrent run (e.g. another shard) in the meantime: use it.
            if (e.getErrorCode() != StagingTable.ALREADY_EXISTS || TargetCatalog.find(channel, settings.table()) == null) {
                throw e;
            }
        }
        found = TargetCatalog.find(channel, settings.table());
        if (found == null) {
            throw new ColumnMappingException("target table " + settings.table() + " was created but the catalog"
                    + " does not show it", ctx);
        }
        return found;
    }

    /** The target column names the source columns map to (explicit mapping, else the same name). */
    private List<String> mappedTargetNames(Schema dataSchema) {
        return dataSchema.getFields().stream().map(f -> settings.columnMapping().entrySet().stream()
                .filter(e -> e.getKey().equalsIgnoreCase(f.getName())).map(java.util.Map.Entry::getValue)
                .findFirst().orElse(f.getName())).toList();
    }

    private void checkKeys() {
        if (settings.writeMode() == WriteMode.MERGE && identityColumn != null && settings.keyColumns().stream().noneMatch(k -> k.equalsIgnoreCase(identityColumn))) {
            throw new ColumnMappingException("merge maps identity column '" + identityColumn + "' of " + target
                    + " but it is not a key column: SQL Server cannot update an identity column (error 8102); make it"
                    + " a key column or leave it out", context.get().withColumn(identityColumn));
        }
        for (String key : settings.keyColumns()) {
            boolean mapped = dataColumns.stream().anyMatch(c -> c.target().name().equalsIgnoreCase(key));
            if (!mapped) {
                throw new ColumnMappingException("merge key column '" + key + "' is not a mapped target column of "
                        + target, context.get().withColumn(key));
            }
        }
    }

    /**
     * Runs {@code step} with {@code SET IDENTITY_INSERT target ON} when the run writes the target's identity column
     * (keepIdentity=true): a copy from the staging table then keeps the source's identity values, as the bulk copy
     * does. IDENTITY_INSERT is session state, not transactional: it is switched off again right after the step (and
     * a failed run closes its connection).
     */
    public void withIdentityInsert(SqlStep step) throws SQLException {
        if (identityColumn == null) {
            step.run();
            return;
        }
        channel.execute("SET IDENTITY_INSERT " + target.quoted() + " ON");
        step.run();
        channel.execute("SET IDENTITY_INSERT " + target.quoted() + " OFF");
    }

    /** A statement that may fail with a {@link SQLException}. */
    @FunctionalInterface
    public interface SqlStep {
        void run() throws SQLException;
    }

    /** The MERGE of the staging table into the target (the default strategy, hard deletes). */
    public String mergeSql() {
        return MergeStatement.sql(target, staging.name(), dataColumns, columns, settings.keyColumns(), changeRows);
    }

    /** The history statements of the staging table into the target ({@link HistoryStatement}). */
    public List<HistoryStatement.Step> historySteps(String runTime) {
        return HistoryStatement.steps(target, staging.name(), dataColumns, columns, settings.keyColumns(),
                settings.history(), changeRows, runTime);
    }

    /**
     * Runs the statements that apply the staging table to the target with the run's {@code mergeStrategy} and
     * {@code deleteMode} ({@link MergeStatement#statements}), in order, in the caller's transaction, with
     * {@link #withIdentityInsert}.
     *
     * @return the rows they wrote (the counted statements' row counts)
     */
    public long merge() throws SQLException {
        long[] rows = {0};
        List<MergeStatement.Step> steps = MergeStatement.statements(target, staging.name(), dataColumns, columns,
                settings.keyColumns(), changeRows, settings.merge(), softColumn);
        if (steps.isEmpty()) {
            LOG.info("Run {}: mergeStrategy={} has nothing to write into {} (no column besides the keys)", runId,
                    settings.merge().strategy().option(), target);
            return 0;
        }
        withIdentityInsert(() -> {
            for (MergeStatement.Step step : steps) {
                long n = channel.update(step.sql());
                if (step.counted()) {
                    rows[0] += n;
                }
            }
        });
        return rows[0];
    }

    /**
     * Writes one batch of the run into {@link #destination()} on the run's channel, in the caller's transaction: the
     * batch must have the run's Arrow schema, every value is validated against its target column before anything is
     * sent (a {@link ValueOutOfRangeException} names column and row), then the rows are bulk-written.
     *
     * @param rowsBefore the run's rows accepted before this batch (the row number in the run of a rejected value)
     * @param prefix     put before a rejection message (e.g. the shard), or empty
     */
    public void writeBatch(VectorSchemaRoot root, long rowsBefore, String prefix, BulkLoadException.Context ctx)
            throws SQLException {
        writeBatch(root, rowsBefore, -1, prefix, ctx, null);
    }

    /**
     * As {@link #writeBatch(VectorSchemaRoot, long, String, BulkLoadException.Context)}; with {@code rejects}
     * ({@code maxRejectedRows > 0}) the rows the client-side check refuses are left out of what is sent (a row
     * selection over the same vectors) and the rows SQL Server refuses for their data are found by
     * {@link RowBisection}, both set aside in {@code rejects}.
     *
     * @param batchIndex the batch's index in the run (named by a rejected row)
     * @param rejects    the run's rejected rows, or null: the first bad value fails the run
     * @return the rows written (the batch's rows less the rejected ones)
     */
    public int writeBatch(VectorSchemaRoot root, long rowsBefore, long batchIndex, String prefix,
            BulkLoadException.Context ctx, RunRejects rejects) throws SQLException {
        if (!schema.equals(root.getSchema())) {
            throw new ColumnMappingException("the Arrow schema changed within the run (was " + schema + ", now "
                    + root.getSchema() + ")", ctx);
        }
        BulkBatch batch = new BulkBatch(root, columns, rowsBefore);
        if (rejects == null) {
            batch.validate(prefix, ctx);
            if (root.getRowCount() > 0) {
                channel.bulkWrite(destination(), batch, settings);
            }
            return root.getRowCount();
        }
        rejects.target(target);
        List<Rejection> found = BatchCheck.all(root, columns);
        BulkBatch send = found.isEmpty() ? batch.checked()
                : batch.checked().select(rejects.clientSide(root, found, batchIndex, ctx));
        if (send.rowCount() == 0) {
            return 0;
        }
        return RowBisection.write(channel, destination(), send, settings,
                (row, cause) -> rejects.serverSide(root, row, batchIndex, cause, ctx));
    }

    /** Where the batches are bulk-written: the staging table, else the target. */
    public TableName destination() {
        return staging != null ? staging.name() : target;
    }

    /** Drops the staging table if this run created it (never a shared one); auto-commit on. */
    public void dropStaging(SqlChannel c) throws SQLException {
        if (!stagingCreated) {
            return;
        }
        staging.drop(c);
        stagingCreated = false;
    }

    /** Whether this run created a staging table that still exists. */
    public boolean stagingCreated() {
        return stagingCreated;
    }

    /** Closes the channel (rolling back what is not committed); failures are logged at debug level. */
    public void closeChannel() {
        if (channel != null) {
            try {
                channel.close();
            } catch (SQLException | RuntimeException e) {
                LOG.debug("Run {}: closing the connection failed: {}", runId, e.toString());
            }
            channel = null;
        }
    }

    public SqlChannel channel() {
        return channel;
    }

    /** The provider the channel came from (the fallback after a switch). */
    public SqlChannelProvider provider() {
        return provider;
    }

    public TableName target() {
        return target;
    }

    /** The staging table, or null when the run writes straight into the target. */
    public StagingTable staging() {
        return staging;
    }

    public Schema schema() {
        return schema;
    }

    /** Every bound column of the batches (the change columns included), or null before {@link #prepare}. */
    public List<BoundColumn> columns() {
        return columns;
    }

    /** The bound columns that go into the target (all but the change columns). */
    public List<BoundColumn> dataColumns() {
        return dataColumns;
    }

    public boolean changeRows() {
        return changeRows;
    }

    /** The target's identity column when a source column maps to it (keepIdentity=true), else null. */
    public String identityColumn() {
        return identityColumn;
    }
}
