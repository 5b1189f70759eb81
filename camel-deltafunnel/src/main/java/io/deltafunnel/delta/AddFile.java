package io.deltafunnel.delta;

import java.util.Map;

/**
 * One live logical file of a snapshot. {@code path} is the raw (URI-encoded) path from the log, {@code location} the
 * decoded absolute location DuckDB reads; {@code partitionValues} is keyed by physical column name, values are the
 * serialized strings from the log (null for a null partition value); {@code deletionVector} may be null;
 * {@code numRecords} is the {@code stats.numRecords} the writer recorded, or null when the log has none (it is used
 * to balance the shards of a sharded load and to tell a run how many rows to expect, never to read rows).
 */
public record AddFile(String path, String location, Map<String, String> partitionValues, long size, long modificationTime,
        DeletionVectorDescriptor deletionVector, Long numRecords) {

    /** A file without recorded row count. */
    public AddFile(String path, String location, Map<String, String> partitionValues, long size, long modificationTime,
            DeletionVectorDescriptor deletionVector) {
        this(path, location, partitionValues, size, modificationTime, deletionVector, null);
    }

    /** The rows the file holds: {@code numRecords} less the deletion vector's cardinality; null when unknown. */
    public Long liveRecords() {
        if (numRecords == null) {
            return null;
        }
        return Math.max(0, numRecords - (deletionVector == null ? 0 : deletionVector.cardinality()));
    }

    /**
     * {@code numRecords} from an action's {@code stats} JSON string, or null when it is missing or not readable:
     * the statistics are optional and never make a log unreadable.
     */
    static Long numRecords(String statsJson) {
        if (statsJson == null || statsJson.isBlank()) {
            return null;
        }
        try {
            com.fasterxml.jackson.databind.JsonNode n = STATS.readTree(statsJson).get("numRecords");
            return n != null && n.canConvertToLong() && n.isIntegralNumber() && n.asLong() >= 0 ? n.asLong() : null;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return null;
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper STATS =
            new com.fasterxml.jackson.databind.ObjectMapper();
}
