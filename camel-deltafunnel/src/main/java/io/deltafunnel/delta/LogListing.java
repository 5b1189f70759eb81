package io.deltafunnel.delta;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One listing of a table's {@code _delta_log/} taken with DuckDB's {@code glob()} (so it works on any file system
 * DuckDB can list), classified into commits and checkpoints. Hadoop {@code .crc} sidecars, {@code N.crc} version
 * checksums, compaction files and anything else are ignored.
 */
final class LogListing {

    private static final Logger LOG = LoggerFactory.getLogger(LogListing.class);

    private static final Pattern COMMIT = Pattern.compile("(\\d{20})\\.json");
    private static final Pattern CLASSIC = Pattern.compile("(\\d{20})\\.checkpoint\\.parquet");
    private static final Pattern MULTI = Pattern.compile("(\\d{20})\\.checkpoint\\.(\\d{10})\\.(\\d{10})\\.parquet");
    private static final Pattern UUID_NAMED = Pattern.compile("(\\d{20})\\.checkpoint\\.[0-9A-Za-z-]+\\.(json|parquet)");

    /** A complete checkpoint: its version, files (all parts), and whether it is a UUID-named v2 JSON manifest. */
    record Checkpoint(long version, List<String> files, Kind kind) {
        enum Kind { CLASSIC, MULTI_PART, V2_JSON, V2_PARQUET }
    }

    private final String table;
    private final NavigableMap<Long, String> commits;
    private final NavigableMap<Long, List<Checkpoint>> checkpoints;
    private final LastCheckpointHint hint;

    private LogListing(String table, NavigableMap<Long, String> commits, NavigableMap<Long, List<Checkpoint>> checkpoints,
            LastCheckpointHint hint) {
        this.table = table;
        this.commits = commits;
        this.checkpoints = checkpoints;
        this.hint = hint;
    }

    static LogListing list(Connection duckdb, String table) throws DeltaException {
        String logDir = TablePaths.logDir(table);
        List<String> names = new ArrayList<>();
        try (PreparedStatement ps = duckdb.prepareStatement("SELECT file FROM glob(?)")) {
            ps.setString(1, logDir + "/*");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    names.add(rs.getString(1));
                }
            }
        } catch (SQLException e) {
            // not necessarily "not a Delta table": a remote file system may be unconfigured or deny access
            throw new DeltaException(table, "cannot list " + logDir + " (" + e.getMessage() + ")", e);
        }
        NavigableMap<Long, String> commits = new TreeMap<>();
        Map<Long, List<Checkpoint>> found = new TreeMap<>();
        Map<String, TreeMap<Integer, String>> multiParts = new TreeMap<>();
        boolean hasLastCheckpoint = false;
        for (String full : names) {
            String name = full.substring(Math.max(full.lastIndexOf('/'), full.lastIndexOf('\\')) + 1);
            String path = logDir + "/" + name;
            Matcher m;
            if ((m = COMMIT.matcher(name)).matches()) {
                commits.put(Long.parseLong(m.group(1)), path);
            } else if ((m = CLASSIC.matcher(name)).matches()) {
                long v = Long.parseLong(m.group(1));
                found.computeIfAbsent(v, k -> new ArrayList<>()).add(new Checkpoint(v, List.of(path), Checkpoint.Kind.CLASSIC));
            } else if ((m = MULTI.matcher(name)).matches()) {
                multiParts.computeIfAbsent(m.group(1) + "/" + Integer.parseInt(m.group(3)), k -> new TreeMap<>())
                        .put(Integer.parseInt(m.group(2)), path);
            } else if ((m = UUID_NAMED.matcher(name)).matches()) {
                long v = Long.parseLong(m.group(1));
                Checkpoint.Kind kind = m.group(2).equals("json") ? Checkpoint.Kind.V2_JSON : Checkpoint.Kind.V2_PARQUET;
                found.computeIfAbsent(v, k -> new ArrayList<>()).add(new Checkpoint(v, List.of(path), kind));
            } else if (name.equals("_last_checkpoint")) {
                hasLastCheckpoint = true;
            }
        }
        for (Map.Entry<String, TreeMap<Integer, String>> e : multiParts.entrySet()) {
            String[] key = e.getKey().split("/");
            long v = Long.parseLong(key[0]);
            int parts = Integer.parseInt(key[1]);
            if (e.getValue().size() == parts && e.getValue().firstKey() == 1 && e.getValue().lastKey() == parts) {
                found.computeIfAbsent(v, k -> new ArrayList<>())
                        .add(new Checkpoint(v, List.copyOf(e.getValue().values()), Checkpoint.Kind.MULTI_PART));
            } else {
                LOG.warn("Delta table {}: ignoring incomplete multi-part checkpoint at version {} ({} of {} parts)", table,
                        v, e.getValue().size(), parts);
            }
        }
        if (commits.isEmpty() && found.isEmpty()) {
            throw new NotADeltaTableException(table, emptyLogProblem(table, logDir));
        }
        LastCheckpointHint hint = hasLastCheckpoint ? LastCheckpointHint.read(duckdb, table, logDir + "/_last_checkpoint")
                : LastCheckpointHint.absent();
        NavigableMap<Long, List<Checkpoint>> checkpoints = new TreeMap<>(found);
        return new LogListing(table, commits, checkpoints, hint);
    }

    /**
     * Why a table has no commit or checkpoint file, as precisely as a local path allows: the directory does not
     * exist, it has no {@code _delta_log}, or that log is empty. (A remote path is not probed.)
     */
    private static String emptyLogProblem(String table, String logDir) {
        if (!TablePaths.isRemote(table)) {
            try {
                java.nio.file.Path dir = java.nio.file.Path.of(table);
                if (!java.nio.file.Files.exists(dir)) {
                    return "the directory " + table + " does not exist";
                }
                if (!java.nio.file.Files.isDirectory(dir)) {
                    return "not a Delta table: " + table + " is a file, not a directory";
                }
                if (!java.nio.file.Files.isDirectory(dir.resolve("_delta_log"))) {
                    return "not a Delta table: the directory " + table + " has no _delta_log directory";
                }
            } catch (RuntimeException e) {
                // not a path this file system can check: the general message
            }
        }
        return "not a Delta table: no commit or checkpoint files in " + logDir;
    }

    String table() {
        return table;
    }

    NavigableMap<Long, String> commits() {
        return Collections.unmodifiableNavigableMap(commits);
    }

    LastCheckpointHint hint() {
        return hint;
    }

    /** The newest version any commit or checkpoint file proves to exist. */
    long latestVersion() {
        long latest = -1;
        if (!commits.isEmpty()) {
            latest = commits.lastKey();
        }
        if (!checkpoints.isEmpty()) {
            latest = Math.max(latest, checkpoints.lastKey());
        }
        return latest;
    }

    /** Complete checkpoints at or below {@code version}, newest first; at one version the hint's choice comes first. */
    List<Checkpoint> checkpointsAtOrBelow(long version) {
        List<Checkpoint> result = new ArrayList<>();
        for (List<Checkpoint> atVersion : checkpoints.headMap(version, true).descendingMap().values()) {
            List<Checkpoint> ordered = new ArrayList<>(atVersion);
            ordered.sort((a, b) -> Integer.compare(rank(b), rank(a)));
            result.addAll(ordered);
        }
        return result;
    }

    private int rank(Checkpoint c) {
        int r = switch (c.kind()) {
            case V2_JSON, V2_PARQUET -> 3;
            case CLASSIC -> 2;
            case MULTI_PART -> 1;
        };
        if (hint.version() == c.version() && hint.parts() != null && c.kind() == Checkpoint.Kind.MULTI_PART
                && hint.parts() == c.files().size()) {
            r += 10;
        }
        return r;
    }

    String commitFileName(long version) {
        return TablePaths.logDir(table) + "/" + String.format("%020d", version) + ".json";
    }
}
