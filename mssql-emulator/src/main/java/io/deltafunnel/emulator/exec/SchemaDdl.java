package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.h2.H2Ddl;
import io.deltafunnel.emulator.semantics.Catalog;
import io.deltafunnel.emulator.semantics.ColumnDef;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.LockManager;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.TableDef;
import io.deltafunnel.emulator.tsql.Identifiers;
import io.deltafunnel.emulator.tsql.ObjectName;
import io.deltafunnel.emulator.tsql.Stmt;
import io.deltafunnel.tds.DoneStatus;

import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;

/**
 * CREATE SCHEMA (undone if the open transaction rolls back), DROP SCHEMA, and ALTER SCHEMA ... TRANSFER, which
 * recreates the table in the target schema with its rows and identity position (H2 cannot move a table).
 */
final class SchemaDdl {
    private final ExecContext ctx;
    private final Session s;
    private final DdlHandler ddl;

    SchemaDdl(ExecContext ctx, DdlHandler ddl) {
        this.ctx = ctx;
        this.s = ctx.session;
        this.ddl = ddl;
    }

    void createSchema(Stmt st) throws SqlServerError, SQLException {
        if (st.tokens.size() < 3 || !st.tokens.get(2).isIdentifier()) {
            throw SqlServerError.syntax(st.text);
        }
        if (st.tokens.size() > 3 && !(st.kw(3, "AUTHORIZATION") && st.tokens.size() == 5)) {
            throw SqlServerError.unsupported("CREATE SCHEMA with embedded statements");
        }
        String name = st.tokens.get(2).value();
        Catalog cat = s.catalog();
        synchronized (cat.ddlLock()) {
            if (cat.schema(name) != null) {
                throw ErrorCatalog.OBJECT_EXISTS.error("There is already an object named '" + name
                        + "' in the database.");
            }
            ddl.runDdl("CREATE SCHEMA " + Identifiers.h2Quote(name));
            cat.addSchema(name);
        }
        if (s.inTransaction()) {
            s.ddlUndo.add(() -> {
                cat.removeSchema(name);
                s.emu.database().runDdl("DROP SCHEMA " + Identifiers.h2Quote(name));
            });
        }
        ctx.done(DoneStatus.CMD_CREATESCHEMA, -1);
    }

    void dropSchema(Stmt st) throws SqlServerError, SQLException {
        ddl.refuseInTransaction(st.text);
        int i = 2;
        boolean ifExists = false;
        if (st.kw(2, "IF") && st.kw(3, "EXISTS")) {
            ifExists = true;
            i = 4;
        }
        String name = st.tokens.get(i).value();
        Catalog cat = s.catalog();
        String canonical = cat.schema(name);
        if (canonical == null) {
            if (ifExists) {
                ctx.done(DoneStatus.CMD_NONE, -1);
                return;
            }
            throw ErrorCatalog.CANNOT_DROP_SCHEMA.error("Cannot drop the schema '" + name
                    + "', because it does not exist or you do not have permission.");
        }
        if (cat.schemaHasTables(canonical)) {
            throw ErrorCatalog.SCHEMA_REFERENCED.error("Cannot drop schema '" + canonical
                    + "' because it is being referenced by an object.");
        }
        ddl.runDdl("DROP SCHEMA " + Identifiers.h2Quote(canonical));
        cat.removeSchema(canonical);
        ctx.done(DoneStatus.CMD_NONE, -1);
    }

    /** ALTER SCHEMA target TRANSFER [OBJECT::]schema.table: copies the table into the target schema. */
    void transfer(Stmt st) throws SqlServerError, SQLException, IOException {
        ddl.refuseInTransaction(st.text);
        if (st.tokens.size() < 5 || !st.kw(3, "TRANSFER")) {
            throw SqlServerError.unsupported(BatchExecutor.abbreviate(st.text));
        }
        String targetSchema = s.catalog().schema(st.tokens.get(2).value());
        if (targetSchema == null) {
            throw ErrorCatalog.NOT_FOUND_OR_NO_PERMISSION.error("Cannot find the schema '" + st.tokens.get(2).value()
                    + "', because it does not exist or you do not have permission.");
        }
        int i = 4;
        if (st.kw(4, "OBJECT") && st.tokens.size() > 5 && st.tokens.get(5).isSymbol("::")) {
            i = 6;
        }
        TableDef old = ddl.existing(ObjectName.at(st.tokens, i));
        s.locks.lock(old, LockManager.Mode.SCH_M, LockManager.Duration.TRANSACTION, false);
        if (s.catalog().table(targetSchema, old.name()) != null) {
            throw ErrorCatalog.TRANSFER_NAME_EXISTS.error(
                    "The object with name \"" + old.name() + "\" already exists.");
        }
        TableDef moved;
        synchronized (s.catalog().ddlLock()) {
            moved = old.withName(targetSchema, old.name(), s.catalog().storageFor(targetSchema, old.name(),
                    old.storage().id()));
        }
        copyTable(old, moved);
        s.catalog().replace(old, moved);
        s.catalog().permissions().dropObject(old.objectId()); // "All permissions ... will be dropped" (ALTER SCHEMA)
        ctx.done(DoneStatus.CMD_ALTERSCHEMA, -1);
    }

    /** Recreates {@code from}'s structure as {@code to}, copies the rows and identity position, drops {@code from}. */
    private void copyTable(TableDef from, TableDef to) throws SQLException {
        try (Statement x = s.h2.createStatement()) {
            for (String sql : H2Ddl.createTableStatements(to, Collections.emptyList())) {
                x.execute(sql);
            }
            x.execute("INSERT INTO " + to.h2Name() + " SELECT * FROM " + from.h2Name());
            for (ColumnDef c : to.columns()) {
                if (c.identity()) {
                    restartIdentity(from, to, c);
                }
            }
            x.execute(H2Ddl.dropTable(from));
        }
    }

    private void restartIdentity(TableDef from, TableDef to, ColumnDef c) throws SQLException {
        String q = Identifiers.h2Quote(c.name());
        long next = c.identitySeed();
        try (PreparedStatement ps = s.h2.prepareStatement(
                "SELECT " + (c.identityIncrement() > 0 ? "MAX(" : "MIN(") + q + ") FROM " + from.h2Name());
                ResultSet rs = ps.executeQuery()) {
            if (rs.next() && rs.getObject(1) != null) {
                next = rs.getLong(1) + c.identityIncrement();
            }
        }
        try (Statement x = s.h2.createStatement()) {
            x.execute("ALTER TABLE " + to.h2Name() + " ALTER COLUMN " + q + " RESTART WITH " + next);
        }
    }
}
