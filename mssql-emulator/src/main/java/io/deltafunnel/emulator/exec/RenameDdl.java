package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.semantics.ColumnDef;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.LockManager;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.TableDef;
import io.deltafunnel.emulator.tsql.Identifiers;
import io.deltafunnel.emulator.tsql.MultipartName;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * sp_rename of a table ({@code 'schema.table', 'new'}) or a column ({@code 'schema.table.column', 'new', 'COLUMN'}):
 * refused inside a transaction (50101) like other DDL; the catalog's declarations and constraint column lists
 * follow the new name.
 */
final class RenameDdl {
    private final ExecContext ctx;
    private final Session s;
    private final DdlHandler ddl;

    RenameDdl(ExecContext ctx, DdlHandler ddl) {
        this.ctx = ctx;
        this.s = ctx.session;
        this.ddl = ddl;
    }

    /** sp_rename 'schema.table', 'new' or sp_rename 'schema.table.column', 'new', 'COLUMN'. */
    void rename(String objName, String newName, String type, String text)
            throws SqlServerError, SQLException, IOException {
        ddl.refuseInTransaction(text);
        List<String> parts = MultipartName.parse(objName);
        boolean column = type != null && type.trim().equalsIgnoreCase("COLUMN");
        if (column) {
            if (parts.size() < 2) {
                throw ErrorCatalog.RENAME_AMBIGUOUS.error("Either the parameter @objname is ambiguous or the claimed"
                        + " @objtype (COLUMN) is wrong.");
            }
            String col = parts.get(parts.size() - 1);
            String tname = parts.get(parts.size() - 2);
            String schema = parts.size() >= 3 ? parts.get(parts.size() - 3) : "dbo";
            TableDef t = s.catalog().table(schema.isEmpty() ? "dbo" : schema, tname);
            ColumnDef c = t == null ? null : t.column(col);
            if (c == null) {
                throw ErrorCatalog.RENAME_AMBIGUOUS.error("Either the parameter @objname is ambiguous or the claimed"
                        + " @objtype (COLUMN) is wrong.");
            }
            s.locks.lock(t, LockManager.Mode.SCH_M, LockManager.Duration.TRANSACTION, false);
            if (t.column(newName) != null) {
                throw ErrorCatalog.DUPLICATE_COLUMN_NAME.error(
                        "Column names in each table must be unique. Column name '"
                        + newName + "' in table '" + t.name() + "' is specified more than once.");
            }
            try (Statement x = s.h2.createStatement()) {
                x.execute("ALTER TABLE " + t.h2Name() + " ALTER COLUMN " + Identifiers.h2Quote(c.name())
                        + " RENAME TO " + Identifiers.h2Quote(newName));
            }
            List<ColumnDef> cols = new ArrayList<>();
            for (ColumnDef d : t.columns()) {
                cols.add(d == c ? d.renamed(newName) : d);
            }
            List<String> pk = new ArrayList<>();
            for (String p : t.primaryKey()) {
                pk.add(p.equalsIgnoreCase(c.name()) ? newName : p);
            }
            s.catalog().replace(t, t.withColumnsAndKey(cols, pk));
            s.catalog().renameColumn(t.objectId(), c.name(), newName);
            return;
        }
        if (type != null && !type.trim().isEmpty() && !type.trim().equalsIgnoreCase("OBJECT")) {
            throw SqlServerError.unsupported("sp_rename with @objtype " + type);
        }
        String[] sn = MultipartName.schemaAndName(objName);
        TableDef t = sn == null ? null : s.catalog().table(sn[0], sn[1]);
        if (t == null) {
            throw ErrorCatalog.RENAME_AMBIGUOUS.error(
                    "Either the parameter @objname is ambiguous or the claimed @objtype"
                    + " (object) is wrong.");
        }
        s.locks.lock(t, LockManager.Mode.SCH_M, LockManager.Duration.TRANSACTION, false);
        if (s.catalog().table(t.schema(), newName) != null) {
            throw ErrorCatalog.RENAME_NAME_IN_USE.error("Error: The new name '" + newName
                    + "' is already in use as a object name and would cause a duplicate that is not permitted.");
        }
        // the catalog only: the rows stay in the same H2 table (TableDef.Storage), so its H2 indexes and triggers,
        // named after it, stay valid
        s.catalog().replace(t, t.withName(t.schema(), newName, t.storage()));
    }
}
