package io.deltafunnel.arrow.read;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Renders nested Arrow values (lists, structs, maps, and any supported scalar inside them) as compact JSON text.
 *
 * <p>Lists become arrays, structs objects keyed by field name, maps objects keyed by the key's text (in entry
 * order). Scalars: integers and decimals as JSON numbers (decimals in plain notation, never rounded), floats as
 * numbers ({@code "NaN"}, {@code "Infinity"} as strings), booleans, strings escaped, binary as base64 strings,
 * dates/times/timestamps/UUIDs as ISO-8601 strings, nulls as {@code null}.
 *
 * <p>Public so that {@code io.deltafunnel.arrow} renders JSON lines with exactly this rendering. An instance is
 * bound to one vector (valid as long as that vector is) and is not thread-safe.
 */
public final class JsonWriter {

    private final Node root;
    private final StringBuilder sb = new StringBuilder();

    private JsonWriter(Node root) {
        this.root = root;
    }

    /** Fails with {@link UnsupportedArrowTypeException} when some nested type cannot be rendered. */
    static void check(Field field) {
        ArrowType type = field.getType();
        if (type instanceof ArrowType.Struct || type instanceof ArrowType.List || type instanceof ArrowType.LargeList
                || type instanceof ArrowType.FixedSizeList || type instanceof ArrowType.Map) {
            for (Field child : field.getChildren()) {
                check(child);
            }
        } else {
            ArrowColumnTypes.forField(field);
        }
    }

    /**
     * A writer of the values of {@code vector} (any type {@link ArrowColumnTypes} supports, nested or scalar).
     *
     * @throws UnsupportedArrowTypeException when some (nested) type cannot be rendered
     */
    public static JsonWriter forVector(FieldVector vector) {
        return new JsonWriter(node(vector));
    }

    /** The JSON text of the value at {@code row} (the caller handles a top-level null). */
    public String write(int row) {
        sb.setLength(0);
        root.append(sb, row);
        return sb.toString();
    }

    private interface Node {
        void append(StringBuilder out, int index);
    }

    private static Node node(ValueVector vector) {
        if (vector instanceof MapVector map) {
            StructVector entries = (StructVector) map.getDataVector();
            Node key = node(entries.getChildByOrdinal(0));
            Node value = node(entries.getChildByOrdinal(1));
            ValueVector keyVector = entries.getChildByOrdinal(0);
            StringBuilder keyText = new StringBuilder();
            return (out, i) -> {
                if (map.isNull(i)) {
                    out.append("null");
                    return;
                }
                out.append('{');
                for (int e = map.getElementStartIndex(i), end = map.getElementEndIndex(i); e < end; e++) {
                    if (e > map.getElementStartIndex(i)) {
                        out.append(',');
                    }
                    keyText.setLength(0);
                    if (keyVector.isNull(e)) {
                        keyText.append("null");
                    } else {
                        key.append(keyText, e);
                    }
                    if (keyText.length() > 0 && keyText.charAt(0) == '"') {
                        out.append(keyText);
                    } else {
                        appendString(out, keyText.toString());
                    }
                    out.append(':');
                    value.append(out, e);
                }
                out.append('}');
            };
        }
        if (vector instanceof ListVector list) {
            Node element = node(list.getDataVector());
            return (out, i) -> {
                if (list.isNull(i)) {
                    out.append("null");
                    return;
                }
                appendArray(out, element, list.getElementStartIndex(i), list.getElementEndIndex(i));
            };
        }
        if (vector instanceof LargeListVector list) {
            Node element = node(list.getDataVector());
            return (out, i) -> {
                if (list.isNull(i)) {
                    out.append("null");
                    return;
                }
                appendArray(out, element, Math.toIntExact(list.getElementStartIndex(i)),
                        Math.toIntExact(list.getElementEndIndex(i)));
            };
        }
        if (vector instanceof FixedSizeListVector list) {
            Node element = node(list.getDataVector());
            int size = list.getListSize();
            return (out, i) -> {
                if (list.isNull(i)) {
                    out.append("null");
                    return;
                }
                appendArray(out, element, i * size, i * size + size);
            };
        }
        if (vector instanceof StructVector struct) {
            List<String> names = new ArrayList<>();
            List<Node> children = new ArrayList<>();
            for (Field child : struct.getField().getChildren()) {
                names.add(child.getName());
                children.add(node(struct.getChild(child.getName())));
            }
            return (out, i) -> {
                if (struct.isNull(i)) {
                    out.append("null");
                    return;
                }
                out.append('{');
                for (int c = 0; c < children.size(); c++) {
                    if (c > 0) {
                        out.append(',');
                    }
                    appendString(out, names.get(c));
                    out.append(':');
                    children.get(c).append(out, i);
                }
                out.append('}');
            };
        }
        FieldVector scalar = (FieldVector) vector;
        ArrowColumnType type = ArrowColumnTypes.forField(scalar.getField());
        ColumnReader reader = type.reader(scalar);
        ValueKind kind = type.kind();
        return (out, i) -> {
            if (reader.isNull(i)) {
                out.append("null");
                return;
            }
            appendScalar(out, kind, reader, i);
        };
    }

    private static void appendArray(StringBuilder out, Node element, int start, int end) {
        out.append('[');
        for (int e = start; e < end; e++) {
            if (e > start) {
                out.append(',');
            }
            element.append(out, e);
        }
        out.append(']');
    }

    private static void appendScalar(StringBuilder out, ValueKind kind, ColumnReader reader, int i) {
        switch (kind) {
            case BOOLEAN -> out.append(reader.getLong(i) != 0);
            case INTEGER -> out.append(reader.getLong(i));
            case DECIMAL -> out.append(((BigDecimal) reader.getObject(i)).toPlainString());
            case FLOAT32, FLOAT64 -> {
                double d = reader.getDouble(i);
                if (Double.isFinite(d)) {
                    out.append(kind == ValueKind.FLOAT32 ? Float.toString((float) d) : Double.toString(d));
                } else {
                    appendString(out, Double.toString(d));
                }
            }
            case BINARY -> appendString(out, Base64.getEncoder().encodeToString((byte[]) reader.getObject(i)));
            case JSON -> out.append(reader.getObject(i));
            default -> appendString(out, reader.getObject(i).toString());
        }
    }

    /** Appends {@code s} as a JSON string literal (quoted and escaped). */
    public static void appendString(StringBuilder out, String s) {
        out.append('"');
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
