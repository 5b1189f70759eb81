package io.deltafunnel.mssql.channel;

import java.sql.SQLException;
import java.util.List;

import io.deltafunnel.arrow.read.ColumnReader;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.TargetBinding;

import org.apache.arrow.vector.FieldVector;

/**
 * A {@link BulkBatch} as the source of one {@code SQLServerBulkCopy.writeToServer} call: mssql-jdbc's
 * {@code ISQLServerBulkData} adapter, used only by {@link JdbcSqlChannel}.
 *
 * <p>Values are read straight from the Arrow vectors, row by row, as the driver asks for them; the row array is
 * reused (the driver consumes it before asking for the next row). Source ordinals are 1..n in the order of the
 * bound columns; the caller maps ordinal i to the target column of bound column i-1.
 *
 * <p>Check the batch ({@link BulkBatch#validate}) before handing this to the driver: the values are converted here
 * without checking them again, and nothing may be sent unless the whole batch fits. Like the batch, it does not own
 * the root.
 */
public final class ArrowBulkData extends BoundBulkData {

    private static final long serialVersionUID = 1L;

    private final transient ColumnReader[] readers;
    private final transient TargetBinding[] bindings;
    private final transient Object[] row;
    /** Per column: whether the batch's vector has NULLs (without, getRowData skips the validity lookup). */
    private final transient boolean[] mayBeNull;
    private final int rowCount;
    private final transient BulkBatch batch;
    private int current = -1;

    public ArrowBulkData(BulkBatch batch) {
        super(batch.columns());
        List<BoundColumn> columns = batch.columns();
        this.readers = new ColumnReader[columns.size()];
        this.bindings = new TargetBinding[columns.size()];
        this.mayBeNull = new boolean[columns.size()];
        for (int i = 0; i < readers.length; i++) {
            BoundColumn c = columns.get(i);
            FieldVector vector = batch.vector(i);
            readers[i] = c.reader(vector);
            bindings[i] = c.binding();
            mayBeNull[i] = vector.getNullCount() > 0;
        }
        this.row = new Object[columns.size()];
        this.rowCount = batch.rowCount();
        this.batch = batch;
    }

    @Override
    public Object[] getRowData() throws SQLException {
        int r = batch.row(current); // the root's row: a selection leaves rejected rows out
        try {
            for (int c = 0; c < readers.length; c++) {
                row[c] = mayBeNull[c] ? bindings[c].value(readers[c], r)
                        : bindings[c].convert(readers[c], r);
            }
        } catch (RuntimeException e) {
            throw new SQLException("reading row " + r + " of the Arrow batch failed: " + e.getMessage(), e);
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
