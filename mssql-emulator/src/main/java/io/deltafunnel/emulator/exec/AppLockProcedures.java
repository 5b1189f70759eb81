package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.LockManager;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.tsql.Token;
import io.deltafunnel.emulator.wire.SqlParam;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code sp_getapplock}, {@code sp_releaseapplock}, {@code APPLOCK_MODE} and {@code APPLOCK_TEST}, as SQL Server
 * documents them.
 *
 * <p>Application locks live in the emulator's {@link LockManager} beside the table locks (negative resource ids), so
 * they wait, time out and take part in deadlock detection together with table locks. Owner {@code Transaction}
 * (the default) holds the lock to the end of the transaction, owner {@code Session} until {@code sp_releaseapplock}
 * or the end of the session (disconnect, also an abrupt one, or RESETCONNECTION). Every grant counts: a lock
 * requested n times is released by the n-th {@code sp_releaseapplock}, in the strongest mode it reached.
 *
 * <p>Return codes: 0 granted at once, 1 granted after waiting, -1 timed out, -3 chosen as deadlock victim (no error
 * and no rollback: the caller decides, as SQL Server documents), -999 a parameter or call error. Like SQL Server
 * the procedures report these problems as messages and a return code, not by ending the batch: an unknown
 * {@code @LockMode}/{@code @LockOwner} is INFO 15625, owner Transaction outside a transaction INFO 15626 (get) or
 * ERROR 3918 (release), a lock not held ERROR 1223, a NULL resource ERROR 1224, a timeout below -1 ERROR 1227.
 * Errors of the call itself (unknown or repeated parameter names, a missing {@code @LockMode}) are errors of the
 * EXEC statement (8145, 8143, 201, 8144, 119).
 */
public final class AppLockProcedures {
    private static final List<String> GET_PARAMS = List.of("@Resource", "@LockMode", "@LockOwner", "@LockTimeout",
            "@DbPrincipal");
    private static final List<String> RELEASE_PARAMS = List.of("@Resource", "@LockOwner", "@DbPrincipal");
    /** Database principals the emulator's single login (dbo) may name: it is a member of every role. */
    private static final Set<String> PRINCIPALS = Set.of("public", "dbo", "guest", "db_owner", "db_accessadmin",
            "db_securityadmin", "db_ddladmin", "db_backupoperator", "db_datareader", "db_datawriter",
            "db_denydatareader", "db_denydatawriter");

    /** What the procedure returns and the message it reports (null: none); the batch goes on either way. */
    public record Outcome(int status, SqlServerError error, int infoNumber, String info) {
        static Outcome of(int status) {
            return new Outcome(status, null, 0, null);
        }

        static Outcome error(SqlServerError e) {
            return new Outcome(-999, e, 0, null);
        }

        static Outcome info(int number, String message) {
            return new Outcome(-999, null, number, message);
        }
    }

    private final ExecContext ctx;
    private final Session s;

    public AppLockProcedures(ExecContext ctx) {
        this.ctx = ctx;
        this.s = ctx.session;
    }

    /** Runs {@code sp_getapplock} ({@code get}) or {@code sp_releaseapplock} with the arguments from token i. */
    public Outcome call(boolean get, List<Token> toks, int i) throws SqlServerError, IOException {
        String proc = get ? "sp_getapplock" : "sp_releaseapplock";
        Map<String, Object> args = bind(proc, get ? GET_PARAMS : RELEASE_PARAMS, toks, i);
        if (get && !args.containsKey("@LockMode")) {
            throw ErrorCatalog.PARAMETER_NOT_SUPPLIED.error("Procedure or function '" + proc
                    + "' expects parameter '@LockMode', which was not supplied.");
        }
        LockManager.Mode mode = null;
        if (get) {
            Object m = args.get("@LockMode");
            mode = mode(m);
            if (mode == null) {
                return notRecognized(m, "@LockMode");
            }
        }
        Object o = args.getOrDefault("@LockOwner", "Transaction");
        LockManager.Duration owner = owner(o);
        if (owner == null) {
            return notRecognized(o, "@LockOwner");
        }
        long timeout = s.locks.timeout;
        if (get) {
            Object t = args.get("@LockTimeout");
            if (t != null) {
                timeout = intValue(t);
            }
            if (owner == LockManager.Duration.TRANSACTION && !s.inTransaction()) {
                return Outcome.info(ErrorCatalog.APPLOCK_NO_TRANSACTION.number(),
                        "You attempted to acquire a transactional application lock without an"
                        + " active transaction.");
            }
            if (timeout < -1) {
                return Outcome.error(ErrorCatalog.APPLOCK_INVALID_TIMEOUT.error(
                        "An invalid application lock time-out was passed to xp_userlock."));
            }
        }
        Object resource = args.get("@Resource");
        if (resource == null) {
            return Outcome.error(ErrorCatalog.APPLOCK_INVALID_RESOURCE.error(5,
                    "An invalid application lock resource was passed to xp_userlock."));
        }
        String name = truncate(text(resource), 255);
        if (args.containsKey("@DbPrincipal") && args.get("@DbPrincipal") == null) {
            return Outcome.error(ErrorCatalog.APPLOCK_INVALID_PRINCIPAL.error(
                    "An invalid database principal was passed to xp_userlock."));
        }
        String principal = truncate(text(args.getOrDefault("@DbPrincipal", "public")), 128);
        if (!PRINCIPALS.contains(principal.toLowerCase(Locale.ROOT).stripTrailing())) {
            return Outcome.error(ErrorCatalog.NO_SUCH_PRINCIPAL.error("The database-principal '" + principal
                    + "' does not exist or user is not a member."));
        }
        int id = resourceId(s, principal, name);
        if (get) {
            try {
                return Outcome.of(s.locks.appLock(id, mode, owner, timeout) ? 0 : 1);
            } catch (SqlServerError e) {
                if (e.number() == 1222) {
                    return Outcome.of(-1);
                }
                if (e.number() == 1205) {
                    return Outcome.of(-3); // SQL Server: no rollback, the caller decides
                }
                throw e;
            }
        }
        if (owner == LockManager.Duration.TRANSACTION && !s.inTransaction()) {
            return Outcome.error(ErrorCatalog.NEEDS_USER_TRANSACTION.error(
                    "The statement or function must be executed in the context of a user transaction."));
        }
        if (!s.emu.locks().releaseApp(s.locks.owner, id, owner)) {
            return Outcome.error(ErrorCatalog.APPLOCK_NOT_HELD.error("Cannot release the application lock (Database"
                    + " Principal: '" + principal + "', Resource: '" + name + "') because it is not currently held."));
        }
        return Outcome.of(0);
    }

    /** {@code APPLOCK_MODE(principal, resource, owner)}: the mode the session holds, or {@code NoLock}. */
    public static String applockMode(Session s, Object principal, Object resource, Object owner) throws SqlServerError {
        LockManager.Duration d = owner(owner);
        if (d == null) {
            throw ErrorCatalog.APPLOCK_INVALID_OWNER.error(
                    "An invalid application lock owner was passed to APPLOCK_MODE.");
        }
        int id = checkedResource(s, principal, resource, d, "APPLOCK_MODE");
        List<LockManager.Mode> modes = s.emu.locks().appModes(s.locks.owner, id, d);
        boolean sh = modes.contains(LockManager.Mode.S);
        boolean up = modes.contains(LockManager.Mode.U);
        boolean ix = modes.contains(LockManager.Mode.IX);
        if (modes.contains(LockManager.Mode.X)) {
            return "Exclusive";
        }
        if (ix && up) {
            return "UpdateIntentExclusive";
        }
        if (ix && sh) {
            return "SharedIntentExclusive";
        }
        if (up) {
            return "Update";
        }
        if (sh) {
            return "Shared";
        }
        if (ix) {
            return "IntentExclusive";
        }
        if (modes.contains(LockManager.Mode.IS)) {
            return "IntentShared";
        }
        return "NoLock";
    }

    /**
     * {@code APPLOCK_TEST(principal, resource, mode, owner)}: 1 when the session would be granted the lock at once,
     * else 0; nothing is locked.
     */
    public static int applockTest(Session s, Object principal, Object resource, Object mode, Object owner)
            throws SqlServerError {
        LockManager.Mode m = mode(mode);
        if (m == null) {
            throw ErrorCatalog.APPLOCK_INVALID_MODE.error(
                    "An invalid application lock mode was passed to APPLOCK_TEST.");
        }
        LockManager.Duration d = owner(owner);
        if (d == null) {
            throw ErrorCatalog.APPLOCK_INVALID_OWNER.error(
                    "An invalid application lock owner was passed to APPLOCK_TEST.");
        }
        int id = checkedResource(s, principal, resource, d, "APPLOCK_TEST");
        return s.emu.locks().grantableNow(s.locks.owner, id, m) ? 1 : 0;
    }

    private static int checkedResource(Session s, Object principal, Object resource, LockManager.Duration d,
            String function) throws SqlServerError {
        if (resource == null) {
            throw ErrorCatalog.APPLOCK_INVALID_RESOURCE.error(
                    "An invalid application lock resource was passed to " + function + ".");
        }
        if (principal == null) {
            throw ErrorCatalog.APPLOCK_INVALID_PRINCIPAL.error(
                    "An invalid database principal was passed to " + function + ".");
        }
        if (d == LockManager.Duration.TRANSACTION && !s.inTransaction()) {
            throw ErrorCatalog.NEEDS_USER_TRANSACTION.error(
                    "The statement or function must be executed in the context of a user transaction.");
        }
        String p = truncate(text(principal), 128);
        if (!PRINCIPALS.contains(p.toLowerCase(Locale.ROOT).stripTrailing())) {
            throw ErrorCatalog.NO_SUCH_PRINCIPAL.error("The database-principal '" + p
                    + "' does not exist or user is not a member.");
        }
        return resourceId(s, p, truncate(text(resource), 255));
    }

    /** Principals are database principal names (case-insensitive); resources compare as binary strings. */
    private static int resourceId(Session s, String principal, String resource) {
        return s.emu.locks().appResource(principal.toLowerCase(Locale.ROOT).stripTrailing(), resource);
    }

    private static Outcome notRecognized(Object value, String param) {
        return Outcome.info(ErrorCatalog.APPLOCK_OPTION_NOT_RECOGNIZED.number(),
                "Option '" + (value == null ? "(null)" : truncate(text(value), 32))
                + "' not recognized for '" + param + "' parameter.");
    }

    /** The lock mode named by {@code @LockMode} (compared as the database collation does), or null. */
    private static LockManager.Mode mode(Object v) {
        if (v == null) {
            return null;
        }
        switch (truncate(text(v), 32).stripTrailing().toLowerCase(Locale.ROOT)) {
            case "shared": return LockManager.Mode.S;
            case "update": return LockManager.Mode.U;
            case "intentshared": return LockManager.Mode.IS;
            case "intentexclusive": return LockManager.Mode.IX;
            case "exclusive": return LockManager.Mode.X;
            default: return null;
        }
    }

    /** TRANSACTION or SESSION for {@code @LockOwner}, null when not recognised. */
    private static LockManager.Duration owner(Object v) {
        if (v == null) {
            return null;
        }
        switch (truncate(text(v), 32).stripTrailing().toLowerCase(Locale.ROOT)) {
            case "transaction": return LockManager.Duration.TRANSACTION;
            case "session": return LockManager.Duration.SESSION;
            default: return null;
        }
    }

    private static String text(Object v) {
        return v instanceof BigDecimal b ? b.toPlainString() : String.valueOf(v);
    }

    private static String truncate(String v, int max) {
        return v.length() <= max ? v : v.substring(0, max);
    }

    /** {@code @LockTimeout int}: a number, or a string converted as SQL Server converts it (8114, 8115). */
    private static long intValue(Object v) throws SqlServerError {
        BigDecimal d;
        if (v instanceof Number n) {
            d = new BigDecimal(n.toString());
        } else {
            try {
                d = new BigDecimal(text(v).trim());
            } catch (NumberFormatException e) {
                throw ErrorCatalog.CONVERSION_FAILED.error("Conversion failed when converting the nvarchar value '"
                        + text(v) + "' to data type int.");
            }
        }
        if (d.compareTo(BigDecimal.valueOf(Integer.MIN_VALUE)) < 0
                || d.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
            throw ErrorCatalog.ARITHMETIC_OVERFLOW.error(
                    "Arithmetic overflow error converting expression to data type int.");
        }
        return d.longValue();
    }

    /**
     * Binds {@code [@name =] value, ...} to the procedure's parameters: literals ('..', N'..', numbers, NULL),
     * variables (RPC parameters such as {@code @P0}, DECLAREd variables) and DEFAULT.
     */
    private Map<String, Object> bind(String proc, List<String> params, List<Token> toks, int i) throws SqlServerError {
        Map<String, Object> out = new HashMap<>();
        boolean named = false;
        int position = 0;
        while (i < toks.size()) {
            String param;
            Token t = toks.get(i);
            if (t.kind() == Token.Kind.VARIABLE && i + 1 < toks.size() && toks.get(i + 1).isSymbol("=")) {
                named = true;
                param = null;
                for (String p : params) {
                    if (p.equalsIgnoreCase(t.text())) {
                        param = p;
                    }
                }
                if (param == null) {
                    throw ErrorCatalog.NOT_A_PARAMETER.error(
                            t.text() + " is not a parameter for procedure " + proc + ".");
                }
                if (out.containsKey(param)) {
                    throw ErrorCatalog.PARAMETER_REPEATED.error(
                            "Parameter '" + param + "' was supplied multiple times.");
                }
                i += 2;
            } else {
                if (named) {
                    throw ErrorCatalog.NAMED_PARAMETERS_ONLY_AFTER.error("Must pass parameter number " + (position + 1)
                            + " and subsequent parameters as '@name = value'. After the form '@name = value' has"
                            + " been used, all subsequent parameters must be passed in the form '@name = value'.");
                }
                if (position >= params.size()) {
                    throw ErrorCatalog.TOO_MANY_ARGUMENTS.error("Procedure or function " + proc
                            + " has too many arguments specified.");
                }
                param = params.get(position);
            }
            position++;
            if (i >= toks.size()) {
                throw SqlServerError.syntax("=");
            }
            Token v = toks.get(i);
            boolean negative = false;
            if (v.isSymbol("-") && i + 1 < toks.size() && toks.get(i + 1).kind() == Token.Kind.NUMBER) {
                negative = true;
                v = toks.get(++i);
            }
            if (v.is("DEFAULT")) {
                i++;
            } else {
                out.put(param, value(v, negative));
                i++;
            }
            if (i < toks.size()) {
                if (!toks.get(i).isSymbol(",")) {
                    throw SqlServerError.syntax(toks.get(i).text());
                }
                i++;
            }
        }
        return out;
    }

    private Object value(Token v, boolean negative) throws SqlServerError {
        if (v.isString()) {
            return v.value();
        }
        if (v.kind() == Token.Kind.NUMBER) {
            BigDecimal d;
            try {
                d = new BigDecimal(v.text());
            } catch (NumberFormatException e) {
                throw SqlServerError.unsupported("EXEC argument " + v.text());
            }
            return negative ? d.negate() : d;
        }
        if (v.is("NULL")) {
            return null;
        }
        if (v.kind() == Token.Kind.VARIABLE && !v.text().startsWith("@@")) {
            SqlParam p = ctx.vars.get(v.text().toLowerCase(Locale.ROOT));
            if (p == null) {
                throw ErrorCatalog.UNDECLARED_VARIABLE.error("Must declare the scalar variable \"" + v.text() + "\".");
            }
            return p.value;
        }
        throw SqlServerError.unsupported("EXEC argument " + v.text() + " (literals, variables and DEFAULT only)");
    }
}
