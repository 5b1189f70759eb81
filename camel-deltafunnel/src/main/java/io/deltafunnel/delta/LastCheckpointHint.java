package io.deltafunnel.delta;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;

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
        try {
            Map<String, Object> json = Json.parseObject(content.trim());
            Object v = json.get("version");
            Object p = json.get("parts");
            if (!(v instanceof Long version)) {
                LOG.warn("Delta table {}: {} has no numeric version; ignoring it", table, file);
                return absent();
            }
            return new LastCheckpointHint(version, p instanceof Long parts ? parts.intValue() : null);
        } catch (IllegalArgumentException e) {
            LOG.warn("Delta table {}: {} is corrupt ({}); ignoring it and using the log listing", table, file,
                    e.getMessage());
            return absent();
        }
    }
}
