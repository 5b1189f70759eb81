package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.tsql.Stmt;
import io.deltafunnel.emulator.tsql.Token;
import io.deltafunnel.tds.DoneStatus;

import java.sql.SQLException;

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
            s.beginTransaction(ctx.response);
        } else if (f.is("COMMIT")) {
            s.commit(ctx.response);
        } else if (f.is("ROLLBACK")) {
            if (hasName(st)) {
                throw SqlServerError.unsupported("ROLLBACK to a savepoint or named transaction: " + st.text);
            }
            s.rollback(ctx.response);
        } else {
            throw SqlServerError.unsupported("SAVE TRANSACTION");
        }
        ctx.done(DoneStatus.CMD_NONE, -1);
    }

    private static boolean hasName(Stmt st) {
        int i = 1;
        if (st.kw(i, "TRAN") || st.kw(i, "TRANSACTION") || st.kw(i, "WORK")) {
            i++;
        }
        return st.tokens.size() > i && !st.tokens.get(i).is("WITH");
    }
}
