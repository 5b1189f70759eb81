package io.deltafunnel.delta;

/**
 * The DuckDB struct types the reader projects every log source (JSON commit, checkpoint, sidecar) onto, so that one
 * SQL replay works over all of them. Fields absent from a source come out NULL; fields the reader does not need
 * (stats, tags, row tracking...) are not read.
 */
final class ActionSchema {

    static final String DV = "STRUCT(storageType VARCHAR, pathOrInlineDv VARCHAR, \"offset\" INTEGER, "
            + "sizeInBytes INTEGER, cardinality BIGINT)";
    static final String ADD = "STRUCT(path VARCHAR, partitionValues MAP(VARCHAR, VARCHAR), size BIGINT, "
            + "modificationTime BIGINT, deletionVector " + DV + ")";
    static final String REMOVE = "STRUCT(path VARCHAR, deletionVector " + DV + ")";
    static final String METADATA = "STRUCT(id VARCHAR, schemaString VARCHAR, partitionColumns VARCHAR[], "
            + "configuration MAP(VARCHAR, VARCHAR))";
    static final String PROTOCOL = "STRUCT(minReaderVersion INTEGER, minWriterVersion INTEGER, "
            + "readerFeatures VARCHAR[], writerFeatures VARCHAR[])";
    static final String SIDECAR = "STRUCT(path VARCHAR)";
    static final String COMMIT_INFO = "STRUCT(inCommitTimestamp BIGINT)";

    /** The {@code columns=} argument of {@code read_ndjson} for commits and v2 JSON checkpoints. */
    static String ndjsonColumns(boolean withSidecar) {
        return "{add: " + SqlText.literal(ADD) + ", remove: " + SqlText.literal(REMOVE) + ", metaData: "
                + SqlText.literal(METADATA) + ", protocol: " + SqlText.literal(PROTOCOL)
                + (withSidecar ? ", sidecar: " + SqlText.literal(SIDECAR) : "") + "}";
    }

    private ActionSchema() {
    }
}
