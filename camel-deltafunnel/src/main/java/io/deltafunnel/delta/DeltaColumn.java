package io.deltafunnel.delta;

import java.util.Map;

/**
 * One field of a Delta schema (top-level column or nested struct field). {@code name} is the logical name the view
 * exposes; {@code physicalName} is the name in the Parquet files (equal to {@code name} unless column mapping is
 * active); {@code fieldId} is {@code delta.columnMapping.id} or null; {@code metadata} is the field's raw metadata.
 */
public record DeltaColumn(String name, DeltaType type, boolean nullable, String physicalName, Integer fieldId,
        Map<String, Object> metadata) {

    public DeltaColumn {
        metadata = metadata == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(metadata));
    }
}
