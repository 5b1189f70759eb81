package io.deltafunnel.emulator;

import io.deltafunnel.tds.DoneStatus;

import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * CREATE/DROP TABLE and SCHEMA, TRUNCATE, ALTER SCHEMA ... TRANSFER, sp_rename, CREATE/DROP INDEX.
 *
 * <p>Transactional-DDL rule: H2 commits the open transaction on DDL, so inside an explicit or implicit transaction
 * TRUNCATE TABLE runs as DELETE; CREATE TABLE, SELECT INTO and CREATE SCHEMA run on a separate connection and
 * are undone (dropped) if the transaction rolls back; every other DDL statement is refused with error 50101.
 */
final class DdlHandler {
    static final int DDL_IN_TRANSACTION = 50101;

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
        if (verb.equals("CREATE") && st.kw(1, "TABLE")) {
            CreateTableParser.Parsed p = CreateTableParser.parse(st, s);
            createTable(p.table, p.h2Constraints, st.text);
            ctx.done(DoneStatus.CMD_TABCREATE, -1);
        } else if (verb.equals("CREATE") && st.kw(1, "SCHEMA")) {
            createSchema(st);
        } else if (verb.equals("CREATE") && (st.kw(1, "INDEX") || st.kw(1, "UNIQUE") || st.kw(1, "CLUSTERED")
                || st.kw(1, "NONCLUSTERED"))) {
            createIndex(st);
        } else if (verb.equals("DROP") && st.kw(1, "TABLE")) {
            dropTables(st);
        } else if (verb.equals("DROP") && st.kw(1, "SCHEMA")) {
            dropSchema(st);
        } else if (verb.equals("DROP") && st.kw(1, "INDEX")) {
            dropIndex(st);
        } else if (verb.equals("TRUNCATE") && st.kw(1, "TABLE")) {
            truncate(st);
        } else if (verb.equals("ALTER") && st.kw(1, "SCHEMA")) {
            transfer(st);
        } else {
            throw SqlServerError.unsupported(BatchExecutor.abbreviate(st.text));
        }
    }

    private void refuseInTransaction(String text) throws SqlServerError {
        if (s.inTransaction()) {
            throw new SqlServerError(DDL_IN_TRANSACTION, 1, 16, "mssql-emulator does not support this DDL statement"
                    + " inside a transaction (H2 would silently commit the transaction): "
                    + BatchExecutor.abbreviate(text));
        }
    }

    private void runDdl(String sql) throws SQLException {
        if (s.inTransaction()) {
            s.emu.database().runDdl(sql);
        } else {
            try (Statement st = s.h2.createStatement()) {
                st.execute(sql);
            }
        }
    }

    void createTable(TableDef t, String what) throws SqlServerError, SQLException, IOException {
        createTable(t, Collections.emptyList(), what);
    }

    private void createTable(TableDef t, List<String> constraints, String text)
            throws SqlServerError, SQLException, IOException {
        Catalog cat = s.catalog();
        String schema = cat.schema(t.schema());
        if (schema == null) {
            throw new SqlServerError(2760, 1, 16, "The specified schema name \"" + t.schema()
                    + "\" either does not exist or you do not have permission to use it.");
        }
        TableDef table = t.withName(schema, t.name());
        // the new table is the creator's until its transaction ends (free: nobody else knows its object id yet)
        s.lock(table, LockManager.Mode.SCH_M, LockManager.Duration.TRANSACTION, false);
        synchronized (cat.ddlLock()) {
            if (cat.table(schema, t.name()) != null) {
                throw new SqlServerError(2714, 6, 16, "There is already an object named '" + t.name()
                        + "' in the database.");
            }
            try {
                for (String sql : H2Ddl.createTableStatements(table, constraints)) {
                    runDdl(sql);
                }
            } catch (SQLException e) {
                throw H2Errors.map(e, table, s.database);
            }
            cat.put(table);
        }
        if (s.inTransaction()) {
            s.addDdlUndo(() -> {
                cat.remove(table);
                s.emu.database().runDdl(H2Ddl.dropTable(table));
            });
        }
    }

    private void createSchema(Stmt st) throws SqlServerError, SQLException {
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
                throw new SqlServerError(2714, 6, 16, "There is already an object named '" + name
                        + "' in the database.");
            }
            runDdl("CREATE SCHEMA " + Identifiers.h2Quote(name));
            cat.addSchema(name);
        }
        if (s.inTransaction()) {
            s.addDdlUndo(() -> {
                cat.removeSchema(name);
                s.emu.database().runDdl("DROP SCHEMA " + Identifiers.h2Quote(name));
            });
        }
        ctx.done(DoneStatus.CMD_CREATESCHEMA, -1);
    }

    private void dropSchema(Stmt st) throws SqlServerError, SQLException {
        refuseInTransaction(st.text);
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
            throw new SqlServerError(3701, 1, 16, "Cannot drop the schema '" + name
                    + "', because it does not exist or you do not have permission.");
        }
        if (cat.schemaHasTables(canonical)) {
            throw new SqlServerError(3729, 1, 16, "Cannot drop schema '" + canonical
                    + "' because it is being referenced by an object.");
        }
        runDdl("DROP SCHEMA " + Identifiers.h2Quote(canonical));
        cat.removeSchema(canonical);
        ctx.done(DoneStatus.CMD_NONE, -1);
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
                    throw new SqlServerError(3701, 5, 11, "Cannot drop the table '" + n.name
                            + "', because it does not exist or you do not have permission.");
                }
            } else {
                s.lock(t, LockManager.Mode.SCH_M, LockManager.Duration.TRANSACTION, false);
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

    private TableDef existing(ObjectName n) throws SqlServerError {
        TableDef t = s.catalog().table(n.schema, n.name);
        if (t == null) {
            throw new SqlServerError(4701, 1, 16, "Cannot find the object \"" + n.name
                    + "\" because it does not exist or you do not have permissions.");
        }
        return t;
    }

    private void truncate(Stmt st) throws SqlServerError, SQLException, IOException {
        ObjectName n = ObjectName.at(st.tokens, 2);
        if (n.next != st.tokens.size()) {
            throw SqlServerError.syntax(st.tokens.get(n.next).text());
        }
        TableDef t = existing(n);
        s.lock(t, LockManager.Mode.SCH_M, LockManager.Duration.TRANSACTION, false);
        String sql = s.inTransaction() ? "DELETE FROM " + t.h2Name() : "TRUNCATE TABLE " + t.h2Name()
                + " RESTART IDENTITY";
        try (Statement x = s.h2.createStatement()) {
            x.execute(sql);
        }
        ctx.done(DoneStatus.CMD_NONE, -1);
    }

    /** ALTER SCHEMA target TRANSFER [OBJECT::]schema.table: copies the table into the target schema. */
    private void transfer(Stmt st) throws SqlServerError, SQLException, IOException {
        refuseInTransaction(st.text);
        if (st.tokens.size() < 5 || !st.kw(3, "TRANSFER")) {
            throw SqlServerError.unsupported(BatchExecutor.abbreviate(st.text));
        }
        String targetSchema = s.catalog().schema(st.tokens.get(2).value());
        if (targetSchema == null) {
            throw new SqlServerError(15151, 1, 16, "Cannot find the schema '" + st.tokens.get(2).value()
                    + "', because it does not exist or you do not have permission.");
        }
        int i = 4;
        if (st.kw(4, "OBJECT") && st.tokens.size() > 5 && st.tokens.get(5).isSymbol("::")) {
            i = 6;
        }
        TableDef old = existing(ObjectName.at(st.tokens, i));
        s.lock(old, LockManager.Mode.SCH_M, LockManager.Duration.TRANSACTION, false);
        if (s.catalog().table(targetSchema, old.name()) != null) {
            throw new SqlServerError(15530, 1, 16, "The object with name \"" + old.name() + "\" already exists.");
        }
        TableDef moved = old.withName(targetSchema, old.name());
        copyTable(old, moved);
        s.catalog().replace(old, moved);
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

    /** sp_rename 'schema.table', 'new' or sp_rename 'schema.table.column', 'new', 'COLUMN'. */
    void rename(String objName, String newName, String type, String text)
            throws SqlServerError, SQLException, IOException {
        refuseInTransaction(text);
        List<String> parts = MultipartName.parse(objName);
        boolean column = type != null && type.trim().equalsIgnoreCase("COLUMN");
        if (column) {
            if (parts.size() < 2) {
                throw new SqlServerError(15248, "Either the parameter @objname is ambiguous or the claimed"
                        + " @objtype (COLUMN) is wrong.");
            }
            String col = parts.get(parts.size() - 1);
            String tname = parts.get(parts.size() - 2);
            String schema = parts.size() >= 3 ? parts.get(parts.size() - 3) : "dbo";
            TableDef t = s.catalog().table(schema.isEmpty() ? "dbo" : schema, tname);
            ColumnDef c = t == null ? null : t.column(col);
            if (c == null) {
                throw new SqlServerError(15248, "Either the parameter @objname is ambiguous or the claimed"
                        + " @objtype (COLUMN) is wrong.");
            }
            s.lock(t, LockManager.Mode.SCH_M, LockManager.Duration.TRANSACTION, false);
            if (t.column(newName) != null) {
                throw new SqlServerError(2705, 4, 16, "Column names in each table must be unique. Column name '"
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
            s.catalog().replace(t, new TableDef(t.schema(), t.name(), t.objectId(), cols, pk));
            return;
        }
        if (type != null && !type.trim().isEmpty() && !type.trim().equalsIgnoreCase("OBJECT")) {
            throw SqlServerError.unsupported("sp_rename with @objtype " + type);
        }
        String[] sn = MultipartName.schemaAndName(objName);
        TableDef t = sn == null ? null : s.catalog().table(sn[0], sn[1]);
        if (t == null) {
            throw new SqlServerError(15248, "Either the parameter @objname is ambiguous or the claimed @objtype"
                    + " (object) is wrong.");
        }
        s.lock(t, LockManager.Mode.SCH_M, LockManager.Duration.TRANSACTION, false);
        if (s.catalog().table(t.schema(), newName) != null) {
            throw new SqlServerError(15335, "Error: The new name '" + newName
                    + "' is already in use as a object name and would cause a duplicate that is not permitted.");
        }
        try (Statement x = s.h2.createStatement()) {
            x.execute("ALTER TABLE " + t.h2Name() + " RENAME TO " + Identifiers.h2Quote(newName));
        }
        s.catalog().replace(t, t.withName(t.schema(), newName));
    }

    private void createIndex(Stmt st) throws SqlServerError, SQLException, IOException {
        refuseInTransaction(st.text);
        int i = 1;
        boolean unique = false;
        if (st.kw(i, "UNIQUE")) {
            unique = true;
            i++;
        }
        if (st.kw(i, "CLUSTERED") || st.kw(i, "NONCLUSTERED")) {
            i++;
        }
        if (!st.kw(i, "INDEX")) {
            throw SqlServerError.syntax(st.tokens.get(i).text());
        }
        String index = st.tokens.get(i + 1).value();
        if (!st.kw(i + 2, "ON")) {
            throw SqlServerError.syntax(st.tokens.get(i + 2).text());
        }
        ObjectName n = ObjectName.at(st.tokens, i + 3);
        TableDef t = existing(n);
        s.lock(t, LockManager.Mode.SCH_M, LockManager.Duration.TRANSACTION, false);
        int j = n.next;
        if (j >= st.tokens.size() || !st.tokens.get(j).isSymbol("(")) {
            throw SqlServerError.syntax(st.text);
        }
        StringBuilder cols = new StringBuilder();
        j++;
        while (j < st.tokens.size() && !st.tokens.get(j).isSymbol(")")) {
            Token c = st.tokens.get(j);
            if (c.isIdentifier() && !c.is("ASC") && !c.is("DESC")) {
                cols.append(cols.length() > 0 ? ", " : "").append(Identifiers.h2Quote(c.value()));
            }
            j++;
        }
        try (Statement x = s.h2.createStatement()) {
            x.execute("CREATE " + (unique ? "UNIQUE " : "") + "INDEX " + Identifiers.h2Quote(t.schema()) + "."
                    + Identifiers.h2Quote(t.name() + "." + index) + " ON " + t.h2Name() + " (" + cols + ")");
        }
        ctx.done(DoneStatus.CMD_NONE, -1);
    }

    private void dropIndex(Stmt st) throws SqlServerError, SQLException, IOException {
        refuseInTransaction(st.text);
        String index = st.tokens.get(2).value();
        if (!st.kw(3, "ON")) {
            throw SqlServerError.unsupported("DROP INDEX without ON table");
        }
        TableDef t = existing(ObjectName.at(st.tokens, 4));
        s.lock(t, LockManager.Mode.SCH_M, LockManager.Duration.TRANSACTION, false);
        try (Statement x = s.h2.createStatement()) {
            x.execute("DROP INDEX " + Identifiers.h2Quote(t.schema()) + "." + Identifiers.h2Quote(t.name() + "."
                    + index));
        }
        ctx.done(DoneStatus.CMD_NONE, -1);
    }
}
