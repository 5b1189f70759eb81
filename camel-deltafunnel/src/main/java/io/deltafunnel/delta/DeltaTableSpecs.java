package io.deltafunnel.delta;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Builds the {@link DeltaTableSpec}s of a source from its three option maps: tables ({@code delta.VIEW=PATH}),
 * version pins ({@code deltaVersion.VIEW=N}) and time pins ({@code deltaTimestamp.VIEW=INSTANT}). Empty pin values
 * (for example from an unset Kamelet property) mean latest. No Camel here: the {@code deltafunnel:} endpoint only
 * hands its option maps over.
 */
public final class DeltaTableSpecs {

    private DeltaTableSpecs() {
    }

    /**
     * The specs, one per table in the order of {@code tables}; null maps count as empty.
     *
     * @throws IllegalArgumentException naming the option when a pin is malformed or names no registered view
     */
    public static List<DeltaTableSpec> of(Map<String, Object> tables, Map<String, Object> versions,
            Map<String, Object> timestamps) {
        List<DeltaTableSpec> specs = new ArrayList<>();
        Map<String, Object> views = tables == null ? Map.of() : tables;
        for (String view : pinnedViews(versions, timestamps)) {
            if (!views.containsKey(view)) {
                throw new IllegalArgumentException("deltaVersion./deltaTimestamp." + view
                                                   + " pins a view that has no delta." + view + " table");
            }
        }
        for (Map.Entry<String, Object> e : views.entrySet()) {
            String view = e.getKey();
            String version = pin(versions, view);
            String timestamp = pin(timestamps, view);
            try {
                specs.add(new DeltaTableSpec(view, String.valueOf(e.getValue()),
                        version == null ? null : Long.valueOf(version),
                        timestamp == null ? null : Instant.parse(timestamp)));
            } catch (NumberFormatException | DateTimeParseException ex) {
                throw new IllegalArgumentException("view " + view + ": bad time-travel pin (deltaVersion." + view
                                                   + "=" + version + ", deltaTimestamp." + view + "=" + timestamp
                                                   + "): " + ex.getMessage(), ex);
            }
        }
        return specs;
    }

    private static List<String> pinnedViews(Map<String, Object> versions, Map<String, Object> timestamps) {
        List<String> views = new ArrayList<>();
        for (Map<String, Object> m : Arrays.asList(versions, timestamps)) {
            if (m != null) {
                m.forEach((k, v) -> {
                    if (v != null && !v.toString().isBlank()) {
                        views.add(k);
                    }
                });
            }
        }
        return views;
    }

    private static String pin(Map<String, Object> pins, String view) {
        Object v = pins == null ? null : pins.get(view);
        return v == null || v.toString().isBlank() ? null : v.toString().trim();
    }
}
