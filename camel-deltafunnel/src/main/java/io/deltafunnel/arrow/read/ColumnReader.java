package io.deltafunnel.arrow.read;

/**
 * Reads the values of one Arrow vector as canonical Java values (see {@link ValueKind}). Bound to one vector, so
 * valid only as long as that vector is. Only the accessor matching the column's kind is meaningful.
 *
 * <p>Accessors may throw {@link ValueRejected} for a value that has no Java/SQL Server representation at all (a
 * time of day outside 0..24h, a timestamp beyond year 999,999,999).
 */
public interface ColumnReader {

    boolean isNull(int row);

    default long getLong(int row) {
        throw new UnsupportedOperationException();
    }

    default double getDouble(int row) {
        throw new UnsupportedOperationException();
    }

    default Object getObject(int row) {
        throw new UnsupportedOperationException();
    }

    /** A reader of object values: nulls from {@code vector}'s validity, values from {@code values}. */
    static ColumnReader objects(org.apache.arrow.vector.ValueVector vector, java.util.function.IntFunction<Object> values) {
        return new ColumnReader() {
            @Override
            public boolean isNull(int row) {
                return vector.isNull(row);
            }

            @Override
            public Object getObject(int row) {
                return values.apply(row);
            }
        };
    }
}
