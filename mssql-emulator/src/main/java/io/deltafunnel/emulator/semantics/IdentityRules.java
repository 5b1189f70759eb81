package io.deltafunnel.emulator.semantics;

import io.deltafunnel.emulator.tsql.Identifiers;
import io.deltafunnel.emulator.tsql.StatementParser;
import io.deltafunnel.emulator.tsql.Token;
import java.util.ArrayList;
import java.util.List;

/**
 * SQL Server's identity rules for SQL statements: an explicit value for an identity column needs
 * {@code SET IDENTITY_INSERT t ON} (else 544) and a column list (else 8101); an identity column is never updated
 * (8102); an INSERT without a column list into a table with an identity means the columns other than the identity.
 */
public final class IdentityRules {
    private IdentityRules() {
    }

    /**
     * Checks an INSERT into {@code t} and returns the tokens to translate: the statement itself, or, for an INSERT
     * without a column list into a table with an identity (IDENTITY_INSERT off), the statement with SQL Server's
     * implied column list (every column but the identity) inserted.
     *
     * @return the tokens to run and whether explicit identity values are written
     */
    public static Checked insert(List<Token> toks, int nameNext, TableDef t, SessionView s) throws SqlServerError {
        ColumnDef identity = identityColumn(t);
        if (identity == null) {
            return new Checked(toks, false);
        }
        int i = skipHints(toks, nameNext);
        boolean on = s.identityInsertTable() == t.objectId();
        if (i < toks.size() && toks.get(i).isSymbol("(") && !(i + 1 < toks.size() && toks.get(i + 1).is("SELECT"))) {
            for (int k = i + 1; k < toks.size() && !toks.get(k).isSymbol(")"); k++) {
                Token c = toks.get(k);
                if (c.isIdentifier() && c.value().equalsIgnoreCase(identity.name())) {
                    if (!on) {
                        throw explicitValueWhenOff(t);
                    }
                    return new Checked(toks, true);
                }
            }
            return new Checked(toks, false);
        }
        if (i < toks.size() && toks.get(i).is("DEFAULT")) {
            return new Checked(toks, false);
        }
        if (on) {
            throw ErrorCatalog.IDENTITY_NEEDS_COLUMN_LIST.error("An explicit value for the identity column in table '"
                    + t.schema() + "." + t.name() + "' can only be specified when a column list is used and"
                    + " IDENTITY_INSERT is ON.");
        }
        List<Token> out = new ArrayList<>(toks.subList(0, i));
        out.add(new Token(Token.Kind.SYMBOL, "(", "(", 0, 0));
        boolean first = true;
        for (ColumnDef c : t.columns()) {
            if (c.identity()) {
                continue;
            }
            if (!first) {
                out.add(new Token(Token.Kind.SYMBOL, ",", ",", 0, 0));
            }
            first = false;
            out.add(new Token(Token.Kind.QUOTED_ID, Identifiers.bracket(c.name()), c.name(), 0, 0));
        }
        out.add(new Token(Token.Kind.SYMBOL, ")", ")", 0, 0));
        out.addAll(toks.subList(i, toks.size()));
        return new Checked(out, false);
    }

    /** UPDATE t SET identity = ...: 8102. */
    public static void update(List<Token> toks, TableDef t) throws SqlServerError {
        ColumnDef identity = identityColumn(t);
        if (identity == null) {
            return;
        }
        int set = StatementParser.topLevelIndex(toks, "SET");
        if (set > 0) {
            checkSetList(toks, set, identity);
        }
    }

    /**
     * MERGE into t: {@code WHEN NOT MATCHED THEN INSERT (..identity..)} needs IDENTITY_INSERT (544), {@code UPDATE
     * SET identity = ...} is 8102.
     *
     * @return whether explicit identity values are written
     */
    public static boolean merge(List<Token> toks, TableDef t, SessionView s) throws SqlServerError {
        ColumnDef identity = identityColumn(t);
        if (identity == null) {
            return false;
        }
        boolean explicit = false;
        for (int i = 0; i + 1 < toks.size(); i++) {
            Token x = toks.get(i);
            if (x.is("UPDATE") && toks.get(i + 1).is("SET")) {
                checkSetList(toks, i + 1, identity);
            } else if (x.is("INSERT") && toks.get(i + 1).isSymbol("(")) {
                for (int k = i + 2; k < toks.size() && !toks.get(k).isSymbol(")"); k++) {
                    Token c = toks.get(k);
                    if (c.isIdentifier() && c.value().equalsIgnoreCase(identity.name())) {
                        if (s.identityInsertTable() != t.objectId()) {
                            throw explicitValueWhenOff(t);
                        }
                        explicit = true;
                    }
                }
            }
        }
        return explicit;
    }

    private static void checkSetList(List<Token> toks, int set, ColumnDef identity) throws SqlServerError {
        int depth = 0;
        for (int i = set + 1; i + 1 < toks.size(); i++) {
            Token x = toks.get(i);
            if (x.isSymbol("(")) {
                depth++;
            } else if (x.isSymbol(")")) {
                depth--;
            } else if (depth == 0 && (x.is("WHERE") || x.is("FROM") || x.is("WHEN") || x.is("OUTPUT"))) {
                return;
            } else if (depth == 0 && x.isIdentifier() && toks.get(i + 1).isSymbol("=")
                    && x.value().equalsIgnoreCase(identity.name())) {
                Token prev = toks.get(i - 1);
                boolean target = prev.is("SET") || prev.isSymbol(",")
                        || prev.isSymbol(".") && i >= 3 && (toks.get(i - 3).is("SET") || toks.get(i - 3).isSymbol(","));
                if (target) {
                    throw ErrorCatalog.IDENTITY_UPDATE.error(
                            "Cannot update identity column '" + identity.name() + "'.");
                }
            }
        }
    }

    static SqlServerError explicitValueWhenOff(TableDef t) {
        return ErrorCatalog.IDENTITY_INSERT_OFF.error("Cannot insert explicit value for identity column in table '"
                + t.name() + "' when IDENTITY_INSERT is set to OFF.");
    }

    static ColumnDef identityColumn(TableDef t) {
        for (ColumnDef c : t.columns()) {
            if (c.identity()) {
                return c;
            }
        }
        return null;
    }

    private static int skipHints(List<Token> toks, int i) {
        if (i + 1 < toks.size() && toks.get(i).is("WITH") && toks.get(i + 1).isSymbol("(")) {
            int d = 0;
            int k = i + 1;
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
        return i;
    }

    /** Tokens to run and whether they write explicit identity values. */
    public static final class Checked {
        public final List<Token> tokens;
        public final boolean explicitIdentity;

        Checked(List<Token> tokens, boolean explicitIdentity) {
            this.tokens = tokens;
            this.explicitIdentity = explicitIdentity;
        }
    }
}
