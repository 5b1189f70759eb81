package io.deltafunnel.emulator.semantics;

import java.util.List;

/**
 * The structural requirements of {@code ALTER TABLE source SWITCH TO target} between two non-partitioned tables, as
 * SQL Server documents them ("Transfer data efficiently by using partition switching",
 * https://learn.microsoft.com/en-us/previous-versions/sql/sql-server-2008-r2/ms191160(v=sql.105),
 * and ALTER TABLE's SWITCH argument), each with SQL Server's message number and text from "Database engine events and
 * errors (4000 to 4999)" (https://learn.microsoft.com/en-us/sql/relational-databases/errors-events/database-engine-events-and-errors-4000-to-4999):
 * <ul>
 * <li>source and target differ: 4955;</li>
 * <li>the same columns in the same order: count 4943, name at each ordinal 4942, data type (length, precision,
 *     scale) 4944, collation 4945, nullability 4985; the IDENTITY property is not considered (the documented
 *     caution: a switch can leave duplicate identity values in the target, the identity seeds stay as they were);</li>
 * <li>the same clustered index (one table has one, the other not: 4913), and for every index of the target an
 *     identical index of the source (same clustered-ness, uniqueness, primary key, key columns in order and
 *     direction, included columns; names may differ): 4947;</li>
 * <li>every CHECK constraint of the target matched by one of the source with the same definition (4972), which is
 *     trusted if the target's is (4960);</li>
 * <li>the source is not referenced by a FOREIGN KEY of another table (4967); every FOREIGN KEY of the target has a
 *     corresponding one on the source (same columns, same referenced table and columns: 4968), trusted if the
 *     target's is (4974);</li>
 * <li>a target referenced by a FOREIGN KEY of another table: the emulator refuses the switch (50100; SQL Server's
 *     behaviour there is not verified, see the README's differences).</li>
 * </ul>
 * That the target is empty (4905) is checked by the caller, which reads the rows. Tables are named in messages as
 * {@code database.schema.table}, as SQL Server does.
 */
public final class SwitchChecks {
    private SwitchChecks() {
    }

    /** Throws the first unmet requirement of switching {@code src} into {@code dst}. */
    public static void check(Catalog cat, String database, TableDef src, TableDef dst) throws SqlServerError {
        String sn = src.messageName(database);
        String dn = dst.messageName(database);
        if (src.objectId() == dst.objectId()) {
            throw ErrorCatalog.SWITCH_SAME_TABLE.error("ALTER TABLE SWITCH statement failed. The source table '" + sn
                    + "' and target table '" + dn + "' are same.");
        }
        columns(src, dst, sn, dn);
        indexes(cat, src, dst, sn, dn);
        checks(cat, src, dst, sn, dn);
        foreignKeys(cat, src, dst, sn, dn);
    }

    private static void columns(TableDef src, TableDef dst, String sn, String dn) throws SqlServerError {
        List<ColumnDef> a = src.columns();
        List<ColumnDef> b = dst.columns();
        if (a.size() != b.size()) {
            throw ErrorCatalog.SWITCH_COLUMN_COUNT_MISMATCH.error("ALTER TABLE SWITCH statement failed because table '"
                    + sn + "' has " + a.size() + " columns and table '" + dn + "' has " + b.size() + " columns.");
        }
        for (int i = 0; i < a.size(); i++) {
            ColumnDef x = a.get(i);
            ColumnDef y = b.get(i);
            if (!x.name().equalsIgnoreCase(y.name())) {
                throw ErrorCatalog.SWITCH_COLUMN_NAME_MISMATCH.error("ALTER TABLE SWITCH statement failed because"
                        + " column '" + x.name() + "' at ordinal " + (i + 1) + " in table '" + sn + "' has a different"
                        + " name than the column '" + y.name() + "' at the same ordinal in table '" + dn + "'.");
            }
            if (!x.type().declaration().equals(y.type().declaration())) {
                throw ErrorCatalog.SWITCH_COLUMN_TYPE_MISMATCH.error("ALTER TABLE SWITCH statement failed because"
                        + " column '" + x.name() + "' has data type " + x.type().declaration() + " in source table '"
                        + sn + "' which is different from its type " + y.type().declaration() + " in target table '"
                        + dn + "'.");
            }
            String cx = x.type().collationName();
            String cy = y.type().collationName();
            if (cx == null ? cy != null : !cx.equalsIgnoreCase(cy)) {
                throw ErrorCatalog.SWITCH_COLLATION_MISMATCH.error("ALTER TABLE SWITCH statement failed because column '"
                        + x.name() + "' does not have the same collation in tables '" + sn + "' and '" + dn + "'.");
            }
            if (x.nullable() != y.nullable()) {
                throw ErrorCatalog.SWITCH_NULLABILITY_MISMATCH.error("ALTER TABLE SWITCH statement failed because"
                        + " column '" + x.name() + "' does not have the same nullability attribute in tables '" + sn
                        + "' and '" + dn + "'.");
            }
        }
    }

    private static void indexes(Catalog cat, TableDef src, TableDef dst, String sn, String dn) throws SqlServerError {
        IndexDef sc = TableIndexes.clustered(cat, src);
        IndexDef dc = TableIndexes.clustered(cat, dst);
        if ((sc == null) != (dc == null)) {
            boolean sourceHasIt = sc != null;
            throw ErrorCatalog.SWITCH_CLUSTERED_INDEX_MISMATCH.error("ALTER TABLE SWITCH statement failed. The table '"
                    + (sourceHasIt ? sn : dn) + "' has clustered index '" + (sourceHasIt ? sc : dc).name
                    + "' while the table '" + (sourceHasIt ? dn : sn) + "' does not have clustered index.");
        }
        List<TableIndexes.Entry> sourceIndexes = TableIndexes.of(cat, src);
        for (TableIndexes.Entry e : TableIndexes.of(cat, dst)) {
            if (sourceIndexes.stream().noneMatch(x -> x.index().sameStructure(e.index()))) {
                throw ErrorCatalog.SWITCH_INDEX_MISMATCH.error("ALTER TABLE SWITCH statement failed. There is no"
                        + " identical index in source table '" + sn + "' for the index '" + e.index().name
                        + "' in target table '" + dn + "' .");
            }
        }
    }

    private static void checks(Catalog cat, TableDef src, TableDef dst, String sn, String dn) throws SqlServerError {
        List<Constraints.Check> sourceChecks = cat.checks(src.objectId());
        for (Constraints.Check target : cat.checks(dst.objectId())) {
            Constraints.Check match = null;
            for (Constraints.Check c : sourceChecks) {
                if (c.definition != null && c.definition.equalsIgnoreCase(target.definition)
                        && (match == null || match.notTrusted)) {
                    match = c;
                }
            }
            if (match == null) {
                throw ErrorCatalog.SWITCH_CHECK_MISSING.error("ALTER TABLE SWITCH statement failed. Check constraints"
                        + " or partition function of source table '" + sn + "' allows values that are not allowed by"
                        + " check constraints or partition function on target table '" + dn + "'.");
            }
            if (match.notTrusted && !target.notTrusted) {
                throw ErrorCatalog.SWITCH_CHECK_NOT_TRUSTED.error("ALTER TABLE SWITCH statement failed. Check constraint"
                        + " '" + match.name + "' in source table '" + sn + "' is NOCHECK constraint but the matching"
                        + " check constraint '" + target.name + "' in target table '" + dn + "' is CHECK.");
            }
        }
    }

    private static void foreignKeys(Catalog cat, TableDef src, TableDef dst, String sn, String dn)
            throws SqlServerError {
        for (Constraints.ForeignKey fk : cat.foreignKeys(src.objectId(), false)) {
            if (fk.child != src.objectId()) {
                throw ErrorCatalog.SWITCH_SOURCE_REFERENCED.error("ALTER TABLE SWITCH statement failed. SWITCH is not"
                        + " allowed because source table '" + sn + "' contains primary key for constraint '" + fk.name
                        + "'.");
            }
        }
        for (Constraints.ForeignKey fk : cat.foreignKeys(dst.objectId(), false)) {
            if (fk.child != dst.objectId()) {
                throw SqlServerError.unsupported("ALTER TABLE SWITCH into table '" + dn + "', which is referenced by"
                        + " FOREIGN KEY constraint '" + fk.name + "'");
            }
        }
        List<Constraints.ForeignKey> sourceKeys = cat.foreignKeys(src.objectId(), true);
        for (Constraints.ForeignKey target : cat.foreignKeys(dst.objectId(), true)) {
            Constraints.ForeignKey match = null;
            for (Constraints.ForeignKey c : sourceKeys) {
                if (c.parent == target.parent && sameColumns(c.childColumns, target.childColumns)
                        && sameColumns(c.parentColumns, target.parentColumns) && (match == null || match.notTrusted)) {
                    match = c;
                }
            }
            if (match == null) {
                throw ErrorCatalog.SWITCH_FOREIGN_KEY_MISSING.error("ALTER TABLE SWITCH statement failed. Target table '"
                        + dn + "' has foreign key for constraint '" + target.name + "' but source table '" + sn
                        + "' does not have corresponding key.");
            }
            if (match.notTrusted && !target.notTrusted) {
                throw ErrorCatalog.SWITCH_FOREIGN_KEY_NOT_TRUSTED.error("ALTER TABLE SWITCH statement failed. Foreign key"
                        + " constraint '" + match.name + "' is NOCHECK in source table '" + sn + "' and the"
                        + " corresponding constraint '" + target.name + "' is CHECK in target table '" + dn + "'. The"
                        + " source table constraint must be in CHECK.");
            }
        }
    }

    private static boolean sameColumns(List<String> a, List<String> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!a.get(i).equalsIgnoreCase(b.get(i))) {
                return false;
            }
        }
        return true;
    }
}
