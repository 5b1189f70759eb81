package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.h2.H2Errors;
import io.deltafunnel.emulator.h2.H2Sql;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.LockPlanner;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.SqlType;
import io.deltafunnel.emulator.tsql.StatementParser;
import io.deltafunnel.emulator.tsql.Token;
import io.deltafunnel.emulator.wire.SqlParam;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Assignments to local variables, as "SET @local_variable" and "SELECT @local_variable" (Transact-SQL) document them:
 * <ul>
 *   <li>{@code SET @v = expr}: the expression (a scalar subquery reading tables included, locked like a SELECT) is
 *       converted to the variable's declared type;</li>
 *   <li>{@code SELECT @v = expr [, @w = expr ...] [FROM ... WHERE ...]}: no result set; each variable gets its
 *       expression's value in the last row the query returns, and keeps its value when it returns no row.</li>
 * </ul>
 * Compound operators ({@code +=} ...), a SELECT mixing assignments and columns, and assignments to
 * {@code @@}-variables are refused. SQL Server sends no DONE for a SET and a DONE with the row count for a SELECT
 * (without the COUNT bit when there is no count to report); the emulator does the same.
 */
final class VariableAssignment {
    private final ExecContext ctx;

    VariableAssignment(ExecContext ctx) {
        this.ctx = ctx;
    }

    /** True for {@code SELECT @v = ...} (a variable, not {@code @@x}, followed by {@code =}). */
    static boolean isSelectAssignment(List<Token> t) {
        return t.size() > 2 && t.get(0).is("SELECT") && isAssignmentAt(t, 1);
    }

    private static boolean isAssignmentAt(List<Token> t, int i) {
        return i + 1 < t.size() && t.get(i).kind() == Token.Kind.VARIABLE && !t.get(i).text().startsWith("@@")
                && t.get(i + 1).isSymbol("=");
    }

    /** {@code SET @v = expr}. */
    void set(List<Token> t) throws SqlServerError, SQLException, java.io.IOException {
        if (t.size() < 3 || t.get(1).text().startsWith("@@")) {
            throw SqlServerError.syntax(t.size() > 1 ? t.get(1).text() : "SET");
        }
        if (!t.get(2).isSymbol("=")) {
            throw SqlServerError.unsupported("SET " + t.get(1).text() + " " + t.get(2).text()
                    + " (only SET @variable = expression; compound assignment operators are not implemented)");
        }
        if (t.size() == 3) {
            throw SqlServerError.syntax("=");
        }
        String key = declared(t.get(1));
        List<Token> expr = t.subList(3, t.size());
        List<Token> select = new ArrayList<>();
        select.add(new Token(Token.Kind.WORD, "SELECT", "SELECT", 0, 0));
        select.addAll(expr);
        H2Sql e = ctx.translator().translate(expr);
        Object[] values = evaluate(select, "SELECT " + cast(e.sql, key), e, 1, false);
        if (values != null) {
            assign(key, values[0]);
        }
    }

    /** {@code SELECT @v = expr [, @w = expr ...] [FROM ...]}. */
    void select(List<Token> t) throws SqlServerError, SQLException, java.io.IOException {
        int from = StatementParser.topLevelIndex(t, "FROM");
        int listEnd = from > 0 ? from : t.size();
        for (String clause : new String[] {"WHERE", "GROUP", "ORDER", "HAVING"}) {
            int k = StatementParser.topLevelIndex(t, clause);
            if (from < 0 && k > 0) {
                listEnd = Math.min(listEnd, k);
            }
        }
        List<String> keys = new ArrayList<>();
        List<List<Token>> exprs = new ArrayList<>();
        int i = 1;
        while (i < listEnd) {
            if (!isAssignmentAt(t, i)) {
                throw SqlServerError.unsupported("a SELECT that assigns variables and also returns columns, or a"
                        + " compound assignment (only SELECT @v = expression, ... [FROM ...])");
            }
            keys.add(declared(t.get(i)));
            int end = expressionEnd(t, i + 2, listEnd);
            if (end == i + 2) {
                throw SqlServerError.syntax("=");
            }
            exprs.add(t.subList(i + 2, end));
            i = end < listEnd ? end + 1 : end;
        }
        // The query as a plain SELECT of the expressions: translated, locked and run like one.
        List<Token> query = new ArrayList<>();
        query.add(t.get(0));
        for (int k = 0; k < exprs.size(); k++) {
            if (k > 0) {
                query.add(new Token(Token.Kind.SYMBOL, ",", ",", 0, 0));
            }
            query.addAll(exprs.get(k));
        }
        query.addAll(t.subList(listEnd, t.size()));
        H2Sql q = ctx.translator().translate(query);
        StringBuilder casts = new StringBuilder("SELECT ");
        for (int k = 0; k < keys.size(); k++) {
            casts.append(k > 0 ? ", " : "").append(cast("\"c" + k + "\"", keys.get(k)));
        }
        // The plain query's columns renamed c0.. in a derived table, then each converted to its variable's type.
        StringBuilder inner = new StringBuilder("SELECT * FROM (").append(q.sql).append(") AS \"df_assign\"(");
        for (int k = 0; k < keys.size(); k++) {
            inner.append(k > 0 ? ", " : "").append("\"c").append(k).append('"');
        }
        inner.append(')');
        String sql = casts + " FROM (" + inner + ") AS \"df_values\"";
        Object[] last = evaluate(query, sql, q, keys.size(), true);
        if (last != null) {
            for (int k = 0; k < keys.size(); k++) {
                assign(keys.get(k), last[k]);
            }
        }
    }

    /** Runs {@code sql} (translated from {@code tokens}, locked like a SELECT); the last row's values, or null. */
    private Object[] evaluate(List<Token> tokens, String sql, H2Sql translated, int columns, boolean countRows)
            throws SqlServerError, SQLException, java.io.IOException {
        boolean readsTables = tokens.stream().anyMatch(k -> k.is("FROM"));
        if (readsTables) {
            ctx.session.beginImplicitIfNeeded(ctx.response);
            ctx.session.locks.lock(LockPlanner.plan(ctx.session, tokens, false, false));
        }
        H2Sql q = new H2Sql(sql, translated.params);
        long rows = 0;
        Object[] last = null;
        try (PreparedStatement ps = q.prepare(ctx.session.h2); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows++;
                last = new Object[columns];
                for (int k = 0; k < columns; k++) {
                    last[k] = rs.getObject(k + 1);
                }
            }
        } catch (SQLException x) {
            throw H2Errors.map(x, null, ctx.session.database);
        }
        if (countRows) {
            ctx.done(io.deltafunnel.tds.DoneStatus.CMD_SELECT, rows);
        }
        return last;
    }

    private String declared(Token v) throws SqlServerError {
        String key = v.text().toLowerCase(Locale.ROOT);
        if (!ctx.vars.containsKey(key)) {
            throw ErrorCatalog.UNDECLARED_VARIABLE.error("Must declare the scalar variable \"" + v.text() + "\".");
        }
        return key;
    }

    /** {@code CAST(sql AS <the variable's H2 type>)}. */
    private String cast(String sql, String key) {
        SqlType declared = ctx.declaredTypes.get(key);
        String h2 = declared != null ? declared.h2Type() : ctx.vars.get(key).h2CastType();
        return h2 == null ? sql : "CAST(" + sql + " AS " + h2 + ")";
    }

    private void assign(String key, Object value) {
        SqlParam old = ctx.vars.get(key);
        ctx.vars.put(key, new SqlParam(old.name, old.type, value, false));
    }

    /** The index of the top-level comma ending the expression starting at {@code i}, or {@code end}. */
    private static int expressionEnd(List<Token> t, int i, int end) {
        int depth = 0;
        for (; i < end; i++) {
            Token k = t.get(i);
            if (k.isSymbol("(")) {
                depth++;
            } else if (k.isSymbol(")")) {
                depth--;
            } else if (depth == 0 && k.isSymbol(",")) {
                return i;
            }
        }
        return end;
    }
}
