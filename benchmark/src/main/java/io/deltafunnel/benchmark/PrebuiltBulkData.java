package io.deltafunnel.benchmark;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import com.microsoft.sqlserver.jdbc.ISQLServerBulkData;
import io.deltafunnel.mssql.BoundColumn;

/**
 * The driver's own ceiling: rows prebuilt in memory as {@code Object[]} (exactly the objects ArrowBulkData hands
 * over, with the same declared metadata), fed through {@link ISQLServerBulkData} with no per-row work on our side.
 */
final class PrebuiltBulkData implements ISQLServerBulkData {

    private static final long serialVersionUID = 1L;

    private final transient List<BoundColumn> columns;
    private final transient Object[][] rows;
    private final int offset;
    private final int count;
    private int current = -1;

    /** Emits {@code count} rows starting at {@code offset}, wrapping around at the end of {@code rows}. */
    PrebuiltBulkData(List<BoundColumn> columns, Object[][] rows, int offset, int count) {
        this.columns = columns;
        this.rows = rows;
        this.offset = offset;
        this.count = count;
    }

    @Override
    public Set<Integer> getColumnOrdinals() {
        Set<Integer> s = new LinkedHashSet<>();
        for (int i = 1; i <= columns.size(); i++) {
            s.add(i);
        }
        return s;
    }

    @Override
    public String getColumnName(int column) {
        return columns.get(column - 1).sourceName();
    }

    @Override
    public int getColumnType(int column) {
        return columns.get(column - 1).binding().jdbcType();
    }

    @Override
    public int getPrecision(int column) {
        return columns.get(column - 1).binding().precision();
    }

    @Override
    public int getScale(int column) {
        return columns.get(column - 1).binding().scale();
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
