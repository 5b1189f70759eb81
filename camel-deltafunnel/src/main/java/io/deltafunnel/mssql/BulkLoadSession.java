package io.deltafunnel.mssql;

import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.handoff.IncrementalLoad;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run's bulk load into SQL Server: one {@link SqlChannel} (mssql-jdbc's bulk copy or the direct TDS writer),
 * target metadata read once, batches written from {@link ArrowBulkData}, and the run's finalisation (commit, replace,
 * merge) or clean-up (rollback, staging table dropped), all on that channel.
 *
 * <p>Lifecycle: {@link #start} (nothing opened yet), {@link #write} per batch in order (the first one opens the
 * channel, resolves or creates the target, binds the columns, creates the staging table, truncates), the batch
 * written with {@code last=true} finalises the run. Any failure rolls back what is not committed, drops the staging
 * table, closes the connection and throws a {@link BulkLoadException} saying what the accepted work became.
 * {@link #abort} discards an open run. DDL (create table, staging create/drop) always runs outside the run's
 * transaction.
 *
 * <p>Retries are not decided here. After a failed batch with {@code transaction=batch} and append/truncate,
 * {@link #resumeAfterFailure()} gives a session that continues the run on a new connection from the last committed
 * batch (without truncating again); everything else is retried by replaying the run in a new session.
 *
 * <p>Not thread-safe: one caller at a time.
 */
public final class BulkLoadSession implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BulkLoadSession.class);

    /** Where the session stands. */
    public enum State { OPEN, COMMITTED, FAILED, ABORTED }

    private final String runId;
    private final BulkLoadSettings settings;
    private SqlChannelProvider provider;

    private SqlChannel channel;
    private TableName target;
    private TableName staging;
    private boolean stagingCreated;
    private Schema schema;
    private List<BoundColumn> columns;
    private HandoffStats stats = HandoffStats.ZERO;
    /** The stats before the batch being written, so that a resumed session does not count a failed batch. */
    private HandoffStats statsBeforeBatch = HandoffStats.ZERO;
    /** With transaction=batch and truncate: the truncate is committed (a resumed session must not repeat it). */
    private boolean truncateCommitted;
    /** A commit was under way when the failure happened: its outcome is unknown. */
    private boolean committing;
    private boolean commitInDoubt;
    private State state = State.OPEN;
    /** The incremental run's versions to record in the state table at the final commit, or null. */
    private IncrementalLoad incremental;
    private StateTable stateTable;
    /** The batch carries change rows ({@code _change_type}): a change merge. */
    private boolean changeRows;
    /** The bound columns that go into the target (all but the change columns). */
    private List<BoundColumn> dataColumns;
    /** The target's identity column when a source column maps to it (keepIdentity=true), else null. */
    private String identityColumn;

    /** Column names that mark change rows; excluded from the target's columns. */
    public static final List<String> CHANGE_COLUMNS = List.of("_change_type", "_commit_version", "_commit_timestamp");

    private BulkLoadSession(String runId, BulkLoadSettings settings, SqlChannelProvider provider) {
        this.runId = runId;
        this.settings = settings;
        this.provider = provider;
    }

    /** A new session for run {@code runId}; nothing is opened until the first batch. */
    public static BulkLoadSession start(String runId, BulkLoadSettings settings, SqlChannelProvider provider) {
        return new BulkLoadSession(runId, settings, provider);
    }

    /** A new session writing through mssql-jdbc connections from {@code connections} ({@code bulkEncoder=driver}). */
    public static BulkLoadSession start(String runId, BulkLoadSettings settings, ConnectionProvider connections) {
        return new BulkLoadSession(runId, settings, SqlChannelProvider.driver(connections));
    }

    /** The encoder of the open channel ({@code driver} or {@code direct}), or null before the first batch. */
    public String encoder() {
        return channel == null ? null : channel.encoder();
    }

    public String runId() {
        return runId;
    }

    /**
     * Makes this run record {@code load} in its state table inside the transaction that commits the data (the final
     * swap/merge transaction, or the run transaction of an append/truncate run). Call before the first batch.
     */
    public BulkLoadSession recording(IncrementalLoad load) {
        this.incremental = load;
        this.stateTable = load == null ? null : StateTable.parse(load.stateTable());
        return this;
    }

    public State state() {
        return state;
    }

    /** Input counters: batches/rows handed to {@link #write}; output counters: what SQL Server accepted. */
    public HandoffStats stats() {
        return stats;
    }

    /**
     * A new session continuing this FAILED {@code transaction=batch} append/truncate run on a new connection: same
     * run id, the statistics of the batches committed so far (the failed batch not counted), no second truncate.
     * Write the failed batch again into it.
     *
     * @throws IllegalStateException when this session is not such a failed run, or its last commit is in doubt
     */
    public BulkLoadSession resumeAfterFailure() {
        if (state != State.FAILED || !resumable()) {
            throw new IllegalStateException("run " + runId + " on " + settings.table() + " (" + state + ", "
                    + settings.transactionMode() + ", " + settings.writeMode() + ") cannot be resumed");
        }
        BulkLoadSession next = new BulkLoadSession(runId, settings, provider);
        next.stats = statsBeforeBatch;
        next.statsBeforeBatch = statsBeforeBatch;
        next.truncateCommitted = truncateCommitted;
        return next.recording(incremental);
    }

    /** True when a failed batch of this run can be written again in a {@linkplain #resumeAfterFailure() resumed} session. */
    public boolean resumable() {
        return settings.transactionMode() == TransactionMode.BATCH && !commitInDoubt
                && (settings.writeMode() == WriteMode.APPEND || settings.writeMode() == WriteMode.TRUNCATE);
    }

    /** The staging table of a replace/merge run once created, else null. */
    public TableName stagingTable() {
        return staging;
    }

    /**
     * Writes one batch; with {@code last} also finalises the run (commit / replace / merge).
     *
     * @return the run's statistics after this batch
     * @throws BulkLoadException on any failure; the session is then FAILED and cleaned up
     */
    public HandoffStats write(VectorSchemaRoot root, boolean last) {
        if (state != State.OPEN) {
            throw new IllegalStateException("run " + runId + " on " + settings.table() + " is " + state);
        }
        int rows = root.getRowCount();
        statsBeforeBatch = stats;
        stats = stats.withInputBatch(rows);
        try {
            if (columns == null) {
                prepare(root.getSchema());
            } else if (!schema.equals(root.getSchema())) {
                throw new ColumnMappingException("the Arrow schema changed within the run (was " + schema
                        + ", now " + root.getSchema() + ")", context());
            }
            ArrowBulkData data = new ArrowBulkData(root, columns);
            try {
                data.validate(stats.outputRows());
            } catch (ArrowBulkData.Rejection r) {
                throw new ValueOutOfRangeException(r.getMessage() + " (target column " + r.column().target().name()
                        + " " + r.column().target().typeText() + ")", context().withColumn(r.column().sourceName())
                                .withRow(r.rowInBatch(), r.rowInRun()));
            }
            if (rows > 0) {
                bulkCopy(data);
            }
            HandoffStats accepted = stats.withOutputBatch(rows);
            if (settings.transactionMode() == TransactionMode.BATCH) {
                // Counted only once committed: the output counters never claim more than the target holds.
                commit();
            }
            stats = accepted;
            if (last) {
                finish();
            }
            return stats;
        } catch (BulkLoadException e) {
            throw fail(e);
        } catch (SQLException e) {
            throw fail(new BulkLoadException("writing batch " + (stats.inputBatches() - 1) + " failed: "
                    + e.getMessage(), context().withErrorNumber(SqlServerErrors.errorNumber(e)), e));
        } catch (RuntimeException e) {
            throw fail(new BulkLoadException("writing batch " + (stats.inputBatches() - 1) + " failed: " + e,
                    context(), e));
        }
    }

    /**
     * Discards an open run: rolls back what is not committed and drops the staging table. No effect on a run that
     * is already committed, failed or aborted.
     *
     * @return what became of the accepted work, or null when the session was not open
     */
    public WorkOutcome abort(String reason) {
        if (state != State.OPEN) {
            return null;
        }
        WorkOutcome outcome = failureOutcome();
        LOG.warn("Run {} on {} discarded ({}): {}; accepted work {}", runId, settings.table(), reason, stats,
                outcome);
        cleanUp(null);
        state = State.ABORTED;
        return outcome;
    }

    @Override
    public void close() {
        abort("session closed");
    }

    // ---- steps ----

    private void prepare(Schema arrowSchema) throws SQLException {
        try {
            channel = provider.open();
        } catch (SQLException e) {
            // Same SQLState and error number, so that SqlServerErrors classifies it as before.
            throw new SQLException("cannot connect to SQL Server: " + e.getMessage(), e.getSQLState(),
                    e.getErrorCode(), e);
        }
        channel.setQueryTimeout(settings.timeoutSeconds());
        boolean temporalAsText = channel.temporalAsText();
        BulkLoadException.Context ctx = context();
        changeRows = arrowSchema.getFields().stream().anyMatch(f -> f.getName().equalsIgnoreCase(CHANGE_COLUMNS.get(0)));
        if (changeRows && settings.writeMode() != WriteMode.MERGE) {
            throw new ColumnMappingException("the batch carries change rows (column _change_type); they can only be"
                    + " applied with writeMode=merge and keyColumns, not " + settings.writeMode(), ctx);
        }
        if (incremental != null && settings.transactionMode() == TransactionMode.BATCH
                && (settings.writeMode() == WriteMode.APPEND || settings.writeMode() == WriteMode.TRUNCATE)) {
            throw new ColumnMappingException("an incremental run records its Delta versions in the same transaction"
                    + " as its data; that needs transaction=run, or writeMode=replace/merge (not transaction=batch with "
                    + settings.writeMode() + ")", ctx);
        }
        if (incremental != null) {
            stateTable.ensure(channel); // DDL, outside the run's transaction
        }
        Schema dataSchema = changeRows ? new Schema(arrowSchema.getFields().stream()
                .filter(f -> !isChangeColumn(f.getName())).toList()) : arrowSchema;
        TableName found = TargetCatalog.find(channel, settings.table());
        if (found == null) {
            if (!settings.createTable()) {
                throw new ColumnMappingException("target table " + settings.table()
                        + " does not exist (set createTable=true to create it from the Arrow schema)", ctx);
            }
            String ddl = ColumnMapper.createTableSql(settings.table(), dataSchema, settings.columnMapping(), ctx);
            LOG.info("Run {}: creating {}", runId, settings.table());
            execute(ddl);
            found = TargetCatalog.find(channel, settings.table());
            if (found == null) {
                throw new ColumnMappingException("target table " + settings.table() + " was created but the catalog"
                        + " does not show it", ctx);
            }
        }
        target = found;
        TargetTable table = TargetCatalog.describe(channel, target);
        // Binding against the target first: a mapping error is reported before any staging table exists.
        List<BoundColumn> targetBound = ColumnMapper.bind(dataSchema, table, settings.columnMapping(), temporalAsText,
                ctx);
        ColumnMapper.checkIdentity(targetBound, settings.keepIdentity(), target, ctx);
        identityColumn = targetBound.stream().map(BoundColumn::target).filter(TargetColumn::identity)
                .map(TargetColumn::name).findFirst().orElse(null);
        schema = arrowSchema;
        if (settings.writeMode() == WriteMode.REPLACE || settings.writeMode() == WriteMode.MERGE) {
            staging = stagingName(target, runId);
            // DDL outside the run's transaction.
            stagingCreated = true;
            StringBuilder extra = new StringBuilder();
            if (changeRows) {
                for (Field f : arrowSchema.getFields()) {
                    if (isChangeColumn(f.getName())) {
                        extra.append(", CAST(NULL AS ").append(SqlServerTypes.createTableType(f)).append(") AS ")
                                .append(SqlIdentifiers.quote(f.getName()));
                    }
                }
            }
            execute("SELECT TOP 0 *" + extra + " INTO " + staging.quoted() + " FROM " + target.quoted());
        }
        if (changeRows) {
            // The change columns exist only in the staging table: bind the whole batch against it.
            columns = ColumnMapper.bind(arrowSchema, TargetCatalog.describe(channel, staging),
                    settings.columnMapping(), temporalAsText, ctx);
            dataColumns = columns.stream().filter(c -> !isChangeColumn(c.sourceName())).toList();
        } else {
            columns = targetBound;
            dataColumns = columns;
        }
        if (settings.writeMode() == WriteMode.MERGE) {
            checkKeys();
        }
        String cannot = channel.cannotWrite(staging != null ? staging : target, arrowSchema, columns);
        if (cannot != null) {
            SqlChannelProvider fallback = provider.fallback();
            if (fallback == null) {
                throw new ColumnMappingException("bulkEncoder=" + channel.encoder() + " cannot write this run: "
                        + cannot + " (set bulkEncoderFallback=true to use the mssql-jdbc path instead)", ctx);
            }
            LOG.warn("Run {} on {}: bulkEncoder={} cannot write this run ({}); using the mssql-jdbc path", runId,
                    settings.table(), channel.encoder(), cannot);
            if (stagingCreated) {
                dropStaging(channel);
            }
            closeConnection();
            provider = fallback;
            columns = null;
            prepare(arrowSchema);
            return;
        }
        channel.setAutoCommit(false);
        if (settings.writeMode() == WriteMode.TRUNCATE && !truncateCommitted) {
            execute("TRUNCATE TABLE " + target.quoted());
            if (settings.transactionMode() == TransactionMode.BATCH) {
                commit();
                truncateCommitted = true;
            }
        }
    }

    private void checkKeys() {
        if (identityColumn != null && settings.keyColumns().stream().noneMatch(k -> k.equalsIgnoreCase(identityColumn))) {
            throw new ColumnMappingException("merge maps identity column '" + identityColumn + "' of " + target
                    + " but it is not a key column: SQL Server cannot update an identity column (error 8102); make it"
                    + " a key column or leave it out", context().withColumn(identityColumn));
        }
        for (String key : settings.keyColumns()) {
            boolean mapped = dataColumns.stream().anyMatch(c -> c.target().name().equalsIgnoreCase(key));
            if (!mapped) {
                throw new ColumnMappingException("merge key column '" + key + "' is not a mapped target column of "
                        + target, context().withColumn(key));
            }
        }
    }

    /** Whether {@code name} is one of {@link #CHANGE_COLUMNS} (case-insensitive). */
    public static boolean isChangeColumn(String name) {
        return CHANGE_COLUMNS.stream().anyMatch(c -> c.equalsIgnoreCase(name));
    }

    /** {@code <table>__df_<run id prefix>} in the target's schema, within SQL Server's 128-character limit. */
    static TableName stagingName(TableName target, String runId) {
        String suffix = "__df_" + runId.replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT);
        suffix = suffix.substring(0, Math.min(suffix.length(), 5 + 12));
        String base = target.table();
        if (base.length() + suffix.length() > SqlIdentifiers.MAX_LENGTH) {
            base = base.substring(0, SqlIdentifiers.MAX_LENGTH - suffix.length());
        }
        return target.sibling(base + suffix);
    }

    private void bulkCopy(ArrowBulkData data) throws SQLException {
        channel.bulkWrite(staging != null ? staging : target, data, settings);
    }

    private void finish() throws SQLException {
        String columnList = dataColumns.stream().map(c -> SqlIdentifiers.quote(c.target().name()))
                .collect(Collectors.joining(", "));
        switch (settings.writeMode()) {
            case REPLACE -> {
                execute("TRUNCATE TABLE " + target.quoted());
                withIdentityInsert(() -> execute("INSERT INTO " + target.quoted() + " WITH (TABLOCK) (" + columnList
                        + ") SELECT " + columnList + " FROM " + staging.quoted()));
            }
            case MERGE -> withIdentityInsert(() -> execute(mergeSql()));
            default -> {
            }
        }
        if (incremental != null) {
            // In the transaction that commits the data: both or neither.
            stateTable.record(channel, incremental, runId, context());
        }
        commit();
        state = State.COMMITTED;
        LOG.debug("Run {} on {} committed: {}", runId, target, stats);
        // Post-commit clean-up: failures here do not undo the committed run.
        try {
            channel.setAutoCommit(true);
            dropStaging(channel);
        } catch (SQLException | RuntimeException e) {
            LOG.warn("Run {}: committed, but dropping staging table {} failed: {}", runId, staging, e.toString());
        } finally {
            closeConnection();
        }
    }

    /** A statement that may fail with a {@link SQLException}. */
    private interface SqlStep {
        void run() throws SQLException;
    }

    /**
     * Runs {@code step} with {@code SET IDENTITY_INSERT target ON} when the run writes the target's identity column
     * (keepIdentity=true): the copy from the staging table then keeps the source's identity values, as the bulk copy
     * does. IDENTITY_INSERT is session state, not transactional: it is switched off again right after the step (and
     * a failed run closes its connection).
     */
    private void withIdentityInsert(SqlStep step) throws SQLException {
        if (identityColumn == null) {
            step.run();
            return;
        }
        execute("SET IDENTITY_INSERT " + target.quoted() + " ON");
        step.run();
        execute("SET IDENTITY_INSERT " + target.quoted() + " OFF");
    }

    String mergeSql() {
        List<String> keys = dataColumns.stream().map(c -> c.target().name())
                .filter(n -> settings.keyColumns().stream().anyMatch(k -> k.equalsIgnoreCase(n))).toList();
        List<String> others = dataColumns.stream().map(c -> c.target().name())
                .filter(n -> settings.keyColumns().stream().noneMatch(k -> k.equalsIgnoreCase(n))).toList();
        List<String> all = dataColumns.stream().map(c -> c.target().name()).toList();
        StringBuilder sql = new StringBuilder("MERGE INTO ").append(target.quoted()).append(" AS T USING ")
                .append(changeRows ? changeSource(keys, all) : staging.quoted()).append(" AS S ON (");
        sql.append(keys.stream().map(k -> "T." + SqlIdentifiers.quote(k) + " = S." + SqlIdentifiers.quote(k))
                .collect(Collectors.joining(" AND ")));
        sql.append(')');
        String type = changeRows ? "S." + SqlIdentifiers.quote(CHANGE_COLUMNS.get(0)) : null;
        if (changeRows) {
            sql.append(" WHEN MATCHED AND ").append(type).append(" = 'delete' THEN DELETE");
        }
        if (!others.isEmpty()) {
            sql.append(" WHEN MATCHED THEN UPDATE SET ").append(others.stream()
                    .map(c -> "T." + SqlIdentifiers.quote(c) + " = S." + SqlIdentifiers.quote(c))
                    .collect(Collectors.joining(", ")));
        }
        sql.append(changeRows ? " WHEN NOT MATCHED AND " + type + " <> 'delete' THEN INSERT (" : " WHEN NOT MATCHED THEN INSERT (")
                .append(all.stream().map(SqlIdentifiers::quote).collect(Collectors.joining(", ")))
                .append(") VALUES (")
                .append(all.stream().map(c -> "S." + SqlIdentifiers.quote(c)).collect(Collectors.joining(", ")))
                .append(");");
        return sql.toString();
    }

    /**
     * The MERGE source for change rows: the staging table without preimages, reduced to the last change per key
     * (highest {@code _commit_version}; within a version an insert/postimage over a delete).
     */
    private String changeSource(List<String> keys, List<String> all) {
        String q = SqlIdentifiers.quote(CHANGE_COLUMNS.get(0));
        boolean hasVersion = columns.stream().anyMatch(c -> c.sourceName().equalsIgnoreCase(CHANGE_COLUMNS.get(1)));
        String cols = all.stream().map(SqlIdentifiers::quote).collect(Collectors.joining(", "));
        String order = (hasVersion ? SqlIdentifiers.quote(CHANGE_COLUMNS.get(1)) + " DESC, " : "")
                + "CASE WHEN " + q + " = 'delete' THEN 1 ELSE 2 END DESC";
        return "(SELECT " + cols + ", " + q + " FROM (SELECT " + cols + ", " + q + ", ROW_NUMBER() OVER (PARTITION BY "
                + keys.stream().map(SqlIdentifiers::quote).collect(Collectors.joining(", ")) + " ORDER BY " + order
                + ") AS [__df_rank] FROM " + staging.quoted() + " WHERE " + q + " <> 'update_preimage') AS D"
                + " WHERE D.[__df_rank] = 1)";
    }

    /** Commits; a failure of the commit itself leaves its outcome in doubt ({@link WorkOutcome#IN_DOUBT}). */
    private void commit() throws SQLException {
        committing = true;
        try {
            channel.commit();
        } catch (SQLException | RuntimeException e) {
            commitInDoubt = true;
            throw e;
        } finally {
            committing = false;
        }
    }

    private void execute(String sql) throws SQLException {
        channel.execute(sql);
    }

    // ---- failure handling ----

    /** What the accepted work becomes when the run fails now. */
    private WorkOutcome failureOutcome() {
        if (commitInDoubt || committing) {
            return WorkOutcome.IN_DOUBT;
        }
        if (settings.transactionMode() == TransactionMode.RUN || settings.writeMode() == WriteMode.REPLACE
                || settings.writeMode() == WriteMode.MERGE) {
            return WorkOutcome.ROLLED_BACK;
        }
        return WorkOutcome.COMMITTED;
    }

    private BulkLoadException.Context context() {
        return BulkLoadException.Context.of(settings.table().toString(), failureOutcome(), stats);
    }

    private BulkLoadException fail(BulkLoadException e) {
        if (state == State.COMMITTED) {
            return e;
        }
        LOG.warn("Run {} on {} failed; accepted work {}: {}", runId, settings.table(), e.outcome(), e.getMessage());
        cleanUp(e);
        state = State.FAILED;
        return e;
    }

    private void cleanUp(Throwable into) {
        SqlChannel c = channel;
        boolean alive = false;
        if (c != null) {
            try {
                alive = !c.isClosed();
                if (alive && !c.getAutoCommit()) {
                    c.rollback();
                }
            } catch (SQLException | RuntimeException e) {
                alive = false;
                // A dead connection: SQL Server rolls back what was not committed when the session ends.
                LOG.debug("Run {}: rollback failed: {}", runId, e.toString());
            }
        }
        if (stagingCreated) {
            try {
                if (alive) {
                    c.setAutoCommit(true);
                    dropStaging(c);
                } else {
                    try (SqlChannel fresh = provider.open()) {
                        dropStaging(fresh);
                    }
                }
            } catch (SQLException | RuntimeException e) {
                LOG.warn("Run {}: dropping staging table {} failed: {}", runId, staging, e.toString());
                if (into != null) {
                    into.addSuppressed(e);
                }
            }
        }
        closeConnection();
    }

    private void dropStaging(SqlChannel c) throws SQLException {
        if (!stagingCreated) {
            return;
        }
        // Existence through the catalog (a bound parameter), then a plain DROP TABLE.
        if (TargetCatalog.find(c, staging) != null) {
            c.execute("DROP TABLE " + staging.quoted());
        }
        stagingCreated = false;
    }

    private void closeConnection() {
        if (channel != null) {
            try {
                channel.close();
            } catch (SQLException | RuntimeException e) {
                LOG.debug("Run {}: closing the connection failed: {}", runId, e.toString());
            }
            channel = null;
        }
    }
}
