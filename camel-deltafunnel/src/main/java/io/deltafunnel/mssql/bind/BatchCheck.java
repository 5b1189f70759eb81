package io.deltafunnel.mssql.bind;

import java.util.ArrayList;
import java.util.List;

import io.deltafunnel.arrow.read.ColumnReader;
import io.deltafunnel.arrow.read.ValueRejected;
import io.deltafunnel.mssql.BulkLoadException;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The client-side check of a batch against its target columns, run before anything is sent, the same for both bulk
 * encoders: every value must fit its column exactly ({@link TargetBinding}), nothing is ever rounded or truncated.
 * It reports what does not fit as {@link Rejection}s: the first one ({@link #first}, what a run fails with by default,
 * {@link #requireAllFit}) or every one of the batch ({@link #all}, for setting rejected rows aside).
 *
 * <p>Columns are checked one after the other, each in one pass over its rows. A column whose values fit by type alone
 * ({@link TargetBinding#alwaysFits}) or that one tight pass over its buffers proves fitting
 * ({@link TargetBinding#allFit}) is not checked value by value. A value that does not fit is signalled inside the
 * pass by the stackless {@link ValueRejected}, which this class alone catches.
 */
public final class BatchCheck {

    private BatchCheck() {
    }

    /** The first value (column by column, then row by row) that does not fit, or null when every value fits. */
    public static Rejection first(VectorSchemaRoot root, List<BoundColumn> columns) {
        List<Rejection> found = check(root, columns, 1);
        return found.isEmpty() ? null : found.get(0);
    }

    /**
     * Every value of the batch that does not fit, column by column, then row by row (a row appears once per column it
     * fails in); empty when the whole batch fits.
     */
    public static List<Rejection> all(VectorSchemaRoot root, List<BoundColumn> columns) {
        return check(root, columns, Integer.MAX_VALUE);
    }

    /**
     * Fails on the first value that does not fit (the default: one bad value fails the run, nothing is sent).
     *
     * @param rowsBefore the run's rows before this batch (the row's number in the run)
     * @param prefix     put before the message (e.g. the shard), or empty
     * @param context    the run's failure context
     * @throws ValueOutOfRangeException naming the column and row, carrying the {@link Rejection}
     */
    public static void requireAllFit(VectorSchemaRoot root, List<BoundColumn> columns, long rowsBefore, String prefix,
            BulkLoadException.Context context) {
        Rejection r = first(root, columns);
        if (r != null) {
            throw new ValueOutOfRangeException(prefix, r, rowsBefore + r.row(), context);
        }
    }

    /** Up to {@code limit} rejections (at least 1), in the order of {@link #all}. */
    public static List<Rejection> check(VectorSchemaRoot root, List<BoundColumn> columns, int limit) {
        List<Rejection> found = new ArrayList<>(1);
        int rowCount = root.getRowCount();
        for (BoundColumn column : columns) {
            FieldVector vector = root.getVector(column.sourceIndex());
            TargetBinding binding = column.binding();
            boolean noNulls = vector.getNullCount() == 0;
            // a NULL needs no check in a nullable column; in a NOT NULL one each is refused, row by row below
            boolean nullsFit = noNulls || column.target().nullable();
            if (nullsFit && binding.alwaysFits(column.arrowType())) {
                // Every value fits by type alone and there is no NULL to refuse: nothing to check per value.
                continue;
            }
            if (nullsFit && binding.allFit(vector, rowCount)) {
                // one tight pass over the raw buffers, a NULL's slot included, proved every value fits (see
                // TargetBinding.allFit)
                continue;
            }
            ColumnReader reader = column.reader(vector);
            int r = 0;
            while (r < rowCount) {
                try {
                    // Without NULLs in the batch's vector, skip the per-value validity lookup.
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
                    found.add(new Rejection(column.target().name(), column.target().typeText(), column.sourceName(),
                            r, e.check(), e.getMessage()));
                    if (found.size() >= limit) {
                        return found;
                    }
                    r++; // go on after the refused value
                }
            }
        }
        return found;
    }
}
