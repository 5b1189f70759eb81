package io.deltafunnel.delta;

import java.time.Instant;
import java.util.Objects;

/**
 * What to register: a DuckDB view name, the table path (local directory, {@code file:} URI or any URI DuckDB's file
 * system can list such as {@code s3://}), and optionally a version or a timestamp to travel to (at most one of them).
 * Owned by the caller; immutable.
 */
public record DeltaTableSpec(String view, String path, Long version, Instant timestamp) {

    public DeltaTableSpec {
        Objects.requireNonNull(view, "view");
        Objects.requireNonNull(path, "path");
        if (view.isBlank()) {
            throw new IllegalArgumentException("view name must not be blank");
        }
        if (version != null && timestamp != null) {
            throw new IllegalArgumentException("view " + view + ": give a version or a timestamp, not both");
        }
        if (version != null && version < 0) {
            throw new IllegalArgumentException("view " + view + ": version must be >= 0, was " + version);
        }
    }

    /** A spec for the latest version. */
    public static DeltaTableSpec latest(String view, String path) {
        return new DeltaTableSpec(view, path, null, null);
    }
}
