package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.tsql.Stmt;
import io.deltafunnel.emulator.tsql.Token;
import io.deltafunnel.emulator.wire.ConnectionHandler;
import io.deltafunnel.tds.DoneStatus;

import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code ALTER DATABASE <name> | CURRENT SET READ_COMMITTED_SNAPSHOT ON | OFF [WITH <termination>]}, the only
 * database option the emulator has (visible in {@code sys.databases.is_read_committed_snapshot_on}).
 *
 * <p>As SQL Server documents it, the option can be changed only while the statement's connection is the only one in
 * the database. With other sessions connected:
 * <ul>
 *   <li>{@code WITH ROLLBACK IMMEDIATE} or {@code WITH ROLLBACK AFTER n [SECONDS]}: the other sessions are ended
 *       (their open transactions rolled back, their locks released), then the option changes. The emulator does
 *       not wait the n seconds first;</li>
 *   <li>{@code WITH NO_WAIT}: error 5070 at once, nothing changes;</li>
 *   <li>no termination clause: SQL Server waits until the others leave; the emulator refuses (50100) rather than
 *       wait, so a test never hangs on it.</li>
 * </ul>
 * Inside a transaction the statement is 226; {@code master}, {@code model}, {@code msdb} and {@code tempdb} are
 * 5058 (also {@code CURRENT} from a login to master); a name other than the session's database is 5011. Any other
 * database option is refused (50100).
 */
final class AlterDatabaseHandler {
    private static final Set<String> SYSTEM_DATABASES = Set.of("master", "model", "msdb", "tempdb");
    /** How long ROLLBACK IMMEDIATE waits for each ended session to finish its rollback. */
    private static final long END_SESSION_MILLIS = 10_000;

    private final ExecContext ctx;
    private final Session s;

    AlterDatabaseHandler(ExecContext ctx) {
        this.ctx = ctx;
        this.s = ctx.session;
    }

    private enum Termination { NONE, ROLLBACK, NO_WAIT }

    void execute(Stmt st) throws SqlServerError {
        List<Token> t = st.tokens;
        // ALTER DATABASE name SET READ_COMMITTED_SNAPSHOT ON|OFF [WITH ...]
        if (t.size() < 6 || !t.get(2).isIdentifier() || !st.kw(3, "SET")) {
            throw SqlServerError.unsupported(BatchExecutor.abbreviate(st.text));
        }
        if (!st.kw(4, "READ_COMMITTED_SNAPSHOT")) {
            throw SqlServerError.unsupported("ALTER DATABASE ... SET " + t.get(4).text()
                    + " (the only database option the emulator has is READ_COMMITTED_SNAPSHOT)");
        }
        boolean on;
        if (st.kw(5, "ON")) {
            on = true;
        } else if (st.kw(5, "OFF")) {
            on = false;
        } else {
            throw SqlServerError.syntax(t.get(5).text());
        }
        Termination termination = termination(st, 6);
        if (ctx.fmtOnly) {
            ctx.done(DoneStatus.CMD_NONE, -1);
            return;
        }
        String name = t.get(2).kind() == Token.Kind.WORD && t.get(2).is("CURRENT") ? s.database : t.get(2).value();
        if (s.inTransaction()) {
            throw ErrorCatalog.NOT_IN_TRANSACTION_STATEMENT.error(
                    "ALTER DATABASE statement not allowed within multi-statement transaction.");
        }
        if (SYSTEM_DATABASES.contains(name.toLowerCase(Locale.ROOT))) {
            throw ErrorCatalog.OPTION_CANNOT_BE_SET.error(
                    "Option 'READ_COMMITTED_SNAPSHOT' cannot be set in database '" + name + "'.");
        }
        if (!name.equalsIgnoreCase(s.database)) {
            throw ErrorCatalog.ALTER_DATABASE_DENIED.error("User does not have permission to alter database '" + name
                    + "', the database does not exist, or the database is not in a state that allows access checks.");
        }
        List<ConnectionHandler> others = s.emu.otherSessions(s.connection);
        if (!others.isEmpty()) {
            switch (termination) {
                case NO_WAIT:
                    throw ErrorCatalog.DATABASE_IN_USE.error("Database state cannot be changed while other users are"
                            + " using the database '" + name + "'");
                case NONE:
                    throw SqlServerError.unsupported("ALTER DATABASE ... SET READ_COMMITTED_SNAPSHOT while "
                            + others.size() + " other session(s) are connected without WITH ROLLBACK IMMEDIATE or"
                            + " NO_WAIT (SQL Server would wait for them to leave)");
                default:
                    endSessions(others);
                    break;
            }
        }
        s.emu.readCommittedSnapshot(on);
        ctx.done(DoneStatus.CMD_NONE, -1);
    }

    /** Parses the optional {@code WITH ROLLBACK IMMEDIATE | ROLLBACK AFTER n [SECONDS] | NO_WAIT} at {@code i}. */
    private static Termination termination(Stmt st, int i) throws SqlServerError {
        List<Token> t = st.tokens;
        if (i == t.size()) {
            return Termination.NONE;
        }
        if (!st.kw(i, "WITH") || i + 1 >= t.size()) {
            throw SqlServerError.syntax(t.get(i).text());
        }
        int end;
        Termination kind;
        if (st.kw(i + 1, "NO_WAIT")) {
            kind = Termination.NO_WAIT;
            end = i + 2;
        } else if (st.kw(i + 1, "ROLLBACK") && st.kw(i + 2, "IMMEDIATE")) {
            kind = Termination.ROLLBACK;
            end = i + 3;
        } else if (st.kw(i + 1, "ROLLBACK") && st.kw(i + 2, "AFTER") && i + 3 < t.size()
                && t.get(i + 3).text().matches("\\d+")) {
            kind = Termination.ROLLBACK;
            end = st.kw(i + 4, "SECONDS") ? i + 5 : i + 4;
        } else {
            throw SqlServerError.syntax(t.get(i + 1).text());
        }
        if (end != t.size()) {
            throw SqlServerError.syntax(t.get(end).text());
        }
        return kind;
    }

    /** Ends {@code others} (as KILL: their transactions roll back) and waits until each has finished. */
    private void endSessions(List<ConnectionHandler> others) throws SqlServerError {
        for (ConnectionHandler h : others) {
            h.abort();
        }
        for (ConnectionHandler h : others) {
            h.awaitTermination(END_SESSION_MILLIS);
        }
        List<ConnectionHandler> left = s.emu.otherSessions(s.connection);
        left.retainAll(others);
        if (!left.isEmpty()) {
            throw ErrorCatalog.DATABASE_IN_USE.error("Database state cannot be changed while other users are using the"
                    + " database '" + s.database + "' (mssql-emulator: " + left.size() + " ended session(s) did not"
                    + " finish within " + END_SESSION_MILLIS + " ms)");
        }
    }
}
