package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.semantics.ColumnDef;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.LockPlanner;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.TableDef;
import io.deltafunnel.emulator.tsql.ObjectName;
import io.deltafunnel.emulator.tsql.Stmt;
import io.deltafunnel.emulator.tsql.Token;
import io.deltafunnel.tds.DoneStatus;

import java.util.Set;

/** SET statements: session options that matter are honoured, harmless ones are accepted and ignored. */
final class SetHandler {
    private static final Set<String> IGNORED = Set.of("ANSI_NULLS", "ANSI_PADDING",
            "ANSI_WARNINGS", "ANSI_NULL_DFLT_ON", "ANSI_DEFAULTS", "QUOTED_IDENTIFIER", "ARITHABORT",
            "CONCAT_NULL_YIELDS_NULL", "NUMERIC_ROUNDABORT", "TEXTSIZE", "DATEFORMAT", "DATEFIRST", "LANGUAGE",
            "STATISTICS", "CURSOR_CLOSE_ON_COMMIT", "ARITHIGNORE", "NOEXEC", "SHOWPLAN_ALL",
            "SHOWPLAN_XML", "PARSEONLY", "QUERY_GOVERNOR_COST_LIMIT", "CONTEXT_INFO", "ROWCOUNT");

    private final ExecContext ctx;

    SetHandler(ExecContext ctx) {
        this.ctx = ctx;
    }

    void execute(Stmt st) throws SqlServerError, java.sql.SQLException, java.io.IOException {
        if (st.tokens.size() < 2) {
            throw SqlServerError.syntax("SET");
        }
        Token opt = st.tokens.get(1);
        Session s = ctx.session;
        if (opt.kind() == Token.Kind.VARIABLE) {
            new VariableAssignment(ctx).set(st.tokens);
            return;
        }
        String name = opt.upper();
        switch (name) {
            case "NOCOUNT":
                s.nocount = onOff(st);
                break;
            case "XACT_ABORT":
                s.xactAbort = onOff(st);
                break;
            case "IMPLICIT_TRANSACTIONS":
                s.implicitTransactions = onOff(st);
                break;
            case "FMTONLY":
                ctx.fmtOnly = onOff(st);
                break;
            case "TRANSACTION":
                s.isolationLevel(isolationLevel(st));
                break;
            case "LOCK_TIMEOUT":
                s.locks.timeout = lockTimeout(st);
                break;
            case "DEADLOCK_PRIORITY":
                s.locks.owner.deadlockPriority = deadlockPriority(st);
                break;
            case "IDENTITY_INSERT":
                identityInsert(st);
                break;
            default:
                if (name.equals("ROWCOUNT") && !(st.tokens.size() == 3 && st.tokens.get(2).text().equals("0"))) {
                    throw SqlServerError.unsupported("SET ROWCOUNT other than 0");
                }
                if (!IGNORED.contains(name)) {
                    throw SqlServerError.unsupported(BatchExecutor.abbreviate(st.text));
                }
        }
        ctx.done(DoneStatus.CMD_NONE, -1);
    }

    /** SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED | READ COMMITTED | REPEATABLE READ | SNAPSHOT | SERIALIZABLE. */
    private static int isolationLevel(Stmt st) throws SqlServerError {
        if (!st.kw(2, "ISOLATION") || !st.kw(3, "LEVEL") || st.tokens.size() < 5) {
            throw SqlServerError.syntax(st.tokens.get(Math.min(st.tokens.size() - 1, 2)).text());
        }
        String a = st.tokens.get(4).upper();
        String b = st.tokens.size() > 5 ? st.tokens.get(5).upper() : "";
        int words = 2;
        int level;
        if (a.equals("READ") && b.equals("UNCOMMITTED")) {
            level = LockPlanner.READ_UNCOMMITTED;
        } else if (a.equals("READ") && b.equals("COMMITTED")) {
            level = LockPlanner.READ_COMMITTED;
        } else if (a.equals("REPEATABLE") && b.equals("READ")) {
            level = LockPlanner.REPEATABLE_READ;
        } else if (a.equals("SNAPSHOT")) {
            level = LockPlanner.SNAPSHOT;
            words = 1;
        } else if (a.equals("SERIALIZABLE")) {
            level = LockPlanner.SERIALIZABLE;
            words = 1;
        } else {
            throw SqlServerError.syntax(st.tokens.get(4).text());
        }
        if (st.tokens.size() != 4 + words) {
            throw SqlServerError.syntax(st.tokens.get(4 + words).text());
        }
        return level;
    }

    /** SET LOCK_TIMEOUT n: -1 waits forever, 0 fails at once, n ms. */
    private static long lockTimeout(Stmt st) throws SqlServerError {
        String text = st.tokens.size() == 3 ? st.tokens.get(2).text()
                : st.tokens.size() == 4 && st.tokens.get(2).isSymbol("-") ? "-" + st.tokens.get(3).text() : null;
        long v;
        try {
            v = text == null ? Long.MIN_VALUE : Long.parseLong(text);
        } catch (NumberFormatException e) {
            v = Long.MIN_VALUE;
        }
        if (v < -1 || v > Integer.MAX_VALUE) {
            throw SqlServerError.unsupported("SET LOCK_TIMEOUT other than a number from -1 up: "
                    + BatchExecutor.abbreviate(st.text));
        }
        return v;
    }

    /** SET DEADLOCK_PRIORITY LOW | NORMAL | HIGH | -10..10. */
    private static int deadlockPriority(Stmt st) throws SqlServerError {
        if (st.tokens.size() == 3) {
            switch (st.tokens.get(2).upper()) {
                case "LOW": return -5;
                case "NORMAL": return 0;
                case "HIGH": return 5;
                default: break;
            }
        }
        String text = st.tokens.size() == 3 ? st.tokens.get(2).text()
                : st.tokens.size() == 4 && st.tokens.get(2).isSymbol("-") ? "-" + st.tokens.get(3).text() : null;
        try {
            int v = Integer.parseInt(String.valueOf(text));
            if (v >= -10 && v <= 10) {
                return v;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw SqlServerError.unsupported("SET DEADLOCK_PRIORITY other than LOW, NORMAL, HIGH or -10..10: "
                + BatchExecutor.abbreviate(st.text));
    }

    /** SET IDENTITY_INSERT t ON|OFF: one table per session (8107), only tables with an identity (8106). */
    private void identityInsert(Stmt st) throws SqlServerError {
        ObjectName n = ObjectName.at(st.tokens, 2);
        if (n.next != st.tokens.size() - 1) {
            throw SqlServerError.syntax(st.tokens.get(Math.min(n.next, st.tokens.size() - 1)).text());
        }
        boolean on = onOff(st);
        Session s = ctx.session;
        TableDef t = s.catalog().table(n.schema, n.name);
        if (t == null) {
            throw ErrorCatalog.INVALID_OBJECT_NAME.error("Invalid object name '" + n.name + "'.");
        }
        if (t.columns().stream().noneMatch(ColumnDef::identity)) {
            throw ErrorCatalog.NO_IDENTITY_PROPERTY.error("Table '" + t.schema() + "." + t.name()
                    + "' does not have the identity property. Cannot perform SET operation.");
        }
        if (!on) {
            if (s.identityInsertTable == t.objectId()) {
                s.identityInsertTable = 0;
            }
            return;
        }
        if (s.identityInsertTable != 0 && s.identityInsertTable != t.objectId()) {
            TableDef other = s.catalog().tableById(s.identityInsertTable);
            if (other != null) {
                throw ErrorCatalog.IDENTITY_INSERT_ALREADY_ON.error("IDENTITY_INSERT is already ON for table '"
                        + other.messageName(s.database) + "'. Cannot perform SET operation for table '" + n.name
                        + "'.");
            }
        }
        s.identityInsertTable = t.objectId();
    }

    private static boolean onOff(Stmt st) throws SqlServerError {
        Token last = st.tokens.get(st.tokens.size() - 1);
        if (last.is("ON")) {
            return true;
        }
        if (last.is("OFF")) {
            return false;
        }
        throw SqlServerError.syntax(last.text());
    }
}
