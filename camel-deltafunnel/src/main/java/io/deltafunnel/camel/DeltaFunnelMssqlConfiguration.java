package io.deltafunnel.camel;

import java.time.Duration;
import java.util.function.Supplier;

import javax.sql.DataSource;

import io.deltafunnel.handoff.RejectSettings;
import io.deltafunnel.mssql.BulkEncoder;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.ReplaceStrategy;
import io.deltafunnel.mssql.SchemaEvolution;
import io.deltafunnel.mssql.BulkLoadSettings.TypeSettings;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.TransactionMode;
import io.deltafunnel.mssql.WriteMode;
import io.deltafunnel.mssql.channel.ConnectionSettings;
import io.deltafunnel.mssql.run.RetryPolicy;

import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.UriParam;
import org.apache.camel.spi.UriParams;
import org.apache.camel.spi.UriPath;

/**
 * The options of a {@code deltafunnel-mssql:} endpoint ({@link DeltaFunnelMssqlEndpoint} holds one), as camel-kafka's
 * {@code KafkaConfiguration} holds Kafka's. Each option is described once, in the {@code description} of its field's
 * {@code @UriPath}/{@code @UriParam}; camel-component-maven-plugin renders those into the catalog JSON, the
 * component page and the generated configurer. The accessors below are plain and carry no Javadoc of their own
 * ({@code OptionDescriptionsTest} fails on a second description).
 *
 * <p>Adding an option: a field with its {@code @UriParam} and a getter/setter pair here, and its use in
 * {@link #settings()}, {@link #retryPolicy()} or {@link #connectionSettings()}; the catalog, the configurer and the
 * component page follow from the build.
 *
 * <p>Longer than 600 lines: it is the producer's whole option set (about 45 options), each a described field and a
 * plain accessor pair, and nothing else but their translation into settings; splitting it would spread one
 * endpoint's options, which Camel reads from one {@code @UriParams} bean, over several classes without making any of
 * them simpler.
 */
@UriParams
public class DeltaFunnelMssqlConfiguration {

    @UriPath(description = "The target table, as table or schema.table (parts may be bracketed: [my schema].[t]);"
                           + " the schema defaults to dbo.")
    @Metadata(required = true)
    private String table;

    @UriParam(label = "producer", description = "The SQL Server DataSource. Autowired when exactly one DataSource is"
                                                + " in the registry and url is not set.")
    @Metadata(autowired = true)
    private DataSource dataSource;

    @UriParam(label = "producer", description = "The mssql-jdbc URL (jdbc:sqlserver://host:port;databaseName=...),"
                                                + " used when no dataSource is set. Keep credentials in username and"
                                                + " password.")
    private String url;

    @UriParam(label = "security", description = "The user name for url.")
    private String username;

    @UriParam(label = "security", secret = true, description = "The password for url.")
    private String password;

    @UriParam(label = "producer", defaultValue = "APPEND", description = "What a run does to the target: APPEND adds"
            + " rows; TRUNCATE empties the target at the start of the run; REPLACE loads a staging table and replaces"
            + " the target's contents with it when the run completes; MERGE loads a staging table and merges it into"
            + " the target on keyColumns when the run completes; HISTORY loads a staging table and applies it to the"
            + " target on keyColumns as type 2 history (every version of a row one target row, see validFromColumn)"
            + " when the run completes. Case-insensitive.")
    private WriteMode writeMode = WriteMode.APPEND;

    @UriParam(label = "producer", defaultValue = "AUTO", description = "How writeMode=replace puts the loaded staging"
            + " table in place: SWITCH swaps it in with ALTER TABLE ... SWITCH in the run's final transaction (metadata"
            + " only; the staging table first gets the target's indexes and CHECK constraints) and refuses, before"
            + " anything is written, a target that cannot be switched; COPY truncates the target and copies the rows"
            + " (INSERT ... SELECT); AUTO switches when possible, else copies, logging the reason. Case-insensitive.")
    private ReplaceStrategy replaceStrategy = ReplaceStrategy.AUTO;

    @UriParam(label = "producer", defaultValue = "none", enums = "none,addColumns,widen", description = "What a run"
            + " does when the source's columns and the target's no longer agree. none: refuse, listing every source"
            + " column the target lacks and every column whose type cannot take the source's; addColumns: add each"
            + " missing source column (ALTER TABLE ADD, createTable's type, NULL); widen: addColumns, plus ALTER"
            + " COLUMN where the source's type is wider (integers, decimal precision/scale, real to float, varchar"
            + " to nvarchar, more fractional seconds, date to datetime2), never narrowing. The DDL runs before the"
            + " run's transaction and stays when the run fails. Case-insensitive.")
    private String schemaEvolution = "none";

    @UriParam(label = "producer", defaultValue = "upsert", enums = "upsert,deleteInsert,insertOnly,updateOnly",
              description = "How writeMode=merge applies the run's rows on keyColumns, in the final transaction"
            + " (atomic with the incremental state, also in a sharded load's final step). upsert: one MERGE updating"
            + " the keys present and inserting the others; deleteInsert: DELETE every key the run's rows touch, then"
            + " INSERT the rows that are not deletes (no MERGE); insertOnly: insert new keys only, never update or"
            + " delete an existing row; updateOnly: update (and, for change rows, delete) existing keys only, never"
            + " insert. Change rows (incremental=changes) are first ranked to the last change per key. Set only with"
            + " writeMode=merge. Case-insensitive.")
    private String mergeStrategy;

    @UriParam(label = "producer", defaultValue = "hard", enums = "hard,soft", description = "What a change-feed"
            + " delete does with writeMode=merge: hard deletes the row; soft keeps it and sets softDeleteColumn, and"
            + " a later insert or update of the key clears it. Plain batches carry no deletes: with soft they clear"
            + " the column on every row they write. Not with mergeStrategy=insertOnly. Case-insensitive.")
    private String deleteMode;

    @UriParam(label = "producer", description = "The target column that deleteMode=soft sets: name, or name:bit or"
            + " name:datetime2. A bit column gets 1 for a deleted row, a datetime2 column the delete's"
            + " _commit_timestamp; 0 or NULL means not deleted. The column must be nullable and not written by the"
            + " source; createTable creates it (bit unless the type is given), schemaEvolution=addColumns or widen"
            + " adds it to an existing target, else it must exist.")
    private String softDeleteColumn;

    @UriParam(label = "producer", defaultValue = "text", enums = "text,native", description = "The type createTable"
            + " gives List, Struct and Map columns: text, nvarchar(max) holding their JSON (works on every server);"
            + " native, SQL Server 2025's json type. Case-insensitive.")
    private String jsonColumns = "text";

    @UriParam(label = "producer", defaultValue = "text", enums = "text,native", description = "The type createTable"
            + " gives FixedSizeList<Float32|Float64>(n) columns (embeddings): text, nvarchar(max) holding the JSON"
            + " array (works on every server); native, SQL Server 2025's vector(n) (float32, n up to 1998). A List"
            + " of floats has no length in its schema and stays text. Case-insensitive.")
    private String vectorColumns = "text";

    @UriParam(label = "producer", defaultValue = "0", description = "How many bad rows a run may set aside instead"
            + " of failing (per load for a sharded load): a value the client-side check refuses (too long, out of"
            + " range, NULL into NOT NULL, ...) is left out of the batch; a row SQL Server refuses with a data error"
            + " (2627/2601 duplicate key, 547 constraint with checkConstraints=true, 8115 overflow, 2628 truncation,"
            + " 515 NULL) is found by splitting the batch under savepoints and left out. The rest loads, and the"
            + " rejected rows go to rejectTable in the same transaction. One more fails the run and nothing of it is"
            + " kept. 0: any bad row fails the run.")
    private int maxRejectedRows;

    @UriParam(label = "producer", description = "The table (schema.table) that receives the rejected rows when"
            + " maxRejectedRows is above 0, created when missing: run id, route/state key, target table, batch and"
            + " row index, the source row as JSON, the column, the SQL Server error number or client check name,"
            + " the message and the time. Written in the transaction of the loaded rows: a rolled-back run leaves no"
            + " rejects. An existing table of another shape is refused before anything is written.")
    private String rejectTable;

    @UriParam(label = "producer", description = "A Camel endpoint URI (e.g. file:, kafka:, direct:) that also gets"
            + " each run's rejected rows, as one body of JSON lines, after the run commits. An URI that does not"
            + " resolve fails the endpoint's start.")
    private String rejectEndpoint;

    @UriParam(label = "producer", description = "T-SQL the producer runs inside the run's transaction before the"
            + " first batch (after the truncate with writeMode=truncate; with replace and merge at the start of the"
            + " final step, before the target changes); or where to read it from, as for the consumer's query:"
            + " resource:classpath:sql/pre.sql, file:/etc/pre.sql. Lines holding only GO separate batches. No value is"
            + " concatenated into it: it reads the run's values from the T-SQL variables @deltafunnel_run_id,"
            + " @deltafunnel_target, @deltafunnel_schema, @deltafunnel_table, @deltafunnel_write_mode,"
            + " @deltafunnel_rows (rows accepted so far), @deltafunnel_batches, @deltafunnel_load_id (sharded loads) and"
            + " @deltafunnel_hook. A failure rolls the run back. With transaction=batch it runs once per run, in a"
            + " transaction of its own (append, truncate) or in the final step's (replace, merge); in a sharded load"
            + " once, in the final step's transaction.")
    private String preSql;

    @UriParam(label = "producer", description = "T-SQL the producer runs inside the run's transaction after the last"
            + " batch or the final step (replace, merge, a sharded load's final step) and before the commit; text or a"
            + " resource:/file: reference and the same variables as preSql, @deltafunnel_rows holding the rows of the"
            + " run. A failure rolls the run back. With transaction=batch it runs once per run in a transaction of"
            + " its own after the last batch's commit (append, truncate) or in the final step's transaction (replace,"
            + " merge).")
    private String postSql;

    @UriParam(label = "producer", description = "Comma-separated target key columns, for writeMode=merge and"
            + " writeMode=history.")
    private String keyColumns;

    @UriParam(label = "producer", defaultValue = "valid_from", description = "writeMode=history: the target column"
            + " (datetime2 or datetime, NOT NULL) that holds when a version became valid: the _commit_timestamp of"
            + " the change that created it, or for a load without change rows the run's time.")
    private String validFromColumn = "valid_from";

    @UriParam(label = "producer", defaultValue = "valid_to", description = "writeMode=history: the target column"
            + " (datetime2 or datetime, nullable) that holds when a version stopped being valid: NULL while it is"
            + " current, else the time of the change that closed it.")
    private String validToColumn = "valid_to";

    @UriParam(label = "producer", defaultValue = "is_current", description = "writeMode=history: the target column"
            + " (bit, NOT NULL) that is 1 for the current version of a key and 0 for the closed ones.")
    private String currentColumn = "is_current";

    @UriParam(label = "producer", defaultValue = "false", description = "Create the target table from the Arrow"
                                                                       + " schema when it does not exist.")
    private boolean createTable;

    @UriParam(label = "producer", defaultValue = "RUN", description = "RUN: all batches of a run commit together when"
            + " the batch marked CamelBatchComplete has been written, and any failure rolls back the whole run;"
            + " BATCH: each batch commits on its own. Case-insensitive.")
    private TransactionMode transaction = TransactionMode.RUN;

    @UriParam(label = "producer", description = "Explicit source:target column pairs, comma-separated"
            + " (src1:dst1,src2:dst2). Other source columns map to the target column of the same name,"
            + " case-insensitively.")
    private String columnMapping;

    @UriParam(label = "producer,advanced", defaultValue = "false", description = "Bulk copy with a table lock (TABLOCK).")
    private boolean tableLock;

    @UriParam(label = "producer,advanced", defaultValue = "false",
              description = "Check constraints during the bulk copy (CHECK_CONSTRAINTS).")
    private boolean checkConstraints;

    @UriParam(label = "producer,advanced", defaultValue = "false",
              description = "Fire insert triggers during the bulk copy (FIRE_TRIGGERS).")
    private boolean fireTriggers;

    @UriParam(label = "producer,advanced", defaultValue = "false",
              description = "Keep NULLs instead of applying column defaults (KEEP_NULLS).")
    private boolean keepNulls;

    @UriParam(label = "producer,advanced", defaultValue = "false",
              description = "Write source values into identity columns instead of letting SQL Server generate them, in"
                            + " every write mode (replace and merge copy them with SET IDENTITY_INSERT). Without it, a"
                            + " source column mapped to an identity column is refused before anything is sent.")
    private boolean keepIdentity;

    @UriParam(label = "producer,advanced", defaultValue = "0", description = "Rows per bulk copy round trip within one"
                                                                            + " Arrow batch; 0 sends the whole batch"
                                                                            + " at once.")
    private int bulkBatchSize;

    @UriParam(label = "producer,advanced", defaultValue = "0", description = "Timeout in seconds for each bulk copy"
                                                                            + " and statement; 0 means none.")
    private int timeout;

    @UriParam(label = "producer", defaultValue = "3", description = "How many times a run (or, with transaction=batch"
            + " and append/truncate, a batch) is retried after a transient failure: SQL Server errors 1205, 1222, 4060,"
            + " 10928, 10929, 40197, 40501, 40613, 49918, 49919, 49920 or a broken connection. With transaction=run"
            + " or replace/merge the run is rolled back and replayed from its first batch by the deltafunnel:"
            + " consumer; with transaction=batch the failed batch is written again. 0 disables retries.")
    private int maxRetries = 3;

    @UriParam(label = "producer,advanced", defaultValue = "4",
              description = "How many runs (distinct CamelDeltaFunnelRunId values) this producer keeps open at once, each in"
            + " its own session, e.g. when several seda: consumers hand it batches of different runs concurrently."
            + " A new run beyond the limit is refused (TooManyOpenRunsException) and the open runs go on. At least 1.")
    private int maxOpenRuns = 4;

    @UriParam(label = "producer", defaultValue = "1000", javaType = "java.time.Duration",
              description = "Wait before the first retry, in milliseconds (or a duration such as 2s).")
    private long retryDelay = 1000;

    @UriParam(label = "producer,advanced", defaultValue = "5000", javaType = "java.time.Duration",
              description = "Sharded loads: how long a shard's run waits for its shard's application lock, in"
                            + " milliseconds (or a duration such as 10s). An earlier session of the same shard may"
                            + " still hold it while SQL Server rolls back its killed share. Not granted in that time,"
                            + " the run fails as transient (the lock request timed out) and is replayed; 0 does not"
                            + " wait.")
    private long shardClaimTimeout = 5000;

    @UriParam(label = "producer,advanced", defaultValue = "2.0",
              description = "Each further retry waits this many times longer than the previous one (at least 1).")
    private double retryBackoffMultiplier = 2.0;

    @UriParam(label = "producer,advanced", defaultValue = "30000", javaType = "java.time.Duration",
              description = "The longest wait between two attempts, in milliseconds (or a duration such as 30s).")
    private long maxRetryDelay = 30_000;

    @UriParam(label = "producer,advanced", defaultValue = "DRIVER", description = "Which code encodes the bulk-load"
            + " rows. DRIVER: mssql-jdbc's SQLServerBulkCopy (the default). DIRECT: the project's own TDS connection"
            + " writes the rows straight from the Arrow buffers (several times faster; experimental until it has passed"
            + " its tests against a real SQL Server). DIRECT needs url with SQL authentication (username/password) or"
            + " accessTokenSupplier; other settings (a dataSource, Kerberos/NTLM, other Entra ID methods, named"
            + " instances, Always Encrypted) and column types it cannot encode fall back to DRIVER with a warning, or"
            + " fail when bulkEncoderFallback is false. Case-insensitive.")
    private BulkEncoder bulkEncoder = BulkEncoder.DRIVER;

    @UriParam(label = "producer,advanced", defaultValue = "true", description = "With bulkEncoder=DIRECT: use the"
            + " mssql-jdbc path (with a warning in the log) where the direct encoder cannot be used; false fails"
            + " instead, naming the reason.")
    private boolean bulkEncoderFallback = true;

    @UriParam(label = "producer,advanced", defaultValue = "true", description = "With bulkEncoder=DIRECT: an nvarchar"
            + " column whose values in a batch are all ASCII is sent as varchar in the column's collation, one byte per"
            + " character instead of two, when that collation's code page is 1252 or UTF-8 (as mssql-jdbc sends a"
            + " CSV file's varchar columns); SQL Server converts each value, so the stored text is the same: less"
            + " CPU and half the text's bytes on the client and the network, a conversion per value on the server."
            + " false sends every nvarchar column as UTF-16, the column's own type.")
    private boolean asciiAsVarchar = true;

    @UriParam(label = "producer,advanced", defaultValue = "true", description = "When the connection is encrypted"
            + " (encrypt is not false in url, or a dataSource is used): when the producer starts, bring the JVM's"
            + " AES-GCM code, which encrypts every byte sent over TLS, to its compiled speed in a background thread"
            + " (about a tenth of a second of one core, once per JVM), so that the first load after a JVM start is"
            + " not slowed by it. Nothing it computes is used.")
    private boolean cipherWarmup = true;

    @UriParam(label = "security", description = "Supplies a Microsoft Entra ID access token for each new connection"
            + " (instead of username/password), e.g. a bean wrapping azure-identity's TokenCredential. Used by both"
            + " encoders; the token is never logged.")
    private Supplier<String> accessTokenSupplier;

    @UriParam(label = "producer", defaultValue = "0", description = "Seconds to wait for a connection and login to"
            + " SQL Server when connecting through url (mssql-jdbc's loginTimeout; also the direct encoder's connect"
            + " and login timeout); 0 keeps the defaults (15 s). With a dataSource, set the timeout on the dataSource.")
    private int loginTimeout;

    /** Checks the options that no settings object checks; called when the endpoint initialises. */
    void validate() {
        settings();
        retryPolicy();
        if (loginTimeout < 0) {
            throw new IllegalArgumentException("loginTimeout must be 0 or more, got " + loginTimeout);
        }
        if (shardClaimTimeout < 0 || shardClaimTimeout > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("shardClaimTimeout must be 0 to " + Integer.MAX_VALUE + " ms, got "
                    + shardClaimTimeout);
        }
    }

    /** The bulk-load settings of these options. */
    public BulkLoadSettings settings() {
        TableName name = TableName.parse(table);
        return BulkLoadSettings.builder(name).writeMode(writeMode).transactionMode(transaction).createTable(createTable)
                .keyColumns(BulkLoadSettings.parseList(keyColumns))
                .columnMapping(BulkLoadSettings.parseMapping(columnMapping)).tableLock(tableLock)
                .checkConstraints(checkConstraints).fireTriggers(fireTriggers).keepNulls(keepNulls)
                .keepIdentity(keepIdentity).bulkBatchSize(bulkBatchSize).timeoutSeconds(timeout)
                .replaceStrategy(replaceStrategy).schemaEvolution(SchemaEvolution.parse(schemaEvolution))
                .hooks(new BulkLoadSettings.Hooks(preSql, postSql))
                .history(new BulkLoadSettings.HistorySettings(validFromColumn, validToColumn, currentColumn))
                .rejects(rejectSettings())
                .typeSettings(TypeSettings.parse(jsonColumns, vectorColumns))
                .merge(merge())
                .asciiAsVarchar(asciiAsVarchar)
                .build();
    }

    /** The rejected-rows settings: maxRejectedRows, rejectTable (its name checked) and rejectEndpoint. */
    public RejectSettings rejectSettings() {
        if (rejectTable != null && !rejectTable.isBlank()) {
            try {
                TableName.parse(rejectTable.trim()); // an invalid name is refused when the endpoint initialises
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("rejectTable must be [schema.]table, got '" + rejectTable + "': "
                        + e.getMessage(), e);
            }
        }
        return new RejectSettings(maxRejectedRows, rejectTable, rejectEndpoint);
    }

    /** The merge options; refused (before anything is written) when set without writeMode=merge. */
    private BulkLoadSettings.Merge merge() {
        if (writeMode != WriteMode.MERGE) {
            for (String[] option : new String[][] {{"mergeStrategy", mergeStrategy}, {"deleteMode", deleteMode},
                    {"softDeleteColumn", softDeleteColumn}}) {
                if (option[1] != null) {
                    throw new IllegalArgumentException(option[0] + "=" + option[1] + " is used with writeMode=merge"
                            + " only, not writeMode=" + writeMode);
                }
            }
            return null;
        }
        return BulkLoadSettings.Merge.parse(mergeStrategy, deleteMode, softDeleteColumn);
    }

    public String getMergeStrategy() {
        return mergeStrategy;
    }

    public void setMergeStrategy(String mergeStrategy) {
        this.mergeStrategy = mergeStrategy;
    }

    public String getDeleteMode() {
        return deleteMode;
    }

    public void setDeleteMode(String deleteMode) {
        this.deleteMode = deleteMode;
    }

    public String getSoftDeleteColumn() {
        return softDeleteColumn;
    }

    public void setSoftDeleteColumn(String softDeleteColumn) {
        this.softDeleteColumn = softDeleteColumn;
    }

    /** The retry policy built from maxRetries, retryDelay, retryBackoffMultiplier and maxRetryDelay. */
    public RetryPolicy retryPolicy() {
        return new RetryPolicy(maxRetries, Duration.ofMillis(retryDelay), retryBackoffMultiplier,
                Duration.ofMillis(maxRetryDelay));
    }

    /** The connection options: the dataSource, or url with username/password or the access token supplier. */
    public ConnectionSettings connectionSettings() {
        return new ConnectionSettings(dataSource, url, username, password, loginTimeout, accessTokenSupplier);
    }

    public String getTable() {
        return table;
    }

    public void setTable(String table) {
        this.table = table;
    }

    public DataSource getDataSource() {
        return dataSource;
    }

    public void setDataSource(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    public String getUsername() {
        return username;
    }

    public void setUsername(String username) {
        this.username = username;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public String getJsonColumns() {
        return jsonColumns;
    }

    public void setJsonColumns(String jsonColumns) {
        this.jsonColumns = jsonColumns;
    }

    public String getVectorColumns() {
        return vectorColumns;
    }

    public void setVectorColumns(String vectorColumns) {
        this.vectorColumns = vectorColumns;
    }

    public String getSchemaEvolution() {
        return schemaEvolution;
    }

    public void setSchemaEvolution(String schemaEvolution) {
        this.schemaEvolution = schemaEvolution;
    }

    public String getPreSql() {
        return preSql;
    }

    public void setPreSql(String preSql) {
        this.preSql = preSql;
    }

    public String getPostSql() {
        return postSql;
    }

    public void setPostSql(String postSql) {
        this.postSql = postSql;
    }

    public int getMaxRejectedRows() {
        return maxRejectedRows;
    }

    public void setMaxRejectedRows(int maxRejectedRows) {
        this.maxRejectedRows = maxRejectedRows;
    }

    public String getRejectTable() {
        return rejectTable;
    }

    public void setRejectTable(String rejectTable) {
        this.rejectTable = rejectTable;
    }

    public String getRejectEndpoint() {
        return rejectEndpoint;
    }

    public void setRejectEndpoint(String rejectEndpoint) {
        this.rejectEndpoint = rejectEndpoint;
    }

    public ReplaceStrategy getReplaceStrategy() {
        return replaceStrategy;
    }

    public void setReplaceStrategy(ReplaceStrategy replaceStrategy) {
        this.replaceStrategy = replaceStrategy;
    }

    public WriteMode getWriteMode() {
        return writeMode;
    }

    public void setWriteMode(WriteMode writeMode) {
        this.writeMode = writeMode;
    }

    public String getKeyColumns() {
        return keyColumns;
    }

    public void setKeyColumns(String keyColumns) {
        this.keyColumns = keyColumns;
    }

    public String getValidFromColumn() {
        return validFromColumn;
    }

    public void setValidFromColumn(String validFromColumn) {
        this.validFromColumn = validFromColumn;
    }

    public String getValidToColumn() {
        return validToColumn;
    }

    public void setValidToColumn(String validToColumn) {
        this.validToColumn = validToColumn;
    }

    public String getCurrentColumn() {
        return currentColumn;
    }

    public void setCurrentColumn(String currentColumn) {
        this.currentColumn = currentColumn;
    }

    public boolean isCreateTable() {
        return createTable;
    }

    public void setCreateTable(boolean createTable) {
        this.createTable = createTable;
    }

    public TransactionMode getTransaction() {
        return transaction;
    }

    public void setTransaction(TransactionMode transaction) {
        this.transaction = transaction;
    }

    public String getColumnMapping() {
        return columnMapping;
    }

    public void setColumnMapping(String columnMapping) {
        this.columnMapping = columnMapping;
    }

    public boolean isTableLock() {
        return tableLock;
    }

    public void setTableLock(boolean tableLock) {
        this.tableLock = tableLock;
    }

    public boolean isCheckConstraints() {
        return checkConstraints;
    }

    public void setCheckConstraints(boolean checkConstraints) {
        this.checkConstraints = checkConstraints;
    }

    public boolean isFireTriggers() {
        return fireTriggers;
    }

    public void setFireTriggers(boolean fireTriggers) {
        this.fireTriggers = fireTriggers;
    }

    public boolean isKeepNulls() {
        return keepNulls;
    }

    public void setKeepNulls(boolean keepNulls) {
        this.keepNulls = keepNulls;
    }

    public boolean isKeepIdentity() {
        return keepIdentity;
    }

    public void setKeepIdentity(boolean keepIdentity) {
        this.keepIdentity = keepIdentity;
    }

    public int getBulkBatchSize() {
        return bulkBatchSize;
    }

    public void setBulkBatchSize(int bulkBatchSize) {
        this.bulkBatchSize = bulkBatchSize;
    }

    public int getTimeout() {
        return timeout;
    }

    public void setTimeout(int timeout) {
        this.timeout = timeout;
    }

    public int getMaxRetries() {
        return maxRetries;
    }

    public void setMaxRetries(int maxRetries) {
        this.maxRetries = maxRetries;
    }

    public int getMaxOpenRuns() {
        return maxOpenRuns;
    }

    public void setMaxOpenRuns(int maxOpenRuns) {
        this.maxOpenRuns = maxOpenRuns;
    }

    public long getRetryDelay() {
        return retryDelay;
    }

    public void setRetryDelay(long retryDelay) {
        this.retryDelay = retryDelay;
    }

    public long getShardClaimTimeout() {
        return shardClaimTimeout;
    }

    public void setShardClaimTimeout(long shardClaimTimeout) {
        this.shardClaimTimeout = shardClaimTimeout;
    }

    public double getRetryBackoffMultiplier() {
        return retryBackoffMultiplier;
    }

    public void setRetryBackoffMultiplier(double retryBackoffMultiplier) {
        this.retryBackoffMultiplier = retryBackoffMultiplier;
    }

    public long getMaxRetryDelay() {
        return maxRetryDelay;
    }

    public void setMaxRetryDelay(long maxRetryDelay) {
        this.maxRetryDelay = maxRetryDelay;
    }

    public BulkEncoder getBulkEncoder() {
        return bulkEncoder;
    }

    public void setBulkEncoder(BulkEncoder bulkEncoder) {
        this.bulkEncoder = bulkEncoder;
    }

    public boolean isCipherWarmup() {
        return cipherWarmup;
    }

    public void setCipherWarmup(boolean cipherWarmup) {
        this.cipherWarmup = cipherWarmup;
    }

    public boolean isAsciiAsVarchar() {
        return asciiAsVarchar;
    }

    public void setAsciiAsVarchar(boolean asciiAsVarchar) {
        this.asciiAsVarchar = asciiAsVarchar;
    }

    public boolean isBulkEncoderFallback() {
        return bulkEncoderFallback;
    }

    public void setBulkEncoderFallback(boolean bulkEncoderFallback) {
        this.bulkEncoderFallback = bulkEncoderFallback;
    }

    public Supplier<String> getAccessTokenSupplier() {
        return accessTokenSupplier;
    }

    public void setAccessTokenSupplier(Supplier<String> accessTokenSupplier) {
        this.accessTokenSupplier = accessTokenSupplier;
    }

    public int getLoginTimeout() {
        return loginTimeout;
    }

    public void setLoginTimeout(int loginTimeout) {
        this.loginTimeout = loginTimeout;
    }
}
