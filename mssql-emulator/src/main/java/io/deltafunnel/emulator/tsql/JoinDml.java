package io.deltafunnel.emulator.tsql;

import io.deltafunnel.emulator.semantics.SqlServerError;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * T-SQL's FROM clause on DELETE and UPDATE, which H2 does not have, rewritten into H2-compatible tokens before
 * translation:
 * <ul>
 * <li>{@code DELETE ref FROM t [[AS] a] [WHERE w]} becomes {@code DELETE FROM t [AS a] [WHERE w]};</li>
 * <li>{@code DELETE ref FROM t [[AS] a] [INNER] JOIN s [[AS] b] ON c [WHERE w]} becomes
 *     {@code DELETE FROM t [AS a] WHERE EXISTS (SELECT 1 FROM s [b] WHERE (c) [AND (w)])}: each target row with a
 *     match goes once, as in SQL Server;</li>
 * <li>{@code UPDATE ref SET ... FROM t [[AS] a] [WHERE w]} becomes {@code UPDATE t [AS a] SET ... [WHERE w]};</li>
 * <li>{@code UPDATE ref SET x = e, y = f FROM t [[AS] a] [INNER] JOIN s [[AS] b] ON c [WHERE w]} becomes
 *     {@code UPDATE t [AS a] SET (x, y) = (SELECT e, f FROM s [b] WHERE (c) [AND (w)] FETCH FIRST 1 ROW ONLY)
 *     WHERE EXISTS (SELECT 1 FROM s [b] WHERE (c) [AND (w)])} (qualifiers on the assigned columns dropped): a target
 *     row matched by several source rows is updated once, from one of them, as SQL Server does (which one is
 *     undefined in both).</li>
 * </ul>
 * The first table after FROM is taken as the target ({@code ref} names it or its alias). Other forms (several joins,
 * outer joins, comma joins) are refused with 50100. Statements without a FROM of their own pass unchanged.
 */
public final class JoinDml {
    private static final Set<String> CLAUSE_WORDS = Set.of("JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS",
            "OUTER", "WHERE", "ON", "OPTION", "WITH", "SET", "OUTPUT");

    private JoinDml() {
    }

    /** The H2-ready form of a DELETE or UPDATE with a FROM clause; {@code toks} itself when there is none. */
    public static List<Token> rewrite(List<Token> toks) throws SqlServerError {
        if (toks.isEmpty()) {
            return toks;
        }
        if (toks.get(0).is("DELETE") && toks.size() > 2 && !toks.get(1).is("FROM") && !toks.get(1).is("TOP")) {
            int from = StatementParser.topLevelIndex(toks, "FROM");
            return from > 1 ? delete(toks, from) : toks;
        }
        if (toks.get(0).is("UPDATE")) {
            int set = StatementParser.topLevelIndex(toks, "SET");
            if (set < 0) {
                return toks;
            }
            int from = indexAfter(toks, "FROM", set);
            return from > set ? update(toks, set, from) : toks;
        }
        return toks;
    }

    /** The FROM clause's target table, its alias and what follows. */
    private record Source(List<Token> table, int next) {
    }

    /** {@code t [WITH (hints)] [[AS] a]} at {@code i}. */
    private static Source table(List<Token> toks, int i) throws SqlServerError {
        ObjectName n = ObjectName.at(toks, i);
        int j = n.next;
        if (j + 1 < toks.size() && toks.get(j).is("WITH") && toks.get(j + 1).isSymbol("(")) {
            j = groupEnd(toks, j + 1);
        }
        if (j < toks.size() && toks.get(j).is("AS")) {
            j += 2;
        } else if (j < toks.size() && toks.get(j).isIdentifier() && !CLAUSE_WORDS.contains(toks.get(j).upper())) {
            j++;
        }
        if (j + 1 < toks.size() && toks.get(j).is("WITH") && toks.get(j + 1).isSymbol("(")) {
            j = groupEnd(toks, j + 1);
        }
        return new Source(new ArrayList<>(toks.subList(i, Math.min(j, toks.size()))), j);
    }

    private static List<Token> delete(List<Token> toks, int from) throws SqlServerError {
        Source target = table(toks, from + 1);
        List<Token> out = new ArrayList<>();
        out.add(toks.get(0));
        out.add(word("FROM"));
        out.addAll(target.table());
        int i = target.next();
        if (i >= toks.size() || toks.get(i).is("WHERE")) {
            out.addAll(toks.subList(i, toks.size()));
            return out;
        }
        Join j = join(toks, i);
        out.add(word("WHERE"));
        out.add(word("EXISTS"));
        out.add(symbol("("));
        out.add(word("SELECT"));
        out.add(new Token(Token.Kind.NUMBER, "1", "1", 0, 0));
        out.add(word("FROM"));
        out.addAll(j.source);
        out.add(word("WHERE"));
        out.addAll(j.condition());
        out.add(symbol(")"));
        return out;
    }

    private static List<Token> update(List<Token> toks, int set, int from) throws SqlServerError {
        Source target = table(toks, from + 1);
        List<Token> assignments = toks.subList(set + 1, from);
        int i = target.next();
        List<Token> out = new ArrayList<>();
        if (i >= toks.size() || toks.get(i).is("WHERE")) {
            out.add(toks.get(0));
            out.addAll(target.table());
            out.add(toks.get(set));
            out.addAll(assignments);
            out.addAll(toks.subList(i, toks.size()));
            return out;
        }
        Join j = join(toks, i);
        List<List<Token>> columns = new ArrayList<>();
        List<List<Token>> values = new ArrayList<>();
        assignments(assignments, columns, values);
        out.add(toks.get(0));
        out.addAll(target.table());
        out.add(toks.get(set));
        if (columns.size() > 1) {
            out.add(symbol("("));
        }
        for (int k = 0; k < columns.size(); k++) {
            if (k > 0) {
                out.add(symbol(","));
            }
            out.addAll(columns.get(k));
        }
        if (columns.size() > 1) {
            out.add(symbol(")"));
        }
        out.add(symbol("="));
        out.add(symbol("("));
        out.add(word("SELECT"));
        for (int k = 0; k < values.size(); k++) {
            if (k > 0) {
                out.add(symbol(","));
            }
            out.addAll(values.get(k));
        }
        out.addAll(matches(j));
        out.add(word("FETCH"));
        out.add(word("FIRST"));
        out.add(new Token(Token.Kind.NUMBER, "1", "1", 0, 0));
        out.add(word("ROW"));
        out.add(word("ONLY"));
        out.add(symbol(")"));
        out.add(word("WHERE"));
        out.add(word("EXISTS"));
        out.add(symbol("("));
        out.add(word("SELECT"));
        out.add(new Token(Token.Kind.NUMBER, "1", "1", 0, 0));
        out.addAll(matches(j));
        out.add(symbol(")"));
        return out;
    }

    /** {@code FROM s [b] WHERE (c) [AND (w)]}. */
    private static List<Token> matches(Join j) {
        List<Token> out = new ArrayList<>();
        out.add(word("FROM"));
        out.addAll(j.source);
        out.add(word("WHERE"));
        out.addAll(j.condition());
        return out;
    }

    /** {@code [INNER] JOIN s [[AS] b] ON c [WHERE w]} at i. */
    private record Join(List<Token> source, List<Token> on, List<Token> where) {
        List<Token> condition() {
            List<Token> c = new ArrayList<>();
            c.add(symbol("("));
            c.addAll(on);
            c.add(symbol(")"));
            if (where != null) {
                c.add(word("AND"));
                c.add(symbol("("));
                c.addAll(where);
                c.add(symbol(")"));
            }
            return c;
        }
    }

    private static Join join(List<Token> toks, int i) throws SqlServerError {
        if (toks.get(i).is("INNER")) {
            i++;
        }
        if (i >= toks.size() || !toks.get(i).is("JOIN")) {
            throw SqlServerError.unsupported("DELETE/UPDATE ... FROM with " + toks.get(Math.min(i, toks.size() - 1))
                    .text() + " (only one [INNER] JOIN)");
        }
        List<Token> rest = toks.subList(i + 1, toks.size());
        int on = StatementParser.topLevelIndex(rest, "ON");
        if (on < 0) {
            throw SqlServerError.syntax(toks.get(toks.size() - 1).text());
        }
        List<Token> afterOn = rest.subList(on + 1, rest.size());
        for (String w : List.of("JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS")) {
            if (StatementParser.topLevelIndex(afterOn, w) >= 0) {
                throw SqlServerError.unsupported("DELETE/UPDATE ... FROM with more than one JOIN");
            }
        }
        int where = StatementParser.topLevelIndex(afterOn, "WHERE");
        List<Token> cond = where < 0 ? afterOn : afterOn.subList(0, where);
        List<Token> filter = where < 0 ? null : afterOn.subList(where + 1, afterOn.size());
        return new Join(new ArrayList<>(rest.subList(0, on)), new ArrayList<>(cond),
                filter == null ? null : new ArrayList<>(filter));
    }

    /**
     * Splits {@code a.x = e, b = f} into the assigned columns (qualifiers dropped: {@code x}, {@code b}) and their
     * expressions ({@code e}, {@code f}).
     */
    private static void assignments(List<Token> assignments, List<List<Token>> columns, List<List<Token>> values)
            throws SqlServerError {
        int depth = 0;
        List<Token> current = new ArrayList<>();
        List<Token> column = null;
        for (Token t : assignments) {
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            }
            if (depth == 0 && column == null && t.isSymbol("=")) {
                if (current.isEmpty()) {
                    throw SqlServerError.syntax("=");
                }
                column = List.of(current.get(current.size() - 1));
                current = new ArrayList<>();
            } else if (depth == 0 && t.isSymbol(",")) {
                if (column == null) {
                    throw SqlServerError.syntax(",");
                }
                columns.add(column);
                values.add(current);
                column = null;
                current = new ArrayList<>();
            } else {
                current.add(t);
            }
        }
        if (column == null || current.isEmpty()) {
            throw SqlServerError.syntax("SET");
        }
        columns.add(column);
        values.add(current);
    }

    private static int indexAfter(List<Token> toks, String keyword, int after) {
        List<Token> tail = toks.subList(after + 1, toks.size());
        int k = StatementParser.topLevelIndex(tail, keyword);
        return k < 0 ? -1 : after + 1 + k;
    }

    private static int groupEnd(List<Token> toks, int open) {
        int d = 0;
        int k = open;
        while (k < toks.size()) {
            Token t = toks.get(k++);
            if (t.isSymbol("(")) {
                d++;
            } else if (t.isSymbol(")") && --d == 0) {
                break;
            }
        }
        return k;
    }

    private static Token word(String w) {
        return new Token(Token.Kind.WORD, w, w, 0, 0);
    }

    private static Token symbol(String s) {
        return new Token(Token.Kind.SYMBOL, s, s, 0, 0);
    }
}
