package io.deltafunnel.arrow.read;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * List, LargeList and FixedSizeList of Float32 or Float64: like every list, JSON text for text targets
 * ({@link ValueKind#JSON}, nvarchar(max) with {@code createTable}), and also the elements themselves
 * ({@link Reader}) for a SQL Server 2025 {@code vector(n)} target.
 */
public final class FloatListColumnType implements ArrowColumnType {

    /** The elements of one row's list, read straight from the child vector. */
    public interface Reader extends ColumnReader {
        /** The number of elements of the (non-null) list at {@code row}. */
        int size(int row);

        boolean isElementNull(int row, int index);

        /** Element {@code index} of the list at {@code row}, as a double (exact for Float32 elements). */
        double element(int row, int index);
    }

    private final Field field;
    private final int fixedSize;
    private final boolean doubles;

    private FloatListColumnType(Field field, int fixedSize, boolean doubles) {
        this.field = field;
        this.fixedSize = fixedSize;
        this.doubles = doubles;
    }

    /** The float-list type of {@code field}, or null when it is not a list of Float32/Float64. */
    static FloatListColumnType of(Field field) {
        ArrowType t = field.getType();
        if (!(t instanceof ArrowType.List || t instanceof ArrowType.LargeList || t instanceof ArrowType.FixedSizeList)
                || field.getChildren().size() != 1
                || !(field.getChildren().get(0).getType() instanceof ArrowType.FloatingPoint fp)
                || fp.getPrecision() == FloatingPointPrecision.HALF) {
            return null;
        }
        int size = t instanceof ArrowType.FixedSizeList f ? f.getListSize() : -1;
        return new FloatListColumnType(field, size, fp.getPrecision() == FloatingPointPrecision.DOUBLE);
    }

    /** The FixedSizeList's size, or -1 for a (Large)List whose lengths vary by row. */
    public int fixedSize() {
        return fixedSize;
    }

    /** Whether the elements are Float64 (otherwise Float32). */
    public boolean doubleElements() {
        return doubles;
    }

    @Override
    public ValueKind kind() {
        return ValueKind.JSON;
    }

    @Override
    public String createTableType() {
        return "nvarchar(max)";
    }

    @Override
    public Reader reader(FieldVector vector) {
        JsonWriter json = JsonWriter.forVector(vector);
        FieldVector child;
        java.util.function.IntToLongFunction start;
        java.util.function.IntToLongFunction end;
        if (vector instanceof FixedSizeListVector f) {
            child = f.getDataVector();
            int n = f.getListSize();
            start = row -> (long) row * n;
            end = row -> (long) row * n + n;
        } else if (vector instanceof LargeListVector l) {
            child = l.getDataVector();
            start = row -> l.getOffsetBuffer().getLong((long) row * 8);
            end = row -> l.getOffsetBuffer().getLong((long) (row + 1) * 8);
        } else {
            ListVector l = (ListVector) vector;
            child = l.getDataVector();
            start = row -> l.getOffsetBuffer().getInt((long) row * 4);
            end = row -> l.getOffsetBuffer().getInt((long) (row + 1) * 4);
        }
        Float4Vector f4 = child instanceof Float4Vector f ? f : null;
        Float8Vector f8 = child instanceof Float8Vector d ? d : null;
        return new Reader() {
            @Override
            public boolean isNull(int row) {
                return vector.isNull(row);
            }

            @Override
            public Object getObject(int row) {
                return json.write(row);
            }

            @Override
            public int size(int row) {
                return (int) (end.applyAsLong(row) - start.applyAsLong(row));
            }

            @Override
            public boolean isElementNull(int row, int index) {
                return child.isNull((int) (start.applyAsLong(row) + index));
            }

            @Override
            public double element(int row, int index) {
                int at = (int) (start.applyAsLong(row) + index);
                return f4 != null ? f4.get(at) : f8.get(at);
            }
        };
    }

    @Override
    public String toString() {
        return "floatList(" + field.getType() + ")";
    }
}
