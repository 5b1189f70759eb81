package io.deltafunnel.mssql.bind;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ColumnReader;

import org.apache.arrow.vector.FieldVector;

/**
 * One source column bound to its target column for one run: the Arrow column type, the target binding, and the
 * names on both sides. {@link #reader(FieldVector)} binds it to a batch's vector.
 *
 * @param sourceIndex index of the field in the Arrow schema
 */
public record BoundColumn(int sourceIndex, String sourceName, ArrowColumnType arrowType, TargetColumn target,
        TargetBinding binding) {

    public ColumnReader reader(FieldVector vector) {
        return arrowType.reader(vector);
    }
}
