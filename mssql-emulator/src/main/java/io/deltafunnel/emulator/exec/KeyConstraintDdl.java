package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.h2.H2Errors;
import io.deltafunnel.emulator.semantics.ColumnDef;
import io.deltafunnel.emulator.semantics.Constraints;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.IndexDef;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.TableDef;
import io.deltafunnel.emulator.semantics.TableIndexes;
import io.deltafunnel.emulator.tsql.Identifiers;
import io.deltafunnel.emulator.tsql.Stmt;
import io.deltafunnel.emulator.tsql.Token;
import io.deltafunnel.tds.DoneStatus;

import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ALTER TABLE t ADD [CONSTRAINT name] PRIMARY KEY | UNIQUE [CLUSTERED | NONCLUSTERED] (c [ASC|DESC], ...)}, as
 * "ALTER TABLE table_constraint" documents it, outside a user transaction (50101 inside one, the transactional-DDL
 * rule): a PRIMARY KEY is CLUSTERED unless the table has a clustered index already, a UNIQUE constraint NONCLUSTERED
 * unless written otherwise; the existing rows are checked first. Errors as SQL Server's: 1911 for an unknown
 * column, 8111 for a nullable PRIMARY KEY column, 1779 for a second PRIMARY KEY, 1902 for a second clustered index,
 * 2714 (state 5) for a name in use, 1505 naming the first duplicate key value; nothing changes on an error. The key
 * goes into the catalog like one of CREATE TABLE ({@code sys.indexes}, {@code sys.index_columns}, 2627 on a later
 * duplicate, ALTER TABLE ... SWITCH's comparison).
 */
final class KeyConstraintDdl {
    private final ExecContext ctx;
    private final DdlHandler ddl;
    private final Session s;

    KeyConstraintDdl(ExecContext ctx, DdlHandler ddl) {
        this.ctx = ctx;
        this.ddl = ddl;
        this.s = ctx.session;
    }

    /** True for {@code ADD [CONSTRAINT n] PRIMARY KEY|UNIQUE} at token {@code i} (after ADD). */
    static boolean handles(List<Token> t, int i) {
        if (i < t.size() && t.get(i).is("CONSTRAINT")) {
            i += 2;
        }
        return i < t.size() && (t.get(i).is("PRIMARY") || t.get(i).is("UNIQUE"));
    }

    /** {@code i}: the token after ADD. */
    void add(Stmt st, TableDef t, int i) throws SqlServerError, SQLException, IOException {
        ddl.refuseInTransaction(st.text);
        List<Token> k = st.tokens;
        String name = null;
        if (k.get(i).is("CONSTRAINT")) {
            name = k.get(i + 1).value();
            i += 2;
        }
        boolean pk = k.get(i).is("PRIMARY");
        i++;
        if (pk) {
            if (i >= k.size() || !k.get(i).is("KEY")) {
                throw SqlServerError.syntax(i < k.size() ? k.get(i).text() : "PRIMARY");
            }
            i++;
        }
        Boolean clustered = null;
        if (i < k.size() && (k.get(i).is("CLUSTERED") || k.get(i).is("NONCLUSTERED"))) {
            clustered = k.get(i).is("CLUSTERED");
            i++;
        }
        if (i >= k.size() || !k.get(i).isSymbol("(")) {
            throw SqlServerError.syntax(i < k.size() ? k.get(i).text() : st.text);
        }
        List<String> cols = new ArrayList<>();
        i++;
        while (i < k.size() && !k.get(i).isSymbol(")")) {
            Token c = k.get(i);
            if (c.isIdentifier() && !c.is("ASC") && !c.is("DESC")) {
                ColumnDef col = t.column(c.value());
                if (col == null) {
                    throw ErrorCatalog.KEY_COLUMN_MISSING.error("Column name '" + c.value()
                            + "' does not exist in the target table or view.");
                }
                cols.add(col.name());
            } else if (!c.isSymbol(",") && !c.is("ASC") && !c.is("DESC")) {
                throw SqlServerError.syntax(c.text());
            }
            i++;
        }
        if (i >= k.size() || cols.isEmpty()) {
            throw SqlServerError.syntax(st.text);
        }
        if (i + 1 < k.size()) {
            throw SqlServerError.unsupported(BatchExecutor.abbreviate(st.text)
                    + " (options after the key columns, e.g. WITH or ON a filegroup)");
        }
        String object = t.schema() + "." + t.name();
        if (name == null) {
            name = Constraints.generatedName(pk ? "PK" : "UQ", t.name(), null);
        }
        if (s.catalog().constraintNameTaken(name)) {
            throw ErrorCatalog.OBJECT_EXISTS.error(5, "There is already an object named '" + name
                    + "' in the database.");
        }
        if (pk && s.catalog().keys(t.objectId()).stream().anyMatch(x -> x.kind == Constraints.KeyKind.PRIMARY_KEY)) {
            throw ErrorCatalog.SECOND_PRIMARY_KEY.error("Table '" + t.name() + "' already has a primary key defined"
                    + " on it.");
        }
        if (pk) {
            for (String c : cols) {
                if (t.column(c).nullable()) {
                    throw ErrorCatalog.NULLABLE_PRIMARY_KEY_COLUMN.error("Cannot define PRIMARY KEY constraint on"
                            + " nullable column in table '" + t.name() + "'.");
                }
            }
        }
        IndexDef existingClustered = TableIndexes.clustered(s.catalog(), t);
        boolean isClustered = clustered != null ? clustered : pk && existingClustered == null;
        if (isClustered && existingClustered != null) {
            throw ErrorCatalog.SECOND_CLUSTERED_INDEX.error("Cannot create more than one clustered index on table '"
                    + object + "'. Drop the existing clustered index '" + existingClustered.name
                    + "' before creating another.");
        }
        StringBuilder list = new StringBuilder();
        for (String c : cols) {
            list.append(list.length() > 0 ? ", " : "").append(Identifiers.h2Quote(c));
        }
        String duplicate = firstDuplicate(t, list.toString(), cols.size());
        if (duplicate != null) {
            throw ErrorCatalog.DUPLICATE_KEY_FOUND.error("The CREATE UNIQUE INDEX statement terminated because a"
                    + " duplicate key was found for the object name '" + object + "' and the index name '" + name
                    + "'. The duplicate key value is (" + duplicate + ").");
        }
        try (Statement x = s.h2.createStatement()) {
            x.execute("ALTER TABLE " + t.h2Name() + " ADD CONSTRAINT " + Identifiers.h2Quote(name)
                    + (pk ? " PRIMARY KEY (" : " UNIQUE (") + list + ")");
        } catch (SQLException e) {
            throw H2Errors.map(e, t, s.database);
        }
        s.catalog().addKey(t.objectId(), new Constraints.Key(name, pk ? Constraints.KeyKind.PRIMARY_KEY
                : Constraints.KeyKind.UNIQUE_CONSTRAINT, cols));
        s.catalog().setKeyClustered(t.objectId(), name, isClustered);
        if (pk) {
            s.catalog().replace(t, t.withPrimaryKey(cols));
        }
        ctx.done(DoneStatus.CMD_NONE, -1);
    }

    /**
     * The first key value held by more than one row, rendered as SQL Server prints it in 1505 (numbers plain,
     * strings unquoted, NULL), or null. NULLs are equal here, as in SQL Server's unique indexes.
     */
    private String firstDuplicate(TableDef t, String list, int n) throws SQLException {
        try (Statement x = s.h2.createStatement(); ResultSet rs = x.executeQuery("SELECT " + list + " FROM "
                + t.h2Name() + " GROUP BY " + list + " HAVING COUNT(*) > 1 FETCH FIRST 1 ROW ONLY")) {
            if (!rs.next()) {
                return null;
            }
            StringBuilder out = new StringBuilder();
            for (int c = 1; c <= n; c++) {
                Object v = rs.getObject(c);
                out.append(c > 1 ? ", " : "").append(v == null ? "<NULL>" : v.toString());
            }
            return out.toString();
        }
    }
}
