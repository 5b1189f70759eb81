package io.deltafunnel.emulator.tsql;

import io.deltafunnel.emulator.semantics.SqlServerError;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Splits a T-SQL batch into statements. T-SQL does not require semicolons, so a statement ends at a top-level
 * semicolon or where a keyword that can only start a new statement appears (with the usual exceptions:
 * INSERT ... SELECT, UPDATE ... SET, UNION SELECT, MERGE which must end with ';').
 */
public final class StatementParser {
    private static final Set<String> STARTERS = Set.of("SELECT", "INSERT", "UPDATE", "DELETE", "MERGE", "CREATE",
            "DROP", "ALTER", "TRUNCATE", "SET", "BEGIN", "COMMIT", "ROLLBACK", "SAVE", "IF", "ELSE", "END", "EXEC",
            "EXECUTE", "DECLARE", "USE", "PRINT", "WAITFOR", "RETURN", "GRANT", "REVOKE", "DENY", "RAISERROR",
            "THROW", "WHILE", "BREAK", "CONTINUE", "GOTO", "DBCC", "CHECKPOINT", "BULK", "OPEN", "CLOSE", "FETCH",
            "DEALLOCATE", "KILL", "RECONFIGURE", "SHUTDOWN", "BACKUP", "RESTORE", "GO");

    private final String sql;
    private final List<Token> tokens;
    private int pos;

    private StatementParser(String sql, List<Token> tokens) {
        this.sql = sql;
        this.tokens = tokens;
    }

    public static List<Stmt> parse(String sql) throws SqlServerError {
        StatementParser p = new StatementParser(sql, TSqlLexer.tokenize(sql));
        List<Stmt> out = new ArrayList<>();
        while (p.pos < p.tokens.size()) {
            Stmt s = p.statement();
            if (s != null) {
                out.add(s);
            }
        }
        return out;
    }

    private Token peek(int ahead) {
        int i = pos + ahead;
        return i < tokens.size() ? tokens.get(i) : null;
    }

    private String text(int from, int toExclusive) {
        if (from >= toExclusive) {
            return "";
        }
        return sql.substring(tokens.get(from).start(), tokens.get(toExclusive - 1).end());
    }

    private static boolean isStarter(Token t) {
        return t.kind() == Token.Kind.WORD && STARTERS.contains(t.upper());
    }

    private Stmt statement() throws SqlServerError {
        Token t = peek(0);
        if (t.isSymbol(";")) {
            pos++;
            return null;
        }
        if (t.is("IF")) {
            return ifStatement();
        }
        if (t.is("BEGIN") && !isTransactionWord(peek(1)) && !isTryCatch(peek(1))) {
            return block();
        }
        if (t.is("BEGIN") || t.is("COMMIT") || t.is("ROLLBACK") || t.is("SAVE")) {
            return transactionStatement();
        }
        return simple();
    }

    private static boolean isTransactionWord(Token t) {
        return t != null && (t.is("TRAN") || t.is("TRANSACTION") || t.is("DISTRIBUTED") || t.is("WORK"));
    }

    private static boolean isTryCatch(Token t) {
        return t != null && (t.is("TRY") || t.is("CATCH"));
    }

    private Stmt ifStatement() throws SqlServerError {
        int start = pos;
        pos++; // IF
        int condStart = pos;
        int depth = 0;
        while (pos < tokens.size()) {
            Token t = tokens.get(pos);
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            } else if (depth == 0 && isStarter(t) && !t.is("SELECT")) {
                break;
            }
            pos++;
        }
        if (pos >= tokens.size() || condStart == pos) {
            throw SqlServerError.syntax(pos < tokens.size() ? tokens.get(pos).text() : "IF");
        }
        List<Token> cond = new ArrayList<>(tokens.subList(condStart, pos));
        List<Stmt> thenPart = new ArrayList<>();
        Stmt body = statementSkippingSemicolons();
        if (body != null) {
            thenPart.add(body);
        }
        List<Stmt> elsePart = new ArrayList<>();
        while (pos < tokens.size() && tokens.get(pos).isSymbol(";") && peek(1) != null && peek(1).is("ELSE")) {
            pos++;
        }
        if (pos < tokens.size() && tokens.get(pos).is("ELSE")) {
            pos++;
            Stmt e = statementSkippingSemicolons();
            if (e != null) {
                elsePart.add(e);
            }
        }
        return Stmt.ifStmt(cond, thenPart, elsePart, text(start, pos));
    }

    private Stmt statementSkippingSemicolons() throws SqlServerError {
        while (pos < tokens.size() && tokens.get(pos).isSymbol(";")) {
            pos++;
        }
        if (pos >= tokens.size()) {
            throw SqlServerError.syntax("end of batch");
        }
        return statement();
    }

    private Stmt block() throws SqlServerError {
        int start = pos;
        pos++; // BEGIN
        List<Stmt> body = new ArrayList<>();
        while (true) {
            if (pos >= tokens.size()) {
                throw SqlServerError.syntax("BEGIN");
            }
            Token t = tokens.get(pos);
            if (t.is("END")) {
                pos++;
                break;
            }
            Stmt s = statement();
            if (s != null) {
                body.add(s);
            }
        }
        return Stmt.block(body, text(start, pos));
    }

    private Stmt transactionStatement() {
        int start = pos;
        pos++; // BEGIN / COMMIT / ROLLBACK / SAVE
        if (peek(0) != null && peek(0).is("DISTRIBUTED")) {
            pos++;
        }
        if (isTransactionWord(peek(0))) {
            pos++;
        }
        Token name = peek(0);
        if (name != null && (name.kind() == Token.Kind.QUOTED_ID || name.kind() == Token.Kind.VARIABLE
                || name.kind() == Token.Kind.WORD && !isStarter(name) && !name.is("WITH"))) {
            pos++;
        }
        if (peek(0) != null && peek(0).is("WITH") && peek(1) != null && peek(1).isSymbol("(")) {
            pos++;
            int depth = 0;
            while (pos < tokens.size()) {
                Token t = tokens.get(pos++);
                if (t.isSymbol("(")) {
                    depth++;
                } else if (t.isSymbol(")") && --depth == 0) {
                    break;
                }
            }
        }
        List<Token> toks = new ArrayList<>(tokens.subList(start, pos));
        return Stmt.simple(toks, text(start, pos));
    }

    private Stmt simple() {
        int start = pos;
        Token lead = tokens.get(pos);
        String k = lead.upper();
        pos++;
        int depth = 0;
        boolean seenSelect = k.equals("SELECT");
        boolean seenSet = k.equals("SET");
        boolean seenValues = false;
        int cases = 0; // open CASE expressions at the top level: their ELSE and END do not start statements
        while (pos < tokens.size()) {
            Token t = tokens.get(pos);
            Token prev = tokens.get(pos - 1);
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            } else if (depth <= 0) {
                if (t.isSymbol(";")) {
                    break;
                }
                if (t.is("CASE")) {
                    cases++;
                } else if (cases > 0 && (t.is("ELSE") || t.is("END"))) {
                    cases -= t.is("END") ? 1 : 0;
                    pos++;
                    continue;
                }
                if (t.is("VALUES")) {
                    seenValues = true;
                }
                if (isStarter(t) && !continuesStatement(k, t, prev, seenSelect, seenSet, seenValues)) {
                    break;
                }
                if (k.equals("ALTER") && t.is("ALTER") && peek(1) != null && peek(1).is("TABLE")) {
                    break; // ALTER TABLE a SWITCH TO b ALTER TABLE ...: a new statement (ALTER COLUMN continues)
                }
                if (t.is("SELECT")) {
                    seenSelect = true;
                }
                if (t.is("SET")) {
                    seenSet = true;
                }
            }
            pos++;
        }
        int end = pos;
        List<Token> toks = new ArrayList<>(tokens.subList(start, end));
        if (pos < tokens.size() && tokens.get(pos).isSymbol(";")) {
            pos++;
        }
        return Stmt.simple(toks, text(start, end));
    }

    private static boolean continuesStatement(String lead, Token t, Token prev, boolean seenSelect, boolean seenSet,
            boolean seenValues) {
        if (lead.equals("MERGE")) {
            return !t.is("GO");
        }
        if (lead.equals("GRANT") || lead.equals("REVOKE") || lead.equals("DENY")) {
            // GRANT SELECT, INSERT, ALTER ON ...; REVOKE GRANT OPTION FOR DELETE ON ...; GRANT ... WITH GRANT OPTION
            return prev.is(lead) || prev.isSymbol(",") || prev.is("FOR") || t.is("GRANT") && prev.is("WITH");
        }
        if (t.is("SELECT")) {
            if (prev.is("UNION") || prev.is("ALL") || prev.is("EXCEPT") || prev.is("INTERSECT")
                    || prev.isSymbol("(")) {
                return true;
            }
            if (lead.equals("INSERT") && !seenSelect && !seenValues) {
                return true;
            }
            if (lead.equals("CREATE") && prev.is("AS")) {
                return true;
            }
            return false;
        }
        if (t.is("SET")) {
            return lead.equals("UPDATE") && !seenSet || lead.equals("ALTER");
        }
        if (t.is("IF") && lead.equals("DROP")) {
            return prev.is("TABLE") || prev.is("SCHEMA") || prev.is("INDEX") || prev.is("VIEW") || prev.is("USER")
                    || prev.is("ROLE");
        }
        if (t.is("DROP") || t.is("ALTER")) {
            return lead.equals("ALTER") && !prev.isSymbol(")");
        }
        if (t.is("BULK")) {
            return lead.equals("INSERT");
        }
        if (t.is("ROLLBACK")) {
            // ALTER DATABASE ... SET ... WITH ROLLBACK IMMEDIATE | ROLLBACK AFTER n (a termination clause)
            return lead.equals("ALTER") && prev.is("WITH");
        }
        if (t.is("DELETE") || t.is("UPDATE") || t.is("INSERT")) {
            // ON DELETE CASCADE / ON UPDATE in CREATE TABLE
            return prev.is("ON");
        }
        return false;
    }

    /** Index of {@code keyword} outside parentheses in {@code toks}, or -1. */
    public static int topLevelIndex(List<Token> toks, String keyword) {
        int depth = 0;
        for (int i = 0; i < toks.size(); i++) {
            Token t = toks.get(i);
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                depth--;
            } else if (depth == 0 && t.is(keyword)) {
                return i;
            }
        }
        return -1;
    }
}
