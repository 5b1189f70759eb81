package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.tsql.ObjectName;
import io.deltafunnel.emulator.tsql.Stmt;
import io.deltafunnel.emulator.tsql.Token;
import io.deltafunnel.emulator.wire.SqlParam;
import io.deltafunnel.tds.DoneStatus;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * EXEC of the few system procedures the emulator implements: sp_rename, sp_executesql (with parameters:
 * {@link ExecuteSqlCall}),
 * sp_getapplock and sp_releaseapplock ({@link AppLockProcedures}, also with {@code EXEC @status = ...}).
 */
final class ExecHandler {
    private final ExecContext ctx;

    ExecHandler(ExecContext ctx) {
        this.ctx = ctx;
    }

    /** {@code i}: index of the procedure name (1 after EXEC, 0 when the batch starts with the name). */
    void execute(Stmt st, int i) throws SqlServerError, SQLException, IOException {
        if (st.tokens.size() <= i) {
            throw SqlServerError.syntax(st.text);
        }
        Token procTok = st.tokens.get(i);
        String statusVar = null;
        if (procTok.kind() == Token.Kind.VARIABLE) {
            if (i + 2 >= st.tokens.size() || !st.tokens.get(i + 1).isSymbol("=") || procTok.text().startsWith("@@")) {
                throw SqlServerError.unsupported("EXEC of a procedure named by a variable");
            }
            statusVar = procTok.text();
            if (!ctx.vars.containsKey(statusVar.toLowerCase(Locale.ROOT))) {
                throw ErrorCatalog.UNDECLARED_VARIABLE.error("Must declare the scalar variable \"" + statusVar + "\".");
            }
            i += 2;
        }
        ObjectName proc = ObjectName.at(st.tokens, i);
        String name = proc.name.toLowerCase(Locale.ROOT);
        if (name.equals("sp_getapplock") || name.equals("sp_releaseapplock")) {
            appLock(name.equals("sp_getapplock"), st.tokens, proc.next, statusVar);
            return;
        }
        if (statusVar != null) {
            throw SqlServerError.unsupported("EXEC @status = " + proc.name
                    + " (a return status variable only with sp_getapplock and sp_releaseapplock)");
        }
        if (name.equals("sp_executesql")) {
            new ExecuteSqlCall(ctx).execute(st.tokens, proc.next);
            return;
        }
        List<String> args = literalArgs(st.tokens, proc.next);
        switch (name) {
            case "sp_rename":
                if (args.size() < 2 || args.size() > 3) {
                    throw ErrorCatalog.PARAMETER_NOT_SUPPLIED.error(
                            "Procedure or function 'sp_rename' expects parameter '@newname', which was not supplied.");
                }
                new RenameDdl(ctx, new DdlHandler(ctx)).rename(args.get(0), args.get(1),
                        args.size() == 3 ? args.get(2) : null, st.text);
                ctx.response.info(ErrorCatalog.RENAME_CAUTION.number(),
                        "Caution: Changing any part of an object name could break scripts and"
                        + " stored procedures.");
                ctx.done(DoneStatus.CMD_NONE, -1);
                return;
            default:
                throw ErrorCatalog.NO_SUCH_PROCEDURE.error("Could not find stored procedure '" + proc.name + "'.");
        }
    }

    /**
     * sp_getapplock / sp_releaseapplock: their messages (INFO or ERROR) do not end the batch, as in SQL Server; the
     * return status goes to {@code statusVar} (if any) and, at the top level of a SQL batch, to the client as
     * RETURNSTATUS + DONEPROC (inside an RPC the call ends with a DONEINPROC, the RPC's own status follows).
     */
    private void appLock(boolean get, List<Token> toks, int argStart, String statusVar)
            throws SqlServerError, IOException {
        AppLockProcedures.Outcome out = new AppLockProcedures(ctx).call(get, toks, argStart);
        int inx = ctx.session.inTransaction() ? DoneStatus.INXACT : 0;
        if (out.info() != null) {
            ctx.response.info(out.infoNumber(), out.info());
        }
        if (out.error() != null && ctx.session.xactAbort) {
            throw out.error(); // under XACT_ABORT the procedure's error ends the batch and the transaction
        }
        if (out.error() != null) {
            ctx.response.error(out.error());
            ctx.response.done(io.deltafunnel.tds.TokenType.DONEINPROC, DoneStatus.ERROR | inx, DoneStatus.CMD_EXECUTE,
                    0);
        }
        if (statusVar != null) {
            String key = statusVar.toLowerCase(Locale.ROOT);
            SqlParam declared = ctx.vars.get(key);
            ctx.vars.put(key, new SqlParam(declared.name, declared.type, out.status(), false));
        }
        if (ctx.inProc) {
            ctx.response.done(io.deltafunnel.tds.TokenType.DONEINPROC, inx, DoneStatus.CMD_EXECUTE, 0);
        } else {
            io.deltafunnel.tds.TokenWriter.returnStatus(ctx.response.token(), out.status());
            ctx.response.done(io.deltafunnel.tds.TokenType.DONEPROC, inx, DoneStatus.CMD_EXECUTE, 0);
        }
    }

    /** The nested batch already reported its error; the outer batch must stop without reporting again. */
    static final class NestedBatchFailed extends SqlServerError {
        private static final long serialVersionUID = 1L;

        NestedBatchFailed() {
            super(0, "nested batch failed");
        }
    }

    /** Arguments given as string/number literals (named '@x = value' or positional). */
    private static List<String> literalArgs(List<Token> toks, int i) throws SqlServerError {
        List<String> out = new ArrayList<>();
        while (i < toks.size()) {
            Token t = toks.get(i);
            if (t.kind() == Token.Kind.VARIABLE && i + 1 < toks.size() && toks.get(i + 1).isSymbol("=")) {
                i += 2;
                t = toks.get(i);
            }
            if (t.isString() || t.kind() == Token.Kind.NUMBER) {
                out.add(t.value());
            } else if (t.is("NULL")) {
                out.add(null);
            } else {
                throw SqlServerError.unsupported("EXEC argument " + t.text());
            }
            i++;
            if (i < toks.size()) {
                if (!toks.get(i).isSymbol(",")) {
                    throw SqlServerError.syntax(toks.get(i).text());
                }
                i++;
            }
        }
        return out;
    }
}
