package io.deltafunnel.emulator.tsql;

import io.deltafunnel.emulator.exec.Session;
import io.deltafunnel.emulator.h2.H2Translator;
import io.deltafunnel.emulator.semantics.ColumnDef;
import io.deltafunnel.emulator.semantics.Constraints;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.SqlType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * Parses the column clauses of ALTER TABLE: {@code ADD col type [COLLATE c] [NULL | NOT NULL] [CONSTRAINT n]
 * [DEFAULT expr [WITH VALUES]] [, ...]} and {@code ALTER COLUMN col type [COLLATE c] [NULL | NOT NULL]}. Keys,
 * CHECK, REFERENCES, IDENTITY, computed and sparse columns in an added column are refused (50100).
 */
public final class AlterColumnParser {
    /** Words that end a DEFAULT expression (at the top level). */
    private static final Set<String> AFTER_DEFAULT = Set.of("NOT", "CONSTRAINT", "WITH", "COLLATE");

    /** One column of ADD. */
    public static final class Added {
        public final ColumnDef column;
        /** The DEFAULT constraint's name (given or generated), null without DEFAULT. */
        public final String defaultName;
        /** {@code DEFAULT ... WITH VALUES}: existing rows of a nullable column get the default too. */
        public final boolean withValues;

        Added(ColumnDef column, String defaultName, boolean withValues) {
            this.column = column;
            this.defaultName = defaultName;
            this.withValues = withValues;
        }
    }

    /** ALTER COLUMN's new definition; {@code nullable} is null when neither NULL nor NOT NULL is written. */
    public static final class Altered {
        public final String column;
        public final SqlType type;
        public final Boolean nullable;

        Altered(String column, SqlType type, Boolean nullable) {
            this.column = column;
            this.type = type;
            this.nullable = nullable;
        }
    }

    private final List<Token> toks;
    private int i;

    private AlterColumnParser(List<Token> toks, int i) {
        this.toks = toks;
        this.i = i;
    }

    private Token tok() throws SqlServerError {
        if (i >= toks.size()) {
            throw SqlServerError.syntax("end of statement");
        }
        return toks.get(i);
    }

    /** The column definitions after {@code ADD} (at {@code i}) of ALTER TABLE {@code table}. */
    public static List<Added> parseAdd(List<Token> toks, int i, String table, Session session) throws SqlServerError {
        AlterColumnParser p = new AlterColumnParser(toks, i);
        List<Added> out = new ArrayList<>();
        while (true) {
            out.add(p.added(table, session, out.size() + 1));
            if (p.i >= toks.size()) {
                return out;
            }
            if (!p.tok().isSymbol(",")) {
                throw SqlServerError.syntax(p.tok().text());
            }
            p.i++;
        }
    }

    private Added added(String table, Session session, int ordinal) throws SqlServerError {
        Token n = tok();
        if (!n.isIdentifier() || n.is("CONSTRAINT") || n.is("PRIMARY") || n.is("UNIQUE") || n.is("CHECK")
                || n.is("FOREIGN")) {
            throw SqlServerError.unsupported("ALTER TABLE ... ADD " + n.text()
                    + " (ALTER TABLE ADD supports columns and FOREIGN KEY constraints)");
        }
        String name = n.value();
        i++;
        if (i < toks.size() && toks.get(i).is("AS")) {
            throw SqlServerError.unsupported("computed column '" + name + "'");
        }
        TypeParser.Result tr = TypeParser.parse(toks, i, 1, name);
        i = tr.next;
        SqlType type = tr.type;
        Boolean nullable = null;
        String pendingName = null;
        String defaultName = null;
        String defaultH2 = null;
        String defaultSql = null;
        boolean withValues = false;
        while (i < toks.size() && !toks.get(i).isSymbol(",")) {
            Token t = toks.get(i);
            if (t.is("NULL")) {
                nullable = true;
                i++;
            } else if (t.is("NOT") && i + 1 < toks.size() && toks.get(i + 1).is("NULL")) {
                nullable = false;
                i += 2;
            } else if (t.is("COLLATE") && i + 1 < toks.size()) {
                type = TypeParser.collate(type, toks.get(i + 1), name);
                i += 2;
            } else if (t.is("CONSTRAINT") && i + 1 < toks.size()) {
                pendingName = toks.get(i + 1).value();
                i += 2;
            } else if (t.is("DEFAULT")) {
                i++;
                int start = i;
                i = defaultEnd(i);
                if (start == i) {
                    throw SqlServerError.syntax(i < toks.size() ? toks.get(i).text() : "DEFAULT");
                }
                List<Token> expr = toks.subList(start, i);
                defaultH2 = new H2Translator(session, Collections.emptyMap(), true).translate(expr).sql;
                defaultSql = text(start, i);
                defaultName = pendingName != null ? pendingName : Constraints.generatedName("DF", table, name);
                pendingName = null;
                if (i + 1 < toks.size() && toks.get(i).is("WITH") && toks.get(i + 1).is("VALUES")) {
                    withValues = true;
                    i += 2;
                }
            } else {
                throw SqlServerError.unsupported("column option '" + t.text() + "' in ALTER TABLE ... ADD (supported:"
                        + " NULL, NOT NULL, COLLATE, [CONSTRAINT name] DEFAULT expr [WITH VALUES])");
            }
        }
        // SQL Server's ANSI_NULL_DFLT_ON default for ODBC/JDBC sessions: a column without NULL/NOT NULL is nullable
        boolean isNullable = nullable == null || nullable;
        return new Added(new ColumnDef(name, type, isNullable, false, 0, 0, defaultH2, defaultSql), defaultName,
                withValues);
    }

    /** End of a DEFAULT expression: a top-level ',' or a column option word (NULL after the first token). */
    private int defaultEnd(int start) {
        int depth = 0;
        int k = start;
        while (k < toks.size()) {
            Token t = toks.get(k);
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            } else if (depth == 0 && (t.isSymbol(",") || t.kind() == Token.Kind.WORD
                    && (AFTER_DEFAULT.contains(t.upper()) || t.is("NULL") && k > start))) {
                return k;
            }
            k++;
        }
        return k;
    }

    private String text(int from, int to) {
        StringBuilder b = new StringBuilder();
        for (int k = from; k < to; k++) {
            b.append(toks.get(k).text());
        }
        return b.toString();
    }

    /** {@code col type [COLLATE c] [NULL | NOT NULL]} after {@code ALTER COLUMN} (at {@code i}). */
    public static Altered parseAlter(List<Token> toks, int i) throws SqlServerError {
        AlterColumnParser p = new AlterColumnParser(toks, i);
        Token n = p.tok();
        if (!n.isIdentifier()) {
            throw SqlServerError.syntax(n.text());
        }
        String name = n.value();
        p.i++;
        if (p.i < toks.size() && (p.tok().is("ADD") || p.tok().is("DROP"))) {
            throw SqlServerError.unsupported("ALTER COLUMN ... " + p.tok().text() + " (ROWGUIDCOL, PERSISTED, SPARSE,"
                    + " NOT FOR REPLICATION)");
        }
        TypeParser.Result tr = TypeParser.parse(toks, p.i, 1, name);
        p.i = tr.next;
        SqlType type = tr.type;
        Boolean nullable = null;
        while (p.i < toks.size()) {
            Token t = toks.get(p.i);
            if (t.is("NULL")) {
                nullable = true;
                p.i++;
            } else if (t.is("NOT") && p.i + 1 < toks.size() && toks.get(p.i + 1).is("NULL")) {
                nullable = false;
                p.i += 2;
            } else if (t.is("COLLATE") && p.i + 1 < toks.size()) {
                type = TypeParser.collate(type, toks.get(p.i + 1), name);
                p.i += 2;
            } else {
                throw SqlServerError.unsupported("'" + t.text() + "' in ALTER TABLE ... ALTER COLUMN (supported: a"
                        + " type, COLLATE, NULL, NOT NULL)");
            }
        }
        return new Altered(name, type, nullable);
    }
}
