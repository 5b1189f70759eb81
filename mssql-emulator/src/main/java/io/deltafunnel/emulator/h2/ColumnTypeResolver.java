package io.deltafunnel.emulator.h2;

import io.deltafunnel.emulator.semantics.Catalog;
import io.deltafunnel.emulator.semantics.ColumnDef;
import io.deltafunnel.emulator.semantics.SqlType;
import io.deltafunnel.emulator.semantics.TableDef;
import io.deltafunnel.emulator.tsql.SelectList;
import io.deltafunnel.emulator.wire.ResultColumn;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Works out the SQL Server type of each column of an H2 result: base-table columns take the catalog's declared
 * type; expressions are mapped from the H2 type.
 */
public final class ColumnTypeResolver {
    private ColumnTypeResolver() {
    }

    public static List<ResultColumn> describe(ResultSetMetaData md, Catalog catalog) throws SQLException {
        return describe(md, catalog, null);
    }

    /**
     * As {@link #describe(ResultSetMetaData, Catalog)}, with the SELECT list as {@link SelectList} read it (may be
     * null): an item's alias is the column name as written, an unaliased expression has an empty name, and an
     * item's derived SQL Server type wins over the one mapped from H2.
     */
    public static List<ResultColumn> describe(ResultSetMetaData md, Catalog catalog, List<SelectList.Item> items)
            throws SQLException {
        int n = md.getColumnCount();
        List<ResultColumn> out = new ArrayList<>(n);
        if (items != null && items.size() != n) {
            items = null;
        }
        for (int i = 1; i <= n; i++) {
            SelectList.Item item = items == null ? null : items.get(i - 1);
            if (item != null && (item.alias != null || item.expression)) {
                ResultColumn base = describeOne(md, catalog, i);
                String name = item.alias != null ? item.alias : "";
                out.add(item.type != null
                        ? new ResultColumn(name, item.type, md.isNullable(i) != ResultSetMetaData.columnNoNulls, false)
                        : new ResultColumn(name, base.type, base.nullable, base.identity));
                continue;
            }
            out.add(describeOne(md, catalog, i));
        }
        return out;
    }

    private static ResultColumn describeOne(ResultSetMetaData md, Catalog catalog, int i) throws SQLException {
        List<ResultColumn> out = new ArrayList<>(1);
        {
            String label = md.getColumnLabel(i);
            String table = md.getTableName(i);
            String schema = md.getSchemaName(i);
            ColumnDef def = null;
            if (table != null && !table.isEmpty() && schema != null && !schema.isEmpty()) {
                // H2 names the H2 table, which after a SWITCH or rename stores another table's rows
                TableDef t = catalog.tableByStorage(schema, table);
                if (t != null) {
                    def = t.column(md.getColumnName(i));
                }
            }
            String name = label;
            if (def != null) {
                if (label.equalsIgnoreCase(def.name())) {
                    name = def.name();
                }
                out.add(new ResultColumn(name, def.type(), def.nullable(), def.identity()));
            } else {
                if (looksLikeExpression(label)) {
                    name = "";
                }
                out.add(new ResultColumn(name, fromH2(md, i),
                        md.isNullable(i) != ResultSetMetaData.columnNoNulls, false));
            }
        }
        return out.get(0);
    }

    private static boolean looksLikeExpression(String label) {
        return label.indexOf('(') >= 0 || label.indexOf('?') >= 0 || label.indexOf(' ') >= 0
                && label.toUpperCase(Locale.ROOT).contains("CAST");
    }

    static SqlType fromH2(ResultSetMetaData md, int i) throws SQLException {
        int type = md.getColumnType(i);
        String typeName = md.getColumnTypeName(i);
        int precision = md.getPrecision(i);
        int scale = md.getScale(i);
        if (typeName != null && typeName.toUpperCase(Locale.ROOT).startsWith("UUID")) {
            return SqlType.of(SqlType.Base.UNIQUEIDENTIFIER);
        }
        switch (type) {
            case Types.BOOLEAN:
            case Types.BIT:
                return SqlType.of(SqlType.Base.BIT);
            case Types.TINYINT:
            case Types.SMALLINT:
                return SqlType.of(SqlType.Base.SMALLINT);
            case Types.INTEGER:
                return SqlType.of(SqlType.Base.INT);
            case Types.BIGINT:
                return SqlType.of(SqlType.Base.BIGINT);
            case Types.REAL:
                return SqlType.of(SqlType.Base.REAL);
            case Types.FLOAT:
            case Types.DOUBLE:
                return SqlType.of(SqlType.Base.FLOAT);
            case Types.NUMERIC:
            case Types.DECIMAL: {
                int s = Math.max(0, Math.min(scale, 38));
                return SqlType.decimal(SqlType.Base.DECIMAL, 38, s);
            }
            case Types.DATE:
                return SqlType.of(SqlType.Base.DATE);
            case Types.TIME:
            case Types.TIME_WITH_TIMEZONE:
                return SqlType.withScale(SqlType.Base.TIME, Math.min(7, Math.max(0, scale)));
            case Types.TIMESTAMP:
                return SqlType.withScale(SqlType.Base.DATETIME2, Math.min(7, Math.max(0, scale)));
            case Types.TIMESTAMP_WITH_TIMEZONE:
                return SqlType.withScale(SqlType.Base.DATETIMEOFFSET, Math.min(7, Math.max(0, scale)));
            case Types.CHAR:
            case Types.NCHAR:
                return precision >= 1 && precision <= 4000 ? SqlType.withLength(SqlType.Base.NCHAR, precision)
                        : SqlType.withLength(SqlType.Base.NVARCHAR, SqlType.MAX);
            case Types.BINARY:
                return precision >= 1 && precision <= 8000 ? SqlType.withLength(SqlType.Base.BINARY, precision)
                        : SqlType.withLength(SqlType.Base.VARBINARY, SqlType.MAX);
            case Types.VARBINARY:
            case Types.LONGVARBINARY:
            case Types.BLOB:
                return precision >= 1 && precision <= 8000 ? SqlType.withLength(SqlType.Base.VARBINARY, precision)
                        : SqlType.withLength(SqlType.Base.VARBINARY, SqlType.MAX);
            case Types.NULL:
                return SqlType.of(SqlType.Base.INT);
            default:
                return precision >= 1 && precision <= 4000 ? SqlType.withLength(SqlType.Base.NVARCHAR, precision)
                        : SqlType.withLength(SqlType.Base.NVARCHAR, SqlType.MAX);
        }
    }
}
