package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.h2.H2Errors;
import io.deltafunnel.emulator.h2.H2Sql;
import io.deltafunnel.emulator.semantics.AttentionException;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.ErrorScope;
import io.deltafunnel.emulator.semantics.LockPlanner;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.tsql.BulkInsertCommand;
import io.deltafunnel.emulator.tsql.NamesAsWritten;
import io.deltafunnel.emulator.tsql.StatementParser;
import io.deltafunnel.emulator.tsql.Stmt;
import io.deltafunnel.emulator.tsql.Token;
import io.deltafunnel.emulator.wire.Response;
import io.deltafunnel.emulator.wire.SqlParam;
import io.deltafunnel.tds.DoneStatus;
import io.deltafunnel.tds.TdsProtocolException;

import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Executes a T-SQL batch statement by statement. A failing statement reports its ERROR; {@link ErrorScope} decides
 * from the error number whether the batch goes on and whether the transaction is rolled back. Statements run with
 * statement-level atomicity (savepoints) inside a transaction and auto-commit outside.
 */
final class BatchExecutor {
    private static final Logger LOG = Logger.getLogger(BatchExecutor.class.getName());

    private final ExecContext ctx;
    private final Session s;
    /** The tokens of the statement (or IF condition) running now: its errors repeat names as written there. */
    private List<Token> current;
    /** An error was reported by this batch (the batch may have gone on after a statement-terminating one). */
    private boolean failed;

    BatchExecutor(Session session, Response response, Map<String, SqlParam> vars, boolean inProc) {
        this.ctx = new ExecContext(session, response, vars, inProc);
        this.s = session;
    }

    /** The declared types of the variables the batch starts with (sp_executesql's parameters). */
    void declareTypes(Map<String, io.deltafunnel.emulator.semantics.SqlType> types) {
        ctx.declaredTypes.putAll(types);
    }

    /** Parses and runs {@code sql}; returns false if an error was reported. */
    boolean executeBatch(String sql) throws IOException {
        SqlServerError injected = s.interceptor.beforeBatch(sql);
        if (injected != null) {
            report(injected);
            return false;
        }
        List<Stmt> stmts;
        try {
            stmts = StatementParser.parse(sql);
        } catch (SqlServerError e) {
            report(e);
            return false;
        }
        executeList(stmts);
        return !failed;
    }

    /** True if the batch goes on after {@code e} (a statement-terminating error, see {@link ErrorScope}). */
    private boolean continuesAfter(SqlServerError e) {
        return !(e instanceof ExecHandler.NestedBatchFailed) && ErrorScope.of(e, s.xactAbort).batchContinues();
    }

    private void report(SqlServerError e) {
        failed = true;
        if (e instanceof ExecHandler.NestedBatchFailed) {
            return;
        }
        ctx.response.error(NamesAsWritten.respell(e, current));
        ctx.doneError();
    }

    private boolean executeList(List<Stmt> stmts) throws IOException {
        for (Stmt st : stmts) {
            if (!execute(st)) {
                return false;
            }
        }
        return true;
    }

    private boolean execute(Stmt st) throws IOException {
        switch (st.type) {
            case BLOCK:
                return executeList(st.thenPart);
            case IF: {
                boolean cond;
                current = st.condition;
                try {
                    cond = evaluate(st.condition);
                } catch (SqlServerError e) {
                    report(e);
                    return continuesAfter(e);
                }
                return executeList(cond ? st.thenPart : st.elsePart);
            }
            default:
                return executeSimple(st);
        }
    }

    private boolean evaluate(List<Token> condition) throws SqlServerError, IOException {
        int generation = s.catalog().storageGeneration();
        H2Sql c = ctx.translator().translate(condition);
        try {
            // a condition reading tables (IF EXISTS (SELECT ...)) locks them like a SELECT
            s.locks.lock(LockPlanner.plan(s, condition, false, ctx.fmtOnly));
            c = ctx.translatedAgainIfMoved(c, generation, condition);
            H2Sql q = new H2Sql("SELECT CASE WHEN " + c.sql + " THEN 1 ELSE 0 END", c.params);
            try (PreparedStatement ps = q.prepare(s.h2); ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getInt(1) == 1;
            } catch (SQLException e) {
                throw H2Errors.map(e, null, s.database);
            }
        } catch (SqlServerError e) {
            if (ErrorScope.of(e, s.xactAbort).rollsBackTransaction()) {
                rollbackStatement(null, e);
            }
            throw e;
        } finally {
            s.statementLocksEnd();
        }
    }

    private boolean executeSimple(Stmt st) throws IOException {
        current = st.tokens;
        if (isTransactionControl(st)) {
            try {
                new TransactionStatements(ctx).execute(st);
                return true;
            } catch (SqlServerError e) {
                rollbackStatement(null, e);
                report(e);
                return continuesAfter(e);
            } catch (SQLException e) {
                report(H2Errors.map(e, null, s.database));
                return false;
            }
        }
        Savepoint sp = null;
        try {
            sp = s.statementStart();
            dispatch(st);
            s.statementSucceeded(sp);
            return true;
        } catch (SqlServerError e) {
            rollbackStatement(sp, e);
            report(e);
            return continuesAfter(e);
        } catch (SQLException e) {
            SqlServerError mapped = H2Errors.map(e, null, s.database);
            rollbackStatement(sp, mapped);
            report(mapped);
            return continuesAfter(mapped);
        } catch (AttentionException e) {
            rollbackStatement(sp);
            throw e;
        } catch (TdsProtocolException e) {
            rollbackStatement(sp);
            throw e;
        } catch (RuntimeException e) {
            // a defect of the emulator: report it as an error of this statement instead of dropping the connection
            LOG.log(Level.WARNING, "internal error executing: " + abbreviate(st.text), e);
            rollbackStatement(sp);
            report(ErrorCatalog.EMULATOR_ERROR.error("mssql-emulator internal error: " + e));
            return false;
        }
    }

    private void rollbackStatement(Savepoint sp) {
        rollbackStatement(sp, null);
    }

    private void rollbackStatement(Savepoint sp, SqlServerError error) {
        try {
            s.statementFailed(sp, ctx.response, error);
        } catch (SQLException e) {
            LOG.log(Level.WARNING, "rolling back a failed statement", e);
        }
    }

    private static boolean isTransactionControl(Stmt st) {
        Token f = st.first();
        return f.is("BEGIN") || f.is("COMMIT") || f.is("ROLLBACK") || f.is("SAVE");
    }

    private void dispatch(Stmt st) throws SqlServerError, SQLException, IOException {
        Token f = st.first();
        switch (f.upper()) {
            case "SELECT":
                if (VariableAssignment.isSelectAssignment(st.tokens)) {
                    new VariableAssignment(ctx).select(st.tokens);
                    return;
                }
                new QueryHandler(ctx).select(st);
                return;
            case "INSERT":
                if (st.kw(1, "BULK")) {
                    s.beginImplicitIfNeeded(ctx.response);
                    s.pendingBulk = BulkInsertCommand.parse(st, s.catalog());
                    ctx.done(DoneStatus.CMD_NONE, -1);
                    return;
                }
                new QueryHandler(ctx).dml(st, DoneStatus.CMD_INSERT);
                return;
            case "UPDATE":
                new QueryHandler(ctx).dml(st, DoneStatus.CMD_UPDATE);
                return;
            case "DELETE":
                new QueryHandler(ctx).dml(st, DoneStatus.CMD_DELETE);
                return;
            case "MERGE":
                new QueryHandler(ctx).dml(st, DoneStatus.CMD_MERGE);
                return;
            case "ALTER":
                if (st.kw(1, "DATABASE")) {
                    new AlterDatabaseHandler(ctx).execute(st);
                    return;
                }
                new DdlHandler(ctx).execute(st);
                return;
            case "CREATE":
            case "DROP":
            case "TRUNCATE":
            case "GRANT":
            case "DENY":
            case "REVOKE":
                new DdlHandler(ctx).execute(st);
                return;
            case "EXEC":
            case "EXECUTE":
                new ExecHandler(ctx).execute(st, 1);
                return;
            case "SET":
                new SetHandler(ctx).execute(st);
                return;
            case "DECLARE":
                new DeclareHandler(ctx).execute(st); // no DONE: SQL Server sends none for a DECLARE
                return;
            case "WAITFOR":
                waitFor(st);
                return;
            case "USE":
                use(st);
                return;
            case "PRINT":
                print(st);
                return;
            default:
                if (f.kind() == Token.Kind.WORD && f.upper().startsWith("SP_")) {
                    // a batch may start with a procedure name and no EXEC
                    new ExecHandler(ctx).execute(st, 0);
                    return;
                }
                throw SqlServerError.unsupported(abbreviate(st.text));
        }
    }

    static String abbreviate(String s) {
        String one = s.replaceAll("\\s+", " ").trim();
        return one.length() > 200 ? one.substring(0, 200) + "..." : one;
    }

    private void use(Stmt st) throws SqlServerError {
        if (st.tokens.size() != 2) {
            throw SqlServerError.syntax(st.text);
        }
        String db = st.tokens.get(1).value();
        if (!db.equalsIgnoreCase(s.database)) {
            throw ErrorCatalog.DATABASE_DOES_NOT_EXIST.error(
                    "Database '" + db + "' does not exist. Make sure that the name is entered correctly.");
        }
        ctx.done(DoneStatus.CMD_NONE, -1);
    }

    private void print(Stmt st) throws SqlServerError {
        if (st.tokens.size() == 2 && st.tokens.get(1).isString()) {
            ctx.response.info(0, st.tokens.get(1).value());
            ctx.done(DoneStatus.CMD_NONE, -1);
            return;
        }
        throw SqlServerError.unsupported(abbreviate(st.text));
    }

    /** WAITFOR DELAY 'hh:mm:ss[.fff]': sleeps in small steps, watching for ATTENTION. */
    private void waitFor(Stmt st) throws SqlServerError, IOException {
        if (st.tokens.size() != 3 || !st.kw(1, "DELAY") || !st.tokens.get(2).isString()) {
            throw SqlServerError.unsupported(abbreviate(st.text));
        }
        long millis;
        try {
            java.time.LocalTime t = java.time.LocalTime.parse(st.tokens.get(2).value());
            millis = t.toNanoOfDay() / 1_000_000L;
        } catch (java.time.format.DateTimeParseException e) {
            throw ErrorCatalog.WAITFOR_TIME_SYNTAX.error("Incorrect time syntax in time string '"
                    + st.tokens.get(2).value() + "' used with WAITFOR.");
        }
        long end = System.nanoTime() + millis * 1_000_000L;
        while (System.nanoTime() < end) {
            if (s.connection.attentionArrived()) {
                throw new AttentionException();
            }
            try {
                Thread.sleep(Math.min(20, Math.max(1, (end - System.nanoTime()) / 1_000_000L)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AttentionException();
            }
        }
        ctx.done(DoneStatus.CMD_NONE, -1);
    }
}
