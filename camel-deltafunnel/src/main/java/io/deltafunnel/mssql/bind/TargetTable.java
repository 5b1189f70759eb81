package io.deltafunnel.mssql.bind;

import java.util.List;
import java.util.Locale;

import io.deltafunnel.mssql.TableName;

/** The target table's columns, in ordinal order, read once per run. */
public record TargetTable(TableName name, List<TargetColumn> columns) {

    public TargetTable {
        columns = List.copyOf(columns);
    }

    /** The column named {@code name}, compared case-insensitively; null when none. */
    public TargetColumn column(String columnName) {
        for (TargetColumn c : columns) {
            if (c.name().toLowerCase(Locale.ROOT).equals(columnName.toLowerCase(Locale.ROOT))) {
                return c;
            }
        }
        return null;
    }
}
