package io.deltafunnel.mssql.shard;

import java.security.SecureRandom;
import java.sql.SQLException;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.deltafunnel.handoff.HandoffPhase;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.handoff.IncrementalLoad;
import io.deltafunnel.handoff.LoadPlan;
import io.deltafunnel.handoff.LoadPlanStore;
import io.deltafunnel.handoff.ShardPlanException;
import io.deltafunnel.mssql.channel.ConnectionProvider;
import io.deltafunnel.mssql.channel.JdbcSqlChannel;
import io.deltafunnel.mssql.channel.SessionEnd;
import io.deltafunnel.mssql.channel.SqlChannel;
import io.deltafunnel.mssql.state.StateTable;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The load plans of sharded loads in SQL Server: the {@link ShardTables} beside the state table. {@link #join} is
 * step 1 of the protocol (docs/sharding.md): in one transaction, the load row is read with
 * {@code UPDLOCK, HOLDLOCK} (by its id, or the {@code open} load of the key, through the index on
 * {@code (load_key, status)}), so that of several shards starting at once exactly one creates the plan and the others
 * wait for it and join it. The pins (Delta versions, file assignment) are made before that transaction, when no plan
 * is visible; a shard that planned first meanwhile wins and the pins are discarded.
 *
 * <p>The plan's {@code pins} column is JSON: {@code {"versions": {"<table path>": <version>, …},
 * "incremental": <IncrementalLoad or null>, "files": {"<decoded path>": <shard>, …}, "binding": <LoadBinding>}}
 * ({@code files} when an assignment was recorded; {@code binding} added by the first producer). Every value is bound as a parameter. Each call opens its own connection
 * from the {@link ConnectionProvider} and closes it. Thread-safe.
 */
public final class MssqlLoadPlans implements LoadPlanStore {

    private static final Logger LOG = LoggerFactory.getLogger(MssqlLoadPlans.class);
    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final SecureRandom RANDOM = new SecureRandom();
    /** The widths of the load tables' key columns. */
    static final int MAX_LOAD_ID = 64;
    static final int MAX_LOAD_KEY = 128;

    private final ConnectionProvider connections;
    private final StateTable state;
    private final ShardTables tables;
    private final Clock clock;

    /**
     * @param connections opens connections to the target database (each call owns and closes its own)
     * @param stateTable  the state table, {@code [schema.]table}; the load tables are its siblings
     */
    public MssqlLoadPlans(ConnectionProvider connections, String stateTable) {
        this(connections, stateTable, Clock.systemUTC());
    }

    MssqlLoadPlans(ConnectionProvider connections, String stateTable, Clock clock) {
        this.connections = Objects.requireNonNull(connections, "connections");
        this.state = StateTable.parse(stateTable);
        this.tables = ShardTables.of(stateTable);
        this.clock = clock;
    }

    @Override
    public String stateTableName() {
        return state.name().toString();
    }

    /** The load tables. */
    public ShardTables tables() {
        return tables;
    }

    @Override
    public LoadPlan join(String loadKey, String loadId, int shardCount, int shardIndex, PlanMaker maker)
            throws Exception {
        Objects.requireNonNull(loadKey, "loadKey");
        Objects.requireNonNull(maker, "maker");
        if (shardCount < 1 || shardIndex < 0 || shardIndex >= shardCount) {
            throw new IllegalArgumentException("shard index " + shardIndex + " is not in 0.." + (shardCount - 1));
        }
        if (loadKey.isBlank() || loadKey.length() > MAX_LOAD_KEY) {
            throw new IllegalArgumentException("the load key must have 1.." + MAX_LOAD_KEY + " characters: '"
                    + loadKey + "'");
        }
        if (loadId != null && (loadId.isBlank() || loadId.length() > MAX_LOAD_ID)) {
            throw new IllegalArgumentException("the load id must have 1.." + MAX_LOAD_ID + " characters: '"
                    + loadId + "'");
        }
        try (SqlChannel c = new JdbcSqlChannel(connections.open())) {
            tables.ensure(c); // DDL, before the transaction
            // Pinning reads the Delta logs (maybe remote): never inside the plan transaction, whose locks every
            // shard's share commit waits for. Pinned only when no plan is visible yet; a shard that plans first in
            // the meantime wins below.
            LoadPlan.Pinned pinned = find(c, "", loadKey, loadId).isEmpty()
                    ? Objects.requireNonNull(maker.pin(), "the plan maker returned no pins") : null;
            c.setAutoCommit(false);
            try {
                List<Object[]> rows = find(c, " WITH (UPDLOCK, HOLDLOCK)", loadKey, loadId);
                LoadPlan plan;
                if (!rows.isEmpty()) {
                    plan = existing(c, rows, loadKey, shardCount, shardIndex);
                } else {
                    if (pinned == null) { // the plan seen before is gone (a load id's row deleted by hand)
                        pinned = Objects.requireNonNull(maker.pin(), "the plan maker returned no pins");
                    }
                    plan = create(c, loadKey, loadId != null ? loadId : newLoadId(), shardCount, shardIndex, pinned);
                }
                c.commit();
                return plan;
            } catch (Exception e) {
                // A failed rollback aborts the connection (never back to a pool with the transaction open).
                SessionEnd.rollback(c, e, "load key '" + loadKey + "'");
                throw e;
            }
        }
    }

    /** The load by its id, or the open loads of the key, read with {@code hints}. */
    private List<Object[]> find(SqlChannel c, String hints, String loadKey, String loadId) throws SQLException {
        String columns = "SELECT [load_id], [load_key], [shard_count], [status], [pins] FROM " + tables.loads().quoted()
                + hints;
        return loadId != null
                ? c.query(columns + " WHERE [load_id] = ?", loadId)
                : c.query(columns + " WHERE [load_key] = ? AND [status] = ? ORDER BY [load_id]", loadKey,
                        LoadRowStatus.OPEN.text());
    }

    private LoadPlan create(SqlChannel c, String loadKey, String loadId, int shardCount, int shardIndex,
            LoadPlan.Pinned pinned) throws Exception {
        c.update("INSERT INTO " + tables.loads().quoted() + " ([load_id], [load_key], [shard_count], [status], [pins],"
                + " [created_at]) VALUES (?, ?, ?, ?, ?, SYSUTCDATETIME())", loadId, loadKey, shardCount,
                LoadRowStatus.OPEN.text(), pinsJson(pinned));
        for (int i = 0; i < shardCount; i++) {
            c.update("INSERT INTO " + tables.shards().quoted() + " ([load_id], [shard_index], [status])"
                    + " VALUES (?, ?, ?)", loadId, i, ShardRowStatus.PENDING.text());
        }
        LOG.info("Load {} of key '{}' planned by shard {}/{}: versions {}, incremental {}, {} files assigned",
                loadId, loadKey, shardIndex, shardCount, pinned.versions(), pinned.incremental(),
                pinned.files().size());
        return new LoadPlan(loadId, shardCount, LoadRowStatus.OPEN.text(), pinned.versions(), pinned.incremental(), false,
                true, pinned.files());
    }

    private LoadPlan existing(SqlChannel c, List<Object[]> rows, String loadKey, int shardCount, int shardIndex)
            throws Exception {
        Object[] row = rows.get(0);
        String id = (String) row[0];
        if (rows.size() > 1) {
            throw refused("key '" + loadKey + "' has " + rows.size() + " open loads in " + tables.loads()
                    + "; abandon all but one (or start the shards with loadId)", id, shardIndex);
        }
        String key = (String) row[1];
        int count = ((Number) row[2]).intValue();
        String status = (String) row[3];
        LoadRowStatus loadStatus = LoadRowStatus.of(status);
        if (!loadKey.equals(key)) {
            throw refused("load " + id + " belongs to the key '" + key + "', not '" + loadKey + "'", id, shardIndex);
        }
        if (count != shardCount) {
            throw refused("load " + id + " was planned with " + count + " shards; this shard was started with "
                    + "shardCount=" + shardCount, id, shardIndex);
        }
        if (loadStatus == LoadRowStatus.ABANDONED) {
            throw refused("load " + id + " was abandoned by an operator; start a new load (another loadId)", id,
                    shardIndex);
        }
        List<Object[]> shard = c.query("SELECT [status] FROM " + tables.shards().quoted()
                + " WHERE [load_id] = ? AND [shard_index] = ?", id, shardIndex);
        if (shard.isEmpty()) {
            throw refused("load " + id + " has no row for shard " + shardIndex + " in " + tables.shards(), id,
                    shardIndex);
        }
        boolean done = ShardRowStatus.of(shard.get(0)[0]) == ShardRowStatus.DONE;
        JsonNode pins = JSON.readTree((String) row[4]);
        Map<String, Long> versions = JSON.convertValue(pins.path("versions"), new TypeReference<Map<String, Long>>() {
        });
        JsonNode incremental = pins.path("incremental");
        IncrementalLoad load = incremental.isMissingNode() || incremental.isNull() ? null
                : JSON.treeToValue(incremental, IncrementalLoad.class);
        Map<String, Integer> files = pins.hasNonNull("files") ? JSON.convertValue(pins.get("files"),
                new TypeReference<Map<String, Integer>>() {
                }) : Map.of();
        LOG.info("Shard {}/{} joins load {} of key '{}' ({}{})", shardIndex, shardCount, id, loadKey, status,
                done ? ", this shard is done" : "");
        return new LoadPlan(id, count, status, versions == null ? Map.of() : versions, load, done, false, files);
    }

    private ShardPlanException refused(String message, String loadId, int shardIndex) {
        return new ShardPlanException(HandoffPhase.QUERY_SETUP, message, loadId, shardIndex, HandoffStats.ZERO, null);
    }

    /** The {@code pins} JSON of a plan. */
    static String pinsJson(LoadPlan.Pinned pinned) throws JsonProcessingException {
        Map<String, Object> pins = new java.util.LinkedHashMap<>();
        pins.put("versions", new java.util.TreeMap<>(pinned.versions()));
        pins.put("incremental", pinned.incremental());
        if (!pinned.files().isEmpty()) {
            pins.put("files", new java.util.TreeMap<>(pinned.files()));
        }
        return JSON.writeValueAsString(pins);
    }

    /** The binding the first producer recorded in a plan's {@code pins} JSON, or null when none is recorded yet. */
    static LoadBinding binding(String pinsJson) {
        try {
            JsonNode node = pinsJson == null ? null : JSON.readTree(pinsJson).get("binding");
            return node == null || node.isNull() ? null : JSON.treeToValue(node, LoadBinding.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the load row's pins are not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** {@code pinsJson} with {@code binding} recorded as its {@code binding} member. */
    static String withBinding(String pinsJson, LoadBinding binding) {
        try {
            JsonNode node = pinsJson == null || pinsJson.isBlank() ? JSON.createObjectNode() : JSON.readTree(pinsJson);
            if (!(node instanceof com.fasterxml.jackson.databind.node.ObjectNode object)) {
                throw new IllegalStateException("the load row's pins are not a JSON object: " + pinsJson);
            }
            object.set("binding", JSON.valueToTree(binding));
            return JSON.writeValueAsString(object);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the load row's pins are not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** A new load id: the UTC time (sortable) and 48 random bits, e.g. {@code 20261201T141512.345Z-5f0c2a9be311}. */
    String newLoadId() {
        byte[] random = new byte[6];
        RANDOM.nextBytes(random);
        return ID_TIME.format(clock.instant()) + "-" + HexFormat.of().formatHex(random);
    }
}
