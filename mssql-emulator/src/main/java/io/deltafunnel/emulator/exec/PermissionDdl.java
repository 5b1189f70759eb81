package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.Permissions;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.TableDef;
import io.deltafunnel.emulator.tsql.ObjectName;
import io.deltafunnel.emulator.tsql.Stmt;
import io.deltafunnel.emulator.tsql.Token;
import io.deltafunnel.tds.DoneStatus;

import java.util.ArrayList;
import java.util.List;

/**
 * Principals and object permissions ({@link Permissions}): {@code CREATE ROLE r [AUTHORIZATION dbo]}, {@code CREATE
 * USER u WITHOUT LOGIN [WITH DEFAULT_SCHEMA = s]}, {@code DROP ROLE|USER [IF EXISTS] name}, and
 * {@code GRANT|DENY|REVOKE [GRANT OPTION FOR] perm [, ...] ON [OBJECT::]table {TO|FROM} principal [, ...]
 * [WITH GRANT OPTION] [CASCADE]} (GRANT: "GRANT Object Permissions"; a GRANT replaces a DENY and the other way round,
 * REVOKE removes either). Unknown principals and objects are 15151, a name in use 15023, revoking or denying a
 * permission held WITH GRANT OPTION without CASCADE 4611. Inside a transaction GRANT/DENY/REVOKE and CREATE are undone
 * by a rollback; DROP ROLE/USER there is refused (50101). Column permissions, database and schema permissions, logins
 * and role membership are refused (50100).
 */
final class PermissionDdl {
    private final ExecContext ctx;
    private final Session s;

    PermissionDdl(ExecContext ctx) {
        this.ctx = ctx;
        this.s = ctx.session;
    }

    private Permissions perms() {
        return s.catalog().permissions();
    }

    /** CREATE ROLE / CREATE USER. */
    void create(Stmt st) throws SqlServerError {
        boolean role = st.kw(1, "ROLE");
        if (st.tokens.size() < 3 || !st.tokens.get(2).isIdentifier()) {
            throw SqlServerError.syntax(st.tokens.size() > 2 ? st.tokens.get(2).text() : st.text);
        }
        String name = st.tokens.get(2).value();
        String defaultSchema = "dbo";
        int i = 3;
        if (role) {
            if (st.kw(3, "AUTHORIZATION") && st.tokens.size() == 5 && st.tokens.get(4).value().equalsIgnoreCase("dbo")) {
                i = 5;
            }
        } else {
            if (!st.kw(3, "WITHOUT") || !st.kw(4, "LOGIN")) {
                throw SqlServerError.unsupported(BatchExecutor.abbreviate(st.text)
                        + " (only CREATE USER ... WITHOUT LOGIN: the emulator has one login)");
            }
            i = 5;
            if (st.kw(5, "WITH") && st.kw(6, "DEFAULT_SCHEMA") && st.tokens.size() == 9
                    && st.tokens.get(7).isSymbol("=") && st.tokens.get(8).isIdentifier()) {
                defaultSchema = st.tokens.get(8).value();
                i = 9;
            }
        }
        if (i != st.tokens.size()) {
            throw SqlServerError.unsupported(BatchExecutor.abbreviate(st.text));
        }
        Permissions.Principal p;
        synchronized (s.catalog().ddlLock()) {
            if (perms().principal(name) != null) {
                throw ErrorCatalog.PRINCIPAL_EXISTS.error("User, group, or role '" + name
                        + "' already exists in the current database.");
            }
            p = perms().create(name, role, defaultSchema);
        }
        if (s.inTransaction()) {
            s.ddlUndo.add(() -> perms().drop(p));
        }
        ctx.done(DoneStatus.CMD_NONE, -1);
    }

    /** DROP ROLE / DROP USER [IF EXISTS]: the principal and the permissions granted to it. */
    void drop(Stmt st) throws SqlServerError {
        new DdlHandler(ctx).refuseInTransaction(st.text);
        boolean role = st.kw(1, "ROLE");
        int i = 2;
        boolean ifExists = st.kw(2, "IF") && st.kw(3, "EXISTS");
        if (ifExists) {
            i = 4;
        }
        if (st.tokens.size() != i + 1 || !st.tokens.get(i).isIdentifier()) {
            throw SqlServerError.syntax(st.tokens.size() > i ? st.tokens.get(i).text() : st.text);
        }
        String name = st.tokens.get(i).value();
        Permissions.Principal p = perms().principal(name);
        if (p == null || p.isRole() != role) {
            if (!ifExists) {
                throw ErrorCatalog.NOT_FOUND_OR_NO_PERMISSION.error("Cannot drop the " + (role ? "role" : "user")
                        + " '" + name + "', because it does not exist or you do not have permission.");
            }
        } else if (p.id() < 5 || p.fixedRole()) {
            throw SqlServerError.unsupported(BatchExecutor.abbreviate(st.text) + " (a fixed principal)");
        } else {
            perms().drop(p);
        }
        ctx.done(DoneStatus.CMD_NONE, -1);
    }

    /** GRANT, DENY or REVOKE of object permissions. */
    void execute(Stmt st) throws SqlServerError {
        List<Token> t = st.tokens;
        String verb = t.get(0).upper();
        int i = 1;
        boolean grantOptionFor = false;
        if (verb.equals("REVOKE") && st.kw(1, "GRANT") && st.kw(2, "OPTION") && st.kw(3, "FOR")) {
            grantOptionFor = true;
            i = 4;
        }
        List<Permissions.Kind> kinds = new ArrayList<>();
        while (true) {
            if (i >= t.size() || t.get(i).is("ON") || t.get(i).is("TO")) {
                throw SqlServerError.syntax(i < t.size() ? t.get(i).text() : st.text);
            }
            String word = t.get(i).upper();
            if (word.equals("VIEW") && st.kw(i + 1, "DEFINITION")) {
                word = "VIEW_DEFINITION";
                i++;
            }
            i++;
            Permissions.Kind kind = kind(word, st);
            if (i < t.size() && t.get(i).isSymbol("(")) {
                throw SqlServerError.unsupported(BatchExecutor.abbreviate(st.text) + " (column permissions)");
            }
            kinds.add(kind);
            if (i < t.size() && t.get(i).isSymbol(",")) {
                i++;
                continue;
            }
            break;
        }
        if (!st.kw(i, "ON")) {
            throw SqlServerError.unsupported(BatchExecutor.abbreviate(st.text)
                    + " (only object permissions: GRANT ... ON table TO principal)");
        }
        i++;
        if (st.kw(i, "OBJECT") && i + 1 < t.size() && t.get(i + 1).isSymbol("::")) {
            i += 2;
        } else if (i + 1 < t.size() && t.get(i + 1).isSymbol("::")) {
            throw SqlServerError.unsupported(BatchExecutor.abbreviate(st.text) + " (only OBJECT:: permissions)");
        }
        ObjectName on = ObjectName.at(t, i);
        i = on.next;
        if (!(st.kw(i, "TO") || verb.equals("REVOKE") && st.kw(i, "FROM"))) {
            throw SqlServerError.syntax(i < t.size() ? t.get(i).text() : st.text);
        }
        i++;
        List<String> grantees = new ArrayList<>();
        while (i < t.size() && t.get(i).isIdentifier() && !(t.get(i).is("WITH") || t.get(i).is("CASCADE"))) {
            grantees.add(t.get(i).value());
            i++;
            if (i < t.size() && t.get(i).isSymbol(",")) {
                i++;
            } else {
                break;
            }
        }
        boolean withGrantOption = false;
        boolean cascade = false;
        if (verb.equals("GRANT") && st.kw(i, "WITH") && st.kw(i + 1, "GRANT") && st.kw(i + 2, "OPTION")) {
            withGrantOption = true;
            i += 3;
        } else if (!verb.equals("GRANT") && st.kw(i, "CASCADE")) {
            cascade = true;
            i++;
        }
        if (grantees.isEmpty() || i != t.size()) {
            throw i < t.size() ? SqlServerError.unsupported(BatchExecutor.abbreviate(st.text))
                    : SqlServerError.syntax(st.text);
        }
        TableDef table = s.catalog().table(on.schema, on.name);
        if (table == null) {
            throw ErrorCatalog.NOT_FOUND_OR_NO_PERMISSION.error("Cannot find the object '" + on.name
                    + "', because it does not exist or you do not have permission.");
        }
        List<Permissions.Principal> who = new ArrayList<>();
        for (String g : grantees) {
            Permissions.Principal p = perms().principal(g);
            if (p == null) {
                throw ErrorCatalog.NOT_FOUND_OR_NO_PERMISSION.error("Cannot find the user '" + g
                        + "', because it does not exist or you do not have permission.");
            }
            if (p.id() >= 1 && p.id() <= 4) {
                throw SqlServerError.unsupported(BatchExecutor.abbreviate(st.text)
                        + " (permissions of dbo, guest, INFORMATION_SCHEMA or sys)");
            }
            who.add(p);
        }
        apply(verb, grantOptionFor, withGrantOption, cascade, table, kinds, who);
        ctx.done(DoneStatus.CMD_NONE, -1);
    }

    private static Permissions.Kind kind(String word, Stmt st) throws SqlServerError {
        for (Permissions.Kind k : Permissions.Kind.values()) {
            if (k.name().equals(word)) {
                return k;
            }
        }
        throw SqlServerError.unsupported(BatchExecutor.abbreviate(st.text) + " (permission " + word
                + "; supported: SELECT, INSERT, UPDATE, DELETE, ALTER, CONTROL, REFERENCES, VIEW DEFINITION)");
    }

    /** Checks every entry first (4611), then sets them, each undone by a rollback of the open transaction. */
    private void apply(String verb, boolean grantOptionFor, boolean withGrantOption, boolean cascade, TableDef table,
            List<Permissions.Kind> kinds, List<Permissions.Principal> who) throws SqlServerError {
        Permissions perms = perms();
        synchronized (s.catalog().ddlLock()) {
            if (!verb.equals("GRANT") && !cascade) {
                for (Permissions.Principal p : who) {
                    for (Permissions.Kind k : kinds) {
                        Permissions.Row r = perms.objectRow(table.objectId(), p.id(), k);
                        if (r != null && r.state() == 'W') {
                            throw ErrorCatalog.GRANTABLE_NEEDS_CASCADE.error(
                                    "To revoke or deny grantable privileges, specify the CASCADE option.");
                        }
                    }
                }
            }
            for (Permissions.Principal p : who) {
                for (Permissions.Kind k : kinds) {
                    Permissions.Row before = perms.objectRow(table.objectId(), p.id(), k);
                    Character after = switch (verb) {
                        case "GRANT" -> withGrantOption ? 'W' : 'G';
                        case "DENY" -> 'D';
                        // REVOKE GRANT OPTION FOR: W becomes G; a plain GRANT is revoked itself (REVOKE's docs)
                        default -> grantOptionFor && before != null && before.state() != 'G' ? (Character) (
                                before.state() == 'W' ? 'G' : before.state()) : null;
                    };
                    perms.setObject(table.objectId(), p.id(), k, after);
                    if (s.inTransaction()) {
                        Character previous = before == null ? null : before.state();
                        int objectId = table.objectId();
                        int grantee = p.id();
                        s.ddlUndo.add(() -> perms.setObject(objectId, grantee, k, previous));
                    }
                }
            }
        }
    }
}
