package io.deltafunnel.delta;

/**
 * The smallest Parquet checkpoint schema (as DuckDB struct types) that {@link CheckpointReader} accepts: the required
 * fields of {@link ActionSpec} plus the optional ones the reader reads. Writers may add any other columns and fields.
 * Used to write checkpoints and sidecars (tests, benchmarks); the reader checks against {@link ActionSpec}.
 */
final class ActionSchema {

    static final String DV = "STRUCT(storageType VARCHAR, pathOrInlineDv VARCHAR, \"offset\" INTEGER, "
            + "sizeInBytes INTEGER, cardinality BIGINT)";
    static final String ADD = "STRUCT(path VARCHAR, partitionValues MAP(VARCHAR, VARCHAR), size BIGINT, "
            + "modificationTime BIGINT, dataChange BOOLEAN, deletionVector " + DV + ")";
    static final String REMOVE = "STRUCT(path VARCHAR, dataChange BOOLEAN, deletionVector " + DV + ")";
    static final String METADATA = "STRUCT(id VARCHAR, format STRUCT(provider VARCHAR, \"options\" MAP(VARCHAR, VARCHAR)), "
            + "schemaString VARCHAR, partitionColumns VARCHAR[], configuration MAP(VARCHAR, VARCHAR))";
    static final String PROTOCOL = "STRUCT(minReaderVersion INTEGER, minWriterVersion INTEGER, "
            + "readerFeatures VARCHAR[], writerFeatures VARCHAR[])";

    private ActionSchema() {
    }
}
