package io.deltafunnel.delta;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides whether this reader may read a table: reader versions 1 to 3, and with version 3 only the reader features
 * in {@link #SUPPORTED_READER_FEATURES}. Also validates {@code delta.typeChanges} (type widening) entries.
 */
final class ProtocolSupport {

    static final int MAX_READER_VERSION = 3;

    /**
     * Reader features this reader implements. Variant columns, shredded or not, are decoded into JSON text (see
     * DELTA.md, "Variant columns"); {@code vacuumProtocolCheck} has no read-side effect.
     */
    static final Set<String> SUPPORTED_READER_FEATURES = Set.of("columnMapping", "deletionVectors", "timestampNtz",
            "typeWidening", "typeWidening-preview", "v2Checkpoint", "vacuumProtocolCheck", "variantType",
            "variantType-preview", "variantShredding", "variantShredding-preview");

    private static final List<String> INTEGERS = List.of("byte", "short", "integer", "long");

    private ProtocolSupport() {
    }

    static void check(String table, DeltaProtocol protocol) throws UnsupportedFeatureException {
        if (protocol.minReaderVersion() > MAX_READER_VERSION) {
            throw new UnsupportedFeatureException(table, "readerVersion " + protocol.minReaderVersion(),
                    "requires Delta reader protocol version " + protocol.minReaderVersion()
                            + "; this reader supports versions 1 to " + MAX_READER_VERSION);
        }
        if (protocol.minReaderVersion() == 3) {
            for (String feature : protocol.readerFeatures()) {
                if (!SUPPORTED_READER_FEATURES.contains(feature)) {
                    throw new UnsupportedFeatureException(table, feature, "requires the Delta reader table feature '"
                            + feature + "', which this reader does not support (supported: "
                            + new java.util.TreeSet<>(SUPPORTED_READER_FEATURES) + ")");
                }
            }
        }
    }

    /** Column mapping is honoured with reader version 2, or 3 with the columnMapping feature. */
    static boolean columnMappingEnabled(DeltaProtocol protocol) {
        return protocol.minReaderVersion() == 2
                || (protocol.minReaderVersion() == 3 && protocol.hasReaderFeature("columnMapping"));
    }

    /** Fails on a {@code delta.typeChanges} entry that is not one of the protocol's supported widenings. */
    @SuppressWarnings("unchecked")
    static void checkTypeChanges(String table, List<DeltaColumn> fields) throws UnsupportedFeatureException {
        for (DeltaColumn f : fields) {
            Object changes = f.metadata().get("delta.typeChanges");
            if (changes instanceof List<?> list) {
                for (Object c : list) {
                    if (c instanceof Map<?, ?> m) {
                        String from = String.valueOf(m.get("fromType"));
                        String to = String.valueOf(m.get("toType"));
                        boolean supported;
                        try {
                            supported = supportedWidening(from, to);
                        } catch (RuntimeException malformed) { // e.g. "decimal(x" cannot be parsed
                            supported = false;
                        }
                        if (!supported) {
                            throw new UnsupportedFeatureException(table, "type change " + from + " -> " + to,
                                    "column '" + f.name() + "' had an unsupported type change " + from + " -> " + to);
                        }
                    }
                }
            }
            nested(table, f.type());
        }
    }

    private static void nested(String table, DeltaType type) throws UnsupportedFeatureException {
        if (type instanceof DeltaType.Struct s) {
            checkTypeChanges(table, s.fields());
        } else if (type instanceof DeltaType.Array a) {
            nested(table, a.elementType());
        } else if (type instanceof DeltaType.MapType m) {
            nested(table, m.keyType());
            nested(table, m.valueType());
        }
    }

    static boolean supportedWidening(String from, String to) {
        String f = from.replace(" ", "");
        String t = to.replace(" ", "");
        if (INTEGERS.contains(f) && INTEGERS.contains(t)) {
            return INTEGERS.indexOf(f) < INTEGERS.indexOf(t);
        }
        if (t.equals("double") && (f.equals("float") || f.equals("byte") || f.equals("short") || f.equals("integer"))) {
            return true;
        }
        if (f.equals("date") && t.equals("timestamp_ntz")) {
            return true;
        }
        if (t.startsWith("decimal(")) {
            int[] to2 = decimal(t);
            if (f.startsWith("decimal(")) {
                int[] from2 = decimal(f);
                int k1 = to2[0] - from2[0];
                int k2 = to2[1] - from2[1];
                return k1 >= k2 && k2 >= 0;
            }
            int base = switch (f) {
                case "byte", "short", "integer" -> 10;
                case "long" -> 20;
                default -> -1;
            };
            if (base < 0) {
                return false;
            }
            int k1 = to2[0] - base;
            int k2 = to2[1];
            return k1 >= k2 && k2 >= 0;
        }
        return false;
    }

    private static int[] decimal(String s) {
        String[] parts = s.substring(s.indexOf('(') + 1, s.indexOf(')')).split(",");
        return new int[] {Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim())};
    }
}
