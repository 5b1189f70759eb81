package io.deltafunnel.emulator;

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
    private final AtomicInteger nextObjectId = new AtomicInteger(FIRST_OBJECT_ID);
    private int nextSchemaId = 5;
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

    Object ddlLock() {
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
}
