package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.h2.ColumnTypeResolver;
import io.deltafunnel.emulator.h2.H2Errors;
import io.deltafunnel.emulator.h2.H2Sql;
import io.deltafunnel.emulator.semantics.ColumnDef;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.IdentityRules;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.TableDef;
import io.deltafunnel.emulator.tsql.Identifiers;
import io.deltafunnel.emulator.tsql.JoinDml;
import io.deltafunnel.emulator.tsql.ObjectName;
import io.deltafunnel.emulator.tsql.SelectList;
import io.deltafunnel.emulator.tsql.StatementParser;
import io.deltafunnel.emulator.tsql.Stmt;
import io.deltafunnel.emulator.tsql.Token;
import io.deltafunnel.emulator.wire.ResultColumn;
import io.deltafunnel.emulator.wire.ResultSetWriter;
import io.deltafunnel.tds.DoneStatus;

import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** SELECT (incl. FMTONLY and SELECT ... INTO) and INSERT/UPDATE/DELETE/MERGE. */
public final class QueryHandler {
    private final ExecContext ctx;
    private final Session s;

    QueryHandler(ExecContext ctx) {
        this.ctx = ctx;
        this.s = ctx.session;
    }

    void select(Stmt st) throws SqlServerError, SQLException, IOException {
        int into = StatementParser.topLevelIndex(st.tokens, "INTO");
        int from = StatementParser.topLevelIndex(st.tokens, "FROM");
        if (into > 0 && (from < 0 || into < from)) {
            selectInto(st, into);
            return;
        }
        if (from > 0) {
            s.beginImplicitIfNeeded(ctx.response);
        }
        H2Sql q = ctx.translateAndLock(st.tokens, st.tokens, false, ctx.fmtOnly);
        try (PreparedStatement ps = q.prepare(s.h2)) {
            if (ctx.fmtOnly) {
                List<ResultColumn> cols = ColumnTypeResolver.describe(ps.getMetaData(), s.catalog(),
                        SelectList.describe(st.tokens, s.catalog()));
                ResultSetWriter.writeMetadata(ctx.response, cols, s.connection);
                ctx.done(DoneStatus.CMD_SELECT, -1);
                return;
            }
            try (ResultSet rs = ps.executeQuery()) {
                List<ResultColumn> cols = ColumnTypeResolver.describe(rs.getMetaData(), s.catalog(),
                        SelectList.describe(st.tokens, s.catalog()));
                ResultSetWriter.writeMetadata(ctx.response, cols, s.connection);
                long n = new ResultSetWriter(ctx.response, s.connection).writeRows(rs, cols);
                ctx.done(DoneStatus.CMD_SELECT, n);
            }
        } catch (SQLException e) {
            throw H2Errors.map(e, null, s.database);
        }
    }

    /** SELECT list INTO new_table FROM ...: creates the table from the result's types, then fills it. */
    private void selectInto(Stmt st, int into) throws SqlServerError, SQLException, IOException {
        ObjectName target = ObjectName.at(st.tokens, into + 1);
        List<Token> query = new ArrayList<>(st.tokens.subList(0, into));
        query.addAll(st.tokens.subList(target.next, st.tokens.size()));
        s.beginImplicitIfNeeded(ctx.response);
        H2Sql q = ctx.translateAndLock(query, query, false, false);
        List<ResultColumn> cols;
        try (PreparedStatement ps = q.prepare(s.h2)) {
            cols = ColumnTypeResolver.describe(ps.getMetaData(), s.catalog(), SelectList.describe(query, s.catalog()));
        } catch (SQLException e) {
            throw H2Errors.map(e, null, s.database);
        }
        List<ColumnDef> defs = new ArrayList<>();
        boolean identityTaken = false;
        for (ResultColumn c : cols) {
            if (c.name.isEmpty()) {
                throw ErrorCatalog.EMPTY_COLUMN_NAME.error("An object or column name is missing or empty. For SELECT"
                        + " INTO statements, verify each column has a name.");
            }
            boolean identity = c.identity && !identityTaken;
            identityTaken |= identity;
            defs.add(new ColumnDef(c.name, c.type, c.nullable, identity, 1, 1, null, null));
        }
        if (identityTaken) {
            defs = carryIdentitySeeds(defs, query);
        }
        if (s.catalog().schema(target.schema) == null) {
            throw ErrorCatalog.NO_SUCH_SCHEMA.error("The specified schema name \"" + target.schema
                    + "\" either does not exist or you do not have permission to use it.");
        }
        TableDef table = new TableDef(s.catalog().schema(target.schema), target.name, s.catalog().newObjectId(),
                defs, null);
        new DdlHandler(ctx).createTable(table, "SELECT INTO");
        StringBuilder cols2 = new StringBuilder();
        for (ColumnDef d : defs) {
            if (cols2.length() > 0) {
                cols2.append(", ");
            }
            cols2.append(Identifiers.h2Quote(d.name()));
        }
        H2Sql insert = new H2Sql("INSERT INTO " + table.h2Name() + " (" + cols2 + ") " + q.sql, q.params);
        try (PreparedStatement ps = insert.prepare(s.h2)) {
            long n = ps.executeLargeUpdate();
            ctx.done(DoneStatus.CMD_SELECTINTO, n);
        } catch (SQLException e) {
            throw H2Errors.map(e, table, s.database);
        }
    }

    /** SELECT INTO keeps the source identity's seed and increment. */
    private List<ColumnDef> carryIdentitySeeds(List<ColumnDef> defs, List<Token> query) {
        int from = StatementParser.topLevelIndex(query, "FROM");
        if (from < 0) {
            return defs;
        }
        TableDef src;
        try {
            ObjectName n = ObjectName.at(query, from + 1);
            src = s.catalog().table(n.schema, n.name);
        } catch (SqlServerError e) {
            return defs;
        }
        if (src == null) {
            return defs;
        }
        List<ColumnDef> out = new ArrayList<>();
        for (ColumnDef d : defs) {
            ColumnDef sc = src.column(d.name());
            if (d.identity() && sc != null && sc.identity()) {
                out.add(new ColumnDef(d.name(), d.type(), d.nullable(), true, sc.identitySeed(),
                        sc.identityIncrement(), null, null));
            } else {
                out.add(d);
            }
        }
        return out;
    }

    void dml(Stmt st, int curCmd) throws SqlServerError, SQLException, IOException {
        // DELETE/UPDATE ... FROM t [JOIN s ON ...]: rewritten for H2 (JoinDml); the target is the FROM's table
        List<Token> written = curCmd == DoneStatus.CMD_INSERT ? st.tokens : JoinDml.rewrite(st.tokens);
        TableDef target = written == st.tokens ? target(st) : target(written);
        if (ctx.fmtOnly) {
            ctx.done(curCmd, -1);
            return;
        }
        List<Token> tokens = written;
        boolean explicitIdentity = false;
        if (target != null) {
            if (curCmd == DoneStatus.CMD_INSERT) {
                IdentityRules.Checked c = IdentityRules.insert(st.tokens, targetNameEnd(st), target, s);
                tokens = c.tokens;
                explicitIdentity = c.explicitIdentity;
            } else if (curCmd == DoneStatus.CMD_UPDATE) {
                IdentityRules.update(st.tokens, target);
            } else if (curCmd == DoneStatus.CMD_MERGE) {
                explicitIdentity = IdentityRules.merge(st.tokens, target, s);
            }
        }
        s.beginImplicitIfNeeded(ctx.response);
        H2Sql q = ctx.translateAndLock(tokens, written, true, false);
        try (PreparedStatement ps = q.prepare(s.h2)) {
            long n = ps.executeLargeUpdate();
            if (explicitIdentity) {
                s.identityInserted(target);
            }
            ctx.done(curCmd, n);
        } catch (SQLException e) {
            throw H2Errors.map(e, target, s.catalog(), s.database, st.first().upper());
        }
    }

    /** Index of the first token after the DML target's name. */
    private static int targetNameEnd(Stmt st) throws SqlServerError {
        int i = 1;
        if (st.kw(i, "INTO") || st.kw(i, "FROM")) {
            i++;
        }
        return ObjectName.at(st.tokens, i).next;
    }

    /** The table a DML statement writes to (for messages), or null if not resolvable. */
    private TableDef target(Stmt st) {
        return target(st.tokens);
    }

    private TableDef target(List<Token> toks) {
        int i = 1;
        if (toks.size() > i && toks.get(i).is("TOP")) {
            return null;
        }
        if (toks.size() > i && (toks.get(i).is("INTO") || toks.get(i).is("FROM"))) {
            i++;
        }
        try {
            ObjectName n = ObjectName.at(toks, i);
            return s.catalog().table(n.schema, n.name);
        } catch (SqlServerError e) {
            return null;
        }
    }

}
