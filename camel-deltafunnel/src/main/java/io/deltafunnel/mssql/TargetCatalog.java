package io.deltafunnel.mssql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** Reads table metadata from INFORMATION_SCHEMA; names are always bound as parameters. */
final class TargetCatalog {

    static final String TABLE_QUERY =
            "SELECT TABLE_SCHEMA, TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?";
    static final String COLUMNS_QUERY = "SELECT COLUMN_NAME, DATA_TYPE, CHARACTER_MAXIMUM_LENGTH, NUMERIC_PRECISION,"
            + " NUMERIC_SCALE, DATETIME_PRECISION, IS_NULLABLE, ORDINAL_POSITION, COLLATION_NAME"
            + " FROM INFORMATION_SCHEMA.COLUMNS"
            + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION";

    private TargetCatalog() {
    }

    /** The table's exact name as the catalog spells it, or null when it does not exist. */
    static TableName find(Connection connection, TableName name) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(TABLE_QUERY)) {
            ps.setString(1, name.schema());
            ps.setString(2, name.table());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new TableName(rs.getString(1), rs.getString(2)) : null;
            }
        }
    }

    static TargetTable describe(Connection connection, TableName name) throws SQLException {
        List<TargetColumn> columns = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(COLUMNS_QUERY)) {
            ps.setString(1, name.schema());
            ps.setString(2, name.table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    columns.add(new TargetColumn(rs.getString(1), rs.getString(2), intOrNull(rs, 3), intOrNull(rs, 4),
                            intOrNull(rs, 5), intOrNull(rs, 6), "YES".equalsIgnoreCase(rs.getString(7).trim()),
                            rs.getInt(8), rs.getString(9)));
                }
            }
        }
        return new TargetTable(name, columns);
    }

    private static Integer intOrNull(ResultSet rs, int index) throws SQLException {
        long v = rs.getLong(index);
        return rs.wasNull() ? null : (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
    }
}
