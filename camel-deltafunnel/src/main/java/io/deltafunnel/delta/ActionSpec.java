package io.deltafunnel.delta;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The JSON schemas of the log actions this reader uses, as PROTOCOL.md defines them ("Actions" section), and the check
 * of one action object against them. Required fields must be present, not null and of the right JSON type; optional
 * fields may be absent or null, and when present must have the right type. Fields not listed here (unknown fields, or
 * fields a newer protocol adds) are ignored, as the protocol requires. {@code commitInfo} is free-form except for the
 * two timestamps the reader uses.
 */
final class ActionSpec {

    /** JSON type of a field. */
    enum Kind {
        STRING("a string"), LONG("an integer (64-bit)"), INT("an integer (32-bit)"), BOOLEAN("a boolean"),
        STRING_MAP("an object of string (or null) values"), STRING_ARRAY("an array of strings"), STRUCT("an object");

        final String description;

        Kind(String description) {
            this.description = description;
        }
    }

    /** A violation: the offending field as a dotted path, and what is wrong. */
    record Problem(String field, String message) {
        @Override
        public String toString() {
            return field + ": " + message;
        }
    }

    record Field(String name, Kind kind, boolean required, List<Field> fields) {
        static Field req(String name, Kind kind) {
            return new Field(name, kind, true, List.of());
        }

        static Field opt(String name, Kind kind) {
            return new Field(name, kind, false, List.of());
        }
    }

    static final List<Field> DELETION_VECTOR = List.of(Field.req("storageType", Kind.STRING),
            Field.req("pathOrInlineDv", Kind.STRING), Field.opt("offset", Kind.INT), Field.req("sizeInBytes", Kind.INT),
            Field.req("cardinality", Kind.LONG));

    static final List<Field> PROTOCOL = List.of(Field.req("minReaderVersion", Kind.INT),
            Field.req("minWriterVersion", Kind.INT), Field.opt("readerFeatures", Kind.STRING_ARRAY),
            Field.opt("writerFeatures", Kind.STRING_ARRAY));

    static final List<Field> METADATA = List.of(Field.req("id", Kind.STRING), Field.opt("name", Kind.STRING),
            Field.opt("description", Kind.STRING),
            new Field("format", Kind.STRUCT, true, List.of(Field.req("provider", Kind.STRING),
                    Field.opt("options", Kind.STRING_MAP))),
            Field.req("schemaString", Kind.STRING), Field.req("partitionColumns", Kind.STRING_ARRAY),
            Field.opt("createdTime", Kind.LONG), Field.req("configuration", Kind.STRING_MAP));

    static final List<Field> ADD = List.of(Field.req("path", Kind.STRING), Field.req("partitionValues", Kind.STRING_MAP),
            Field.req("size", Kind.LONG), Field.req("modificationTime", Kind.LONG), Field.req("dataChange", Kind.BOOLEAN),
            Field.opt("stats", Kind.STRING), Field.opt("tags", Kind.STRING_MAP),
            new Field("deletionVector", Kind.STRUCT, false, DELETION_VECTOR), Field.opt("baseRowId", Kind.LONG),
            Field.opt("defaultRowCommitVersion", Kind.LONG), Field.opt("clusteringProvider", Kind.STRING));

    static final List<Field> REMOVE = List.of(Field.req("path", Kind.STRING), Field.opt("deletionTimestamp", Kind.LONG),
            Field.req("dataChange", Kind.BOOLEAN), Field.opt("extendedFileMetadata", Kind.BOOLEAN),
            Field.opt("partitionValues", Kind.STRING_MAP), Field.opt("size", Kind.LONG), Field.opt("stats", Kind.STRING),
            Field.opt("tags", Kind.STRING_MAP), new Field("deletionVector", Kind.STRUCT, false, DELETION_VECTOR),
            Field.opt("baseRowId", Kind.LONG), Field.opt("defaultRowCommitVersion", Kind.LONG));

    static final List<Field> CDC = List.of(Field.req("path", Kind.STRING), Field.req("partitionValues", Kind.STRING_MAP),
            Field.req("size", Kind.LONG), Field.req("dataChange", Kind.BOOLEAN), Field.opt("tags", Kind.STRING_MAP));

    static final List<Field> SIDECAR = List.of(Field.req("path", Kind.STRING), Field.req("sizeInBytes", Kind.LONG),
            Field.req("modificationTime", Kind.LONG), Field.opt("tags", Kind.STRING_MAP));

    /** Only the fields the reader takes from the otherwise free-form commitInfo. */
    static final List<Field> COMMIT_INFO = List.of(Field.opt("timestamp", Kind.LONG),
            Field.opt("inCommitTimestamp", Kind.LONG));

    static final List<Field> CHECKPOINT_METADATA = List.of(Field.req("version", Kind.LONG),
            Field.opt("tags", Kind.STRING_MAP));

    /** No field checked: the action only has to be a JSON object. */
    static final List<Field> OBJECT_ONLY = List.of();

    /**
     * What a snapshot replay takes from a {@code remove}: the logical-file key (path and deletion vector). Its other
     * fields ({@code dataChange}, {@code deletionTimestamp}, ...) do not change a snapshot's rows; the reference reader
     * (Delta Kernel) reads tombstones with exactly this schema.
     */
    static final List<Field> REMOVE_KEY = List.of(Field.req("path", Kind.STRING),
            new Field("deletionVector", Kind.STRUCT, false, DELETION_VECTOR));

    /**
     * Action name to schema, for the line pass of a snapshot read. {@code protocol} and {@code metaData} are only
     * required to be objects here: replay takes nothing from a superseded one, and the one in effect at the version
     * read is checked against {@link #PROTOCOL} / {@link #METADATA} by {@link ActionReconciler} once it is known.
     */
    static final Map<String, List<Field>> SNAPSHOT = Map.of("protocol", OBJECT_ONLY, "metaData", OBJECT_ONLY,
            "add", ADD, "remove", REMOVE_KEY);

    /** What a v2 checkpoint's JSON manifest may hold. */
    static final Map<String, List<Field>> V2_MANIFEST = Map.of("protocol", PROTOCOL, "metaData", METADATA, "add", ADD,
            "remove", REMOVE_KEY, "sidecar", SIDECAR, "checkpointMetadata", CHECKPOINT_METADATA);

    /** What a change feed read uses. */
    static final Map<String, List<Field>> CHANGE_FEED = Map.of("metaData", METADATA, "add", ADD, "remove", REMOVE,
            "cdc", CDC, "commitInfo", COMMIT_INFO);

    /** What timestamp lookups use. */
    static final Map<String, List<Field>> TIMESTAMPS = Map.of("commitInfo", COMMIT_INFO);

    private ActionSpec() {
    }

    /**
     * Checks one action object (already known to be a JSON object).
     *
     * @return null when valid, else the first violation, its field written as a dotted path starting with the
     *         action name
     */
    static Problem check(String action, JsonNode node, List<Field> fields) {
        for (Field f : fields) {
            JsonNode v = node.get(f.name());
            String path = action + "." + f.name();
            if (v == null || v.isNull()) {
                if (f.required()) {
                    return new Problem(path, "required field is " + (v == null ? "missing" : "null"));
                }
                continue;
            }
            Problem problem = checkValue(path, f, v);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static Problem checkValue(String path, Field f, JsonNode v) {
        boolean ok;
        switch (f.kind()) {
            case STRING -> ok = v.isTextual();
            case LONG -> ok = v.isIntegralNumber() && v.canConvertToLong();
            case INT -> ok = v.isIntegralNumber() && v.canConvertToInt();
            case BOOLEAN -> ok = v.isBoolean();
            case STRING_MAP -> {
                if (!v.isObject()) {
                    ok = false;
                    break;
                }
                for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext();) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (!e.getValue().isTextual() && !e.getValue().isNull()) {
                        return new Problem(path + "[" + quote(e.getKey()) + "]", "must be a string or null, found "
                                + describe(e.getValue()));
                    }
                }
                ok = true;
            }
            case STRING_ARRAY -> {
                if (!v.isArray()) {
                    ok = false;
                    break;
                }
                for (int i = 0; i < v.size(); i++) {
                    if (!v.get(i).isTextual()) {
                        return new Problem(path + "[" + i + "]", "must be a string, found " + describe(v.get(i)));
                    }
                }
                ok = true;
            }
            case STRUCT -> {
                if (!v.isObject()) {
                    ok = false;
                    break;
                }
                return check(path, v, f.fields());
            }
            default -> throw new IllegalStateException(f.kind().name());
        }
        return ok ? null : new Problem(path, "must be " + f.kind().description + ", found " + describe(v));
    }

    /** A short description of a JSON value for messages: its type and, for scalars, the value (cut short). */
    static String describe(JsonNode v) {
        String type;
        if (v.isObject()) {
            return "an object";
        } else if (v.isArray()) {
            return "an array";
        } else if (v.isTextual()) {
            type = "a string";
        } else if (v.isIntegralNumber()) {
            type = "an integer";
        } else if (v.isNumber()) {
            type = "a decimal number";
        } else if (v.isBoolean()) {
            type = "a boolean";
        } else if (v.isNull()) {
            return "null";
        } else {
            type = "a " + v.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
        }
        String text = v.toString();
        return type + " " + (text.length() > 40 ? text.substring(0, 40) + "..." : text);
    }

    private static String quote(String key) {
        return "\"" + key + "\"";
    }
}
