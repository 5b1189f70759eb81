package io.deltafunnel.mssql.bind;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import io.deltafunnel.mssql.SqlStatements;
import io.deltafunnel.mssql.TableName;

/** Reads table metadata from INFORMATION_SCHEMA; names are always bound as parameters. */
public final class TargetCatalog {

    static final String TABLE_QUERY =
            "SELECT TABLE_SCHEMA, TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?";
    static final String COLUMNS_QUERY = "SELECT COLUMN_NAME, DATA_TYPE, CHARACTER_MAXIMUM_LENGTH, NUMERIC_PRECISION,"
            + " NUMERIC_SCALE, DATETIME_PRECISION, IS_NULLABLE, ORDINAL_POSITION, COLLATION_NAME, COLUMN_DEFAULT,"
            + " COLUMNPROPERTY(OBJECT_ID(?), COLUMN_NAME, 'IsIdentity'),"
            + " COLUMNPROPERTY(OBJECT_ID(?), COLUMN_NAME, 'IsComputed')"
            + " FROM INFORMATION_SCHEMA.COLUMNS"
            + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION";

    /**
     * The dimensions and element type of a table's vector columns (SQL Server 2025's sys.columns; asked only when
     * the table has one, so older servers never see the query).
     */
    static final String VECTOR_QUERY = "SELECT name, vector_dimensions, vector_base_type_desc FROM sys.columns"
            + " WHERE object_id = OBJECT_ID(?) AND vector_dimensions IS NOT NULL";

    private TargetCatalog() {
    }

    /** The table's exact name as the catalog spells it, or null when it does not exist. */
    public static TableName find(SqlStatements channel, TableName name) throws SQLException {
        List<Object[]> rows = channel.query(TABLE_QUERY, name.schema(), name.table());
        return rows.isEmpty() ? null : new TableName((String) rows.get(0)[0], (String) rows.get(0)[1]);
    }

    public static TargetTable describe(SqlStatements channel, TableName name) throws SQLException {
        List<TargetColumn> columns = new ArrayList<>();
        String quoted = name.quoted();
        for (Object[] r : channel.query(COLUMNS_QUERY, quoted, quoted, name.schema(), name.table())) {
            boolean serverFilled = r[9] != null || isOne(r[10]) || isOne(r[11]);
            String dataType = (String) r[1];
            // The one place a target type name is parsed: everything after switches on the SqlType.
            columns.add(new TargetColumn((String) r[0], SqlType.parse(dataType), dataType, intOrNull(r[2]),
                    intOrNull(r[3]), intOrNull(r[4]), intOrNull(r[5]), "YES".equalsIgnoreCase(r[6].toString().trim()),
                    intOrNull(r[7]), (String) r[8], serverFilled, isOne(r[10])));
        }
        if (columns.stream().anyMatch(c -> c.type() == SqlType.VECTOR)) {
            columns = withVectorDimensions(channel, quoted, columns);
        }
        return new TargetTable(name, columns);
    }

    /** Vector columns with their dimension count as precision and bytes per element as scale (4, or 2 for float16). */
    private static List<TargetColumn> withVectorDimensions(SqlStatements channel, String quoted,
            List<TargetColumn> columns) throws SQLException {
        java.util.Map<String, Object[]> dims = new java.util.HashMap<>();
        for (Object[] r : channel.query(VECTOR_QUERY, quoted)) {
            dims.put((String) r[0], r);
        }
        List<TargetColumn> out = new ArrayList<>(columns.size());
        for (TargetColumn c : columns) {
            Object[] d = c.type() == SqlType.VECTOR ? dims.get(c.name()) : null;
            if (d != null) {
                boolean float16 = d[2] != null && d[2].toString().trim().equalsIgnoreCase("float16");
                c = new TargetColumn(c.name(), c.type(), c.dataType(), c.maxLength(), intOrNull(d[1]),
                        float16 ? 2 : 4, c.datetimePrecision(), c.nullable(), c.ordinal(), c.collationName(),
                        c.serverFilled(), c.identity());
            }
            out.add(c);
        }
        return out;
    }

    /**
     * The table's {@code sys.tables.temporal_type}: 0 an ordinary table, 1 the history table of a system-versioned
     * temporal table, 2 a system-versioned temporal table; 0 when the catalog has no row for it.
     */
    public static int temporalType(SqlStatements channel, TableName name) throws SQLException {
        List<Object[]> rows = channel.query("SELECT [temporal_type] FROM sys.tables WHERE [object_id] = OBJECT_ID(?)",
                name.quoted());
        return rows.isEmpty() || rows.get(0)[0] == null ? 0 : ((Number) rows.get(0)[0]).intValue();
    }

    private static boolean isOne(Object v) {
        return v instanceof Number n && n.intValue() == 1;
    }

    private static Integer intOrNull(Object v) {
        if (v == null) {
            return null;
        }
        long l = ((Number) v).longValue();
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, l));
    }
}
