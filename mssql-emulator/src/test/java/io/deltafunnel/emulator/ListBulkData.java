package io.deltafunnel.emulator;

import com.microsoft.sqlserver.jdbc.ISQLServerBulkData;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** An in-memory ISQLServerBulkData source for tests. */
public final class ListBulkData implements ISQLServerBulkData {
    private static final long serialVersionUID = 1L;

    private final List<String> names = new ArrayList<>();
    private final List<int[]> meta = new ArrayList<>();
    private final List<Object[]> rows = new ArrayList<>();
    private int cursor = -1;

    /** Adds a column: JDBC type, precision, scale. */
    public ListBulkData column(String name, int jdbcType, int precision, int scale) {
        names.add(name);
        meta.add(new int[] {jdbcType, precision, scale});
        return this;
    }

    public ListBulkData row(Object... values) {
        rows.add(values);
        return this;
    }

    @Override
    public Set<Integer> getColumnOrdinals() {
        Set<Integer> s = new LinkedHashSet<>();
        for (int i = 1; i <= names.size(); i++) {
            s.add(i);
        }
        return s;
    }

    @Override
    public String getColumnName(int column) {
        return names.get(column - 1);
    }

    @Override
    public int getColumnType(int column) {
        return meta.get(column - 1)[0];
    }

    @Override
    public int getPrecision(int column) {
        return meta.get(column - 1)[1];
    }

    @Override
    public int getScale(int column) {
        return meta.get(column - 1)[2];
    }

    @Override
    public Object[] getRowData() {
        return rows.get(cursor);
    }

    @Override
    public boolean next() {
        cursor++;
        return cursor < rows.size();
    }
}
