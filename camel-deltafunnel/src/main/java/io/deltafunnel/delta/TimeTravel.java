package io.deltafunnel.delta;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Maps a timestamp to the version that was current then: the newest commit whose commit timestamp is at or before it.
 * Commit timestamps are {@code commitInfo.inCommitTimestamp} for versions since in-commit timestamps were enabled,
 * else the commit file's modification time (Java NIO for local paths, DuckDB {@code read_blob} for remote ones),
 * made monotonic as Delta does.
 */
final class TimeTravel {

    private TimeTravel() {
    }

    static long versionAt(Connection duckdb, LogListing listing, Instant asOf) throws DeltaException {
        String table = listing.table();
        DeltaSnapshot latest = DeltaLog.load(duckdb, listing, listing.latestVersion());
        Map<String, String> conf = latest.configuration();
        boolean ict = "true".equalsIgnoreCase(conf.get("delta.enableInCommitTimestamps"));
        long ictFrom = Long.MAX_VALUE;
        if (ict) {
            String from = conf.get("delta.inCommitTimestampEnablementVersion");
            try {
                ictFrom = from == null ? 0 : Long.parseLong(from.trim());
            } catch (NumberFormatException e) {
                throw new CorruptLogException(table, null, 0, "metaData.configuration",
                        "delta.inCommitTimestampEnablementVersion is not a version number: '" + from + "'", e);
            }
        }
        TreeMap<Long, Long> timestamps = new TreeMap<>();
        List<String> ictFiles = new ArrayList<>();
        List<Map.Entry<Long, String>> mtimeFiles = new ArrayList<>();
        for (Map.Entry<Long, String> e : listing.commits().entrySet()) {
            if (e.getKey() >= ictFrom) {
                ictFiles.add(e.getValue());
            } else {
                mtimeFiles.add(e);
            }
        }
        if (!ictFiles.isEmpty()) {
            Map<Long, Long> ictTimes = new TreeMap<>();
            CommitReader.read(duckdb, table, ictFiles, ActionSpec.TIMESTAMPS, (version, file, line, name, action) -> {
                com.fasterxml.jackson.databind.JsonNode ts = action.get("inCommitTimestamp");
                if (ts != null && !ts.isNull()) {
                    ictTimes.merge(version, ts.asLong(), Math::max);
                }
            });
            for (Map.Entry<Long, String> e : listing.commits().tailMap(ictFrom, true).entrySet()) {
                Long ts = ictTimes.get(e.getKey());
                if (ts == null) {
                    throw new CorruptLogException(table, e.getValue(), 0, "commitInfo.inCommitTimestamp",
                            "in-commit timestamps are enabled but the commit has no commitInfo.inCommitTimestamp", null);
                }
                timestamps.put(e.getKey(), ts);
            }
        }
        TreeMap<Long, Long> mtimes = modificationTimes(duckdb, table, mtimeFiles);
        long previous = Long.MIN_VALUE;
        for (Map.Entry<Long, Long> e : mtimes.entrySet()) {
            long ts = Math.max(e.getValue(), previous == Long.MIN_VALUE ? e.getValue() : previous + 1);
            timestamps.put(e.getKey(), ts);
            previous = ts;
        }
        long wanted = asOf.toEpochMilli();
        Long found = null;
        for (Map.Entry<Long, Long> e : timestamps.entrySet()) {
            if (e.getValue() <= wanted) {
                found = e.getKey();
            }
        }
        if (found == null) {
            Map.Entry<Long, Long> first = timestamps.firstEntry();
            throw new VersionNotFoundException(table, "no version at or before " + asOf + (first == null ? ""
                    : ": the earliest available commit is version " + first.getKey() + " at "
                            + Instant.ofEpochMilli(first.getValue())));
        }
        return found;
    }

    private static TreeMap<Long, Long> modificationTimes(Connection duckdb, String table, List<Map.Entry<Long, String>> files)
            throws DeltaException {
        TreeMap<Long, Long> result = new TreeMap<>();
        if (files.isEmpty()) {
            return result;
        }
        if (!TablePaths.isRemote(table)) {
            for (Map.Entry<Long, String> e : files) {
                try {
                    result.put(e.getKey(), Files.getLastModifiedTime(Path.of(e.getValue())).toMillis());
                } catch (IOException ex) {
                    throw new CorruptLogException(table, e.getValue(), "cannot read the commit's modification time", ex);
                }
            }
            return result;
        }
        Map<String, Long> byName = new TreeMap<>();
        for (Map.Entry<Long, String> e : files) {
            byName.put(e.getValue(), e.getKey());
        }
        String sql = "SELECT filename, epoch_ms(last_modified) FROM read_blob("
                + SqlText.list(new ArrayList<>(byName.keySet())) + ")";
        try (Statement st = duckdb.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            while (rs.next()) {
                Long v = byName.get(rs.getString(1));
                if (v != null) {
                    result.put(v, rs.getLong(2));
                }
            }
        } catch (SQLException e) {
            throw new CorruptLogException(table, null, "cannot read commit modification times (" + e.getMessage() + ")", e);
        }
        return result;
    }
}
