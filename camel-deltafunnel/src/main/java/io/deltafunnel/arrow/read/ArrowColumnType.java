package io.deltafunnel.arrow.read;

import org.apache.arrow.vector.FieldVector;

/**
 * How one Arrow type is written to SQL Server: the kind of value it yields, the column type {@code createTable}
 * uses for it, and a reader over a vector of it. One small implementation per Arrow type, chosen by
 * {@link ArrowColumnTypes}.
 */
public interface ArrowColumnType {

    /** The canonical value kind; decides which target column types accept this column. */
    ValueKind kind();

    /** The SQL Server column type used when the target table is created from the Arrow schema. */
    String createTableType();

    /** A reader over {@code vector}, which must have this column type's Arrow type. */
    ColumnReader reader(FieldVector vector);
}
