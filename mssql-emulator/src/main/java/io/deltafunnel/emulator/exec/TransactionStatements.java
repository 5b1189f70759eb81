package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.tsql.Stmt;
import io.deltafunnel.emulator.tsql.Token;
import io.deltafunnel.emulator.wire.SqlParam;
import io.deltafunnel.tds.DoneStatus;

import java.sql.SQLException;
import java.util.Locale;

/** BEGIN TRAN / COMMIT / ROLLBACK / SAVE TRAN written in T-SQL. */
final class TransactionStatements {
    private final ExecContext ctx;

    TransactionStatements(ExecContext ctx) {
        this.ctx = ctx;
    }

    void execute(Stmt st) throws SqlServerError, SQLException {
        Session s = ctx.session;
        Token f = st.first();
        if (f.is("BEGIN")) {
            if (st.kw(1, "DISTRIBUTED")) {
                throw SqlServerError.unsupported("BEGIN DISTRIBUTED TRANSACTION");
            }
            boolean outermost = !s.inTransaction();
            s.beginTransaction(ctx.response);
            if (outermost) {
                s.savepoints.transactionBegun(name(st));
            }
        } else if (f.is("COMMIT")) {
            s.commit(ctx.response);
        } else if (f.is("ROLLBACK")) {
            String name = name(st);
            if (name == null || !s.savepoints.rollbackTo(s, name)) {
                s.rollback(ctx.response);
            }
        } else {
            String name = name(st);
            if (name == null) {
                throw SqlServerError.syntax(st.text);
            }
            s.savepoints.save(s, name);
        }
        ctx.done(DoneStatus.CMD_NONE, -1);
    }

    /** The transaction or savepoint name after BEGIN/COMMIT/ROLLBACK/SAVE [TRAN]: as written, or a variable's value. */
    private String name(Stmt st) throws SqlServerError {
        int i = 1;
        if (st.kw(i, "TRAN") || st.kw(i, "TRANSACTION") || st.kw(i, "WORK")) {
            i++;
        }
        if (st.tokens.size() <= i || st.tokens.get(i).is("WITH")) {
            return null;
        }
        Token t = st.tokens.get(i);
        if (t.kind() == Token.Kind.VARIABLE) {
            SqlParam p = ctx.vars.get(t.text().toLowerCase(Locale.ROOT));
            if (p == null) {
                throw ErrorCatalog.UNDECLARED_VARIABLE.error("Must declare the scalar variable \"" + t.text() + "\".");
            }
            // "More than 32 characters can be passed to the variable, but only the first 32 characters will be used."
            String v = String.valueOf(p.value);
            return v.length() > 32 ? v.substring(0, 32) : v;
        }
        return t.value();
    }
}
