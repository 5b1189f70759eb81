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
