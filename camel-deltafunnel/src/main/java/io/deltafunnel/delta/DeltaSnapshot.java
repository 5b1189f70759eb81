package io.deltafunnel.delta;

import java.util.List;
import java.util.Map;

/**
 * An immutable, fully resolved Delta table snapshot: protocol, metadata, schema (logical names, with physical names
 * when column mapping is on) and the live files. Produced by {@link DeltaLog}; consumed by {@link DeltaViews} and by
 * callers who want to know which version was read.
 */
public final class DeltaSnapshot {

    private final String tablePath;
    private final long version;
    private final DeltaProtocol protocol;
    private final String metadataId;
    private final List<DeltaColumn> schema;
    private final List<String> partitionColumns;
    private final Map<String, String> configuration;
    private final ColumnMappingMode columnMappingMode;
    private final List<AddFile> files;

    DeltaSnapshot(String tablePath, long version, DeltaProtocol protocol, String metadataId, List<DeltaColumn> schema,
            List<String> partitionColumns, Map<String, String> configuration, ColumnMappingMode columnMappingMode,
            List<AddFile> files) {
        this.tablePath = tablePath;
        this.version = version;
        this.protocol = protocol;
        this.metadataId = metadataId;
        this.schema = List.copyOf(schema);
        this.partitionColumns = List.copyOf(partitionColumns);
        this.configuration = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(configuration));
        this.columnMappingMode = columnMappingMode;
        this.files = List.copyOf(files);
    }

    /** The version read. */
    public long version() {
        return version;
    }

    /** The normalized table path (no trailing slash, {@code file:} URIs turned into local paths). */
    public String tablePath() {
        return tablePath;
    }

    /** Top-level columns in schema order, logical names; includes partition columns and variant columns. */
    public List<DeltaColumn> schema() {
        return schema;
    }

    /** Logical names of the partition columns, in the metadata's order. */
    public List<String> partitionColumns() {
        return partitionColumns;
    }

    public long fileCount() {
        return files.size();
    }

    /** The metadata's {@code configuration} (table properties). */
    public Map<String, String> configuration() {
        return configuration;
    }

    public DeltaProtocol protocol() {
        return protocol;
    }

    /** The metaData {@code id} (the table's unique id). */
    public String tableId() {
        return metadataId;
    }

    public ColumnMappingMode columnMappingMode() {
        return columnMappingMode;
    }

    /**
     * The live logical files, one per (path, deletion-vector unique id), sorted by path then deletion-vector id: the
     * same path appears twice when it is live with two different deletion vectors.
     */
    public List<AddFile> files() {
        return files;
    }

    /**
     * The rows a full read of this snapshot gives, by the log's statistics alone: the sum of every file's
     * {@link AddFile#liveRecords()} ({@code stats.numRecords} less its deletion vector's cardinality; a file live
     * twice with two deletion vectors counts twice, as the view reads it twice). Null when any file has no
     * {@code numRecords}: the total is then unknown (it is never guessed). 0 for a snapshot without files. For a
     * {@linkplain #shard sharded} snapshot: the rows of the shard's share.
     */
    public Long liveRecords() {
        long sum = 0;
        for (AddFile f : files) {
            Long live = f.liveRecords();
            if (live == null) {
                return null;
            }
            sum += live;
        }
        return sum;
    }

    /**
     * The same snapshot with only the files {@code shard} reads ({@link ShardFilter}): one shard's share of a
     * sharded load. Schema, version and metadata are unchanged, so every shard's view has the same columns.
     */
    public DeltaSnapshot shard(ShardFilter shard) {
        return new DeltaSnapshot(tablePath, version, protocol, metadataId, schema, partitionColumns, configuration,
                columnMappingMode, shard.select(files));
    }

    /** The columns the view exposes: the schema without the {@linkplain #skippedColumns() skipped} ones. */
    public List<DeltaColumn> viewColumns() {
        return schema.stream().filter(c -> unreadable(c.type()) == null).toList();
    }

    /**
     * Names of the columns left out of the view because they cannot be read, in schema order. Empty for every type
     * this reader knows: {@code variant} columns (also inside structs, arrays and maps) are in the view as their JSON
     * text since they are decoded (DELTA.md, "Variant columns"), and a type it does not know is refused when the
     * schema is parsed. {@link #skippedColumnReasons()} says why each one is left out.
     */
    public List<String> skippedColumns() {
        return List.copyOf(skippedColumnReasons().keySet());
    }

    /** Each {@linkplain #skippedColumns() skipped} column's name with the reason it cannot be read, in schema order. */
    public Map<String, String> skippedColumnReasons() {
        Map<String, String> reasons = new java.util.LinkedHashMap<>();
        for (DeltaColumn c : schema) {
            String reason = unreadable(c.type());
            if (reason != null) {
                reasons.put(c.name(), reason);
            }
        }
        return java.util.Collections.unmodifiableMap(reasons);
    }

    /**
     * Why a column of this type cannot be shown, or null when it can. Every {@link DeltaType} is readable today; the
     * hook stays so that a type added to the parser before its reader lands is left out with its reason, not
     * exposed half-read.
     */
    private static String unreadable(DeltaType type) {
        return null;
    }

    @Override
    public String toString() {
        return "DeltaSnapshot[" + tablePath + " v" + version + ", " + files.size() + " files]";
    }
}
