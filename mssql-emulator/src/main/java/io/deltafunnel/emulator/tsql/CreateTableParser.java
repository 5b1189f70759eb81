package io.deltafunnel.emulator.tsql;

import io.deltafunnel.emulator.exec.Session;
import io.deltafunnel.emulator.h2.H2Translator;
import io.deltafunnel.emulator.semantics.ColumnDef;
import io.deltafunnel.emulator.semantics.Constraints;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.SqlType;
import io.deltafunnel.emulator.semantics.TableDef;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Parses {@code CREATE TABLE name (column definitions, table constraints)} into a {@link TableDef} + extras. */
public final class CreateTableParser {
    private static final Set<String> COLUMN_OPTION_STARTS = Set.of("NULL", "NOT", "IDENTITY", "PRIMARY", "UNIQUE",
            "DEFAULT", "CONSTRAINT", "CHECK", "COLLATE", "ROWGUIDCOL", "SPARSE", "REFERENCES", "FOREIGN");

    /** Result: the table plus H2 table constraints (UNIQUE, CHECK) and the named constraints for the catalog. */
    public static final class Parsed {
        public final TableDef table;
        public final List<String> h2Constraints;
        public final List<Constraints.Key> keys;
        public final List<Constraints.Check> checks;
        public final List<ForeignKeySpec> foreignKeys;
        /** Key constraint name -> CLUSTERED (true) or NONCLUSTERED (false), where the statement wrote one. */
        public final java.util.Map<String, Boolean> clustering = new java.util.LinkedHashMap<>();
        /** DEFAULT constraint names (given or generated) by column name. */
        public final java.util.Map<String, String> defaultNames = new java.util.LinkedHashMap<>();

        Parsed(TableDef table, List<String> h2Constraints, List<Constraints.Key> keys, List<Constraints.Check> checks,
                List<ForeignKeySpec> foreignKeys) {
            this.table = table;
            this.h2Constraints = h2Constraints;
            this.keys = keys;
            this.checks = checks;
            this.foreignKeys = foreignKeys;
        }
    }

    /** A FOREIGN KEY as written: the referenced table is resolved when the constraint is created. */
    public static final class ForeignKeySpec {
        public final String name;
        public final List<String> columns;
        public final ObjectName parent;
        /** Referenced columns; empty means the referenced table's primary key. */
        public final List<String> parentColumns;

        ForeignKeySpec(String name, List<String> columns, ObjectName parent, List<String> parentColumns) {
            this.name = name;
            this.columns = columns;
            this.parent = parent;
            this.parentColumns = parentColumns;
        }
    }

    private final List<Token> toks;
    private final Session session;
    private int i;
    private String tableName;
    /** The name of a {@code CONSTRAINT name} just read, for the constraint that follows. */
    private String pendingName;
    private String pkName;
    private final List<Constraints.Key> keys = new ArrayList<>();
    private final List<Constraints.Check> checks = new ArrayList<>();
    private final List<ForeignKeySpec> fks = new ArrayList<>();
    private final List<String> h2Constraints = new ArrayList<>();
    private final java.util.Map<String, Boolean> clustering = new java.util.LinkedHashMap<>();
    private final java.util.Map<String, String> defaultNames = new java.util.LinkedHashMap<>();

    private CreateTableParser(List<Token> toks, Session session) {
        this.toks = toks;
        this.session = session;
    }

    public static Parsed parse(Stmt st, Session session) throws SqlServerError {
        return new CreateTableParser(st.tokens, session).parse();
    }

    /**
     * {@code [CONSTRAINT name] FOREIGN KEY (cols) REFERENCES parent [(cols)] ...} at {@code i} of an ALTER TABLE
     * ... ADD; null when the added thing is not a foreign key.
     */
    public static ForeignKeySpec parseAddForeignKey(List<Token> toks, int i, String table) throws SqlServerError {
        CreateTableParser p = new CreateTableParser(toks, null);
        p.tableName = table;
        p.i = i;
        if (p.tok().is("CONSTRAINT")) {
            p.i++;
            p.pendingName = p.tok().value();
            p.i++;
        }
        if (!p.tok().is("FOREIGN")) {
            return null;
        }
        p.i++;
        if (!p.tok().is("KEY")) {
            throw SqlServerError.syntax(p.tok().text());
        }
        p.i++;
        String name = p.named("FK", null);
        p.references(name, p.columnList());
        if (p.i != toks.size()) {
            throw SqlServerError.syntax(toks.get(p.i).text());
        }
        return p.fks.get(0);
    }

    /** An {@code ALTER TABLE ... ADD [CONSTRAINT name] CHECK (expr)}: its H2 constraint text and catalog entry. */
    public static final class AddedCheck {
        public final String h2Constraint;
        public final Constraints.Check check;

        AddedCheck(String h2Constraint, Constraints.Check check) {
            this.h2Constraint = h2Constraint;
            this.check = check;
        }
    }

    /**
     * {@code [CONSTRAINT name] CHECK (expr)} at {@code i} of an ALTER TABLE ... ADD (a table-level constraint, a
     * SQL Server-style generated name when none is given); null when the added thing is not a CHECK.
     */
    public static AddedCheck parseAddCheck(List<Token> toks, int i, String table, Session session)
            throws SqlServerError {
        CreateTableParser p = new CreateTableParser(toks, session);
        p.tableName = table;
        p.i = i;
        if (p.tok().is("CONSTRAINT")) {
            p.i++;
            p.pendingName = p.tok().value();
            p.i++;
        }
        if (!p.tok().is("CHECK")) {
            return null;
        }
        p.i++;
        p.check(p.named("CK", null), null);
        if (p.i != toks.size()) {
            throw SqlServerError.syntax(toks.get(p.i).text());
        }
        return new AddedCheck(p.h2Constraints.get(0), p.checks.get(0));
    }

    private Token tok() throws SqlServerError {
        if (i >= toks.size()) {
            throw SqlServerError.syntax("end of statement");
        }
        return toks.get(i);
    }

    private void expect(String sym) throws SqlServerError {
        if (!tok().isSymbol(sym)) {
            throw SqlServerError.syntax(tok().text());
        }
        i++;
    }

    private Parsed parse() throws SqlServerError {
        i = 2; // CREATE TABLE
        ObjectName name = ObjectName.at(toks, i);
        tableName = name.name;
        i = name.next;
        expect("(");
        List<ColumnDef> cols = new ArrayList<>();
        List<String> pk = new ArrayList<>();
        List<String> constraints = h2Constraints;
        while (true) {
            Token t = tok();
            if (t.is("CONSTRAINT") || t.is("PRIMARY") || t.is("UNIQUE") || t.is("CHECK") || t.is("FOREIGN")) {
                tableConstraint(pk, constraints);
            } else {
                cols.add(column(pk, constraints));
            }
            if (tok().isSymbol(",")) {
                i++;
                if (tok().isSymbol(")")) {
                    i++;
                    break;
                }
                continue;
            }
            expect(")");
            break;
        }
        while (i < toks.size()) {
            Token t = toks.get(i);
            if (t.is("ON") || t.is("TEXTIMAGE_ON") || t.is("WITH")) {
                i = toks.size(); // filegroup / table options: ignored
            } else {
                throw SqlServerError.syntax(t.text());
            }
        }
        if (cols.isEmpty()) {
            throw SqlServerError.syntax(")");
        }
        List<ColumnDef> fixed = new ArrayList<>();
        for (ColumnDef c : cols) {
            boolean inPk = pk.stream().anyMatch(p -> p.equalsIgnoreCase(c.name()));
            fixed.add(inPk && c.nullable()
                    ? new ColumnDef(c.name(), c.type(), false, c.identity(), c.identitySeed(), c.identityIncrement(),
                            c.defaultH2(), c.defaultSql())
                    : c);
        }
        for (String p : pk) {
            if (fixed.stream().noneMatch(c -> c.name().equalsIgnoreCase(p))) {
                throw ErrorCatalog.KEY_COLUMN_MISSING.error("Column name '" + p
                        + "' does not exist in the target table or view.");
            }
        }
        TableDef t = new TableDef(name.schema, name.name, session.catalog().newObjectId(), fixed, pk);
        if (!pk.isEmpty()) {
            keys.add(0, new Constraints.Key(pkName, Constraints.KeyKind.PRIMARY_KEY, pk));
        }
        Parsed parsed = new Parsed(t, constraints, keys, checks, fks);
        parsed.clustering.putAll(clustering);
        parsed.defaultNames.putAll(defaultNames);
        return parsed;
    }

    private ColumnDef column(List<String> pk, List<String> constraints) throws SqlServerError {
        Token n = tok();
        if (!n.isIdentifier()) {
            throw SqlServerError.syntax(n.text());
        }
        String name = n.value();
        i++;
        if (tok().is("AS")) {
            throw SqlServerError.unsupported("computed column '" + name + "'");
        }
        TypeParser.Result tr = TypeParser.parse(toks, i, 1, name);
        i = tr.next;
        SqlType type = tr.type;
        Boolean nullable = null;
        boolean identity = false;
        long seed = 1;
        long inc = 1;
        String defaultH2 = null;
        String defaultSql = null;
        while (i < toks.size() && !tok().isSymbol(",") && !tok().isSymbol(")")) {
            Token t = tok();
            if (t.is("NULL")) {
                nullable = true;
                i++;
            } else if (t.is("NOT") && i + 1 < toks.size() && toks.get(i + 1).is("NULL")) {
                nullable = false;
                i += 2;
            } else if (t.is("IDENTITY")) {
                identity = true;
                i++;
                if (tok().isSymbol("(")) {
                    i++;
                    seed = number(tok());
                    i++;
                    expect(",");
                    inc = number(tok());
                    i++;
                    expect(")");
                }
                if (!isIdentityCapable(type)) {
                    throw ErrorCatalog.IDENTITY_COLUMN_TYPE.error(
                            "Identity column '" + name + "' must be of data type int,"
                            + " bigint, smallint, tinyint, or decimal or numeric with a scale of 0, and constrained"
                            + " to be nonnullable.");
                }
            } else if (t.is("PRIMARY")) {
                i++;
                if (!tok().is("KEY")) {
                    throw SqlServerError.syntax(tok().text());
                }
                i++;
                Boolean cl = skipClustering();
                if (!pk.isEmpty()) {
                    throw ErrorCatalog.MULTIPLE_PRIMARY_KEYS.error(
                            "Cannot add multiple PRIMARY KEY constraints to table.");
                }
                pk.add(name);
                pkName = named("PK", null);
                clustered(pkName, cl);
            } else if (t.is("UNIQUE")) {
                i++;
                Boolean cl = skipClustering();
                String uq = named("UQ", null);
                unique(List.of(name), uq);
                clustered(uq, cl);
            } else if (t.is("CONSTRAINT")) {
                i++;
                pendingName = tok().value();
                i++;
                continue;
            } else if (t.is("REFERENCES") || t.is("FOREIGN")) {
                if (t.is("FOREIGN")) {
                    i++;
                    if (!tok().is("KEY")) {
                        throw SqlServerError.syntax(tok().text());
                    }
                    i++;
                }
                references(named("FK", name), List.of(name));
            } else if (t.is("DEFAULT")) {
                i++;
                int start = i;
                i = expressionEnd(i);
                List<Token> expr = toks.subList(start, i);
                defaultH2 = new H2Translator(session, java.util.Collections.emptyMap(), true).translate(expr).sql;
                defaultSql = text(start, i);
                defaultNames.put(name, named("DF", name));
            } else if (t.is("CHECK")) {
                i++;
                check(named("CK", name), name);
            } else if (t.is("COLLATE")) {
                type = TypeParser.collate(type, toks.get(i + 1), name);
                i += 2;
            } else if (t.is("ROWGUIDCOL") || t.is("SPARSE")) {
                i++;
            } else {
                throw SqlServerError.unsupported("column option '" + t.text() + "' in CREATE TABLE");
            }
            pendingName = null;
        }
        boolean isNullable = nullable == null ? !identity : nullable;
        if (identity && isNullable) {
            throw ErrorCatalog.IDENTITY_ON_NULLABLE.error(
                    "Could not create IDENTITY attribute on nullable column '" + name
                    + "'.");
        }
        return new ColumnDef(name, type, isNullable, identity, seed, inc, defaultH2, defaultSql);
    }

    private static boolean isIdentityCapable(SqlType t) {
        switch (t.base()) {
            case TINYINT: case SMALLINT: case INT: case BIGINT:
                return true;
            case DECIMAL: case NUMERIC:
                return t.scale() == 0;
            default:
                return false;
        }
    }

    private String text(int from, int to) {
        StringBuilder b = new StringBuilder();
        for (int k = from; k < to; k++) {
            b.append(toks.get(k).text());
        }
        return b.toString();
    }

    private static long number(Token t) throws SqlServerError {
        try {
            return Long.parseLong(t.text());
        } catch (NumberFormatException e) {
            throw SqlServerError.syntax(t.text());
        }
    }

    /** Reads an optional CLUSTERED / NONCLUSTERED: true, false, or null when absent. */
    private Boolean skipClustering() {
        if (i < toks.size() && (toks.get(i).is("CLUSTERED") || toks.get(i).is("NONCLUSTERED"))) {
            return toks.get(i++).is("CLUSTERED");
        }
        return null;
    }

    private void clustered(String keyName, Boolean written) {
        if (written != null) {
            clustering.put(keyName, written);
        }
    }

    /** Index after a parenthesised group starting at {@code start}. */
    private int groupEnd(int start) throws SqlServerError {
        if (!toks.get(start).isSymbol("(")) {
            throw SqlServerError.syntax(toks.get(start).text());
        }
        int d = 0;
        int k = start;
        while (k < toks.size()) {
            Token t = toks.get(k++);
            if (t.isSymbol("(")) {
                d++;
            } else if (t.isSymbol(")") && --d == 0) {
                return k;
            }
        }
        throw SqlServerError.syntax("(");
    }

    /** End of a DEFAULT expression: next top-level ',' or ')' or column option keyword. */
    private int expressionEnd(int start) {
        int d = 0;
        int k = start;
        while (k < toks.size()) {
            Token t = toks.get(k);
            if (t.isSymbol("(")) {
                d++;
            } else if (t.isSymbol(")")) {
                if (d == 0) {
                    return k;
                }
                d--;
            } else if (d == 0 && (t.isSymbol(",")
                    || t.kind() == Token.Kind.WORD && COLUMN_OPTION_STARTS.contains(t.upper()) && k > start)) {
                return k;
            }
            k++;
        }
        return k;
    }

    private void tableConstraint(List<String> pk, List<String> constraints) throws SqlServerError {
        pendingName = null;
        if (tok().is("CONSTRAINT")) {
            i++;
            pendingName = tok().value();
            i++;
        }
        Token t = tok();
        if (t.is("PRIMARY") || t.is("UNIQUE")) {
            boolean primary = t.is("PRIMARY");
            i++;
            if (primary) {
                if (!tok().is("KEY")) {
                    throw SqlServerError.syntax(tok().text());
                }
                i++;
            }
            Boolean cl = skipClustering();
            List<String> cols = columnList();
            if (tok().is("WITH") || tok().is("ON")) {
                throw SqlServerError.unsupported("index options on a constraint");
            }
            if (primary) {
                if (!pk.isEmpty()) {
                    throw ErrorCatalog.MULTIPLE_PRIMARY_KEYS.error(
                            "Cannot add multiple PRIMARY KEY constraints to table.");
                }
                pk.addAll(cols);
                pkName = named("PK", null);
                clustered(pkName, cl);
            } else {
                String uq = named("UQ", null);
                unique(cols, uq);
                clustered(uq, cl);
            }
        } else if (t.is("CHECK")) {
            i++;
            check(named("CK", null), null);
        } else if (t.is("FOREIGN")) {
            i++;
            if (!tok().is("KEY")) {
                throw SqlServerError.syntax(tok().text());
            }
            i++;
            String name = named("FK", null);
            references(name, columnList());
        } else {
            throw SqlServerError.unsupported("table constraint " + t.text());
        }
        pendingName = null;
    }

    /** The pending {@code CONSTRAINT name}, or a generated SQL Server-style name. */
    private String named(String prefix, String column) {
        String n = pendingName != null ? pendingName : Constraints.generatedName(prefix, tableName, column);
        pendingName = null;
        return n;
    }

    private void unique(List<String> cols, String name) {
        StringBuilder b = new StringBuilder("CONSTRAINT ").append(Identifiers.h2Quote(name)).append(" UNIQUE (");
        for (int k = 0; k < cols.size(); k++) {
            b.append(k > 0 ? ", " : "").append(Identifiers.h2Quote(cols.get(k)));
        }
        h2Constraints.add(b.append(')').toString());
        keys.add(new Constraints.Key(name, Constraints.KeyKind.UNIQUE_CONSTRAINT, cols));
    }

    /**
     * CHECK (expr) at i: an H2 CHECK that a bulk load without CHECK_CONSTRAINTS passes (SQL Server does not check
     * it then), named so that a violation can be reported with SQL Server's constraint name.
     */
    private void check(String name, String column) throws SqlServerError {
        int start = i;
        i = groupEnd(i);
        h2Constraints.add("CONSTRAINT " + Identifiers.h2Quote(name) + " CHECK (PUBLIC.MSSQL_BULK_NOCHECK() OR "
                + new H2Translator(session, java.util.Collections.emptyMap(), true)
                        .translate(toks.subList(start, i)).sql + ")");
        checks.add(new Constraints.Check(name, column,
                io.deltafunnel.emulator.semantics.CheckDefinitions.normalize(toks.subList(start, i)),
                session.catalog().newObjectId()));
    }

    /** {@code ( col [ASC|DESC], ... )} at i. */
    private List<String> columnList() throws SqlServerError {
        expect("(");
        List<String> cols = new ArrayList<>();
        while (true) {
            Token c = tok();
            if (!c.isIdentifier()) {
                throw SqlServerError.syntax(c.text());
            }
            cols.add(c.value());
            i++;
            if (tok().is("ASC") || tok().is("DESC")) {
                i++;
            }
            if (tok().isSymbol(",")) {
                i++;
                continue;
            }
            expect(")");
            return cols;
        }
    }

    /** REFERENCES parent [(cols)] [ON DELETE/UPDATE NO ACTION] [NOT FOR REPLICATION] at i. */
    private void references(String name, List<String> cols) throws SqlServerError {
        if (!tok().is("REFERENCES")) {
            throw SqlServerError.syntax(tok().text());
        }
        i++;
        ObjectName parent = ObjectName.at(toks, i);
        i = parent.next;
        List<String> parentCols = i < toks.size() && tok().isSymbol("(") ? columnList() : List.of();
        while (i < toks.size() && (tok().is("ON") || tok().is("NOT"))) {
            if (tok().is("NOT")) {
                i += 3; // NOT FOR REPLICATION
                continue;
            }
            i += 2; // ON DELETE / ON UPDATE
            if (tok().is("NO") && i + 1 < toks.size() && toks.get(i + 1).is("ACTION")) {
                i += 2;
            } else {
                throw SqlServerError.unsupported("FOREIGN KEY action " + toks.get(i - 2).text() + " "
                        + toks.get(i - 1).text() + " " + tok().text() + " (only NO ACTION)");
            }
        }
        fks.add(new ForeignKeySpec(name, cols, parent, parentCols));
    }
}
