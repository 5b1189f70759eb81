package io.deltafunnel.emulator.semantics;

import java.util.List;
import java.util.Locale;

/**
 * One index of a table as {@code sys.indexes} / {@code sys.index_columns} report it and as {@code ALTER TABLE ...
 * SWITCH} compares it: made by {@code CREATE INDEX} (kept in the {@link Catalog}), or backing a PRIMARY KEY / UNIQUE
 * constraint (derived from the catalog's keys by {@link TableIndexes}). Immutable.
 */
public final class IndexDef {
    /** A key column of the index and its direction. */
    public record KeyColumn(String name, boolean descending) {
    }

    public final String name;
    public final boolean clustered;
    public final boolean unique;
    public final boolean primaryKey;
    public final boolean uniqueConstraint;
    public final List<KeyColumn> keyColumns;
    /** INCLUDE columns (nonclustered indexes only), in the order written. */
    public final List<String> includedColumns;

    public IndexDef(String name, boolean clustered, boolean unique, boolean primaryKey, boolean uniqueConstraint,
            List<KeyColumn> keyColumns, List<String> includedColumns) {
        this.name = name;
        this.clustered = clustered;
        this.unique = unique;
        this.primaryKey = primaryKey;
        this.uniqueConstraint = uniqueConstraint;
        this.keyColumns = List.copyOf(keyColumns);
        this.includedColumns = List.copyOf(includedColumns);
    }

    /** The same index with a column renamed (sp_rename ... 'COLUMN'). */
    IndexDef renamedColumn(String from, String to) {
        return new IndexDef(name, clustered, unique, primaryKey, uniqueConstraint,
                keyColumns.stream().map(k -> k.name().equalsIgnoreCase(from) ? new KeyColumn(to, k.descending()) : k)
                        .toList(),
                includedColumns.stream().map(c -> c.equalsIgnoreCase(from) ? to : c).toList());
    }

    /**
     * True when {@code other} is the same index structure for ALTER TABLE SWITCH: clustered or not, unique or not,
     * primary key or not, the same key columns in the same order and direction and the same included columns (in
     * any order); names may differ.
     */
    public boolean sameStructure(IndexDef other) {
        if (clustered != other.clustered || unique != other.unique || primaryKey != other.primaryKey
                || keyColumns.size() != other.keyColumns.size()
                || includedColumns.size() != other.includedColumns.size()) {
            return false;
        }
        for (int i = 0; i < keyColumns.size(); i++) {
            KeyColumn a = keyColumns.get(i);
            KeyColumn b = other.keyColumns.get(i);
            if (!a.name().equalsIgnoreCase(b.name()) || a.descending() != b.descending()) {
                return false;
            }
        }
        List<String> mine = includedColumns.stream().map(c -> c.toLowerCase(Locale.ROOT)).sorted().toList();
        List<String> theirs = other.includedColumns.stream().map(c -> c.toLowerCase(Locale.ROOT)).sorted().toList();
        return mine.equals(theirs);
    }
}
