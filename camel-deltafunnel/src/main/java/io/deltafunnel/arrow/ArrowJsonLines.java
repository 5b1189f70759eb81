package io.deltafunnel.arrow;

import java.util.List;

import io.deltafunnel.mssql.JsonWriter;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A root as JSON lines: one compact JSON object per row, keyed by column name in schema order, each line ended by
 * {@code \n}. Values are rendered by {@link JsonWriter}, the same rendering the SQL Server writer uses for nested
 * columns (lists as arrays, structs and maps as objects, decimals in plain notation, binary as base64, temporal
 * values as ISO-8601 strings, NaN/Infinity as strings). A copy: the root stays the caller's.
 */
public final class ArrowJsonLines {

    private ArrowJsonLines() {
    }

    /**
     * The JSON lines of {@code root} (empty for zero rows).
     *
     * @throws io.deltafunnel.mssql.UnsupportedArrowTypeException naming the column when a type cannot be rendered
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
}
