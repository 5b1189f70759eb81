package io.deltafunnel.delta;

import java.util.Locale;

/** The table's {@code delta.columnMapping.mode}, honoured only when the protocol enables column mapping. */
public enum ColumnMappingMode {
    NONE, NAME, ID;

    static ColumnMappingMode parse(String tablePath, String value) throws UnsupportedFeatureException {
        if (value == null || value.isEmpty()) {
            return NONE;
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "none" -> NONE;
            case "name" -> NAME;
            case "id" -> ID;
            default -> throw new UnsupportedFeatureException(tablePath, "delta.columnMapping.mode=" + value,
                    "unsupported column mapping mode '" + value + "'");
        };
    }
}
