package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.h2.H2Errors;
import io.deltafunnel.emulator.h2.H2Sql;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.SqlType;
import io.deltafunnel.emulator.tsql.Stmt;
import io.deltafunnel.emulator.tsql.Token;
import io.deltafunnel.emulator.tsql.TypeParser;
import io.deltafunnel.emulator.wire.SqlParam;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

/**
 * {@code DECLARE @v [AS] type [= expr] [, ...]}: scalar local variables of the batch (or of the sp_executesql call),
 * NULL unless initialised. Table variables and cursors are refused (not supported). A variable declared twice in
 * one batch is error 134, as in SQL Server; so is a DECLARE of a name the RPC already binds as a parameter.
 */
final class DeclareHandler {
    private final ExecContext ctx;

    DeclareHandler(ExecContext ctx) {
        this.ctx = ctx;
    }

    void execute(Stmt st) throws SqlServerError, SQLException {
        List<Token> t = st.tokens;
        int i = 1;
        while (true) {
            if (i >= t.size() || t.get(i).kind() != Token.Kind.VARIABLE || t.get(i).text().startsWith("@@")) {
                throw SqlServerError.syntax(i < t.size() ? t.get(i).text() : "DECLARE");
            }
            String name = t.get(i).text();
            i++;
            if (i < t.size() && t.get(i).is("AS")) {
                i++;
            }
            if (i >= t.size()) {
                throw SqlServerError.syntax(name);
            }
            if (t.get(i).is("TABLE") || t.get(i).is("CURSOR")) {
                throw SqlServerError.unsupported("DECLARE of a " + t.get(i).upper().toLowerCase(Locale.ROOT)
                        + " variable");
            }
            TypeParser.Result type = TypeParser.parse(t, i, 1, null);
            i = type.next;
            Object value = null;
            if (i < t.size() && t.get(i).isSymbol("=")) {
                int end = expressionEnd(t, i + 1);
                if (end == i + 1) {
                    throw SqlServerError.syntax("=");
                }
                value = evaluate(t.subList(i + 1, end), type.type);
                i = end;
            }
            String key = name.toLowerCase(Locale.ROOT);
            if (ctx.vars.containsKey(key)) {
                throw ErrorCatalog.VARIABLE_ALREADY_DECLARED.error(
                        "The variable name '" + name + "' has already been declared."
                        + " Variable names must be unique within a query batch or stored procedure.");
            }
            ctx.vars.put(key, new SqlParam(name, type.type.typeInfo(), value, false));
            ctx.declaredTypes.put(key, type.type);
            if (i >= t.size()) {
                return;
            }
            if (!t.get(i).isSymbol(",")) {
                throw SqlServerError.syntax(t.get(i).text());
            }
            i++;
        }
    }

    /** The index of the top-level comma ending the initialiser starting at {@code i}, or the end. */
    private static int expressionEnd(List<Token> t, int i) {
        int depth = 0;
        for (; i < t.size(); i++) {
            Token k = t.get(i);
            if (k.isSymbol("(")) {
                depth++;
            } else if (k.isSymbol(")")) {
                depth--;
            } else if (depth == 0 && k.isSymbol(",")) {
                return i;
            }
        }
        return i;
    }

    /** The initialiser's value, converted to the variable's type by H2 (tables are not read: no locks needed). */
    Object evaluate(List<Token> expr, SqlType type) throws SqlServerError, SQLException {
        for (Token k : expr) {
            if (k.is("SELECT") || k.is("FROM")) {
                throw SqlServerError.unsupported("a DECLARE initialiser that reads tables");
            }
        }
        H2Sql e = ctx.translator().translate(expr);
        H2Sql q = new H2Sql("SELECT CAST(" + e.sql + " AS " + type.h2Type() + ")", e.params);
        try (PreparedStatement ps = q.prepare(ctx.session.h2); ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getObject(1);
        } catch (SQLException x) {
            throw H2Errors.map(x, null, ctx.session.database);
        }
    }
}
