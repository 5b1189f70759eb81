package io.deltafunnel.mssql.channel;

import java.util.List;
import java.util.Objects;

import io.deltafunnel.arrow.read.ColumnReader;
import io.deltafunnel.arrow.read.ValueRejected;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.TargetBinding;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One Arrow batch as {@link SqlChannel#bulkWrite} takes it, without any driver type: the batch's
 * {@link VectorSchemaRoot}, its bound columns (bound column i is written from the root's vector
 * {@link BoundColumn#sourceIndex()} into its {@link BoundColumn#target()}), and the run-wide index of its first row
 * (the row number a rejection names). The mssql-jdbc channel wraps it in {@link ArrowBulkData}, its
 * {@code ISQLServerBulkData} adapter; the direct channel's writer encodes straight from its vectors.
 *
 * <p>{@link #validate()} checks every value against its target column, column by column, so that nothing is sent
 * unless the whole batch fits; it runs once per batch ({@link #validated()}): the session validates before it hands
 * the batch to a channel, and a channel given a batch not validated yet validates it before it sends anything.
 *
 * <p>Ownership: the batch does not own the root and never closes it; whoever created the root closes it, after the
 * bulk write returned. The batch is only usable while the root is open and unchanged. Not thread-safe.
 */
public final class BulkBatch {

    private final VectorSchemaRoot root;
    private final List<BoundColumn> columns;
    private final long firstRowInRun;
    private boolean validated;

    /**
     * @param root          the batch (still owned by the caller)
     * @param columns       the run's bound columns, in the order they are written
     * @param firstRowInRun the run-wide index of the batch's first row (0 for a batch on its own)
     */
    public BulkBatch(VectorSchemaRoot root, List<BoundColumn> columns, long firstRowInRun) {
        this.root = Objects.requireNonNull(root, "root");
        this.columns = List.copyOf(columns);
        this.firstRowInRun = firstRowInRun;
    }

    /** The batch (owned by the caller, not by this object). */
    public VectorSchemaRoot root() {
        return root;
    }

    /** The bound columns, in the order they are written. */
    public List<BoundColumn> columns() {
        return columns;
    }

    /** The vector bound column {@code i} is read from. */
    public FieldVector vector(int i) {
        return root.getVector(columns.get(i).sourceIndex());
    }

    /** Rows in the batch. */
    public int rowCount() {
        return root.getRowCount();
    }

    /** The run-wide index of the batch's first row. */
    public long firstRowInRun() {
        return firstRowInRun;
    }

    /** Whether {@link #validate()} has passed on this batch. */
    public boolean validated() {
        return validated;
    }

    /**
     * Checks every value of the batch against its target column, unless it was checked before ({@link #validated()}).
     *
     * @return this batch, validated
     * @throws Rejection for the first value (column by column, then row by row) that does not fit
     */
    public BulkBatch validate() {
        if (validated) {
            return this;
        }
        int rowCount = root.getRowCount();
        for (int c = 0; c < columns.size(); c++) {
            BoundColumn column = columns.get(c);
            FieldVector vector = vector(c);
            TargetBinding binding = column.binding();
            if (binding.alwaysFits(column.arrowType())
                    && (column.target().nullable() || vector.getNullCount() == 0)) {
                // Every value fits by type alone and there is no NULL to refuse: nothing to check per value.
                continue;
            }
            // Without NULLs in the batch's vector, skip the per-value validity lookup.
            boolean noNulls = vector.getNullCount() == 0;
            if (noNulls && binding.allFit(vector, rowCount)) {
                // one tight pass over the raw buffers proved every value fits (see TargetBinding.allFit)
                continue;
            }
            ColumnReader reader = column.reader(vector);
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
        validated = true;
        return this;
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
}
