package io.deltafunnel.incremental;

/** How a {@code deltafunnel:} consumer loads its Delta tables across runs. */
public enum IncrementalMode {
    /** Every poll reads the tables' latest snapshots (no state). */
    NONE,
    /** A poll whose tables have not advanced since the last loaded version emits nothing; otherwise the snapshot. */
    SNAPSHOT,
    /** The change data feed between the last loaded version and the latest, with the change columns. */
    CHANGES;
}
