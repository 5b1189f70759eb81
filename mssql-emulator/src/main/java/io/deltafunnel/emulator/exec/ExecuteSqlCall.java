package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.SqlType;
import io.deltafunnel.emulator.tsql.TSqlLexer;
import io.deltafunnel.emulator.tsql.Token;
import io.deltafunnel.emulator.tsql.TypeParser;
import io.deltafunnel.emulator.wire.SqlParam;
import io.deltafunnel.tds.DoneStatus;
import io.deltafunnel.tds.TokenType;
import io.deltafunnel.tds.TokenWriter;

import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code EXEC sp_executesql stmt [, params [, value ...]]} inside a SQL batch or an RPC, as "sp_executesql
 * (Transact-SQL)" documents it: {@code stmt} and {@code params} are Unicode string literals or variables (also
 * named {@code @stmt = }, {@code @params = }); each parameter of the definition list ({@code @name type, ...})
 * gets the value passed positionally or as {@code @name = value} (a literal, {@code NULL} or a variable of the
 * calling batch), converted to its declared type. The statement runs as a batch of its own scope: it sees its
 * parameters and nothing of the caller's variables; the session, its transaction and its locks are the caller's.
 * A parameter without a value is error 8178. {@code OUTPUT} parameters are refused (not supported).
 */
final class ExecuteSqlCall {
    private final ExecContext ctx;

    ExecuteSqlCall(ExecContext ctx) {
        this.ctx = ctx;
    }

    /** One argument: its name when passed as {@code @name = value}, and its tokens. */
    private record Arg(String name, List<Token> value) {
    }

    /** {@code argStart}: the index of the first argument after the procedure name. */
    void execute(List<Token> toks, int argStart) throws SqlServerError, SQLException, IOException {
        List<Arg> args = arguments(toks, argStart);
        String stmt = null;
        String params = null;
        List<Arg> values = new ArrayList<>();
        int positional = 0;
        for (Arg a : args) {
            String n = a.name() == null ? null : a.name().toLowerCase(Locale.ROOT);
            if ("@stmt".equals(n) || n == null && positional == 0) {
                stmt = text(a, "@stmt");
                positional += n == null ? 1 : 0;
            } else if ("@params".equals(n) || n == null && positional == 1) {
                params = text(a, "@params");
                positional += n == null ? 1 : 0;
            } else {
                values.add(a);
            }
        }
        if (stmt == null) {
            throw ErrorCatalog.PARAMETER_NOT_SUPPLIED.error(
                    "Procedure or function 'sp_executesql' expects parameter '@stmt', which was not supplied.");
        }
        Map<String, SqlParam> scope = new HashMap<>();
        Map<String, SqlType> types = new HashMap<>();
        bind(stmt, params, values, scope, types);
        BatchExecutor nested = new BatchExecutor(ctx.session, ctx.response, scope, true);
        nested.declareTypes(types);
        boolean ok = nested.executeBatch(stmt);
        TokenWriter.returnStatus(ctx.response.token(), ok ? 0 : 1);
        ctx.response.done(TokenType.DONEPROC,
                (ok ? 0 : DoneStatus.ERROR) | (ctx.session.inTransaction() ? DoneStatus.INXACT : 0),
                DoneStatus.CMD_EXECUTE, 0);
        if (!ok) {
            throw new ExecHandler.NestedBatchFailed();
        }
    }

    /** The parameters declared in {@code params}, each bound to its value. */
    private void bind(String stmt, String params, List<Arg> values, Map<String, SqlParam> scope,
            Map<String, SqlType> types) throws SqlServerError, SQLException {
        Map<String, SqlType> declared = new LinkedHashMap<>();
        Map<String, String> spelt = new HashMap<>();
        if (params != null && !params.isBlank()) {
            List<Token> t = TSqlLexer.tokenize(params);
            int i = 0;
            while (i < t.size()) {
                if (t.get(i).kind() != Token.Kind.VARIABLE || t.get(i).text().startsWith("@@")) {
                    throw SqlServerError.syntax(t.get(i).text());
                }
                String name = t.get(i).text();
                i++;
                if (i < t.size() && t.get(i).is("AS")) {
                    i++;
                }
                if (i >= t.size()) {
                    throw SqlServerError.syntax(name);
                }
                TypeParser.Result type = TypeParser.parse(t, i, 1, null);
                i = type.next;
                if (i < t.size() && (t.get(i).is("OUTPUT") || t.get(i).is("OUT"))) {
                    throw SqlServerError.unsupported("sp_executesql OUTPUT parameters");
                }
                String key = name.toLowerCase(Locale.ROOT);
                if (declared.containsKey(key)) {
                    throw ErrorCatalog.VARIABLE_ALREADY_DECLARED.error("The variable name '" + name
                            + "' has already been declared. Variable names must be unique within a query batch or"
                            + " stored procedure.");
                }
                declared.put(key, type.type);
                spelt.put(key, name);
                if (i < t.size()) {
                    if (!t.get(i).isSymbol(",")) {
                        throw SqlServerError.syntax(t.get(i).text());
                    }
                    i++;
                }
            }
        }
        List<String> order = new ArrayList<>(declared.keySet());
        Map<String, List<Token>> given = new HashMap<>();
        boolean named = false;
        for (int k = 0; k < values.size(); k++) {
            Arg a = values.get(k);
            String key;
            if (a.name() != null) {
                named = true;
                key = a.name().toLowerCase(Locale.ROOT);
                if (!declared.containsKey(key)) {
                    throw ErrorCatalog.NOT_A_PARAMETER.error(a.name() + " is not a parameter for procedure"
                            + " sp_executesql.");
                }
            } else {
                if (named) {
                    throw ErrorCatalog.NAMED_PARAMETERS_ONLY_AFTER.error("Must pass parameter number " + (k + 3)
                            + " and subsequent parameters as '@name = value'. After the form '@name = value' has"
                            + " been used, all subsequent parameters must be passed in the form '@name = value'.");
                }
                if (k >= order.size()) {
                    throw ErrorCatalog.TOO_MANY_ARGUMENTS.error("Procedure or function sp_executesql has too many"
                            + " arguments specified.");
                }
                key = order.get(k);
            }
            if (given.containsKey(key)) {
                throw ErrorCatalog.PARAMETER_REPEATED.error("Parameter '" + spelt.get(key)
                        + "' was supplied multiple times.");
            }
            given.put(key, a.value());
        }
        DeclareHandler convert = new DeclareHandler(ctx); // values are the caller's literals and variables
        for (String key : order) {
            List<Token> v = given.get(key);
            if (v == null) {
                throw ErrorCatalog.PARAMETERIZED_QUERY_MISSING.error("The parameterized query '(" + params + ")"
                        + stmt + "' expects the parameter '" + spelt.get(key) + "', which was not supplied.");
            }
            SqlType type = declared.get(key);
            Object value = v.size() == 1 && v.get(0).is("NULL") ? null : convert.evaluate(v, type);
            scope.put(key, new SqlParam(spelt.get(key), type.typeInfo(), value, false));
            types.put(key, type);
        }
    }

    /** A string literal, or a variable of the caller holding the text. */
    private String text(Arg a, String what) throws SqlServerError {
        if (a.value().size() == 1) {
            Token t = a.value().get(0);
            if (t.isString()) {
                return t.value();
            }
            if (t.kind() == Token.Kind.VARIABLE && !t.text().startsWith("@@")) {
                SqlParam p = ctx.vars.get(t.text().toLowerCase(Locale.ROOT));
                if (p == null) {
                    throw ErrorCatalog.UNDECLARED_VARIABLE.error("Must declare the scalar variable \"" + t.text()
                            + "\".");
                }
                if (p.value == null || p.value instanceof String) {
                    return (String) p.value;
                }
            }
        }
        throw ErrorCatalog.PARAMETER_TYPE.error("Procedure expects parameter '" + what
                + "' of type 'ntext/nchar/nvarchar'.");
    }

    /** The arguments after the procedure name: {@code [@name =] value}, comma-separated. */
    private static List<Arg> arguments(List<Token> toks, int i) throws SqlServerError {
        List<Arg> out = new ArrayList<>();
        while (i < toks.size()) {
            String name = null;
            if (toks.get(i).kind() == Token.Kind.VARIABLE && i + 1 < toks.size() && toks.get(i + 1).isSymbol("=")) {
                name = toks.get(i).text();
                i += 2;
            }
            int start = i;
            int depth = 0;
            while (i < toks.size() && !(depth == 0 && toks.get(i).isSymbol(","))) {
                if (toks.get(i).isSymbol("(")) {
                    depth++;
                } else if (toks.get(i).isSymbol(")")) {
                    depth--;
                }
                i++;
            }
            if (i == start) {
                throw SqlServerError.syntax(i < toks.size() ? toks.get(i).text() : "sp_executesql");
            }
            out.add(new Arg(name, toks.subList(start, i)));
            if (i < toks.size()) {
                i++; // the comma
                if (i == toks.size()) {
                    throw SqlServerError.syntax(",");
                }
            }
        }
        return out;
    }
}
