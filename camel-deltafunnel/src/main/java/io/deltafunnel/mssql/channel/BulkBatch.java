package io.deltafunnel.mssql.channel;

import java.util.List;
import java.util.Objects;

import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.BatchCheck;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.ValueOutOfRangeException;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One Arrow batch as {@link SqlChannel#bulkWrite} takes it, without any driver type: the batch's
 * {@link VectorSchemaRoot}, its bound columns (bound column i is written from the root's vector
 * {@link BoundColumn#sourceIndex()} into its {@link BoundColumn#target()}), and the run-wide index of its first row
 * (the row number a rejection names). The mssql-jdbc channel wraps it in {@link ArrowBulkData}, its
 * {@code ISQLServerBulkData} adapter; the direct channel's writer encodes straight from its vectors.
 *
 * <p>{@link #validate} checks every value against its target column ({@link BatchCheck}), so that nothing is sent
 * unless the whole batch fits; it runs once per batch ({@link #validated()}): the session validates before it hands
 * the batch to a channel, and a channel given a batch not validated yet validates it before it sends anything.
 *
 * <p>A batch can be a {@linkplain #select row selection} over its root: the rows of the root that are written, in
 * order, without copying a vector (the rejected rows of a run are left out this way, and a part of a batch that
 * SQL Server refused is written again the same way). Row {@code i} of the batch is row {@link #row}{@code (i)} of the
 * root; both encoders read through it.
 *
 * <p>Ownership: the batch does not own the root and never closes it; whoever created the root closes it, after the
 * bulk write returned. The batch is only usable while the root is open and unchanged. Not thread-safe.
 */
public final class BulkBatch {

    private final VectorSchemaRoot root;
    private final List<BoundColumn> columns;
    private final long firstRowInRun;
    /** The root's rows that are written, in order; null for every row. */
    private final int[] rows;
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
        this.rows = null;
    }

    private BulkBatch(BulkBatch of, int[] rows) {
        this.root = of.root;
        this.columns = of.columns;
        this.firstRowInRun = of.firstRowInRun;
        this.rows = rows;
        this.validated = of.validated;
    }

    /**
     * The same batch writing only {@code rootRows} of the root (indexes into the root, ascending), sharing its
     * vectors; validated when this batch is.
     */
    public BulkBatch select(int[] rootRows) {
        int[] copy = rootRows.clone();
        for (int i = 0; i < copy.length; i++) {
            if (copy[i] < 0 || copy[i] >= root.getRowCount() || (i > 0 && copy[i] <= copy[i - 1])) {
                throw new IllegalArgumentException("row selection must be ascending rows of the batch (0.."
                        + (root.getRowCount() - 1) + "), got " + copy[i] + " at " + i);
            }
        }
        return new BulkBatch(this, copy);
    }

    /** Rows {@code from} (inclusive) to {@code to} (exclusive) of this batch, as a selection over the same root. */
    public BulkBatch slice(int from, int to) {
        int[] part = new int[to - from];
        for (int i = from; i < to; i++) {
            part[i - from] = row(i);
        }
        return new BulkBatch(this, part);
    }

    /** The root's row that is row {@code i} of this batch. */
    public int row(int i) {
        return rows == null ? i : rows[i];
    }

    /** Whether the batch writes every row of its root in order (no {@linkplain #select selection}). */
    public boolean wholeRoot() {
        return rows == null;
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

    /** Rows in the batch: the selected ones, or every row of the root. */
    public int rowCount() {
        return rows == null ? root.getRowCount() : rows.length;
    }

    /** The run-wide index of the batch's first row. */
    public long firstRowInRun() {
        return firstRowInRun;
    }

    /**
     * Marks the batch as checked by the caller: the run's session checked every value with {@link BatchCheck#all}
     * and {@linkplain #select selects} only the rows that fit.
     */
    public BulkBatch checked() {
        validated = true;
        return this;
    }

    /** Whether the batch has been checked ({@link #validate}) and every value fits. */
    public boolean validated() {
        return validated;
    }

    /**
     * Checks every value of the batch against its target column with {@link BatchCheck}, unless it was checked before
     * ({@link #validated()}); the run's session does this before it hands the batch to a channel.
     *
     * @param prefix  put before the message (e.g. the shard), or empty
     * @param context the run's failure context
     * @return this batch, validated
     * @throws ValueOutOfRangeException for the first value (column by column, then row by row) that does not fit,
     *                                  carrying its {@link io.deltafunnel.mssql.bind.Rejection}; nothing was sent
     */
    public BulkBatch validate(String prefix, BulkLoadException.Context context) {
        if (!validated) {
            if (rows != null) {
                throw new IllegalStateException("a row selection is made from a validated batch");
            }
            BatchCheck.requireAllFit(root, columns, firstRowInRun, prefix, context);
            validated = true;
        }
        return this;
    }

    /**
     * {@link #validate(String, BulkLoadException.Context)} for a channel given a batch nobody checked yet: the failure
     * names {@code destination}, the batch's row and column.
     */
    public BulkBatch validate(TableName destination) {
        return validate("", BulkLoadException.Context.of(destination.toString(), null, HandoffStats.ZERO));
    }
}
