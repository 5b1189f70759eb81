package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.semantics.Constraints;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.IndexDef;
import io.deltafunnel.emulator.semantics.TableIndexes;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.TableDef;
import io.deltafunnel.emulator.tsql.Identifiers;
import io.deltafunnel.emulator.tsql.ObjectName;
import io.deltafunnel.emulator.tsql.Stmt;
import io.deltafunnel.emulator.tsql.Token;
import io.deltafunnel.tds.DoneStatus;

import java.io.IOException;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * CREATE [UNIQUE] [CLUSTERED|NONCLUSTERED] INDEX and DROP INDEX ... ON: an H2 index named {@code table.index} in the
 * table's schema; a unique index is also recorded in the catalog as a key (2601 on duplicates).
 */
final class IndexDdl {
    private final ExecContext ctx;
    private final Session s;
    private final DdlHandler ddl;

    IndexDdl(ExecContext ctx, DdlHandler ddl) {
        this.ctx = ctx;
        this.s = ctx.session;
        this.ddl = ddl;
    }

    void createIndex(Stmt st) throws SqlServerError, SQLException, IOException {
        ddl.refuseInTransaction(st.text);
        int i = 1;
        boolean unique = false;
        if (st.kw(i, "UNIQUE")) {
            unique = true;
            i++;
        }
        boolean clustered = false;
        if (st.kw(i, "CLUSTERED") || st.kw(i, "NONCLUSTERED")) {
            clustered = st.kw(i, "CLUSTERED");
            i++;
        }
        if (!st.kw(i, "INDEX")) {
            throw SqlServerError.syntax(st.tokens.get(i).text());
        }
        String index = st.tokens.get(i + 1).value();
        if (!st.kw(i + 2, "ON")) {
            throw SqlServerError.syntax(st.tokens.get(i + 2).text());
        }
        ObjectName n = ObjectName.at(st.tokens, i + 3);
        TableDef t = ddl.schemaLocked(n);
        int j = n.next;
        if (j >= st.tokens.size() || !st.tokens.get(j).isSymbol("(")) {
            throw SqlServerError.syntax(st.text);
        }
        StringBuilder cols = new StringBuilder();
        List<String> keyCols = new ArrayList<>();
        List<IndexDef.KeyColumn> keyDefs = new ArrayList<>();
        j++;
        while (j < st.tokens.size() && !st.tokens.get(j).isSymbol(")")) {
            Token c = st.tokens.get(j);
            if (c.isIdentifier() && !c.is("ASC") && !c.is("DESC")) {
                cols.append(cols.length() > 0 ? ", " : "").append(Identifiers.h2Quote(c.value()));
                keyCols.add(c.value());
                keyDefs.add(new IndexDef.KeyColumn(c.value(), st.kw(j + 1, "DESC")));
            }
            j++;
        }
        List<String> included = included(st, j + 1);
        if (clustered) {
            IndexDef existing = TableIndexes.clustered(s.catalog(), t);
            if (existing != null) {
                throw ErrorCatalog.SECOND_CLUSTERED_INDEX.error("Cannot create more than one clustered index on"
                        + " table '" + t.schema() + "." + t.name() + "'. Drop the existing clustered index '"
                        + existing.name + "' before creating another.");
            }
        }
        try (Statement x = s.h2.createStatement()) {
            x.execute("CREATE " + (unique ? "UNIQUE " : "") + "INDEX " + h2Index(t, index) + " ON " + t.h2Name()
                    + " (" + cols + ")");
        }
        if (unique) {
            s.catalog().addKey(t.objectId(), new Constraints.Key(index, Constraints.KeyKind.UNIQUE_INDEX, keyCols));
        }
        s.catalog().addIndex(t.objectId(), new IndexDef(index, clustered, unique, false, false, keyDefs, included));
        ctx.done(DoneStatus.CMD_NONE, -1);
    }

    /** {@code INCLUDE (c, ...)} at {@code i}, or none. */
    private static List<String> included(Stmt st, int i) {
        List<String> out = new ArrayList<>();
        if (!st.kw(i, "INCLUDE") || i + 1 >= st.tokens.size() || !st.tokens.get(i + 1).isSymbol("(")) {
            return out;
        }
        for (int k = i + 2; k < st.tokens.size() && !st.tokens.get(k).isSymbol(")"); k++) {
            if (st.tokens.get(k).isIdentifier()) {
                out.add(st.tokens.get(k).value());
            }
        }
        return out;
    }

    /**
     * The H2 index of CREATE INDEX {@code index} on {@code t}, named after the H2 table that stores its rows (it
     * moves with that table's rows in ALTER TABLE ... SWITCH).
     */
    private static String h2Index(TableDef t, String index) {
        return Identifiers.h2Quote(t.storage().schema()) + "." + Identifiers.h2Quote(t.storage().name() + "." + index);
    }

    private boolean h2IndexExists(TableDef t, String index) throws SQLException {
        try (java.sql.PreparedStatement ps = s.h2.prepareStatement("SELECT 1 FROM INFORMATION_SCHEMA.INDEXES"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND INDEX_NAME = ?")) {
            ps.setString(1, t.storage().schema());
            ps.setString(2, t.storage().name());
            ps.setString(3, t.storage().name() + "." + index);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    void dropIndex(Stmt st) throws SqlServerError, SQLException, IOException {
        ddl.refuseInTransaction(st.text);
        String index = st.tokens.get(2).value();
        if (!st.kw(3, "ON")) {
            throw SqlServerError.unsupported("DROP INDEX without ON table");
        }
        TableDef t = ddl.schemaLocked(ObjectName.at(st.tokens, 4));
        if (!h2IndexExists(t, index) && s.catalog().createdIndexes(t.objectId()).stream()
                .anyMatch(d -> d.name.equalsIgnoreCase(index))) {
            // the rows (and H2 indexes) came by ALTER TABLE ... SWITCH from a table whose matching index had another
            // name: the H2 index enforcing this one is named after that one (README, differences)
            throw SqlServerError.unsupported("DROP INDEX " + index + " on " + t.schema() + "." + t.name() + " after"
                    + " ALTER TABLE ... SWITCH from a table whose matching index has another name");
        }
        try (Statement x = s.h2.createStatement()) {
            x.execute("DROP INDEX " + h2Index(t, index));
        }
        s.catalog().removeKey(t.objectId(), index);
        s.catalog().removeIndex(t.objectId(), index);
        ctx.done(DoneStatus.CMD_NONE, -1);
    }
}
