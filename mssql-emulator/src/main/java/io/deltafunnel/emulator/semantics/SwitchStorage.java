package io.deltafunnel.emulator.semantics;

import java.util.List;

/**
 * Whether ALTER TABLE ... SWITCH can exchange the two tables' H2 tables ({@link TableDef.Storage}) instead of
 * moving rows. Each H2 table enforces what it was created with: its identity column, CHECK constraints, unique
 * indexes and foreign key triggers. After an exchange the target's rows sit in the source's H2 table and the other
 * way round, so the exchange keeps every table's behaviour only when those physical objects are the same on both;
 * {@link SwitchChecks} (SQL Server's requirements) is weaker: it compares only in one direction and ignores the
 * IDENTITY property. (Identity positions and column defaults differ freely: the switch sets them on the H2 tables.)
 * When this says no, the switch copies the rows.
 */
public final class SwitchStorage {
    private SwitchStorage() {
    }

    /** Null when the storages of {@code src} and {@code dst} can be exchanged, else the reason why not. */
    public static String whyNotExchangeable(Catalog cat, TableDef src, TableDef dst) {
        List<ColumnDef> a = src.columns();
        List<ColumnDef> b = dst.columns();
        for (int i = 0; i < a.size(); i++) {
            ColumnDef x = a.get(i);
            ColumnDef y = b.get(i);
            if (x.identity() != y.identity() || x.identity() && x.identityIncrement() != y.identityIncrement()) {
                return "column " + x.name() + " differs in its IDENTITY property";
            }
        }
        if (!sameChecks(cat.checks(src.objectId()), cat.checks(dst.objectId()))
                || !sameChecks(cat.checks(dst.objectId()), cat.checks(src.objectId()))) {
            return "the CHECK constraints differ";
        }
        if (!uniqueIndexesMatched(cat, src, dst) || !uniqueIndexesMatched(cat, dst, src)) {
            return "the unique indexes differ";
        }
        if (!cat.foreignKeys(src.objectId(), true).isEmpty() || !cat.foreignKeys(dst.objectId(), true).isEmpty()) {
            return "a table has a FOREIGN KEY";
        }
        return null;
    }

    /** Every check of {@code from} has one of {@code in} with the same definition. */
    private static boolean sameChecks(List<Constraints.Check> from, List<Constraints.Check> in) {
        for (Constraints.Check c : from) {
            if (c.definition == null || in.stream().noneMatch(d -> c.definition.equalsIgnoreCase(d.definition))) {
                return false;
            }
        }
        return true;
    }

    /** Every unique index of {@code from} has an index of {@code in} with the same structure. */
    private static boolean uniqueIndexesMatched(Catalog cat, TableDef from, TableDef in) {
        List<TableIndexes.Entry> other = TableIndexes.of(cat, in);
        for (TableIndexes.Entry e : TableIndexes.of(cat, from)) {
            if (e.index().unique && other.stream().noneMatch(x -> x.index().sameStructure(e.index()))) {
                return false;
            }
        }
        return true;
    }
}
