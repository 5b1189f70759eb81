package io.deltafunnel.emulator.semantics;

import io.deltafunnel.emulator.tsql.Identifiers;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * A user table: schema, name, object id, its columns in ordinal order and the H2 table that stores its rows
 * ({@link Storage}). Immutable.
 */
public final class TableDef {
    /**
     * The H2 table holding a table's rows: schema and name in H2, and the id that names its H2 triggers (the object
     * id of the table it was created for). Normally the table's own schema and name; ALTER TABLE ... SWITCH swaps
     * the storages of two tables in the catalog only, and a table created under a name whose H2 table belongs to
     * another table's storage gets a fresh H2 name ({@link Catalog#storageFor}).
     */
    public record Storage(String schema, String name, int id) {
        /** Quoted H2 name, e.g. {@code "dbo"."t"}. */
        public String h2Name() {
            return Identifiers.h2Quote(schema) + "." + Identifiers.h2Quote(name);
        }
    }

    private final String schema;
    private final String name;
    private final int objectId;
    private final List<ColumnDef> columns;
    private final List<String> primaryKey;
    private final Storage storage;

    /** A table stored in the H2 table of its own schema and name. */
    public TableDef(String schema, String name, int objectId, List<ColumnDef> columns, List<String> primaryKey) {
        this(schema, name, objectId, columns, primaryKey, new Storage(schema, name, objectId));
    }

    public TableDef(String schema, String name, int objectId, List<ColumnDef> columns, List<String> primaryKey,
            Storage storage) {
        this.schema = schema;
        this.name = name;
        this.objectId = objectId;
        this.columns = List.copyOf(columns);
        this.primaryKey = primaryKey == null ? Collections.emptyList() : List.copyOf(primaryKey);
        this.storage = storage;
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

    /** The H2 table that stores the rows. */
    public Storage storage() {
        return storage;
    }

    /** Quoted name of the H2 table that stores the rows, e.g. {@code "dbo"."t"}. */
    public String h2Name() {
        return storage.h2Name();
    }

    /** True when the rows are stored in the H2 table of this table's own schema and name. */
    public boolean storedUnderOwnName() {
        return storage.schema().equals(schema) && storage.name().equals(name);
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

    /** Renamed, its rows in {@code newStorage}. */
    public TableDef withName(String newSchema, String newName, Storage newStorage) {
        return new TableDef(newSchema, newName, objectId, columns, primaryKey, newStorage);
    }

    public TableDef withColumns(List<ColumnDef> newColumns) {
        return new TableDef(schema, name, objectId, newColumns, primaryKey, storage);
    }

    public TableDef withPrimaryKey(List<String> newPrimaryKey) {
        return new TableDef(schema, name, objectId, columns, newPrimaryKey, storage);
    }

    public TableDef withColumnsAndKey(List<ColumnDef> newColumns, List<String> newPrimaryKey) {
        return new TableDef(schema, name, objectId, newColumns, newPrimaryKey, storage);
    }

    /** The same table with its rows in {@code newStorage} (ALTER TABLE ... SWITCH). */
    public TableDef withStorage(Storage newStorage) {
        return new TableDef(schema, name, objectId, columns, primaryKey, newStorage);
    }
}
