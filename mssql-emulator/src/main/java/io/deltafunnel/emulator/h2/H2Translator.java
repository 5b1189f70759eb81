package io.deltafunnel.emulator.h2;

import io.deltafunnel.emulator.MssqlEmulator;
import io.deltafunnel.emulator.exec.AppLockProcedures;
import io.deltafunnel.emulator.exec.Session;
import io.deltafunnel.emulator.semantics.Catalog;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.TableDef;
import io.deltafunnel.emulator.tsql.Identifiers;
import io.deltafunnel.emulator.tsql.Token;
import io.deltafunnel.emulator.tsql.TypeParser;
import io.deltafunnel.emulator.wire.Response;
import io.deltafunnel.emulator.wire.ServerInfo;
import io.deltafunnel.emulator.wire.SqlParam;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Rewrites T-SQL tokens into H2 SQL: identifiers quoted for H2, literals and variables turned into typed
 * parameters, SQL Server functions and catalog views mapped to the emulator's H2 aliases, table hints and
 * COLLATE clauses dropped, T-SQL types in CAST/CONVERT mapped to H2 types.
 */
public final class H2Translator {
    private static final Set<String> TABLE_HINTS = Set.of("TABLOCK", "TABLOCKX", "NOLOCK", "HOLDLOCK", "UPDLOCK",
            "ROWLOCK", "PAGLOCK", "READPAST", "READCOMMITTED", "READCOMMITTEDLOCK", "SERIALIZABLE", "XLOCK",
            "NOWAIT", "READUNCOMMITTED", "REPEATABLEREAD", "INDEX", "FORCESEEK", "FORCESCAN", "SNAPSHOT",
            "NOEXPAND");

    /** Words that start the next clause after a table name (neither an alias nor part of it). */
    private static final Set<String> CLAUSE_WORDS = Set.of("SELECT", "FROM", "WHERE", "JOIN", "INNER", "LEFT",
            "RIGHT", "FULL", "CROSS", "OUTER", "APPLY", "ON", "GROUP", "ORDER", "HAVING", "UNION", "EXCEPT",
            "INTERSECT", "SET", "VALUES", "BY", "INTO", "UPDATE", "USING", "WHEN", "OPTION", "OUTPUT", "FOR",
            "DELETE", "INSERT", "MERGE", "DEFAULT", "WITH", "OFFSET", "FETCH");
    /** Further words after a table name that are not an alias. */
    private static final Set<String> NOT_ALIASES = Set.of("AND", "OR", "NOT", "THEN", "ELSE", "END", "GO",
            "BEGIN", "COMMIT", "ROLLBACK", "IF", "WHILE", "RETURN", "DECLARE", "EXEC", "EXECUTE", "PIVOT",
            "UNPIVOT", "TABLESAMPLE", "LIMIT", "WINDOW", "QUALIFY");

    private final Session session;
    private final Map<String, SqlParam> vars;
    private final boolean ddl;
    private List<Token> toks;
    private StringBuilder sb;
    private List<Object> params;

    public H2Translator(Session session, Map<String, SqlParam> vars, boolean ddl) {
        this.session = session;
        this.vars = vars;
        this.ddl = ddl;
    }

    public H2Sql translate(List<Token> tokens) throws SqlServerError {
        return translate(tokens, 0, tokens.size());
    }

    public H2Sql translate(List<Token> tokens, int from, int to) throws SqlServerError {
        this.toks = tokens.subList(from, to);
        this.sb = new StringBuilder();
        this.params = new ArrayList<>();
        int castDepth = -1;
        int depth = 0;
        List<Integer> castDepths = new ArrayList<>();
        int i = 0;
        while (i < toks.size()) {
            Token t = toks.get(i);
            if (t.isSymbol("(")) {
                depth++;
                emit("(");
                i++;
                continue;
            }
            if (t.isSymbol(")")) {
                if (!castDepths.isEmpty() && castDepths.get(castDepths.size() - 1) == depth) {
                    castDepths.remove(castDepths.size() - 1);
                }
                depth--;
                emit(")");
                i++;
                continue;
            }
            switch (t.kind()) {
                case STRING:
                case NSTRING:
                    literal(t.value());
                    i++;
                    break;
                case BINARY:
                    binaryLiteral(t.value());
                    i++;
                    break;
                case NUMBER:
                    emit(t.text());
                    i++;
                    break;
                case VARIABLE:
                    variable(t);
                    i++;
                    break;
                case SYMBOL:
                    if (t.isSymbol("::")) {
                        throw SqlServerError.unsupported("'::' syntax");
                    }
                    emit(t.text());
                    i++;
                    break;
                default: {
                    // CAST(expr AS type) / CONVERT(type, expr)
                    if (t.is("AS") && !castDepths.isEmpty() && castDepths.get(castDepths.size() - 1) == depth
                            && i + 1 < toks.size() && TypeParser.isTypeName(toks.get(i + 1))) {
                        emit("AS");
                        TypeParser.Result tr = TypeParser.parse(toks, i + 1, 30, null);
                        emit(tr.type.h2Type());
                        i = tr.next;
                        break;
                    }
                    if ((t.is("CAST") || t.is("TRY_CAST")) && next(i, "(")) {
                        emit(t.is("TRY_CAST") ? "CAST" : "CAST");
                        castDepths.add(depth + 1);
                        i++;
                        break;
                    }
                    if (t.is("CONVERT") && next(i, "(") && i + 2 < toks.size()
                            && TypeParser.isTypeName(toks.get(i + 2))) {
                        TypeParser.Result tr = TypeParser.parse(toks, i + 2, 30, null);
                        emit("CONVERT");
                        emit("(");
                        depth++;
                        emit(tr.type.h2Type());
                        i = tr.next;
                        break;
                    }
                    if (t.is("WITH") && next(i, "(") && i + 2 < toks.size()
                            && TABLE_HINTS.contains(toks.get(i + 2).upper())) {
                        i = skipParenGroup(i + 1);
                        break;
                    }
                    if (t.is("COLLATE") && i + 1 < toks.size()) {
                        i += 2;
                        break;
                    }
                    if (t.is("BY") && i + 1 < toks.size() && toks.get(i + 1).is("TARGET")) {
                        i += 2;
                        break;
                    }
                    if (t.is("BY") && i + 1 < toks.size() && toks.get(i + 1).is("SOURCE")) {
                        throw SqlServerError.unsupported("MERGE ... WHEN NOT MATCHED BY SOURCE");
                    }
                    if (t.is("OUTPUT") && depth == 0) {
                        throw SqlServerError.unsupported("OUTPUT clause");
                    }
                    if ((t.is("APPLOCK_MODE") || t.is("APPLOCK_TEST")) && next(i, "(")) {
                        i = applockFunction(i, t.is("APPLOCK_TEST"));
                        break;
                    }
                    if (t.kind() == Token.Kind.WORD && next(i, "(") && function(t)) {
                        i = skipNiladicParens(t, i);
                        break;
                    }
                    i = name(i);
                    break;
                }
            }
        }
        return new H2Sql(sb.toString(), params);
    }

    private boolean next(int i, String symbol) {
        return i + 1 < toks.size() && toks.get(i + 1).isSymbol(symbol);
    }

    private void emit(String s) {
        if (sb.length() > 0) {
            sb.append(' ');
        }
        sb.append(s);
    }

    private int skipParenGroup(int openIdx) {
        int d = 0;
        int i = openIdx;
        while (i < toks.size()) {
            Token t = toks.get(i++);
            if (t.isSymbol("(")) {
                d++;
            } else if (t.isSymbol(")") && --d == 0) {
                break;
            }
        }
        return i;
    }

    private void literal(String value) {
        if (ddl) {
            emit(Identifiers.sqlLiteral(value));
            return;
        }
        params.add(value);
        emit("CAST(? AS VARCHAR(" + Math.max(1, value.length()) + "))");
    }

    private void binaryLiteral(String hex) throws SqlServerError {
        String h = hex.length() % 2 == 1 ? "0" + hex : hex;
        byte[] b = new byte[h.length() / 2];
        for (int k = 0; k < b.length; k++) {
            b[k] = (byte) Integer.parseInt(h.substring(2 * k, 2 * k + 2), 16);
        }
        if (ddl) {
            emit("X'" + h + "'");
            return;
        }
        params.add(b);
        emit("CAST(? AS VARBINARY(" + Math.max(1, b.length) + "))");
    }

    private void param(Object value, String h2Type) {
        params.add(value);
        emit(h2Type == null ? "?" : "CAST(? AS " + h2Type + ")");
    }

    private void variable(Token t) throws SqlServerError {
        String v = t.text();
        if (v.startsWith("@@")) {
            switch (v.substring(2).toUpperCase(Locale.ROOT)) {
                case "TRANCOUNT": param(session.tranCount(), "INTEGER"); return;
                case "VERSION": param(ServerInfo.VERSION_STRING, "VARCHAR(300)"); return;
                case "SPID": param(session.connection.spid(), "SMALLINT"); return;
                case "ROWCOUNT": param((int) Math.min(Integer.MAX_VALUE, session.lastRowCount), "INTEGER"); return;
                case "ERROR": param(0, "INTEGER"); return;
                case "LOCK_TIMEOUT": param((int) session.locks.timeout, "INTEGER"); return;
                case "SERVERNAME": param(Response.SERVER_NAME, "VARCHAR(128)"); return;
                case "SERVICENAME": param("MSSQLSERVER", "VARCHAR(128)"); return;
                case "LANGUAGE": param("us_english", "VARCHAR(128)"); return;
                case "IDENTITY": emit("SCOPE_IDENTITY()"); return;
                case "MAX_PRECISION": param(38, "SMALLINT"); return;
                default: throw SqlServerError.unsupported(v);
            }
        }
        SqlParam p = vars.get(v.toLowerCase(Locale.ROOT));
        if (p == null) {
            throw ErrorCatalog.UNDECLARED_VARIABLE.error("Must declare the scalar variable \"" + v + "\".");
        }
        param(p.value, p.h2CastType());
    }

    /**
     * {@code APPLOCK_MODE(principal, resource, owner)} and {@code APPLOCK_TEST(principal, resource, mode, owner)} with
     * literal or variable arguments: evaluated here (the session's application locks are the emulator's, not H2's)
     * and bound as a value.
     */
    private int applockFunction(int i, boolean test) throws SqlServerError {
        List<Object> args = new ArrayList<>();
        int j = i + 2;
        while (true) {
            if (j >= toks.size()) {
                throw SqlServerError.syntax("APPLOCK_MODE");
            }
            Token a = toks.get(j);
            if (a.isString()) {
                args.add(a.value());
            } else if (a.is("NULL")) {
                args.add(null);
            } else if (a.kind() == Token.Kind.VARIABLE && !a.text().startsWith("@@")) {
                SqlParam p = vars.get(a.text().toLowerCase(Locale.ROOT));
                if (p == null) {
                    throw ErrorCatalog.UNDECLARED_VARIABLE.error(
                            "Must declare the scalar variable \"" + a.text() + "\".");
                }
                args.add(p.value);
            } else {
                throw SqlServerError.unsupported((test ? "APPLOCK_TEST" : "APPLOCK_MODE")
                        + " with an argument other than a literal or a variable");
            }
            Token sep = j + 1 < toks.size() ? toks.get(j + 1) : null;
            j += 2;
            if (sep != null && sep.isSymbol(")")) {
                break;
            }
            if (sep == null || !sep.isSymbol(",")) {
                throw SqlServerError.syntax(sep == null ? "APPLOCK_MODE" : sep.text());
            }
        }
        if (test) {
            if (args.size() != 4) {
                throw ErrorCatalog.FUNCTION_ARGUMENT_COUNT.error("The applock_test function requires 4 argument(s).");
            }
            param(AppLockProcedures.applockTest(session, args.get(0), args.get(1), args.get(2), args.get(3)),
                    "SMALLINT"); // APPLOCK_TEST returns smallint
            return j;
        }
        if (args.size() != 3) {
            throw ErrorCatalog.FUNCTION_ARGUMENT_COUNT.error("The applock_mode function requires 3 argument(s).");
        }
        param(AppLockProcedures.applockMode(session, args.get(0), args.get(1), args.get(2)), "VARCHAR(32)");
        return j;
    }

    /** Maps a function call; returns false if the name is not special (emitted as is by the caller). */
    private boolean function(Token t) {
        switch (t.upper()) {
            case "OBJECT_ID": emit("PUBLIC.MSSQL_OBJECT_ID"); return true;
            case "COLUMNPROPERTY": emit("PUBLIC.MSSQL_COLUMNPROPERTY"); return true;
            case "SCHEMA_NAME": emit("PUBLIC.MSSQL_SCHEMA_NAME"); return true;
            case "SCHEMA_ID": emit("PUBLIC.MSSQL_SCHEMA_ID"); return true;
            case "OBJECT_NAME": emit("PUBLIC.MSSQL_OBJECT_NAME"); return true;
            case "ISNULL": emit("COALESCE"); return true;
            case "COUNT_BIG": emit("COUNT"); return true; // H2's COUNT is already BIGINT
            case "NEWID": emit("RANDOM_UUID"); return true;
            case "DATALENGTH": emit("OCTET_LENGTH"); return true;
            case "GETDATE":
            case "CURRENT_TIMESTAMP":
                emit("CAST(LOCALTIMESTAMP AS TIMESTAMP(3))");
                return true;
            case "SYSDATETIME": emit("CAST(LOCALTIMESTAMP AS TIMESTAMP(7))"); return true;
            case "SYSDATETIMEOFFSET": emit("CAST(CURRENT_TIMESTAMP AS TIMESTAMP(7) WITH TIME ZONE)"); return true;
            case "GETUTCDATE":
                emit("CAST(CURRENT_TIMESTAMP AT TIME ZONE 'UTC' AS TIMESTAMP(3))");
                return true;
            case "SYSUTCDATETIME":
                emit("CAST(CURRENT_TIMESTAMP AT TIME ZONE 'UTC' AS TIMESTAMP(7))");
                return true;
            case "DB_NAME": param(session.database, "VARCHAR(128)"); return true;
            case "SUSER_SNAME":
            case "SUSER_NAME":
                param(session.emu.user(), "VARCHAR(128)");
                return true;
            case "USER_NAME": param("dbo", "VARCHAR(128)"); return true;
            // 1 or 0: a doomed transaction (-1) exists only inside TRY...CATCH, which is not supported (ErrorScope)
            case "XACT_STATE": param(session.inTransaction() ? 1 : 0, "SMALLINT"); return true;
            default: return false;
        }
    }

    /** For functions replaced by a complete expression, skips their empty "()"; otherwise leaves "(" in place. */
    private int skipNiladicParens(Token t, int i) {
        switch (t.upper()) {
            case "GETDATE": case "CURRENT_TIMESTAMP": case "SYSDATETIME": case "SYSDATETIMEOFFSET":
            case "GETUTCDATE": case "SYSUTCDATETIME": case "DB_NAME": case "SUSER_SNAME": case "SUSER_NAME":
            case "USER_NAME": case "XACT_STATE":
                return skipParenGroup(i + 1);
            default:
                return i + 1;
        }
    }

    /** A (possibly dotted) name starting at i; returns the next index. */
    private int name(int i) throws SqlServerError {
        List<Token> parts = new ArrayList<>();
        List<Boolean> empty = new ArrayList<>();
        parts.add(toks.get(i));
        empty.add(false);
        int j = i + 1;
        while (j + 1 < toks.size() && toks.get(j).isSymbol(".")) {
            Token nx = toks.get(j + 1);
            if (nx.isSymbol(".")) {
                parts.add(null);
                empty.add(true);
                j += 1;
                continue;
            }
            if (!nx.isIdentifier() && !nx.isSymbol("*")) {
                break;
            }
            parts.add(nx);
            empty.add(false);
            j += 2;
        }
        // database prefix: db.schema.object or db..object
        if (parts.size() >= 3 && parts.get(0) != null && isDatabaseName(parts.get(0).value())) {
            parts.remove(0);
            if (parts.get(0) == null) {
                parts.set(0, new Token(Token.Kind.QUOTED_ID, "[dbo]", "dbo", 0, 0));
            }
        }
        if (parts.size() == 2 && parts.get(0) != null && parts.get(1) != null) {
            String a = parts.get(0).value();
            String b = parts.get(1).value().toUpperCase(Locale.ROOT);
            if (a.equalsIgnoreCase("INFORMATION_SCHEMA") && (b.equals("TABLES") || b.equals("COLUMNS"))) {
                emit("PUBLIC.MSSQL_IS_" + b + "()");
                return j;
            }
            if (a.equalsIgnoreCase("sys")) {
                switch (b) {
                    case "COLUMNS": case "TABLES": case "SCHEMAS": case "OBJECTS": case "INDEXES":
                    case "INDEX_COLUMNS": case "CHECK_CONSTRAINTS": case "FOREIGN_KEYS": case "FOREIGN_KEY_COLUMNS":
                    case "DATABASE_PRINCIPALS": case "DATABASE_PERMISSIONS":
                        emit("PUBLIC.MSSQL_SYS_" + b + "()");
                        return j;
                    case "DATABASES":
                        // the session's database and its READ_COMMITTED_SNAPSHOT option, read when translated
                        params.add(session.database);
                        params.add(session.emu.readCommittedSnapshot());
                        emit("PUBLIC.MSSQL_SYS_DATABASES(CAST(? AS VARCHAR(128)), CAST(? AS BOOLEAN))");
                        return j;
                    default:
                        break;
                }
            }
        }
        TableDef table = canonicalize(parts);
        if (table == null && parts.size() <= 2 && parts.get(0) != null && parts.get(parts.size() - 1) != null
                && tablePosition(i)) {
            table = unqualifiedOrHidden(parts);
        }
        if (table != null && !table.storedUnderOwnName()) {
            if (parts.size() <= 2) {
                // a reference to the table: its H2 table, under the T-SQL name unless an alias is written
                emit(table.h2Name());
                if (aliasAllowed(i) && !aliasFollows(j)) {
                    emit(Identifiers.h2Quote(table.name()));
                }
                return j;
            }
            // schema.table.column: the table's name, which is also its alias in the FROM clause
            parts.subList(0, 2).clear();
            parts.add(0, new Token(Token.Kind.QUOTED_ID, Identifiers.bracket(table.name()), table.name(), 0, 0));
        }
        StringBuilder n = new StringBuilder();
        for (int k = 0; k < parts.size(); k++) {
            if (k > 0) {
                n.append('.');
            }
            Token p = parts.get(k);
            if (p == null) {
                n.append("\"dbo\"");
            } else if (p.kind() == Token.Kind.QUOTED_ID) {
                n.append(Identifiers.h2Quote(p.value()));
            } else {
                n.append(p.text());
            }
        }
        emit(n.toString());
        return j;
    }

    /**
     * SQL Server names are case-insensitive; H2 (even with CASE_INSENSITIVE_IDENTIFIERS) is not for schemas, so
     * schema.table prefixes are rewritten to the catalog's spelling.
     */
    private TableDef canonicalize(List<Token> parts) {
        if (parts.size() < 2 || parts.get(0) == null || parts.get(1) == null) {
            return null;
        }
        Catalog cat = session.catalog();
        String schema = cat.schema(parts.get(0).value());
        if (schema == null) {
            return null;
        }
        parts.set(0, new Token(Token.Kind.QUOTED_ID, Identifiers.bracket(schema), schema, 0, 0));
        TableDef t = cat.table(schema, parts.get(1).value());
        if (t != null) {
            parts.set(1, new Token(Token.Kind.QUOTED_ID, Identifiers.bracket(t.name()), t.name(), 0, 0));
        }
        return t;
    }

    /**
     * For a table name at a table's place that {@link #canonicalize} did not find: the dbo table of a one-part name,
     * else null; but 208 when the name is only an H2 table holding another table's rows (after SWITCH or sp_rename:
     * H2 would find it).
     */
    private TableDef unqualifiedOrHidden(List<Token> parts) throws SqlServerError {
        Catalog cat = session.catalog();
        String schema = parts.size() == 1 ? "dbo" : cat.schema(parts.get(0).value());
        String name = parts.get(parts.size() - 1).value();
        if (schema == null) {
            return null;
        }
        TableDef t = parts.size() == 1 ? cat.table(schema, name) : null;
        if (t == null && cat.storageTaken(schema, name)) {
            throw ErrorCatalog.INVALID_OBJECT_NAME.error("Invalid object name '" + (parts.size() == 1 ? name
                    : parts.get(0).value() + "." + name) + "'.");
        }
        return t;
    }

    /**
     * True when the name at {@code i} stands where a table is named: after FROM, JOIN, UPDATE, INSERT, INTO, MERGE,
     * DELETE or MERGE's USING, or after a comma of a FROM list.
     */
    private boolean tablePosition(int i) {
        if (i == 0) {
            return false;
        }
        Token prev = toks.get(i - 1);
        if (prev.is("FROM") || prev.is("JOIN") || prev.is("UPDATE") || prev.is("INTO") || prev.is("DELETE")
                || prev.is("USING") || prev.is("INSERT") || prev.is("MERGE")) {
            return true;
        }
        if (!prev.isSymbol(",")) {
            return false;
        }
        int depth = 0;
        for (int k = i - 2; k >= 0; k--) {
            Token t = toks.get(k);
            if (t.isSymbol(")")) {
                depth++;
            } else if (t.isSymbol("(")) {
                if (depth == 0) {
                    return false;
                }
                depth--;
            } else if (depth == 0 && t.kind() == Token.Kind.WORD && CLAUSE_WORDS.contains(t.upper())) {
                return t.is("FROM");
            }
        }
        return false;
    }

    /** H2 takes no alias on INSERT's target. */
    private boolean aliasAllowed(int i) {
        return !(i > 0 && toks.get(i - 1).is("INSERT") || i > 1 && toks.get(i - 1).is("INTO")
                && toks.get(i - 2).is("INSERT"));
    }

    /** True when a table alias ([AS] alias) is written at {@code j}. */
    private boolean aliasFollows(int j) {
        if (j >= toks.size()) {
            return false;
        }
        Token t = toks.get(j);
        return t.is("AS") || t.kind() == Token.Kind.QUOTED_ID
                || t.kind() == Token.Kind.WORD && !CLAUSE_WORDS.contains(t.upper()) && !NOT_ALIASES.contains(t.upper());
    }

    private boolean isDatabaseName(String s) {
        return s.equalsIgnoreCase(session.database) || s.equalsIgnoreCase("tempdb")
                || s.equalsIgnoreCase(MssqlEmulator.DATABASE);
    }
}
