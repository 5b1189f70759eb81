package io.deltafunnel.emulator;

import io.deltafunnel.tds.DoneStatus;

import java.util.Set;

/** SET statements: session options that matter are honoured, harmless ones are accepted and ignored. */
final class SetHandler {
    private static final Set<String> IGNORED = Set.of("TRANSACTION", "LOCK_TIMEOUT", "ANSI_NULLS", "ANSI_PADDING",
            "ANSI_WARNINGS", "ANSI_NULL_DFLT_ON", "ANSI_DEFAULTS", "QUOTED_IDENTIFIER", "ARITHABORT",
            "CONCAT_NULL_YIELDS_NULL", "NUMERIC_ROUNDABORT", "TEXTSIZE", "DATEFORMAT", "DATEFIRST", "LANGUAGE",
            "DEADLOCK_PRIORITY", "STATISTICS", "CURSOR_CLOSE_ON_COMMIT", "ARITHIGNORE", "NOEXEC", "SHOWPLAN_ALL",
            "SHOWPLAN_XML", "PARSEONLY", "QUERY_GOVERNOR_COST_LIMIT", "CONTEXT_INFO", "ROWCOUNT");

    private final ExecContext ctx;

    SetHandler(ExecContext ctx) {
        this.ctx = ctx;
    }

    void execute(Stmt st) throws SqlServerError {
        if (st.tokens.size() < 2) {
            throw SqlServerError.syntax("SET");
        }
        Token opt = st.tokens.get(1);
        Session s = ctx.session;
        if (opt.kind() == Token.Kind.VARIABLE) {
            throw SqlServerError.unsupported("SET of a variable: " + BatchExecutor.abbreviate(st.text));
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
            case "IDENTITY_INSERT":
                // explicit identity values are always accepted by the emulator; the option is accepted
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
