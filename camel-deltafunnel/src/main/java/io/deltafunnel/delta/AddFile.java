package io.deltafunnel.delta;

import java.util.Map;

/**
 * One live logical file of a snapshot. {@code path} is the raw (URI-encoded) path from the log, {@code location} the
 * decoded absolute location DuckDB reads; {@code partitionValues} is keyed by physical column name, values are the
 * serialized strings from the log (null for a null partition value); {@code deletionVector} may be null.
 */
public record AddFile(String path, String location, Map<String, String> partitionValues, long size, long modificationTime,
        DeletionVectorDescriptor deletionVector) {
}
