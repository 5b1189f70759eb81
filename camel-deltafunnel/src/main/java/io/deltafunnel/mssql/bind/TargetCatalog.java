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
        return new TargetTable(name, columns);
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
