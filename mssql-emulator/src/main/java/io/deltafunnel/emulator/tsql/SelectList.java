package io.deltafunnel.emulator.tsql;

import io.deltafunnel.emulator.semantics.Catalog;
import io.deltafunnel.emulator.semantics.ColumnDef;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.SqlType;
import io.deltafunnel.emulator.semantics.TableDef;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads a SELECT's list the way SQL Server names and types its result columns, independently of H2 (which
 * upper-cases unquoted aliases and types expressions its own way):
 * <ul>
 *   <li>names: an alias ({@code expr AS Name}, {@code expr Name}) keeps its spelling; an expression without alias
 *       has an empty name; a plain column reference keeps what the catalog says (left to {@link ColumnTypeResolver});
 *   <li>types, where SQL Server's rule is known: literals (integer → int, larger → numeric(p,0), 1.5 →
 *       numeric(2,1), 1e0 → float, 'x' → varchar(n), N'x' → nvarchar(n), 0x.. → varbinary(n), NULL → int),
 *       {@code CAST}/{@code CONVERT}/{@code TRY_CAST}, {@code COUNT} → int, {@code COUNT_BIG} → bigint,
 *       {@code SUM}/{@code AVG}/{@code MIN}/{@code MAX} over a column, literal or cast per SQL Server's tables;
 *       anything else is {@code null}: the type then comes from H2's result metadata (see the README).
 * </ul>
 * Returns null for statements it does not describe (a {@code *} in the list, UNION/EXCEPT/INTERSECT).
 */
public final class SelectList {
    private static final Set<String> CLAUSE_ENDS = Set.of("FROM", "INTO", "WHERE", "GROUP", "ORDER", "HAVING",
            "UNION", "EXCEPT", "INTERSECT", "OPTION", "FOR");
    private static final Set<String> NOT_ALIAS = Set.of("END", "NULL", "AND", "OR", "NOT", "ELSE", "THEN", "WHEN",
            "CASE", "IS", "IN", "LIKE", "BETWEEN", "EXISTS", "ALL", "ANY", "SOME", "DISTINCT");
    private static final Set<String> NILADIC = Set.of("CURRENT_TIMESTAMP", "CURRENT_USER", "SESSION_USER",
            "SYSTEM_USER", "USER");
    private static final Set<String> FROM_ENDS = Set.of("WHERE", "GROUP", "ORDER", "HAVING", "UNION", "EXCEPT",
            "INTERSECT", "OPTION", "FOR");
    private static final Set<String> JOIN_WORDS = Set.of("JOIN", "INNER", "LEFT", "RIGHT", "FULL", "OUTER", "CROSS",
            "ON", "APPLY", "WITH");

    /** One item of the list: its alias (null if none), whether it is an expression, its derived type or null. */
    public static final class Item {
        public final String alias;
        public final boolean expression;
        public final SqlType type;

        Item(String alias, boolean expression, SqlType type) {
            this.alias = alias;
            this.expression = expression;
            this.type = type;
        }
    }

    /** A table of the FROM clause and its alias. */
    private static final class Source {
        final TableDef table;
        public final String alias;

        Source(TableDef table, String alias) {
            this.table = table;
            this.alias = alias;
        }
    }

    private final List<Token> toks;
    private final Catalog catalog;
    private final List<Source> sources = new ArrayList<>();

    private SelectList(List<Token> toks, Catalog catalog) {
        this.toks = toks;
        this.catalog = catalog;
    }

    /** The items of {@code tokens} (a SELECT statement), or null when the list is not described here. */
    public static List<Item> describe(List<Token> tokens, Catalog catalog) {
        try {
            return new SelectList(tokens, catalog).items();
        } catch (SqlServerError | RuntimeException e) {
            return null; // not understood here: H2's metadata is used
        }
    }

    private List<Item> items() throws SqlServerError {
        if (toks.isEmpty() || !toks.get(0).is("SELECT")) {
            return null;
        }
        int i = 1;
        if (i < toks.size() && (toks.get(i).is("DISTINCT") || toks.get(i).is("ALL"))) {
            i++;
        }
        if (i < toks.size() && toks.get(i).is("TOP")) {
            i++;
            i = toks.get(i).isSymbol("(") ? groupEnd(i) : i + 1;
            while (i < toks.size() && (toks.get(i).is("PERCENT") || toks.get(i).is("WITH") || toks.get(i).is("TIES"))) {
                i++;
            }
        }
        int end = i;
        int depth = 0;
        List<int[]> ranges = new ArrayList<>();
        int start = i;
        for (; end < toks.size(); end++) {
            Token t = toks.get(end);
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            } else if (depth == 0 && t.kind() == Token.Kind.WORD && CLAUSE_ENDS.contains(t.upper())) {
                break;
            } else if (depth == 0 && t.isSymbol(",")) {
                ranges.add(new int[] {start, end});
                start = end + 1;
            }
        }
        ranges.add(new int[] {start, end});
        for (int k = end; k < toks.size(); k++) {
            Token t = toks.get(k);
            if (t.is("UNION") || t.is("EXCEPT") || t.is("INTERSECT")) {
                return null;
            }
        }
        readFrom(end);
        List<Item> out = new ArrayList<>();
        for (int[] r : ranges) {
            Item item = item(toks.subList(r[0], r[1]));
            if (item == null) {
                return null;
            }
            out.add(item);
        }
        return out;
    }

    private Item item(List<Token> e) throws SqlServerError {
        if (e.isEmpty()) {
            return null;
        }
        Token last = e.get(e.size() - 1);
        if (last.isSymbol("*")) {
            return null;
        }
        String alias = null;
        List<Token> expr = e;
        if (e.size() >= 3 && e.get(e.size() - 2).is("AS") && (last.isIdentifier() || last.isString())) {
            alias = last.value();
            expr = e.subList(0, e.size() - 2);
        } else if (e.size() >= 2 && (last.kind() == Token.Kind.QUOTED_ID
                || last.kind() == Token.Kind.WORD && !NOT_ALIAS.contains(last.upper()))) {
            Token before = e.get(e.size() - 2);
            boolean operand = before.kind() == Token.Kind.SYMBOL && !before.isSymbol(")");
            if (!operand && !before.is("AS")) {
                alias = last.value();
                expr = e.subList(0, e.size() - 1);
            }
        } else if (e.size() >= 3 && e.get(1).isSymbol("=") && e.get(0).isIdentifier()) {
            return null; // alias = expr: not described here
        }
        boolean column = columnRef(expr) != null;
        return new Item(alias, !column, column ? null : type(expr));
    }

    /** [qualifier .] column, or null when {@code e} is not a plain column reference. */
    private static String[] columnRef(List<Token> e) {
        if (e.size() == 1) {
            Token x = e.get(0);
            boolean word = x.kind() == Token.Kind.WORD && !NOT_ALIAS.contains(x.upper()) && !NILADIC.contains(x.upper());
            return x.kind() == Token.Kind.QUOTED_ID || word ? new String[] {null, x.value()} : null;
        }
        int n = e.size();
        if (n >= 3 && n % 2 == 1 && e.get(n - 1).isIdentifier() && e.get(n - 2).isSymbol(".")
                && e.get(n - 3).isIdentifier()) {
            for (int k = 1; k < n; k += 2) {
                if (!e.get(k).isSymbol(".") || !e.get(k - 1).isIdentifier()) {
                    return null;
                }
            }
            return new String[] {e.get(n - 3).value(), e.get(n - 1).value()};
        }
        return null;
    }

    /** SQL Server's type of an expression, or null when it is not derived here. */
    private SqlType type(List<Token> e) throws SqlServerError {
        while (e.size() >= 2 && e.get(0).isSymbol("(") && matching(e, 0) == e.size() - 1) {
            e = e.subList(1, e.size() - 1);
        }
        if (e.isEmpty()) {
            return null;
        }
        Token f = e.get(0);
        if (e.size() == 2 && (f.isSymbol("-") || f.isSymbol("+")) && e.get(1).kind() == Token.Kind.NUMBER) {
            return number(e.get(1).text());
        }
        if (e.size() == 1) {
            switch (f.kind()) {
                case NUMBER: return number(f.text());
                case STRING: return chars(SqlType.Base.VARCHAR, f.value().length(), 8000);
                case NSTRING: return chars(SqlType.Base.NVARCHAR, f.value().length(), 4000);
                case BINARY: return chars(SqlType.Base.VARBINARY, (f.value().length() + 1) / 2, 8000);
                default: return f.is("NULL") ? SqlType.of(SqlType.Base.INT) : null;
            }
        }
        if (f.kind() != Token.Kind.WORD || !e.get(1).isSymbol("(") || matching(e, 1) != e.size() - 1) {
            return null;
        }
        List<Token> args = e.subList(2, e.size() - 1);
        switch (f.upper()) {
            case "COUNT": return SqlType.of(SqlType.Base.INT);
            case "COUNT_BIG": return SqlType.of(SqlType.Base.BIGINT);
            case "CAST":
            case "TRY_CAST": {
                int as = topLevel(args, "AS");
                return as < 0 ? null : TypeParser.parse(args, as + 1, 30, null).type;
            }
            case "CONVERT":
            case "TRY_CONVERT":
                return TypeParser.parse(args, 0, 30, null).type;
            case "SUM":
            case "AVG":
            case "MIN":
            case "MAX": {
                List<Token> a = args;
                if (!a.isEmpty() && (a.get(0).is("DISTINCT") || a.get(0).is("ALL"))) {
                    a = a.subList(1, a.size());
                }
                SqlType in = operand(a);
                return in == null ? null : aggregate(f.upper(), in);
            }
            default:
                return null;
        }
    }

    /** The type of an aggregate's argument: a column of the FROM tables, or a derivable expression. */
    private SqlType operand(List<Token> a) throws SqlServerError {
        String[] ref = columnRef(a);
        if (ref == null) {
            return type(a);
        }
        ColumnDef found = null;
        for (Source s : sources) {
            if (ref[0] != null && !ref[0].equalsIgnoreCase(s.alias) && !ref[0].equalsIgnoreCase(s.table.name())) {
                continue;
            }
            ColumnDef c = s.table.column(ref[1]);
            if (c != null) {
                if (found != null) {
                    return null; // ambiguous: left to H2
                }
                found = c;
            }
        }
        return found == null ? null : found.type();
    }

    /** SQL Server's result types of SUM/AVG/MIN/MAX (Transact-SQL reference, "Return types"). */
    static SqlType aggregate(String fn, SqlType in) {
        if (fn.equals("MIN") || fn.equals("MAX")) {
            return in;
        }
        switch (in.base()) {
            case TINYINT: case SMALLINT: case INT:
                return SqlType.of(SqlType.Base.INT);
            case BIGINT:
                return SqlType.of(SqlType.Base.BIGINT);
            case DECIMAL: case NUMERIC:
                return SqlType.decimal(SqlType.Base.DECIMAL, 38,
                        fn.equals("AVG") ? Math.max(in.scale(), 6) : in.scale());
            case MONEY: case SMALLMONEY:
                return SqlType.of(SqlType.Base.MONEY);
            case REAL: case FLOAT:
                return SqlType.of(SqlType.Base.FLOAT);
            default:
                return null;
        }
    }

    /** A numeric literal: int, numeric(p,s) or float. */
    static SqlType number(String text) {
        String t = text;
        if (t.indexOf('e') >= 0 || t.indexOf('E') >= 0) {
            return SqlType.of(SqlType.Base.FLOAT);
        }
        int dot = t.indexOf('.');
        String whole = dot < 0 ? t : t.substring(0, dot);
        String frac = dot < 0 ? "" : t.substring(dot + 1);
        String digits = whole.replaceFirst("^0+", "");
        if (dot < 0) {
            if (digits.length() <= 10 && (digits.isEmpty() || Long.parseLong(digits) <= Integer.MAX_VALUE)) {
                return SqlType.of(SqlType.Base.INT);
            }
            return digits.length() <= 38 ? SqlType.decimal(SqlType.Base.NUMERIC, digits.length(), 0) : null;
        }
        int scale = frac.length();
        int precision = Math.max(1, digits.length() + scale);
        return precision <= 38 ? SqlType.decimal(SqlType.Base.NUMERIC, precision, scale) : null;
    }

    private static SqlType chars(SqlType.Base base, int length, int max) {
        return SqlType.withLength(base, length > max ? SqlType.MAX : Math.max(1, length));
    }

    /** Tables named in the FROM clause (FROM a [AS] x, b JOIN c [AS] y ON ...); subqueries are skipped. */
    private void readFrom(int from) {
        if (from >= toks.size() || !toks.get(from).is("FROM")) {
            return;
        }
        int depth = 0;
        boolean expectTable = true;
        for (int i = from + 1; i < toks.size(); i++) {
            Token t = toks.get(i);
            if (t.isSymbol("(")) {
                depth++;
                continue;
            }
            if (t.isSymbol(")")) {
                depth--;
                continue;
            }
            if (depth > 0) {
                continue;
            }
            if (t.kind() == Token.Kind.WORD && FROM_ENDS.contains(t.upper())) {
                return;
            }
            if (t.isSymbol(",") || t.is("JOIN") || t.is("APPLY")) {
                expectTable = true;
                continue;
            }
            if (expectTable && t.isIdentifier()) {
                expectTable = false;
                try {
                    ObjectName n = ObjectName.at(toks, i);
                    TableDef table = catalog.table(n.schema, n.name);
                    int j = n.next;
                    String alias = null;
                    if (j < toks.size() && toks.get(j).is("AS")) {
                        j++;
                    }
                    if (j < toks.size() && toks.get(j).isIdentifier() && !(toks.get(j).kind() == Token.Kind.WORD
                            && (JOIN_WORDS.contains(toks.get(j).upper()) || FROM_ENDS.contains(toks.get(j).upper())))) {
                        alias = toks.get(j).value();
                        j++;
                    }
                    if (table != null) {
                        sources.add(new Source(table, alias));
                    }
                    i = j - 1;
                } catch (SqlServerError e) {
                    // not a table name
                }
            }
        }
    }

    private int groupEnd(int open) {
        return matching(toks, open) + 1;
    }

    private static int matching(List<Token> e, int open) {
        int d = 0;
        for (int k = open; k < e.size(); k++) {
            if (e.get(k).isSymbol("(")) {
                d++;
            } else if (e.get(k).isSymbol(")") && --d == 0) {
                return k;
            }
        }
        return -1;
    }

    private static int topLevel(List<Token> e, String word) {
        int d = 0;
        for (int k = 0; k < e.size(); k++) {
            Token t = e.get(k);
            if (t.isSymbol("(")) {
                d++;
            } else if (t.isSymbol(")")) {
                d--;
            } else if (d == 0 && t.is(word)) {
                return k;
            }
        }
        return -1;
    }
}
