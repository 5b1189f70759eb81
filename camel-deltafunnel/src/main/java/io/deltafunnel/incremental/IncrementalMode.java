package io.deltafunnel.incremental;

import java.util.Locale;

/** How a {@code deltafunnel:} consumer loads its Delta tables across runs. */
public enum IncrementalMode {
    /** Every poll reads the tables' latest snapshots (no state). */
    NONE,
    /** A poll whose tables have not advanced since the last loaded version emits nothing; otherwise the snapshot. */
    SNAPSHOT,
    /** The change data feed between the last loaded version and the latest, with the change columns. */
    CHANGES;

    public static IncrementalMode parse(String text) {
        return text == null || text.isBlank() ? NONE : valueOf(text.trim().toUpperCase(Locale.ROOT));
    }
}
