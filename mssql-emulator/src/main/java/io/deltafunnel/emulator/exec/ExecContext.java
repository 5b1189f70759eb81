package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.h2.H2Sql;
import io.deltafunnel.emulator.h2.H2Translator;
import io.deltafunnel.emulator.semantics.LockPlanner;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.SqlType;
import io.deltafunnel.emulator.wire.Response;
import io.deltafunnel.emulator.wire.SqlParam;
import io.deltafunnel.tds.DoneStatus;
import io.deltafunnel.tds.TokenType;

import io.deltafunnel.emulator.tsql.Token;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What a statement handler needs: the session, the response, variables and batch-scoped options. */
public final class ExecContext {
    public final Session session;
    final Response response;
    public final Map<String, SqlParam> vars;
    /** The declared SQL Server type of each DECLAREd variable or sp_executesql parameter (by lower-case name). */
    final Map<String, SqlType> declaredTypes = new HashMap<>();
    /** Inside an RPC (sp_executesql...): statement DONEs are DONEINPROC. */
    final boolean inProc;
    /** SET FMTONLY ON in effect (scoped to the batch / sp_executesql call). */
    boolean fmtOnly;

    ExecContext(Session session, Response response, Map<String, SqlParam> vars, boolean inProc) {
        this.session = session;
        this.response = response;
        this.vars = vars;
        this.inProc = inProc;
    }

    H2Translator translator() {
        return new H2Translator(session, vars, false);
    }

    /**
     * Translates {@code tokens}, then takes the locks planned from {@code planned}; translates again when an
     * ALTER TABLE ... SWITCH committed by another session while this one waited moved a table's rows to another H2
     * table (the translation names H2 tables).
     */
    H2Sql translateAndLock(List<Token> tokens, List<Token> planned, boolean write, boolean fmtOnlyPlan)
            throws SqlServerError, IOException {
        int generation = session.catalog().storageGeneration();
        H2Sql q = translator().translate(tokens);
        session.locks.lock(LockPlanner.plan(session, planned, write, fmtOnlyPlan));
        return translatedAgainIfMoved(q, generation, tokens);
    }

    /** {@code q} (translated from {@code tokens} at storage generation {@code generation}) or a fresh translation. */
    H2Sql translatedAgainIfMoved(H2Sql q, int generation, List<Token> tokens) throws SqlServerError {
        return generation == session.catalog().storageGeneration() ? q : translator().translate(tokens);
    }

    /** DONE (or DONEINPROC) for a statement; {@code count} < 0 means no row count. */
    void done(int curCmd, long count) {
        int status = session.inTransaction() ? DoneStatus.INXACT : 0;
        if (count >= 0) {
            session.lastRowCount = count;
            if (curCmd == DoneStatus.CMD_INSERT || curCmd == DoneStatus.CMD_UPDATE || curCmd == DoneStatus.CMD_DELETE
                    || curCmd == DoneStatus.CMD_MERGE) {
                session.rowsWritten(count);
            }
            if (!session.nocount) {
                status |= DoneStatus.COUNT;
            }
        }
        response.done(inProc ? TokenType.DONEINPROC : TokenType.DONE, status, curCmd, Math.max(0, count));
    }

    void doneError() {
        int status = DoneStatus.ERROR | (session.inTransaction() ? DoneStatus.INXACT : 0);
        response.done(inProc ? TokenType.DONEINPROC : TokenType.DONE, status, 0, 0);
    }
}
