package io.deltafunnel.mssql.channel;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.TargetBinding;

import com.microsoft.sqlserver.jdbc.ISQLServerBulkData;

/**
 * The column metadata half of an {@link ISQLServerBulkData} over bound columns: ordinals 1..n, source names, and the
 * JDBC type, precision and scale each {@link TargetBinding} declares. Subclasses supply the rows.
 */
public abstract class BoundBulkData implements ISQLServerBulkData {

    private static final long serialVersionUID = 1L;

    private final transient List<BoundColumn> columns;

    protected BoundBulkData(List<BoundColumn> columns) {
        this.columns = List.copyOf(columns);
    }

    /** The bound columns, in the order they are written. */
    public List<BoundColumn> columns() {
        return columns;
    }

    @Override
    public Set<Integer> getColumnOrdinals() {
        Set<Integer> ordinals = new LinkedHashSet<>();
        for (int i = 1; i <= columns.size(); i++) {
            ordinals.add(i);
        }
        return ordinals;
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
}
