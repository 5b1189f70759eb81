package io.deltafunnel.benchmark;

import java.util.List;

import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.channel.BoundBulkData;

/**
 * The driver's own ceiling: rows prebuilt in memory as {@code Object[]} (exactly the objects ArrowBulkData hands
 * over, with the same declared metadata), fed through {@code ISQLServerBulkData} with no per-row work on our side.
 */
final class PrebuiltBulkData extends BoundBulkData {

    private static final long serialVersionUID = 1L;

    private final transient Object[][] rows;
    private final int offset;
    private final int count;
    private int current = -1;

    /** Emits {@code count} rows starting at {@code offset}, wrapping around at the end of {@code rows}. */
    PrebuiltBulkData(List<BoundColumn> columns, Object[][] rows, int offset, int count) {
        super(columns);
        this.rows = rows;
        this.offset = offset;
        this.count = count;
    }

    @Override
    public Object[] getRowData() {
        return rows[(int) (((long) offset + current) % rows.length)];
    }

    @Override
    public boolean next() {
        if (current + 1 >= count) {
            return false;
        }
        current++;
        return true;
    }
}
