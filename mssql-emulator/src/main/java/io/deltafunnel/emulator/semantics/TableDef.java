package io.deltafunnel.emulator.semantics;

import io.deltafunnel.emulator.tsql.Identifiers;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** A user table: schema, name, object id and its columns in ordinal order. Immutable. */
public final class TableDef {
    private final String schema;
    private final String name;
    private final int objectId;
    private final List<ColumnDef> columns;
    private final List<String> primaryKey;

    public TableDef(String schema, String name, int objectId, List<ColumnDef> columns, List<String> primaryKey) {
        this.schema = schema;
        this.name = name;
        this.objectId = objectId;
        this.columns = List.copyOf(columns);
        this.primaryKey = primaryKey == null ? Collections.emptyList() : List.copyOf(primaryKey);
    }

    public String schema() {
        return schema;
    }

    public String name() {
        return name;
    }

    public int objectId() {
        return objectId;
    }

    public List<ColumnDef> columns() {
        return columns;
    }

    public List<String> primaryKey() {
        return primaryKey;
    }

    /** Case-insensitive lookup, -1 if absent. */
    public int indexOf(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equalsIgnoreCase(column)) {
                return i;
            }
        }
        return -1;
    }

    public ColumnDef column(String column) {
        int i = indexOf(column);
        return i < 0 ? null : columns.get(i);
    }

    /** Quoted H2 name, e.g. {@code "dbo"."t"}. */
    public String h2Name() {
        return Identifiers.h2Quote(schema) + "." + Identifiers.h2Quote(name);
    }

    /** SQL Server-style three-part name used in messages, e.g. {@code master.dbo.t}. */
    public String messageName(String database) {
        return database + "." + schema + "." + name;
    }

    public String key() {
        return key(schema, name);
    }

    public static String key(String schema, String name) {
        return schema.toLowerCase(Locale.ROOT) + "\u0000" + name.toLowerCase(Locale.ROOT);
    }

    public TableDef withName(String newSchema, String newName) {
        return new TableDef(newSchema, newName, objectId, columns, primaryKey);
    }

    public TableDef withColumns(List<ColumnDef> newColumns) {
        return new TableDef(schema, name, objectId, newColumns, primaryKey);
    }
}
