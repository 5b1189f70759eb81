package io.deltafunnel.delta;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses a Delta {@code schemaString} (Spark JSON schema) into {@link DeltaColumn}s, applying the column mapping mode. */
final class SchemaParser {

    static final String PHYSICAL_NAME = "delta.columnMapping.physicalName";
    static final String FIELD_ID = "delta.columnMapping.id";
    private static final Pattern DECIMAL = Pattern.compile("decimal\\(\\s*(\\d+)\\s*,\\s*(-?\\d+)\\s*\\)");
    private static final java.util.Set<String> PRIMITIVES = java.util.Set.of("string", "long", "integer", "short",
            "byte", "float", "double", "boolean", "binary", "date", "timestamp", "timestamp_ntz", "void");

    /**
     * The schema as plain values: objects as {@link java.util.LinkedHashMap}s, arrays as lists, integers as
     * {@link Long} (beyond a long {@link java.math.BigInteger}), other numbers as {@link java.math.BigDecimal}; no
     * trailing text.
     */
    private static final JsonMapper VALUES = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, DeserializationFeature.USE_LONG_FOR_INTS,
                    DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    private final String tablePath;
    private final ColumnMappingMode mode;

    private SchemaParser(String tablePath, ColumnMappingMode mode) {
        this.tablePath = tablePath;
        this.mode = mode;
    }

    static List<DeltaColumn> parse(String tablePath, String schemaString, ColumnMappingMode mode) throws DeltaException {
        Object root;
        try {
            root = VALUES.readValue(schemaString, Object.class);
        } catch (JsonProcessingException e) {
            throw new CorruptLogException(tablePath, null, "metaData.schemaString is not valid JSON: "
                    + e.getOriginalMessage(), e);
        }
        if (!(root instanceof Map)) {
            throw new CorruptLogException(tablePath, null, "metaData.schemaString is not valid JSON: JSON object expected",
                    null);
        }
        SchemaParser parser = new SchemaParser(tablePath, mode);
        DeltaType type = parser.type(root);
        if (!(type instanceof DeltaType.Struct struct)) {
            throw new CorruptLogException(tablePath, null, "metaData.schemaString is not a struct", null);
        }
        return struct.fields();
    }

    @SuppressWarnings("unchecked")
    private DeltaType type(Object node) throws DeltaException {
        if (node instanceof String name) {
            if (PRIMITIVES.contains(name)) {
                return new DeltaType.Primitive(name);
            }
            if (name.equals("variant")) {
                return new DeltaType.Variant();
            }
            Matcher m = DECIMAL.matcher(name);
            if (m.matches()) {
                try {
                    return new DeltaType.Decimal(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)));
                } catch (NumberFormatException e) {
                    throw new CorruptLogException(tablePath, null, 0, "metaData.schemaString",
                            "metaData.schemaString: bad decimal type '" + name + "'", e);
                }
            }
            if (name.equals("decimal")) {
                return new DeltaType.Decimal(10, 0);
            }
            throw new UnsupportedFeatureException(tablePath, "type " + name, "unsupported data type '" + name + "'");
        }
        if (!(node instanceof Map)) {
            throw new CorruptLogException(tablePath, null, "schema type is neither a name nor an object: " + node, null);
        }
        Map<String, Object> obj = (Map<String, Object>) node;
        String kind = String.valueOf(obj.get("type"));
        switch (kind) {
            case "struct": {
                List<DeltaColumn> fields = new ArrayList<>();
                Object raw = obj.get("fields");
                if (!(raw instanceof List)) {
                    throw new CorruptLogException(tablePath, null, "struct type without fields", null);
                }
                for (Object f : (List<Object>) raw) {
                    if (!(f instanceof Map)) {
                        throw new CorruptLogException(tablePath, null, 0, "metaData.schemaString",
                                "metaData.schemaString: struct field is not an object: " + f, null);
                    }
                    fields.add(field((Map<String, Object>) f));
                }
                return new DeltaType.Struct(fields);
            }
            case "array":
                return new DeltaType.Array(type(obj.get("elementType")), !Boolean.FALSE.equals(obj.get("containsNull")));
            case "map":
                return new DeltaType.MapType(type(obj.get("keyType")), type(obj.get("valueType")),
                        !Boolean.FALSE.equals(obj.get("valueContainsNull")));
            default:
                throw new UnsupportedFeatureException(tablePath, "type " + kind, "unsupported data type '" + kind + "'");
        }
    }

    @SuppressWarnings("unchecked")
    private DeltaColumn field(Map<String, Object> f) throws DeltaException {
        Object name = f.get("name");
        if (!(name instanceof String logical)) {
            throw new CorruptLogException(tablePath, null, "schema field without a name: " + f, null);
        }
        Map<String, Object> metadata = f.get("metadata") instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
        String physical = logical;
        Integer id = null;
        if (mode != ColumnMappingMode.NONE) {
            Object p = metadata.get(PHYSICAL_NAME);
            if (!(p instanceof String ps) || ps.isEmpty()) {
                throw new CorruptLogException(tablePath, null, "column mapping mode " + mode + " but field '" + logical
                        + "' has no " + PHYSICAL_NAME, null);
            }
            physical = ps;
            Object i = metadata.get(FIELD_ID);
            if (i instanceof Number n) {
                id = n.intValue();
            }
        }
        return new DeltaColumn(logical, type(f.get("type")), !Boolean.FALSE.equals(f.get("nullable")), physical, id, metadata);
    }
}
