package io.deltafunnel.arrow;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.deltafunnel.arrow.read.JsonWriter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * JSON lines to and from Arrow.
 *
 * <p><b>To JSON lines:</b> one compact JSON object per row, keyed by column name in schema order, each line ended by
 * {@code \n}. Values are rendered by {@link JsonWriter}, the same rendering the SQL Server writer uses for nested
 * columns (lists as arrays, structs and maps as objects, decimals in plain notation, binary as base64, temporal
 * values as ISO-8601 strings, NaN/Infinity as strings). A copy: the root stays the caller's.
 *
 * <p><b>From JSON lines</b> ({@link #fromJsonLines}): JSON carries no column types, so they are inferred over all
 * lines: integers become {@code BIGINT} (int64), numbers with a fraction or exponent {@code DECIMAL(p,s)} wide enough
 * for every value (float64 beyond precision 38), {@code true}/{@code false} bool, strings utf8, objects and arrays
 * their compact JSON text (utf8), a column that is null everywhere utf8. Dates and timestamps arrive as their text.
 * A key missing on a line is null there. Columns are ordered by first appearance.
 */
public final class ArrowJsonLines {

    private ArrowJsonLines() {
    }

    /**
     * The JSON lines of {@code root} (empty for zero rows).
     *
     * @throws io.deltafunnel.arrow.read.UnsupportedArrowTypeException naming the column when a type cannot be rendered
     */
    public static String toJsonLines(VectorSchemaRoot root) {
        StringBuilder out = new StringBuilder(root.getRowCount() * 16 * Math.max(1, root.getFieldVectors().size()));
        append(root, out);
        return out.toString();
    }

    /** Appends the JSON lines of {@code root} to {@code out}. */
    public static void append(VectorSchemaRoot root, StringBuilder out) {
        List<FieldVector> vectors = root.getFieldVectors();
        int columns = vectors.size();
        JsonWriter[] writers = new JsonWriter[columns];
        String[] keys = new String[columns];
        for (int c = 0; c < columns; c++) {
            writers[c] = JsonWriter.forVector(vectors.get(c));
            StringBuilder key = new StringBuilder();
            JsonWriter.appendString(key, vectors.get(c).getField().getName());
            keys[c] = key.append(':').toString();
        }
        for (int row = 0, rows = root.getRowCount(); row < rows; row++) {
            out.append('{');
            for (int c = 0; c < columns; c++) {
                if (c > 0) {
                    out.append(',');
                }
                out.append(keys[c]).append(writers[c].write(row));
            }
            out.append("}\n");
        }
    }

    /**
     * Row {@code row} of {@code root} as one JSON object (the same rendering as a line of {@link #toJsonLines},
     * without the newline): e.g. the source row a rejected-rows record keeps.
     */
    public static String row(VectorSchemaRoot root, int row) {
        List<FieldVector> vectors = root.getFieldVectors();
        StringBuilder out = new StringBuilder(64).append('{');
        for (int c = 0; c < vectors.size(); c++) {
            if (c > 0) {
                out.append(',');
            }
            JsonWriter.appendString(out, vectors.get(c).getField().getName());
            out.append(':').append(JsonWriter.forVector(vectors.get(c)).write(row));
        }
        return out.append('}').toString();
    }

    /**
     * The rows of {@code text} (JSON lines: one JSON object per non-blank line) as one root allocated from
     * {@code allocator}, owned by the caller; column types inferred as described above.
     *
     * @throws JsonLinesException naming the line (and column) that is not a JSON object or mixes types
     */
    public static VectorSchemaRoot fromJsonLines(String text, BufferAllocator allocator) {
        List<Map<String, Object>> rows = new ArrayList<>();
        Map<String, Column> columns = new LinkedHashMap<>();
        int lineNumber = 0;
        for (String line : text.split("\n", -1)) {
            lineNumber++;
            String json = line.strip();
            if (json.isEmpty()) {
                continue;
            }
            Object value;
            try {
                value = bigIntegersAsDecimals(VALUES.readValue(json, Object.class));
            } catch (JsonProcessingException e) {
                throw new JsonLinesException(lineNumber, null, "not JSON: " + e.getOriginalMessage(), e);
            }
            if (!(value instanceof Map<?, ?> map)) {
                throw new JsonLinesException(lineNumber, null, "a JSON object expected", null);
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> row = (Map<String, Object>) map;
            for (Map.Entry<String, Object> e : row.entrySet()) {
                columns.computeIfAbsent(e.getKey(), Column::new).observe(e.getValue(), lineNumber);
            }
            rows.add(row);
        }
        List<FieldVector> vectors = new ArrayList<>(columns.size());
        try {
            for (Column column : columns.values()) {
                vectors.add(column.vector(rows, allocator));
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        VectorSchemaRoot root = new VectorSchemaRoot(vectors);
        root.setRowCount(rows.size());
        return root;
    }

    /**
     * A line as plain values: objects as {@link LinkedHashMap}s, arrays as lists, integers as {@link Long} (beyond a
     * long {@link BigInteger}, see {@link #bigIntegersAsDecimals}), other numbers as {@link BigDecimal}; no trailing
     * text.
     */
    private static final JsonMapper VALUES = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS, DeserializationFeature.USE_LONG_FOR_INTS,
                    DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    /** Integers beyond a long become {@link BigDecimal}s (a decimal column), in place in maps and lists. */
    @SuppressWarnings("unchecked")
    private static Object bigIntegersAsDecimals(Object value) {
        if (value instanceof BigInteger big) {
            return new BigDecimal(big);
        }
        if (value instanceof Map<?, ?> map) {
            ((Map<String, Object>) map).replaceAll((k, v) -> bigIntegersAsDecimals(v));
        } else if (value instanceof List<?> list) {
            ((List<Object>) list).replaceAll(ArrowJsonLines::bigIntegersAsDecimals);
        }
        return value;
    }

    private enum Kind { NULL, BOOLEAN, INTEGER, DECIMAL, STRING, NESTED }

    /** One inferred column: its kind so far and, for numbers, the widest integer part and scale seen. */
    private static final class Column {
        private final String name;
        private Kind kind = Kind.NULL;
        private int integerDigits = 1;
        private int scale;

        Column(String name) {
            this.name = name;
        }

        void observe(Object value, int line) {
            Kind seen = kindOf(value);
            if (value instanceof Long l) {
                integerDigits = Math.max(integerDigits, Long.toString(Math.abs(l)).replace("-", "").length());
            } else if (value instanceof BigDecimal d) {
                integerDigits = Math.max(integerDigits, d.precision() - d.scale());
                scale = Math.max(scale, d.scale());
            }
            if (seen == Kind.NULL || seen == kind) {
                return;
            }
            if (kind == Kind.NULL) {
                kind = seen;
            } else if ((kind == Kind.INTEGER && seen == Kind.DECIMAL) || (kind == Kind.DECIMAL && seen == Kind.INTEGER)) {
                kind = Kind.DECIMAL;
            } else {
                throw new JsonLinesException(line, name, "a " + seen.name().toLowerCase() + " value in a column of "
                        + kind.name().toLowerCase() + " values", null);
            }
        }

        FieldVector vector(List<Map<String, Object>> rows, BufferAllocator allocator) {
            int n = rows.size();
            switch (kind) {
                case BOOLEAN -> {
                    BitVector v = new BitVector(name, allocator);
                    v.allocateNew(n);
                    for (int r = 0; r < n; r++) {
                        Object value = rows.get(r).get(name);
                        if (value != null) {
                            v.set(r, (Boolean) value ? 1 : 0);
                        }
                    }
                    v.setValueCount(n);
                    return v;
                }
                case INTEGER -> {
                    BigIntVector v = new BigIntVector(name, allocator);
                    v.allocateNew(n);
                    for (int r = 0; r < n; r++) {
                        Object value = rows.get(r).get(name);
                        if (value != null) {
                            v.set(r, (Long) value);
                        }
                    }
                    v.setValueCount(n);
                    return v;
                }
                case DECIMAL -> {
                    if (integerDigits + scale <= 38) {
                        DecimalVector v = new DecimalVector(name, allocator, integerDigits + scale, scale);
                        v.allocateNew(n);
                        for (int r = 0; r < n; r++) {
                            Object value = rows.get(r).get(name);
                            if (value != null) {
                                v.setSafe(r, decimal(value).setScale(scale, RoundingMode.UNNECESSARY));
                            }
                        }
                        v.setValueCount(n);
                        return v;
                    }
                    Float8Vector v = new Float8Vector(name, allocator);
                    v.allocateNew(n);
                    for (int r = 0; r < n; r++) {
                        Object value = rows.get(r).get(name);
                        if (value != null) {
                            v.set(r, decimal(value).doubleValue());
                        }
                    }
                    v.setValueCount(n);
                    return v;
                }
                default -> {
                    VarCharVector v = new VarCharVector(name, allocator);
                    v.allocateNew(n);
                    for (int r = 0; r < n; r++) {
                        Object value = rows.get(r).get(name);
                        if (value != null) {
                            String text = value instanceof String s ? s : appendJson(new StringBuilder(), value).toString();
                            v.setSafe(r, text.getBytes(StandardCharsets.UTF_8));
                        }
                    }
                    v.setValueCount(n);
                    return v;
                }
            }
        }

        private static BigDecimal decimal(Object value) {
            return value instanceof Long l ? BigDecimal.valueOf(l) : (BigDecimal) value;
        }

        private static Kind kindOf(Object value) {
            if (value == null) {
                return Kind.NULL;
            }
            if (value instanceof Boolean) {
                return Kind.BOOLEAN;
            }
            if (value instanceof Long) {
                return Kind.INTEGER;
            }
            if (value instanceof BigDecimal) {
                return Kind.DECIMAL;
            }
            if (value instanceof String) {
                return Kind.STRING;
            }
            return Kind.NESTED;
        }
    }

    /** Compact JSON text of a parsed JSON value (objects, arrays, strings, numbers, booleans, null). */
    private static StringBuilder appendJson(StringBuilder out, Object value) {
        if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                JsonWriter.appendString(out, (String) e.getKey());
                out.append(':');
                appendJson(out, e.getValue());
            }
            return out.append('}');
        }
        if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                appendJson(out, list.get(i));
            }
            return out.append(']');
        }
        if (value instanceof String s) {
            JsonWriter.appendString(out, s);
            return out;
        }
        return out.append(value); // null, Boolean, Long, BigDecimal
    }
}
