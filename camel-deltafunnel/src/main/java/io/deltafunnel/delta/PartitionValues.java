package io.deltafunnel.delta;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * Partition value deserialization: the log stores every partition value as a string (empty string and null both mean
 * NULL). Values are converted once per file, into the typed partition table the view joins, never by parsing paths.
 */
final class PartitionValues {

    private PartitionValues() {
    }

    /** Java-side preparation of a serialized value before it goes to DuckDB as VARCHAR; null for a NULL value. */
    static String prepare(DeltaType type, String serialized) {
        if (serialized == null || serialized.isEmpty()) {
            return null;
        }
        if (type instanceof DeltaType.Primitive p && p.name().equals("binary")) {
            // each character of the string is one byte value (written with \\u escapes)
            byte[] bytes = new byte[serialized.length()];
            boolean latin1 = true;
            for (int i = 0; i < serialized.length(); i++) {
                char c = serialized.charAt(i);
                if (c > 0xFF) {
                    latin1 = false;
                    break;
                }
                bytes[i] = (byte) c;
            }
            return HexFormat.of().formatHex(latin1 ? bytes : serialized.getBytes(StandardCharsets.UTF_8));
        }
        return serialized;
    }

    /** SQL turning the prepared VARCHAR column {@code column} into the Delta type. */
    static String convert(String column, DeltaType type) {
        String duck = DeltaTypeMapper.duckType(type);
        if (type instanceof DeltaType.Primitive p) {
            switch (p.name()) {
                case "string":
                    return column;
                case "binary":
                    return "unhex(" + column + ")";
                case "timestamp":
                    return "CASE WHEN regexp_matches(" + column + ", '(Z|[+-]\\d\\d:?\\d\\d)$') THEN CAST(" + column
                            + " AS TIMESTAMP WITH TIME ZONE) ELSE timezone('UTC', CAST(" + column + " AS TIMESTAMP)) END";
                case "void":
                    return "CAST(NULL AS VARCHAR)";
                default:
                    return "CAST(" + column + " AS " + duck + ")";
            }
        }
        return "CAST(" + column + " AS " + duck + ")";
    }
}
