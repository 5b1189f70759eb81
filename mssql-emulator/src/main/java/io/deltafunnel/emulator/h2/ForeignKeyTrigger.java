package io.deltafunnel.emulator.h2;

import io.deltafunnel.emulator.semantics.BulkChecks;
import io.deltafunnel.emulator.semantics.Catalog;
import io.deltafunnel.emulator.semantics.Constraints;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.TableDef;
import io.deltafunnel.emulator.tsql.Identifiers;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import org.h2.api.Trigger;

/**
 * Enforces one FOREIGN KEY (NO ACTION) the way SQL Server reports it (547 naming the constraint, database, table
 * and column). Two triggers per foreign key: {@code mssqlemu_fkc_<id>} (BEFORE INSERT, UPDATE on the referencing
 * table: the referenced row must exist; skipped by a bulk load without CHECK_CONSTRAINTS, see {@link BulkChecks})
 * and {@code mssqlemu_fkp_<id>} (BEFORE DELETE, UPDATE on the referenced table: no referencing row may remain).
 * The trigger runs on the statement's own connection, so it sees the statement's transaction.
 */
public final class ForeignKeyTrigger implements Trigger {
    static final String CHILD_PREFIX = "mssqlemu_fkc_";
    static final String PARENT_PREFIX = "mssqlemu_fkp_";

    private int fkId;
    private boolean childSide;

    static String childTrigger(Constraints.ForeignKey fk) {
        return CHILD_PREFIX + fk.id;
    }

    static String parentTrigger(Constraints.ForeignKey fk) {
        return PARENT_PREFIX + fk.id;
    }

    /** The two CREATE TRIGGER statements for {@code fk}. */
    public static List<String> createStatements(Constraints.ForeignKey fk, TableDef child, TableDef parent) {
        return List.of(
                "CREATE TRIGGER " + Identifiers.h2Quote(child.storage().schema()) + "."
                        + Identifiers.h2Quote(childTrigger(fk))
                        + " BEFORE INSERT, UPDATE ON " + child.h2Name() + " FOR EACH ROW CALL \""
                        + ForeignKeyTrigger.class.getName() + "\"",
                "CREATE TRIGGER " + Identifiers.h2Quote(parent.storage().schema()) + "."
                        + Identifiers.h2Quote(parentTrigger(fk))
                        + " BEFORE DELETE, UPDATE ON " + parent.h2Name() + " FOR EACH ROW CALL \""
                        + ForeignKeyTrigger.class.getName() + "\"");
    }

    public static String dropParentTrigger(Constraints.ForeignKey fk, TableDef parent) {
        return "DROP TRIGGER IF EXISTS " + Identifiers.h2Quote(parent.storage().schema()) + "."
                + Identifiers.h2Quote(parentTrigger(fk));
    }

    @Override
    public void init(Connection conn, String schemaName, String triggerName, String table, boolean before, int type) {
        childSide = triggerName.startsWith(CHILD_PREFIX);
        fkId = Integer.parseInt(triggerName.substring(childSide ? CHILD_PREFIX.length() : PARENT_PREFIX.length()));
    }

    @Override
    public void fire(Connection conn, Object[] oldRow, Object[] newRow) throws SQLException {
        Catalog cat = CatalogFunctions.catalogOf(conn);
        Constraints.ForeignKey fk = cat.foreignKey(fkId);
        if (fk == null) {
            return; // dropped with its table
        }
        TableDef child = cat.tableById(fk.child);
        TableDef parent = cat.tableById(fk.parent);
        if (child == null || parent == null) {
            return;
        }
        if (childSide) {
            if (newRow == null || BulkChecks.skipped()) {
                return;
            }
            Object[] key = values(child, fk.childColumns, newRow);
            if (key == null || oldRow != null && sameKey(key, values(child, fk.childColumns, oldRow))) {
                return;
            }
            if (!exists(conn, parent, fk.parentColumns, key)) {
                throw new NormalizeTrigger.TriggerError(ErrorCatalog.CONSTRAINT_CONFLICT.error("The "
                        + (oldRow == null ? "INSERT" : "UPDATE") + " statement conflicted with the FOREIGN KEY constraint \""
                        + fk.name + "\". The conflict occurred in database \"" + cat.database() + "\", table \""
                        + parent.schema() + "." + parent.name() + "\", column '" + fk.parentColumns.get(0) + "'."));
            }
        } else {
            Object[] key = oldRow == null ? null : values(parent, fk.parentColumns, oldRow);
            if (key == null || newRow != null && sameKey(key, values(parent, fk.parentColumns, newRow))) {
                return;
            }
            if (exists(conn, child, fk.childColumns, key)) {
                throw new NormalizeTrigger.TriggerError(ErrorCatalog.CONSTRAINT_CONFLICT.error("The "
                        + (newRow == null ? "DELETE" : "UPDATE") + " statement conflicted with the REFERENCE constraint \""
                        + fk.name + "\". The conflict occurred in database \"" + cat.database() + "\", table \""
                        + child.schema() + "." + child.name() + "\", column '" + fk.childColumns.get(0) + "'."));
            }
        }
    }

    /** The key's values from a row, or null when one of them is NULL (such a row references nothing). */
    private static Object[] values(TableDef t, List<String> columns, Object[] row) {
        Object[] out = new Object[columns.size()];
        for (int i = 0; i < out.length; i++) {
            int k = t.indexOf(columns.get(i));
            if (k < 0 || k >= row.length || row[k] == null) {
                return null;
            }
            out[i] = row[k];
        }
        return out;
    }

    private static boolean sameKey(Object[] a, Object[] b) {
        if (b == null) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (!Objects.equals(a[i], b[i])) {
                return false;
            }
        }
        return true;
    }

    private static boolean exists(Connection conn, TableDef t, List<String> columns, Object[] key)
            throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT 1 FROM ").append(t.h2Name()).append(" WHERE ");
        for (int i = 0; i < columns.size(); i++) {
            sql.append(i > 0 ? " AND " : "").append(Identifiers.h2Quote(columns.get(i))).append(" = ?");
        }
        try (PreparedStatement ps = conn.prepareStatement(sql.append(" FETCH FIRST 1 ROW ONLY").toString())) {
            for (int i = 0; i < key.length; i++) {
                ps.setObject(i + 1, key[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    @Override
    public void close() {
        // nothing held
    }

    @Override
    public void remove() {
        // nothing held
    }
}
