package io.deltafunnel.emulator.semantics;

import java.util.ArrayList;
import java.util.List;

/**
 * The indexes of one table as SQL Server numbers them: the clustered index (a PRIMARY KEY unless declared
 * NONCLUSTERED, a UNIQUE constraint declared CLUSTERED, or CREATE CLUSTERED INDEX) is index_id 1, the others 2, 3, ...
 * in the order they were made (key constraints of CREATE TABLE first); a table without a clustered index is a heap
 * (its sys.indexes row has index_id 0). Read from the {@link Catalog}: its keys (PRIMARY KEY, UNIQUE constraint) and
 * the indexes made by CREATE INDEX. Ids are assigned when read, so after a DROP INDEX the later indexes' ids move
 * down (SQL Server keeps them; listed in the README's differences).
 */
public final class TableIndexes {
    /** An index with its index_id. */
    public record Entry(int indexId, IndexDef index) {
    }

    private TableIndexes() {
    }

    /** The table's indexes, clustered first; empty for a heap without indexes. */
    public static List<Entry> of(Catalog cat, TableDef t) {
        List<IndexDef> all = new ArrayList<>();
        boolean clusteredCreated = cat.createdIndexes(t.objectId()).stream().anyMatch(d -> d.clustered);
        boolean clusteredKey = false;
        for (Constraints.Key k : cat.keys(t.objectId())) {
            if (k.kind == Constraints.KeyKind.UNIQUE_INDEX) {
                continue; // a CREATE UNIQUE INDEX: listed with the created indexes
            }
            boolean pk = k.kind == Constraints.KeyKind.PRIMARY_KEY;
            Boolean written = cat.keyClustered(t.objectId(), k.name);
            boolean clustered = written != null ? written : pk && !clusteredCreated && !clusteredKey
                    && !anyKeyDeclaredClustered(cat, t);
            clusteredKey |= clustered;
            List<IndexDef.KeyColumn> cols = new ArrayList<>();
            k.columns.forEach(c -> cols.add(new IndexDef.KeyColumn(c, false)));
            all.add(new IndexDef(k.name, clustered, true, pk, !pk, cols, List.of()));
        }
        all.addAll(cat.createdIndexes(t.objectId()));
        List<Entry> out = new ArrayList<>();
        int next = 2;
        for (IndexDef d : all) {
            out.add(new Entry(d.clustered ? 1 : next++, d));
        }
        out.sort(java.util.Comparator.comparingInt(Entry::indexId));
        return out;
    }

    /** The clustered index, or null for a heap. */
    public static IndexDef clustered(Catalog cat, TableDef t) {
        for (Entry e : of(cat, t)) {
            if (e.index().clustered) {
                return e.index();
            }
        }
        return null;
    }

    private static boolean anyKeyDeclaredClustered(Catalog cat, TableDef t) {
        for (Constraints.Key k : cat.keys(t.objectId())) {
            if (Boolean.TRUE.equals(cat.keyClustered(t.objectId(), k.name))) {
                return true;
            }
        }
        return false;
    }
}
