package io.deltafunnel.mssql.channel;

import java.sql.SQLException;
import java.util.List;

import io.deltafunnel.arrow.read.ColumnReader;
import io.deltafunnel.arrow.read.ValueRejected;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.TargetBinding;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * An Arrow batch as the source of one {@code SQLServerBulkCopy.writeToServer} call.
 *
 * <p>Values are read straight from the Arrow vectors, row by row, as the driver asks for them; the row array is
 * reused (the driver consumes it before asking for the next row). Source ordinals are 1..n in the order of the
 * bound columns; the caller maps ordinal i to the target column of bound column i-1.
 *
 * <p>Call {@link #validate(long)} before handing it to the driver: it checks every value against its target
 * column, column by column, so that nothing is sent unless the whole batch fits.
 */
public final class ArrowBulkData extends BoundBulkData {

    private static final long serialVersionUID = 1L;

    private final transient ColumnReader[] readers;
    private final transient TargetBinding[] bindings;
    private final transient org.apache.arrow.vector.FieldVector[] vectors;
    private final transient VectorSchemaRoot root;
    private final transient Object[] row;
    /** Per column: whether the batch's vector has NULLs (without, getRowData skips the validity lookup). */
    private final transient boolean[] mayBeNull;
    private final int rowCount;
    private int current = -1;

    public ArrowBulkData(VectorSchemaRoot root, List<BoundColumn> columns) {
        super(columns);
        this.root = root;
        this.readers = new ColumnReader[columns.size()];
        this.bindings = new TargetBinding[columns.size()];
        this.vectors = new org.apache.arrow.vector.FieldVector[columns.size()];
        for (int i = 0; i < readers.length; i++) {
            BoundColumn c = columns.get(i);
            vectors[i] = root.getVector(c.sourceIndex());
            readers[i] = c.reader(vectors[i]);
            bindings[i] = c.binding();
        }
        this.row = new Object[columns.size()];
        this.rowCount = root.getRowCount();
        this.mayBeNull = new boolean[columns.size()];
        for (int i = 0; i < readers.length; i++) {
            mayBeNull[i] = vectors[i].getNullCount() > 0;
        }
    }

    /** The batch (owned by the caller). */
    public VectorSchemaRoot root() {
        return root;
    }


    /** Rows in the batch. */
    public int rowCount() {
        return rowCount;
    }

    /**
     * Checks every value of the batch against its target column.
     *
     * @param firstRowInRun the run-wide index of this batch's first row, for the error
     * @throws Rejection for the first value (column by column, then row by row) that does not fit
     */
    public void validate(long firstRowInRun) {
        for (int c = 0; c < readers.length; c++) {
            BoundColumn column = columns().get(c);
            ColumnReader reader = readers[c];
            TargetBinding binding = column.binding();
            if (binding.alwaysFits(column.arrowType())
                    && (column.target().nullable() || vectors[c].getNullCount() == 0)) {
                // Every value fits by type alone and there is no NULL to refuse: nothing to check per value.
                continue;
            }
            // Without NULLs in the batch's vector, skip the per-value validity lookup.
            boolean noNulls = vectors[c].getNullCount() == 0;
            if (noNulls && binding.allFit(vectors[c], rowCount)) {
                // one tight pass over the raw buffers proved every value fits (see TargetBinding.allFit)
                continue;
            }
            int r = 0;
            try {
                if (noNulls) {
                    for (; r < rowCount; r++) {
                        binding.checkValue(reader, r);
                    }
                } else {
                    for (; r < rowCount; r++) {
                        binding.check(reader, r);
                    }
                }
            } catch (ValueRejected e) {
                throw new Rejection(column, r, firstRowInRun + r, e.getMessage());
            }
        }
    }

    /** A value of the batch that does not fit its target column. */
    public static final class Rejection extends RuntimeException {
        private final transient BoundColumn column;
        private final int rowInBatch;
        private final long rowInRun;

        Rejection(BoundColumn column, int rowInBatch, long rowInRun, String reason) {
            super(reason, null, false, false);
            this.column = column;
            this.rowInBatch = rowInBatch;
            this.rowInRun = rowInRun;
        }

        public BoundColumn column() {
            return column;
        }

        public int rowInBatch() {
            return rowInBatch;
        }

        public long rowInRun() {
            return rowInRun;
        }
    }

    @Override
    public Object[] getRowData() throws SQLException {
        try {
            for (int c = 0; c < readers.length; c++) {
                row[c] = mayBeNull[c] ? bindings[c].value(readers[c], current)
                        : bindings[c].convert(readers[c], current);
            }
        } catch (RuntimeException e) {
            throw new SQLException("reading row " + current + " of the Arrow batch failed: " + e.getMessage(), e);
        }
        return row;
    }

    @Override
    public boolean next() {
        if (current + 1 >= rowCount) {
            current = rowCount;
            return false;
        }
        current++;
        return true;
    }
}
