package io.deltafunnel.delta;

import java.sql.Connection;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point for reading a Delta table's log. Uses the caller's DuckDB connection for all bulk reads (glob,
 * read_ndjson, read_parquet); leaves no objects behind on it. The connection stays owned by the caller.
 */
public final class DeltaLog {

    private static final Logger LOG = LoggerFactory.getLogger(DeltaLog.class);

    private DeltaLog() {
    }

    /**
     * Resolves a snapshot: the latest one, the one at {@code version}, or the latest one committed at or before
     * {@code asOf} (at most one of the two may be non-null).
     */
    public static DeltaSnapshot snapshot(Connection duckdb, String tablePath, Long version, Instant asOf)
            throws DeltaException {
        if (version != null && asOf != null) {
            throw new IllegalArgumentException("give a version or a timestamp, not both");
        }
        String table = TablePaths.normalizeTable(tablePath);
        long started = System.nanoTime();
        LogListing listing = LogListing.list(duckdb, table);
        long target;
        if (version != null) {
            if (version < 0) {
                throw new VersionNotFoundException(table, "version " + version + " does not exist");
            }
            target = version;
        } else if (asOf != null) {
            target = TimeTravel.versionAt(duckdb, listing, asOf);
        } else {
            target = listing.latestVersion();
        }
        DeltaSnapshot snapshot = load(duckdb, listing, target);
        LOG.debug("Delta table {}: resolved version {} ({} files) in {} ms", table, snapshot.version(),
                snapshot.fileCount(), (System.nanoTime() - started) / 1_000_000);
        return snapshot;
    }

    /** The latest version of the table, from a listing of its log only. */
    public static long latestVersion(Connection duckdb, String tablePath) throws DeltaException {
        return LogListing.list(duckdb, TablePaths.normalizeTable(tablePath)).latestVersion();
    }

    static DeltaSnapshot load(Connection duckdb, LogListing listing, long target) throws DeltaException {
        String table = listing.table();
        CorruptLogException checkpointFailure = null;
        for (int skip = 0;; skip++) {
            LogSegment segment;
            try {
                segment = LogSegment.build(listing, target, skip);
            } catch (DeltaException e) {
                if (checkpointFailure == null) {
                    throw e;
                }
                // no usable fallback (for example the commits after the older checkpoint are gone): the corrupt
                // checkpoint is the real problem
                checkpointFailure.addSuppressed(e);
                throw checkpointFailure;
            }
            if (segment == null) {
                throw checkpointFailure;
            }
            try {
                ActionReconciler.Replay replay = ActionReconciler.replay(duckdb, table, segment);
                return toSnapshot(table, target, replay);
            } catch (CorruptLogException e) {
                if (segment.checkpoint() == null || (e.file() != null && segment.commits().contains(e.file()))) {
                    throw e;
                }
                LOG.warn("Delta table {}: checkpoint {} is unusable ({}); trying an older checkpoint or the commits",
                        table, segment.checkpoint().files(), e.getMessage());
                checkpointFailure = e;
            }
        }
    }

    private static DeltaSnapshot toSnapshot(String table, long version, ActionReconciler.Replay replay)
            throws DeltaException {
        ColumnMappingMode mode = ProtocolSupport.columnMappingEnabled(replay.protocol())
                ? ColumnMappingMode.parse(table, replay.configuration().get("delta.columnMapping.mode"))
                : ColumnMappingMode.NONE;
        List<DeltaColumn> schema = SchemaParser.parse(table, replay.schemaString(), mode);
        ProtocolSupport.checkTypeChanges(table, schema);
        Set<String> names = new HashSet<>();
        for (DeltaColumn c : schema) {
            names.add(c.name());
        }
        for (String p : replay.partitionColumns()) {
            if (!names.contains(p)) {
                throw new CorruptLogException(table, null, "partition column '" + p + "' is not in the schema", null);
            }
        }
        Map<String, String> configuration = replay.configuration();
        return new DeltaSnapshot(table, version, replay.protocol(), replay.metadataId(), schema,
                replay.partitionColumns(), configuration, mode, replay.files());
    }
}
