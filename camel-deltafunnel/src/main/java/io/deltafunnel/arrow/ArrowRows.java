package io.deltafunnel.arrow;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ArrowColumnTypes;
import io.deltafunnel.arrow.read.ColumnReader;
import io.deltafunnel.arrow.read.ValueKind;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A root as a list of rows, each a {@link LinkedHashMap} from column name (schema order) to a plain Java value: the
 * canonical value the SQL Server writer binds for the column ({@link ValueKind}): {@link Boolean}, {@link Long} for
 * every integer type, {@link Float}/{@link Double}, {@link java.math.BigDecimal}, {@link String}, {@code byte[]},
 * {@link java.util.UUID}, {@link java.time.LocalDate}, {@link java.time.LocalTime},
 * {@link java.time.LocalDateTime}, {@link java.time.OffsetDateTime}; nested columns (lists, structs, maps) as their
 * JSON text, as the writer stores them; null for null. A copy: the rows stay valid after the root is closed.
 */
public final class ArrowRows {

    private ArrowRows() {
    }

    /** @throws io.deltafunnel.arrow.read.UnsupportedArrowTypeException naming the column when a type has no Java value */
    public static List<Map<String, Object>> toRows(VectorSchemaRoot root) {
        List<FieldVector> vectors = root.getFieldVectors();
        int columns = vectors.size();
        String[] names = new String[columns];
        ColumnReader[] readers = new ColumnReader[columns];
        ValueKind[] kinds = new ValueKind[columns];
        for (int c = 0; c < columns; c++) {
            FieldVector vector = vectors.get(c);
            ArrowColumnType type = ArrowColumnTypes.forField(vector.getField());
            names[c] = vector.getField().getName();
            readers[c] = type.reader(vector);
            kinds[c] = type.kind();
        }
        int rows = root.getRowCount();
        List<Map<String, Object>> out = new ArrayList<>(rows);
        for (int row = 0; row < rows; row++) {
            Map<String, Object> values = new LinkedHashMap<>(columns * 4 / 3 + 1);
            for (int c = 0; c < columns; c++) {
                values.put(names[c], readers[c].isNull(row) ? null : value(kinds[c], readers[c], row));
            }
            out.add(values);
        }
        return out;
    }

    private static Object value(ValueKind kind, ColumnReader reader, int row) {
        return switch (kind) {
            case BOOLEAN -> reader.getLong(row) != 0;
            case INTEGER -> reader.getLong(row);
            case FLOAT32 -> (float) reader.getDouble(row);
            case FLOAT64 -> reader.getDouble(row);
            default -> reader.getObject(row);
        };
    }
}
