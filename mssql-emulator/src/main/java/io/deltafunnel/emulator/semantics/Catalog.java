package io.deltafunnel.emulator.semantics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The emulator's own record of SQL Server declarations (H2 cannot tell nvarchar from varchar, money from decimal,
 * datetime from datetime2, ...). Shared by all connections of one emulator; thread-safe.
 */
public final class Catalog {
    /** Object ids handed to user tables start here (like SQL Server's large positive ids). */
    private static final int FIRST_OBJECT_ID = 1_000_000_000;

    private final String database;
    private final Map<String, TableDef> tables = new LinkedHashMap<>();
    private final Map<String, Integer> schemas = new LinkedHashMap<>();
    private final Map<Integer, List<Constraints.Key>> keys = new java.util.HashMap<>();
    private final Map<Integer, List<Constraints.Check>> checks = new java.util.HashMap<>();
    private final Map<Integer, Constraints.ForeignKey> foreignKeys = new LinkedHashMap<>();
    /** Indexes made by CREATE INDEX, per table object id, in creation order (see {@link TableIndexes}). */
    private final Map<Integer, List<IndexDef>> createdIndexes = new java.util.HashMap<>();
    /** CLUSTERED / NONCLUSTERED written on a PRIMARY KEY or UNIQUE constraint: object id -> lower-case name -> clustered. */
    private final Map<Integer, Map<String, Boolean>> keyClustering = new java.util.HashMap<>();
    /** DEFAULT constraint names by table object id and lower-case column name. */
    private final Map<Integer, Map<String, String>> defaultNames = new java.util.HashMap<>();
    /** Principals and permissions (sys.database_principals, sys.database_permissions). */
    private final Permissions permissions = new Permissions();
    private final AtomicInteger nextObjectId = new AtomicInteger(FIRST_OBJECT_ID);
    private int nextSchemaId = 5;
    private int storageGeneration;
    /**
     * Serialises name checks + H2 DDL + catalog update of CREATE statements. Distinct from this object's monitor,
     * which is only held briefly (H2 triggers read the catalog while holding H2 locks).
     */
    private final Object ddlLock = new Object();

    public Catalog(String database) {
        this.database = database;
        schemas.put("dbo", 1);
        schemas.put("guest", 2);
        schemas.put("INFORMATION_SCHEMA", 3);
        schemas.put("sys", 4);
    }

    public Object ddlLock() {
        return ddlLock;
    }

    public String database() {
        return database;
    }

    public int newObjectId() {
        return nextObjectId.getAndIncrement();
    }

    public synchronized TableDef table(String schema, String name) {
        return tables.get(TableDef.key(schema, name));
    }

    public synchronized TableDef tableById(int objectId) {
        for (TableDef t : tables.values()) {
            if (t.objectId() == objectId) {
                return t;
            }
        }
        return null;
    }

    public synchronized List<TableDef> tables() {
        List<TableDef> all = new ArrayList<>(tables.values());
        all.sort(Comparator.comparing(TableDef::objectId));
        return all;
    }

    public synchronized void put(TableDef t) {
        tables.put(t.key(), t);
    }

    public synchronized void remove(TableDef t) {
        tables.remove(t.key());
        keys.remove(t.objectId());
        checks.remove(t.objectId());
        createdIndexes.remove(t.objectId());
        keyClustering.remove(t.objectId());
        defaultNames.remove(t.objectId());
        foreignKeys.values().removeIf(fk -> fk.child == t.objectId());
        permissions.dropObject(t.objectId());
    }

    public Permissions permissions() {
        return permissions;
    }

    public synchronized void addKey(int objectId, Constraints.Key k) {
        keys.computeIfAbsent(objectId, x -> new ArrayList<>()).add(k);
    }

    public synchronized void removeKey(int objectId, String name) {
        List<Constraints.Key> l = keys.get(objectId);
        if (l != null) {
            l.removeIf(k -> k.name.equalsIgnoreCase(name));
        }
    }

    public synchronized List<Constraints.Key> keys(int objectId) {
        return List.copyOf(keys.getOrDefault(objectId, List.of()));
    }

    public synchronized void addCheck(int objectId, Constraints.Check c) {
        checks.computeIfAbsent(objectId, x -> new ArrayList<>()).add(c);
    }

    public synchronized List<Constraints.Check> checks(int objectId) {
        return List.copyOf(checks.getOrDefault(objectId, List.of()));
    }

    public synchronized void addForeignKey(Constraints.ForeignKey fk) {
        foreignKeys.put(fk.id, fk);
    }

    synchronized void removeForeignKey(int id) {
        foreignKeys.remove(id);
    }

    public synchronized Constraints.ForeignKey foreignKey(int id) {
        return foreignKeys.get(id);
    }

    /** Foreign keys whose child ({@code referencing}) or parent table is {@code objectId}. */
    public synchronized List<Constraints.ForeignKey> foreignKeys(int objectId, boolean referencing) {
        List<Constraints.ForeignKey> out = new ArrayList<>();
        for (Constraints.ForeignKey fk : foreignKeys.values()) {
            if ((referencing ? fk.child : fk.parent) == objectId) {
                out.add(fk);
            }
        }
        return out;
    }

    /** True when some constraint of the database (any table) is already called {@code name}. */
    public synchronized boolean constraintNameTaken(String name) {
        for (List<Constraints.Key> l : keys.values()) {
            if (l.stream().anyMatch(k -> k.kind != Constraints.KeyKind.UNIQUE_INDEX && k.name.equalsIgnoreCase(name))) {
                return true;
            }
        }
        for (List<Constraints.Check> l : checks.values()) {
            if (l.stream().anyMatch(c -> c.name.equalsIgnoreCase(name))) {
                return true;
            }
        }
        return foreignKeys.values().stream().anyMatch(f -> f.name.equalsIgnoreCase(name));
    }

    /** sp_rename of a column: constraint column lists follow. */
    public synchronized void renameColumn(int objectId, String from, String to) {
        List<Constraints.Key> l = keys.get(objectId);
        if (l != null) {
            l.replaceAll(k -> k.renamedColumn(from, to));
        }
        List<IndexDef> ix = createdIndexes.get(objectId);
        if (ix != null) {
            ix.replaceAll(d -> d.renamedColumn(from, to));
        }
        Map<String, String> d = defaultNames.get(objectId);
        if (d != null && d.containsKey(from.toLowerCase(Locale.ROOT))) {
            d.put(to.toLowerCase(Locale.ROOT), d.remove(from.toLowerCase(Locale.ROOT)));
        }
        for (Constraints.ForeignKey fk : foreignKeys.values()) {
            if (fk.child == objectId) {
                fk.childColumns = fk.childColumns.stream().map(c -> c.equalsIgnoreCase(from) ? to : c).toList();
            }
            if (fk.parent == objectId) {
                fk.parentColumns = fk.parentColumns.stream().map(c -> c.equalsIgnoreCase(from) ? to : c).toList();
            }
        }
    }

    /**
     * The H2 table for a new table (or a table moved to {@code schema}) called {@code name}: the H2 table of that
     * schema and name unless it belongs to another table's storage (after ALTER TABLE ... SWITCH or sp_rename), then
     * {@code name$objectId} (or a further free variant). Call under {@link #ddlLock()}.
     */
    public synchronized TableDef.Storage storageFor(String schema, String name, int objectId) {
        String candidate = name;
        for (int n = 0; storageTaken(schema, candidate); n++) {
            candidate = name + "$" + objectId + (n == 0 ? "" : "$" + n);
        }
        return new TableDef.Storage(schema, candidate, objectId);
    }

    /** True when some table's rows are stored in H2 table {@code schema.name} (case-insensitive). */
    public synchronized boolean storageTaken(String schema, String name) {
        for (TableDef t : tables.values()) {
            if (t.storage().schema().equalsIgnoreCase(schema) && t.storage().name().equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The table whose rows are in H2 table {@code schema.name} (case-insensitive, as {@link #storageTaken}), or null.
     * After ALTER TABLE ... SWITCH or sp_rename that is not the table of that schema and name: H2's result metadata
     * names the H2 table, and this maps it back to the table whose columns it holds.
     */
    public synchronized TableDef tableByStorage(String schema, String name) {
        for (TableDef t : tables.values()) {
            if (t.storage().schema().equalsIgnoreCase(schema) && t.storage().name().equalsIgnoreCase(name)) {
                return t;
            }
        }
        return null;
    }

    /** The table whose rows are in the storage with trigger id {@code storageId}, or null. */
    public synchronized TableDef tableByStorageId(int storageId) {
        for (TableDef t : tables.values()) {
            if (t.storage().id() == storageId) {
                return t;
            }
        }
        return null;
    }

    /**
     * ALTER TABLE ... SWITCH: tables {@code a} and {@code b} (by object id) exchange their storages, in the catalog
     * only. Swapping again undoes it. Bumps {@link #storageGeneration()}.
     */
    public synchronized void swapStorage(int a, int b) {
        TableDef x = tableById(a);
        TableDef y = tableById(b);
        if (x == null || y == null) {
            throw new IllegalStateException("swapStorage of a table not in the catalog: " + a + ", " + b);
        }
        tables.put(x.key(), x.withStorage(y.storage()));
        tables.put(y.key(), y.withStorage(x.storage()));
        storageGeneration++;
    }

    /** Changes whenever two tables swap storages (H2 triggers reload what they cached about their table). */
    public synchronized int storageGeneration() {
        return storageGeneration;
    }

    /** Replaces {@code old} by {@code renamed} (rename or schema transfer). */
    public synchronized void replace(TableDef old, TableDef renamed) {
        tables.remove(old.key());
        tables.put(renamed.key(), renamed);
    }

    /** Canonical spelling of a schema, or null if it does not exist. */
    public synchronized String schema(String name) {
        for (String s : schemas.keySet()) {
            if (s.equalsIgnoreCase(name)) {
                return s;
            }
        }
        return null;
    }

    public synchronized Integer schemaId(String name) {
        String s = schema(name);
        return s == null ? null : schemas.get(s);
    }

    public synchronized String schemaName(int id) {
        for (Map.Entry<String, Integer> e : schemas.entrySet()) {
            if (e.getValue() == id) {
                return e.getKey();
            }
        }
        return null;
    }

    public synchronized Map<String, Integer> schemas() {
        return new LinkedHashMap<>(schemas);
    }

    public synchronized void addSchema(String name) {
        schemas.put(name, nextSchemaId++);
    }

    public synchronized void removeSchema(String name) {
        String s = schema(name);
        if (s != null) {
            schemas.remove(s);
        }
    }

    public synchronized boolean schemaHasTables(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return tables.values().stream().anyMatch(t -> t.schema().toLowerCase(Locale.ROOT).equals(lower));
    }

    // ---- indexes (sys.indexes, sys.index_columns, ALTER TABLE SWITCH) ------------------------------------------------

    /** Records an index made by CREATE INDEX on table {@code objectId}. */
    public synchronized void addIndex(int objectId, IndexDef index) {
        createdIndexes.computeIfAbsent(objectId, x -> new ArrayList<>()).add(index);
    }

    /** DROP INDEX: forgets the CREATE INDEX index {@code name} of table {@code objectId}. */
    public synchronized void removeIndex(int objectId, String name) {
        List<IndexDef> l = createdIndexes.get(objectId);
        if (l != null) {
            l.removeIf(d -> d.name.equalsIgnoreCase(name));
        }
    }

    /** The indexes made by CREATE INDEX on table {@code objectId}, in creation order. */
    public synchronized List<IndexDef> createdIndexes(int objectId) {
        return List.copyOf(createdIndexes.getOrDefault(objectId, List.of()));
    }

    /** Records that key constraint {@code name} was declared CLUSTERED ({@code true}) or NONCLUSTERED. */
    public synchronized void setKeyClustered(int objectId, String name, boolean clustered) {
        keyClustering.computeIfAbsent(objectId, x -> new java.util.HashMap<>())
                .put(name.toLowerCase(Locale.ROOT), clustered);
    }

    /** CLUSTERED (true) / NONCLUSTERED (false) as written on key constraint {@code name}, null if not written. */
    public synchronized Boolean keyClustered(int objectId, String name) {
        Map<String, Boolean> m = keyClustering.get(objectId);
        return m == null ? null : m.get(name.toLowerCase(Locale.ROOT));
    }

    /** Records the name of the DEFAULT constraint of {@code column} (CREATE TABLE or ALTER TABLE ADD). */
    public synchronized void putDefaultName(int objectId, String column, String name) {
        defaultNames.computeIfAbsent(objectId, x -> new java.util.HashMap<>()).put(column.toLowerCase(Locale.ROOT),
                name);
    }

    /** The name of the DEFAULT constraint of {@code column}, or null if none was recorded. */
    public synchronized String defaultName(int objectId, String column) {
        Map<String, String> d = defaultNames.get(objectId);
        return d == null ? null : d.get(column.toLowerCase(Locale.ROOT));
    }
}
