package io.deltafunnel.delta;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The content of {@code _delta_log/_last_checkpoint}. It is only a hint: the reader always lists the log (DuckDB's
 * glob cannot list "from version N on"), so a missing, stale or corrupt file changes nothing but a log line; when
 * several complete checkpoints exist for the same version the hint's part count breaks the tie.
 */
record LastCheckpointHint(long version, Integer parts) {

    private static final Logger LOG = LoggerFactory.getLogger(LastCheckpointHint.class);

    static LastCheckpointHint absent() {
        return new LastCheckpointHint(-1, null);
    }

    static LastCheckpointHint read(Connection duckdb, String table, String file) {
        String content = null;
        try (PreparedStatement ps = duckdb.prepareStatement("SELECT content FROM read_text(?)")) {
            ps.setString(1, file);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    content = rs.getString(1);
                }
            }
        } catch (SQLException e) {
            LOG.warn("Delta table {}: cannot read {} ({}); listing the log instead", table, file, e.getMessage());
            return absent();
        }
        if (content == null) {
            return absent();
        }
        JsonNode json;
        try {
            json = CommitReader.MAPPER.readTree(content.trim());
        } catch (JsonProcessingException e) {
            return corrupt(table, file, e.getOriginalMessage());
        }
        if (json == null || !json.isObject()) {
            return corrupt(table, file, "JSON object expected");
        }
        JsonNode v = json.get("version");
        JsonNode p = json.get("parts");
        if (!isLong(v)) {
            LOG.warn("Delta table {}: {} has no numeric version; ignoring it", table, file);
            return absent();
        }
        return new LastCheckpointHint(v.longValue(), isLong(p) ? p.intValue() : null);
    }

    /** A JSON integer that fits a long (not 1.0, not 1e3, not "1"). */
    private static boolean isLong(JsonNode n) {
        return n != null && n.isIntegralNumber() && n.canConvertToLong();
    }

    private static LastCheckpointHint corrupt(String table, String file, String problem) {
        LOG.warn("Delta table {}: {} is corrupt ({}); ignoring it and using the log listing", table, file, problem);
        return absent();
    }
}
