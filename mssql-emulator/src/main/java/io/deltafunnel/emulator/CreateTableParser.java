package io.deltafunnel.emulator;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Parses {@code CREATE TABLE name (column definitions, table constraints)} into a {@link TableDef} + extras. */
final class CreateTableParser {
    private static final Set<String> COLUMN_OPTION_STARTS = Set.of("NULL", "NOT", "IDENTITY", "PRIMARY", "UNIQUE",
            "DEFAULT", "CONSTRAINT", "CHECK", "COLLATE", "ROWGUIDCOL", "SPARSE", "REFERENCES", "FOREIGN");

    /** Result: the table plus H2 table constraints (UNIQUE, CHECK). */
    static final class Parsed {
        final TableDef table;
        final List<String> h2Constraints;

        Parsed(TableDef table, List<String> h2Constraints) {
            this.table = table;
            this.h2Constraints = h2Constraints;
        }
    }

    private final List<Token> toks;
    private final Session session;
    private int i;

    private CreateTableParser(List<Token> toks, Session session) {
        this.toks = toks;
        this.session = session;
    }

    static Parsed parse(Stmt st, Session session) throws SqlServerError {
        return new CreateTableParser(st.tokens, session).parse();
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
        i = name.next;
        expect("(");
        List<ColumnDef> cols = new ArrayList<>();
        List<String> pk = new ArrayList<>();
        List<String> constraints = new ArrayList<>();
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
                throw new SqlServerError(1911, 1, 16, "Column name '" + p
                        + "' does not exist in the target table or view.");
            }
        }
        TableDef t = new TableDef(name.schema, name.name, session.catalog().newObjectId(), fixed, pk);
        return new Parsed(t, constraints);
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
                    throw new SqlServerError(2749, 2, 16, "Identity column '" + name + "' must be of data type int,"
                            + " bigint, smallint, tinyint, or decimal or numeric with a scale of 0, and constrained"
                            + " to be nonnullable.");
                }
            } else if (t.is("PRIMARY")) {
                i++;
                if (!tok().is("KEY")) {
                    throw SqlServerError.syntax(tok().text());
                }
                i++;
                skipClustering();
                pk.add(name);
            } else if (t.is("UNIQUE")) {
                i++;
                skipClustering();
                constraints.add("UNIQUE (" + Identifiers.h2Quote(name) + ")");
            } else if (t.is("CONSTRAINT")) {
                i += 2; // CONSTRAINT name
            } else if (t.is("DEFAULT")) {
                i++;
                int start = i;
                i = expressionEnd(i);
                List<Token> expr = toks.subList(start, i);
                defaultH2 = new H2Translator(session, java.util.Collections.emptyMap(), true).translate(expr).sql;
                defaultSql = text(start, i);
            } else if (t.is("CHECK")) {
                i++;
                int start = i;
                i = groupEnd(i);
                constraints.add("CHECK " + new H2Translator(session, java.util.Collections.emptyMap(), true)
                        .translate(toks.subList(start, i)).sql);
            } else if (t.is("COLLATE")) {
                type = TypeParser.collate(type, toks.get(i + 1), name);
                i += 2;
            } else if (t.is("ROWGUIDCOL") || t.is("SPARSE")) {
                i++;
            } else {
                throw SqlServerError.unsupported("column option '" + t.text() + "' in CREATE TABLE");
            }
        }
        boolean isNullable = nullable == null ? !identity : nullable;
        if (identity && isNullable) {
            throw new SqlServerError(8147, 1, 16, "Could not create IDENTITY attribute on nullable column '" + name
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

    private void skipClustering() {
        if (i < toks.size() && (toks.get(i).is("CLUSTERED") || toks.get(i).is("NONCLUSTERED"))) {
            i++;
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
        if (tok().is("CONSTRAINT")) {
            i += 2;
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
            skipClustering();
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
                break;
            }
            if (tok().is("WITH") || tok().is("ON")) {
                throw SqlServerError.unsupported("index options on a constraint");
            }
            if (primary) {
                if (!pk.isEmpty()) {
                    throw new SqlServerError(8110, 1, 16, "Cannot add multiple PRIMARY KEY constraints to table.");
                }
                pk.addAll(cols);
            } else {
                StringBuilder b = new StringBuilder("UNIQUE (");
                for (int k = 0; k < cols.size(); k++) {
                    b.append(k > 0 ? ", " : "").append(Identifiers.h2Quote(cols.get(k)));
                }
                constraints.add(b.append(')').toString());
            }
        } else if (t.is("CHECK")) {
            i++;
            int start = i;
            i = groupEnd(i);
            constraints.add("CHECK " + new H2Translator(session, java.util.Collections.emptyMap(), true)
                    .translate(toks.subList(start, i)).sql);
        } else {
            throw SqlServerError.unsupported("table constraint " + t.text());
        }
    }
}
