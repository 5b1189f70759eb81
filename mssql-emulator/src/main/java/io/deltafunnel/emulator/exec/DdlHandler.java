package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.h2.ForeignKeyTrigger;
import io.deltafunnel.emulator.h2.H2Ddl;
import io.deltafunnel.emulator.h2.H2Errors;
import io.deltafunnel.emulator.semantics.Catalog;
import io.deltafunnel.emulator.semantics.ColumnDef;
import io.deltafunnel.emulator.semantics.Constraints;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.IdentityReseeder;
import io.deltafunnel.emulator.semantics.LockManager;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.TableDef;
import io.deltafunnel.emulator.semantics.TemporalTables;
import io.deltafunnel.emulator.tsql.CreateTableParser;
import io.deltafunnel.emulator.tsql.Identifiers;
import io.deltafunnel.emulator.tsql.ObjectName;
import io.deltafunnel.emulator.tsql.Stmt;
import io.deltafunnel.tds.DoneStatus;

import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * DDL on tables: CREATE TABLE (with its keys, CHECKs and FOREIGN KEYs), ALTER TABLE ... ADD FOREIGN KEY, DROP
 * TABLE, TRUNCATE TABLE; dispatches CREATE/DROP SCHEMA and ALTER SCHEMA ... TRANSFER to {@link SchemaDdl}, CREATE/DROP
 * INDEX to {@link IndexDdl}, CREATE/DROP ROLE|USER and GRANT/DENY/REVOKE to {@link PermissionDdl}; sp_rename is
 * {@link RenameDdl}. The shared steps (the transactional-DDL rule, running
 * DDL on the right connection, resolving an existing table) are here.
 *
 * <p>Transactional-DDL rule: H2 commits the open transaction on DDL, so inside an explicit or implicit transaction
 * TRUNCATE TABLE runs as DELETE and restarts the identity at its seed (undone on rollback); CREATE TABLE, SELECT
 * INTO and CREATE SCHEMA run on a separate connection and are undone (dropped) if the transaction rolls back; every
 * other DDL statement is refused with error 50101.
 */
public final class DdlHandler {
    public static final int DDL_IN_TRANSACTION = ErrorCatalog.DDL_IN_TRANSACTION.number();

    private final ExecContext ctx;
    private final Session s;

    DdlHandler(ExecContext ctx) {
        this.ctx = ctx;
        this.s = ctx.session;
    }

    void execute(Stmt st) throws SqlServerError, SQLException, IOException {
        if (ctx.fmtOnly) {
            ctx.done(DoneStatus.CMD_NONE, -1);
            return;
        }
        s.beginImplicitIfNeeded(ctx.response);
        String verb = st.first().upper();
        if ((verb.equals("CREATE") || verb.equals("ALTER")) && st.kw(1, "TABLE")) {
            TemporalTables.refuse(st.tokens); // system-versioned temporal tables: refused (50100)
        }
        if (verb.equals("CREATE") && st.kw(1, "TABLE")) {
            CreateTableParser.Parsed p = CreateTableParser.parse(st, s);
            createTable(p, st.text);
            ctx.done(DoneStatus.CMD_TABCREATE, -1);
        } else if (verb.equals("CREATE") && st.kw(1, "SCHEMA")) {
            new SchemaDdl(ctx, this).createSchema(st);
        } else if (verb.equals("CREATE") && (st.kw(1, "INDEX") || st.kw(1, "UNIQUE") || st.kw(1, "CLUSTERED")
                || st.kw(1, "NONCLUSTERED"))) {
            new IndexDdl(ctx, this).createIndex(st);
        } else if (verb.equals("DROP") && st.kw(1, "TABLE")) {
            dropTables(st);
        } else if (verb.equals("DROP") && st.kw(1, "SCHEMA")) {
            new SchemaDdl(ctx, this).dropSchema(st);
        } else if (verb.equals("DROP") && st.kw(1, "INDEX")) {
            new IndexDdl(ctx, this).dropIndex(st);
        } else if ((verb.equals("CREATE") || verb.equals("DROP")) && (st.kw(1, "ROLE") || st.kw(1, "USER"))) {
            if (verb.equals("CREATE")) {
                new PermissionDdl(ctx).create(st);
            } else {
                new PermissionDdl(ctx).drop(st);
            }
        } else if (verb.equals("GRANT") || verb.equals("DENY") || verb.equals("REVOKE")) {
            new PermissionDdl(ctx).execute(st);
        } else if (verb.equals("TRUNCATE") && st.kw(1, "TABLE")) {
            truncate(st);
        } else if (verb.equals("ALTER") && st.kw(1, "SCHEMA")) {
            new SchemaDdl(ctx, this).transfer(st);
        } else if (verb.equals("ALTER") && SwitchDdl.isSwitch(st)) {
            new SwitchDdl(ctx).execute(st); // allowed inside a transaction
        } else if (verb.equals("ALTER") && st.kw(1, "TABLE") && AlterColumnDdl.handles(st)) {
            new AlterColumnDdl(ctx, this).execute(st);
        } else if (verb.equals("ALTER") && st.kw(1, "TABLE")) {
            alterTableAddForeignKey(st);
        } else {
            throw SqlServerError.unsupported(BatchExecutor.abbreviate(st.text));
        }
    }

    void refuseInTransaction(String text) throws SqlServerError {
        if (s.inTransaction()) {
            throw ErrorCatalog.DDL_IN_TRANSACTION.error("mssql-emulator does not support this DDL statement"
                    + " inside a transaction (H2 would silently commit the transaction): "
                    + BatchExecutor.abbreviate(text));
        }
    }

    void runDdl(String sql) throws SQLException {
        if (s.inTransaction()) {
            s.emu.database().runDdl(sql);
        } else {
            try (Statement st = s.h2.createStatement()) {
                st.execute(sql);
            }
        }
    }

    void createTable(TableDef t, String what) throws SqlServerError, SQLException, IOException {
        createTable(t, Collections.emptyList(), what, null);
    }

    /** CREATE TABLE with its named keys, CHECK constraints and FOREIGN KEYs. */
    private void createTable(CreateTableParser.Parsed p, String text)
            throws SqlServerError, SQLException, IOException {
        Catalog cat = s.catalog();
        java.util.Set<String> names = new java.util.HashSet<>();
        List<String> given = new ArrayList<>();
        p.keys.forEach(k -> given.add(k.name));
        p.checks.forEach(c -> given.add(c.name));
        p.foreignKeys.forEach(f -> given.add(f.name));
        for (String n : given) {
            if (!names.add(n.toLowerCase(java.util.Locale.ROOT)) || cat.constraintNameTaken(n)) {
                throw ErrorCatalog.OBJECT_EXISTS.error(5,
                        "There is already an object named '" + n + "' in the database.");
            }
        }
        TableDef table = createTable(p.table, p.h2Constraints, text, p);
        for (Constraints.Key k : p.keys) {
            cat.addKey(table.objectId(), k);
        }
        for (Constraints.Check c : p.checks) {
            cat.addCheck(table.objectId(), c);
        }
        p.clustering.forEach((name, clustered) -> cat.setKeyClustered(table.objectId(), name, clustered));
        p.defaultNames.forEach((column, name) -> cat.putDefaultName(table.objectId(), column, name));
    }

    /** Resolves and checks a FOREIGN KEY of {@code child} (which may reference itself). */
    private Constraints.ForeignKey resolve(TableDef child, CreateTableParser.ForeignKeySpec spec,
            List<Constraints.Key> ownKeys) throws SqlServerError {
        Catalog cat = s.catalog();
        boolean self = spec.parent.name.equalsIgnoreCase(child.name())
                && (cat.schema(spec.parent.schema) == null || cat.schema(spec.parent.schema).equalsIgnoreCase(child.schema()));
        TableDef parent = self ? child : cat.table(spec.parent.schema, spec.parent.name);
        if (parent == null) {
            throw ErrorCatalog.FK_INVALID_TABLE.error("Foreign key '" + spec.name + "' references invalid table '"
                    + spec.parent.name + "'.");
        }
        List<Constraints.Key> parentKeys = self ? ownKeys : cat.keys(parent.objectId());
        List<String> parentCols = spec.parentColumns;
        if (parentCols.isEmpty()) {
            if (parent.primaryKey().isEmpty()) {
                throw ErrorCatalog.FK_NO_PRIMARY_KEY.error("Foreign key '" + spec.name + "' has implicit reference to"
                        + " object '" + parent.name() + "' which does not have a primary key defined on it.");
            }
            parentCols = parent.primaryKey();
        }
        if (parentCols.size() != spec.columns.size()) {
            throw ErrorCatalog.FK_COLUMN_COUNT.error("Number of referencing columns in foreign key differs from number"
                    + " of referenced columns, table '" + child.name() + "'.");
        }
        List<String> childCols = new ArrayList<>();
        for (String c : spec.columns) {
            ColumnDef d = child.column(c);
            if (d == null) {
                throw ErrorCatalog.FK_INVALID_REFERENCING_COLUMN.error(
                        "Foreign key '" + spec.name + "' references invalid column '"
                        + c + "' in referencing table '" + child.name() + "'.");
            }
            childCols.add(d.name());
        }
        List<String> pcols = new ArrayList<>();
        for (String c : parentCols) {
            ColumnDef d = parent.column(c);
            if (d == null) {
                throw ErrorCatalog.FK_INVALID_REFERENCED_COLUMN.error(
                        "Foreign key '" + spec.name + "' references invalid column '"
                        + c + "' in referenced table '" + parent.name() + "'.");
            }
            pcols.add(d.name());
        }
        java.util.Set<String> wanted = lowerSet(pcols);
        boolean candidate = parentKeys.stream().anyMatch(k -> lowerSet(k.columns).equals(wanted));
        if (!candidate) {
            throw ErrorCatalog.FK_NO_MATCHING_KEY.error(
                    "There are no primary or candidate keys in the referenced table '"
                    + parent.schema() + "." + parent.name() + "' that match the referencing column list in the"
                    + " foreign key '" + spec.name + "'.");
        }
        return new Constraints.ForeignKey(cat.newObjectId(), spec.name, child.objectId(), childCols,
                parent.objectId(), pcols);
    }

    private static java.util.Set<String> lowerSet(List<String> cols) {
        java.util.Set<String> out = new java.util.HashSet<>();
        cols.forEach(c -> out.add(c.toLowerCase(java.util.Locale.ROOT)));
        return out;
    }

    /** ALTER TABLE child [WITH CHECK | WITH NOCHECK] ADD [CONSTRAINT name] FOREIGN KEY (...) REFERENCES ... */
    private void alterTableAddForeignKey(Stmt st) throws SqlServerError, SQLException, IOException {
        refuseInTransaction(st.text);
        ObjectName n = ObjectName.at(st.tokens, 2);
        int i = n.next;
        boolean check = true;
        if (st.kw(i, "WITH") && (st.kw(i + 1, "CHECK") || st.kw(i + 1, "NOCHECK"))) {
            check = st.kw(i + 1, "CHECK");
            i += 2;
        }
        if (!st.kw(i, "ADD")) {
            throw SqlServerError.unsupported(BatchExecutor.abbreviate(st.text));
        }
        TableDef child = schemaLocked(n);
        if (KeyConstraintDdl.handles(st.tokens, i + 1)) {
            new KeyConstraintDdl(ctx, this).add(st, child, i + 1);
            return;
        }
        CreateTableParser.AddedCheck added = CreateTableParser.parseAddCheck(st.tokens, i + 1, child.name(), s);
        if (added != null) {
            alterTableAddCheck(child, added, check);
            return;
        }
        CreateTableParser.ForeignKeySpec spec = CreateTableParser.parseAddForeignKey(st.tokens, i + 1, child.name());
        if (spec == null) {
            throw SqlServerError.unsupported(BatchExecutor.abbreviate(st.text) + " (ALTER TABLE supports only ADD"
                    + " [CONSTRAINT name] FOREIGN KEY or CHECK)");
        }
        if (s.catalog().constraintNameTaken(spec.name)) {
            throw ErrorCatalog.OBJECT_EXISTS.error(5, "There is already an object named '" + spec.name
                    + "' in the database.");
        }
        Constraints.ForeignKey fk = resolve(child, spec, s.catalog().keys(child.objectId()));
        TableDef parent = s.catalog().tableById(fk.parent);
        if (check) {
            // existing rows must satisfy the new constraint
            StringBuilder q = new StringBuilder("SELECT 1 FROM ").append(child.h2Name()).append(" C WHERE ");
            StringBuilder join = new StringBuilder();
            for (int k = 0; k < fk.childColumns.size(); k++) {
                String cc = "C." + Identifiers.h2Quote(fk.childColumns.get(k));
                q.append(k > 0 ? " AND " : "").append(cc).append(" IS NOT NULL");
                join.append(k > 0 ? " AND " : "").append("P.").append(Identifiers.h2Quote(fk.parentColumns.get(k)))
                        .append(" = ").append(cc);
            }
            q.append(" AND NOT EXISTS (SELECT 1 FROM ").append(parent.h2Name()).append(" P WHERE ").append(join)
                    .append(") FETCH FIRST 1 ROW ONLY");
            try (Statement x = s.h2.createStatement(); ResultSet rs = x.executeQuery(q.toString())) {
                if (rs.next()) {
                    throw ErrorCatalog.CONSTRAINT_CONFLICT.error(
                            "The ALTER TABLE statement conflicted with the FOREIGN KEY"
                            + " constraint \"" + fk.name + "\". The conflict occurred in database \"" + s.database
                            + "\", table \"" + parent.schema() + "." + parent.name() + "\", column '"
                            + fk.parentColumns.get(0) + "'.");
                }
            }
        } else {
            fk.notTrusted = true;
        }
        try (Statement x = s.h2.createStatement()) {
            for (String sql : ForeignKeyTrigger.createStatements(fk, child, parent)) {
                x.execute(sql);
            }
        }
        s.catalog().addForeignKey(fk);
        ctx.done(DoneStatus.CMD_NONE, -1);
    }

    /**
     * ALTER TABLE t [WITH CHECK] ADD [CONSTRAINT name] CHECK (expr): the existing rows must satisfy it (547 naming
     * the constraint), then it is recorded for sys.check_constraints (trusted). WITH NOCHECK is refused (50100).
     */
    private void alterTableAddCheck(TableDef t, CreateTableParser.AddedCheck added, boolean check)
            throws SqlServerError, SQLException, IOException {
        if (!check) {
            throw SqlServerError.unsupported("ALTER TABLE ... WITH NOCHECK ADD ... CHECK (only WITH CHECK)");
        }
        Constraints.Check c = added.check;
        if (s.catalog().constraintNameTaken(c.name)) {
            throw ErrorCatalog.OBJECT_EXISTS.error(5, "There is already an object named '" + c.name
                    + "' in the database.");
        }
        try (Statement x = s.h2.createStatement()) {
            x.execute("ALTER TABLE " + t.h2Name() + " ADD " + added.h2Constraint);
        } catch (SQLException e) {
            if (e.getErrorCode() == org.h2.api.ErrorCode.CHECK_CONSTRAINT_VIOLATED_1) {
                throw ErrorCatalog.CONSTRAINT_CONFLICT.error("The ALTER TABLE statement conflicted with the CHECK"
                        + " constraint \"" + c.name + "\". The conflict occurred in database \"" + s.database
                        + "\", table \"" + t.schema() + "." + t.name() + "\".");
            }
            throw H2Errors.map(e, t, s.database);
        }
        s.catalog().addCheck(t.objectId(), c);
        ctx.done(DoneStatus.CMD_NONE, -1);
    }

    private TableDef createTable(TableDef t, List<String> constraints, String text, CreateTableParser.Parsed parsed)
            throws SqlServerError, SQLException, IOException {
        Catalog cat = s.catalog();
        String schema = cat.schema(t.schema());
        if (schema == null) {
            throw ErrorCatalog.NO_SUCH_SCHEMA.error("The specified schema name \"" + t.schema()
                    + "\" either does not exist or you do not have permission to use it.");
        }
        TableDef table = t.withName(schema, t.name(), t.storage());
        // the new table is the creator's until its transaction ends (free: nobody else knows its object id yet)
        s.locks.lock(table, LockManager.Mode.SCH_M, LockManager.Duration.TRANSACTION, false);
        synchronized (cat.ddlLock()) {
            if (cat.table(schema, t.name()) != null) {
                throw ErrorCatalog.OBJECT_EXISTS.error("There is already an object named '" + t.name()
                        + "' in the database.");
            }
            table = table.withStorage(cat.storageFor(schema, t.name(), table.objectId()));
            List<Constraints.ForeignKey> fks = new ArrayList<>();
            if (parsed != null) {
                for (CreateTableParser.ForeignKeySpec spec : parsed.foreignKeys) {
                    fks.add(resolve(table, spec, parsed.keys));
                }
            }
            try {
                for (String sql : H2Ddl.createTableStatements(table, constraints)) {
                    runDdl(sql);
                }
                for (Constraints.ForeignKey fk : fks) {
                    TableDef parent = fk.parent == table.objectId() ? table : cat.tableById(fk.parent);
                    for (String sql : ForeignKeyTrigger.createStatements(fk, table, parent)) {
                        runDdl(sql);
                    }
                }
            } catch (SQLException e) {
                throw H2Errors.map(e, table, s.database);
            }
            cat.put(table);
            fks.forEach(cat::addForeignKey);
        }
        TableDef created = table;
        if (s.inTransaction()) {
            s.ddlUndo.add(() -> {
                for (Constraints.ForeignKey fk : cat.foreignKeys(created.objectId(), true)) {
                    TableDef parent = cat.tableById(fk.parent);
                    if (parent != null && parent.objectId() != created.objectId()) {
                        s.emu.database().runDdl(ForeignKeyTrigger.dropParentTrigger(fk, parent));
                    }
                }
                cat.remove(created);
                s.emu.database().runDdl(H2Ddl.dropTable(created));
            });
        }
        return created;
    }

    private void dropTables(Stmt st) throws SqlServerError, SQLException, IOException {
        refuseInTransaction(st.text);
        int i = 2;
        boolean ifExists = false;
        if (st.kw(2, "IF") && st.kw(3, "EXISTS")) {
            ifExists = true;
            i = 4;
        }
        Catalog cat = s.catalog();
        while (true) {
            ObjectName n = ObjectName.at(st.tokens, i);
            TableDef t = cat.table(n.schema, n.name);
            if (t == null) {
                if (!ifExists) {
                    throw ErrorCatalog.CANNOT_DROP_TABLE.error("Cannot drop the table '" + n.name
                            + "', because it does not exist or you do not have permission.");
                }
            } else {
                s.locks.lock(t, LockManager.Mode.SCH_M, LockManager.Duration.TRANSACTION, false);
                for (Constraints.ForeignKey fk : cat.foreignKeys(t.objectId(), false)) {
                    if (fk.child != t.objectId()) {
                        throw ErrorCatalog.DROP_REFERENCED_BY_FK.error(
                                "Could not drop object '" + t.schema() + "." + t.name()
                                + "' because it is referenced by a FOREIGN KEY constraint.");
                    }
                }
                for (Constraints.ForeignKey fk : cat.foreignKeys(t.objectId(), true)) {
                    TableDef parent = cat.tableById(fk.parent);
                    if (parent != null && parent.objectId() != t.objectId()) {
                        runDdl(ForeignKeyTrigger.dropParentTrigger(fk, parent));
                    }
                }
                runDdl(H2Ddl.dropTable(t));
                cat.remove(t);
            }
            i = n.next;
            if (i < st.tokens.size() && st.tokens.get(i).isSymbol(",")) {
                i++;
                continue;
            }
            if (i != st.tokens.size()) {
                throw SqlServerError.syntax(st.tokens.get(i).text());
            }
            break;
        }
        ctx.done(DoneStatus.CMD_TABDESTROY, -1);
    }

    TableDef existing(ObjectName n) throws SqlServerError {
        TableDef t = s.catalog().table(n.schema, n.name);
        if (t == null) {
            throw ErrorCatalog.CANNOT_FIND_OBJECT.error("Cannot find the object \"" + n.name
                    + "\" because it does not exist or you do not have permissions.");
        }
        return t;
    }

    /**
     * Takes Sch-M on the table {@code n} names, to the end of the transaction, and returns the table as it is once the
     * lock is held. Another session's DDL may have changed it while this one waited (an added column, a key, an index,
     * or the table dropped and created again), and SQL Server checks a statement against the table as that one left
     * it: a check made on the definition read before the wait could pass twice (two sessions adding the same primary
     * key) and its catalog update would overwrite the other session's change.
     */
    TableDef schemaLocked(ObjectName n) throws SqlServerError, IOException {
        TableDef t = existing(n);
        while (true) {
            s.locks.lock(t, LockManager.Mode.SCH_M, LockManager.Duration.TRANSACTION, false);
            TableDef now = existing(n);
            if (now.objectId() == t.objectId()) {
                return now;
            }
            t = now; // dropped and created again while this session waited: lock the new object too
        }
    }

    private void truncate(Stmt st) throws SqlServerError, SQLException, IOException {
        ObjectName n = ObjectName.at(st.tokens, 2);
        if (n.next != st.tokens.size()) {
            throw SqlServerError.syntax(st.tokens.get(n.next).text());
        }
        TableDef t = schemaLocked(n);
        if (!s.catalog().foreignKeys(t.objectId(), false).isEmpty()) {
            throw ErrorCatalog.TRUNCATE_REFERENCED_BY_FK.error("Cannot truncate table '" + t.schema() + "." + t.name()
                    + "' because it is being referenced by a FOREIGN KEY constraint.");
        }
        if (!s.inTransaction()) {
            try (Statement x = s.h2.createStatement()) {
                x.execute("TRUNCATE TABLE " + t.h2Name() + " RESTART IDENTITY");
            }
            ctx.done(DoneStatus.CMD_NONE, -1);
            return;
        }
        // Inside a transaction H2's TRUNCATE would commit it: the rows go by DELETE (undone by the rollback) and the
        // identity is restarted at its seed on the DDL connection, with an undo that puts its previous next value
        // back. Nobody else can insert meanwhile: the Sch-M lock is held to the end of the transaction.
        try (Statement x = s.h2.createStatement()) {
            x.execute("DELETE FROM " + t.h2Name());
        }
        for (ColumnDef c : t.columns()) {
            if (c.identity()) {
                restartAtSeedUndoably(t, c);
            }
        }
        ctx.done(DoneStatus.CMD_NONE, -1);
    }

    /** TRUNCATE in a transaction: the identity restarts at its seed; a rollback restores its next value. */
    private void restartAtSeedUndoably(TableDef t, ColumnDef c) throws SQLException {
        Long before = IdentityReseeder.identityBase(s.h2, t.storage(), c.name());
        if (before == null) {
            throw new SQLException("identity column " + c.name() + " of " + t.messageName(s.database)
                    + " has no H2 identity base");
        }
        String alter = "ALTER TABLE " + t.h2Name() + " ALTER COLUMN " + Identifiers.h2Quote(c.name()) + " RESTART WITH ";
        s.emu.database().runDdl(alter + c.identitySeed());
        long previous = before;
        s.ddlUndo.add(() -> s.emu.database().runDdl(alter + previous));
    }

}
