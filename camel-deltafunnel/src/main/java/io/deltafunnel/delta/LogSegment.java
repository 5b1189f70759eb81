package io.deltafunnel.delta;

import java.util.ArrayList;
import java.util.List;

/**
 * The files needed to reconstruct one version: an optional checkpoint plus the contiguous commits after it (or from
 * version 0). Chosen from a {@link LogListing}; this is where a gap in the log or a cleaned-up history is detected.
 */
record LogSegment(long version, LogListing.Checkpoint checkpoint, List<String> commits) {

    /**
     * @param skip how many of the usable checkpoints to pass over (newest first), used to fall back after a corrupt one
     * @return null when {@code skip} passes over every candidate and commits from 0 cannot serve either
     */
    static LogSegment build(LogListing listing, long version, int skip) throws DeltaException {
        String table = listing.table();
        if (version > listing.latestVersion()) {
            throw new VersionNotFoundException(table, "version " + version + " does not exist; the latest version is "
                    + listing.latestVersion());
        }
        int skipped = 0;
        for (LogListing.Checkpoint cp : listing.checkpointsAtOrBelow(version)) {
            if (skipped++ < skip) {
                continue;
            }
            return new LogSegment(version, cp, commitsBetween(listing, cp.version() + 1, version));
        }
        // no (more) checkpoint: replay from version 0
        if (!listing.commits().containsKey(0L)) {
            if (skip > 0) {
                return null;
            }
            long earliest = listing.commits().isEmpty() ? -1 : listing.commits().firstKey();
            throw new VersionNotFoundException(table, "version " + version + " cannot be reconstructed: the log has no "
                    + "commit 0" + (earliest >= 0 ? " (it starts at version " + earliest + ")" : "")
                    + " and no checkpoint at or below version " + version);
        }
        return new LogSegment(version, null, commitsBetween(listing, 0, version));
    }

    private static List<String> commitsBetween(LogListing listing, long from, long to) throws MissingCommitException {
        List<String> files = new ArrayList<>();
        for (long v = from; v <= to; v++) {
            String file = listing.commits().get(v);
            if (file == null) {
                throw new MissingCommitException(listing.table(), listing.commitFileName(v), "commit for version " + v
                        + " is missing from the log (needed to read version " + to + ")");
            }
            files.add(file);
        }
        return files;
    }
}
