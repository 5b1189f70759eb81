package io.deltafunnel.emulator.semantics;

import io.deltafunnel.emulator.tsql.ObjectName;
import io.deltafunnel.emulator.tsql.Token;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Decides which table locks a statement takes, from its tokens: every table reference (after FROM, JOIN, INTO,
 * UPDATE, DELETE, MERGE, USING, and in comma-separated FROM lists, including subqueries) with its table hints, the
 * session's isolation level and whether the statement writes.
 *
 * <ul>
 *   <li>The target of UPDATE/DELETE/MERGE, and of an INSERT WITH (TABLOCK | TABLOCKX): X; the target of any other
 *       INSERT: IX. Held to the end of the transaction.</li>
 *   <li>Tables read: by hint, else by isolation level. NOLOCK/READUNCOMMITTED (READ UNCOMMITTED): Sch-S only.
 *       READCOMMITTED (READ COMMITTED): S for the statement, or Sch-S (a row-versioned read) when the database's
 *       READ_COMMITTED_SNAPSHOT is on; READCOMMITTEDLOCK: S for the statement in both modes. HOLDLOCK/SERIALIZABLE/REPEATABLEREAD (REPEATABLE
 *       READ, SERIALIZABLE): S to the end of the transaction. UPDLOCK: U to the end of the transaction.
 *       XLOCK/TABLOCKX: X to the end of the transaction. NOWAIT: lock timeout 0.</li>
 *   <li>FMTONLY (metadata only): Sch-S.</li>
 * </ul>
 * Catalog views and functions ({@code sys.*}, {@code INFORMATION_SCHEMA.*}, OBJECT_ID) are not tables of the catalog
 * and take no locks.
 */
public final class LockPlanner {
    /** Isolation levels (SET TRANSACTION ISOLATION LEVEL; TDS numbering). */
    public static final int READ_UNCOMMITTED = 1;
    public static final int READ_COMMITTED = 2;
    public static final int REPEATABLE_READ = 3;
    public static final int SERIALIZABLE = 4;
    public static final int SNAPSHOT = 5;

    private static final Set<String> HINTS = Set.of("NOLOCK", "READUNCOMMITTED", "UPDLOCK", "HOLDLOCK",
            "SERIALIZABLE", "REPEATABLEREAD", "READCOMMITTED", "READCOMMITTEDLOCK", "TABLOCK", "TABLOCKX", "XLOCK",
            "ROWLOCK", "PAGLOCK", "NOWAIT", "READPAST", "SNAPSHOT", "INDEX", "FORCESEEK", "FORCESCAN", "NOEXPAND",
            "KEEPIDENTITY", "KEEPDEFAULTS", "IGNORE_CONSTRAINTS", "IGNORE_TRIGGERS");
    /** Words that end a table reference instead of being its alias. */
    private static final Set<String> NOT_ALIAS = Set.of("WHERE", "JOIN", "INNER", "LEFT", "RIGHT", "FULL", "CROSS",
            "OUTER", "ON", "GROUP", "ORDER", "HAVING", "UNION", "EXCEPT", "INTERSECT", "WITH", "SET", "OPTION",
            "VALUES", "SELECT", "OUTPUT", "WHEN", "FOR", "DEFAULT", "USING", "INSERT", "UPDATE", "DELETE", "MERGE",
            "FROM", "INTO", "APPLY", "PIVOT", "UNPIVOT", "TABLESAMPLE", "THEN", "AND", "OR", "EXEC", "EXECUTE",
            "IF", "ELSE", "BEGIN", "END", "COMMIT", "ROLLBACK", "DROP", "CREATE", "ALTER", "TRUNCATE");

    /** One lock to take. */
    public record Lock(TableDef table, LockManager.Mode mode, LockManager.Duration duration, boolean nowait) {
    }

    private record Ref(TableDef table, String alias, Set<String> hints) {
    }

    private LockPlanner() {
    }

    /**
     * The locks of a statement. {@code write} is true for INSERT/UPDATE/DELETE/MERGE (the first token is the verb).
     *
     * @throws SqlServerError for hints or isolation levels the emulator cannot honour
     */
    public static List<Lock> plan(SessionView s, List<Token> toks, boolean write, boolean fmtOnly) throws SqlServerError {
        List<Ref> refs = refs(toks, s.catalog());
        List<Lock> out = new ArrayList<>();
        TableDef target = write ? writeTarget(toks, refs, s.catalog()) : null;
        for (Ref r : refs) {
            if (r.table == null) {
                continue;
            }
            if (fmtOnly) {
                out.add(new Lock(r.table, LockManager.Mode.SCH_S, LockManager.Duration.STATEMENT, false));
                continue;
            }
            if (target != null && r.table.objectId() == target.objectId()) {
                continue;
            }
            out.add(readLock(r.table, r.hints, s.isolationLevel(), s.readCommittedSnapshot()));
        }
        if (target != null && !fmtOnly) {
            // INSERT only adds rows: IX (inserters share the table, as SQL Server's row locks let them), except
            // with TABLOCK/TABLOCKX on the target: SQL Server's INSERT documentation says TABLOCK on an INSERT
            // target has the effect of TABLOCKX, an exclusive table lock (also INSERT ... SELECT into a heap).
            // Other writes may touch any row: X
            LockManager.Mode mode = toks.get(0).is("INSERT") && !tableLocked(refs, target) ? LockManager.Mode.IX
                    : LockManager.Mode.X;
            out.add(new Lock(target, mode, LockManager.Duration.TRANSACTION, false));
        }
        return out;
    }

    /** Whether a reference to {@code target} carries TABLOCK or TABLOCKX. */
    private static boolean tableLocked(List<Ref> refs, TableDef target) {
        for (Ref r : refs) {
            if (r.table != null && r.table.objectId() == target.objectId()
                    && (r.hints.contains("TABLOCK") || r.hints.contains("TABLOCKX"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The lock a read of {@code t} takes with {@code hints} at {@code isolation}; {@code readCommittedSnapshot}: the
     * database's READ_COMMITTED_SNAPSHOT option. With it on, a READ COMMITTED read (no hint, or the READCOMMITTED
     * hint) takes only Sch-S and reads the last committed version (H2's own read-committed MVCC: it never shows
     * another session's uncommitted rows and never waits for them); READCOMMITTEDLOCK brings the locking read back.
     */
    static Lock readLock(TableDef t, Set<String> hints, int isolation, boolean readCommittedSnapshot)
            throws SqlServerError {
        boolean nowait = hints.contains("NOWAIT");
        if (hints.contains("READPAST")) {
            throw SqlServerError.unsupported("the READPAST table hint (the emulator locks whole tables and cannot skip"
                    + " locked rows)");
        }
        if (hints.contains("SNAPSHOT")) {
            throw SqlServerError.unsupported("the SNAPSHOT table hint (no row versioning)");
        }
        if (hints.contains("XLOCK") || hints.contains("TABLOCKX")) {
            return new Lock(t, LockManager.Mode.X, LockManager.Duration.TRANSACTION, nowait);
        }
        if (hints.contains("UPDLOCK")) {
            return new Lock(t, LockManager.Mode.U, LockManager.Duration.TRANSACTION, nowait);
        }
        if (hints.contains("HOLDLOCK") || hints.contains("SERIALIZABLE") || hints.contains("REPEATABLEREAD")) {
            return new Lock(t, LockManager.Mode.S, LockManager.Duration.TRANSACTION, nowait);
        }
        if (hints.contains("NOLOCK") || hints.contains("READUNCOMMITTED")) {
            return new Lock(t, LockManager.Mode.SCH_S, LockManager.Duration.STATEMENT, nowait);
        }
        if (hints.contains("READCOMMITTEDLOCK")) {
            return new Lock(t, LockManager.Mode.S, LockManager.Duration.STATEMENT, nowait);
        }
        if (hints.contains("READCOMMITTED")) {
            return readCommitted(t, readCommittedSnapshot, nowait);
        }
        switch (isolation) {
            case READ_UNCOMMITTED:
                return new Lock(t, LockManager.Mode.SCH_S, LockManager.Duration.STATEMENT, nowait);
            case REPEATABLE_READ:
            case SERIALIZABLE:
                return new Lock(t, LockManager.Mode.S, LockManager.Duration.TRANSACTION, nowait);
            case SNAPSHOT:
                throw SqlServerError.unsupported("TRANSACTION ISOLATION LEVEL SNAPSHOT (no row versioning)");
            default:
                return readCommitted(t, readCommittedSnapshot, nowait);
        }
    }

    /** READ COMMITTED: a row-versioned read (Sch-S) under READ_COMMITTED_SNAPSHOT, else S for the statement. */
    private static Lock readCommitted(TableDef t, boolean readCommittedSnapshot, boolean nowait) {
        return new Lock(t, readCommittedSnapshot ? LockManager.Mode.SCH_S : LockManager.Mode.S,
                LockManager.Duration.STATEMENT, nowait);
    }

    /** The index after a {@code TOP (n) [PERCENT]} clause at {@code i}, or {@code i} when there is none. */
    private static int skipTop(List<Token> toks, int i) {
        if (i < toks.size() && toks.get(i).is("TOP")) {
            i++;
            if (i < toks.size() && toks.get(i).isSymbol("(")) {
                i = skipGroup(toks, i);
            }
            if (i < toks.size() && toks.get(i).is("PERCENT")) {
                i++;
            }
        }
        return i;
    }

    /** The table an INSERT/UPDATE/DELETE/MERGE writes (an alias is resolved through the statement's FROM list). */
    private static TableDef writeTarget(List<Token> toks, List<Ref> refs, Catalog cat) {
        int i = skipTop(toks, 1);
        if (i < toks.size() && (toks.get(i).is("INTO") || toks.get(i).is("FROM"))) {
            i++;
        }
        ObjectName n;
        try {
            n = ObjectName.at(toks, i);
        } catch (SqlServerError e) {
            return null;
        }
        boolean single = n.next == i + 1;
        if (single) {
            for (Ref r : refs) {
                if (r.alias != null && r.alias.equalsIgnoreCase(n.name) && r.table != null) {
                    return r.table;
                }
            }
        }
        return cat.table(n.schema, n.name);
    }

    private static List<Ref> refs(List<Token> toks, Catalog cat) {
        List<Ref> out = new ArrayList<>();
        for (int i = 0; i < toks.size(); i++) {
            Token t = toks.get(i);
            if (t.kind() != Token.Kind.WORD) {
                continue;
            }
            String w = t.upper();
            int j = i + 1;
            switch (w) {
                case "FROM":
                case "JOIN":
                case "USING":
                    parseList(toks, j, cat, out, true);
                    break;
                case "INTO":
                case "UPDATE":
                case "DELETE":
                case "MERGE":
                    if (i > 0 && (w.equals("UPDATE") || w.equals("DELETE")) && toks.get(i - 1).is("ON")) {
                        break; // ON UPDATE / ON DELETE in DDL
                    }
                    j = skipTop(toks, j);
                    if (j < toks.size() && (toks.get(j).is("INTO") || toks.get(j).is("FROM"))) {
                        break; // the next keyword parses the reference
                    }
                    parseList(toks, j, cat, out, false);
                    break;
                default:
                    break;
            }
        }
        return out;
    }

    /** Parses table references at {@code j}, following commas when {@code list}. */
    private static void parseList(List<Token> toks, int j, Catalog cat, List<Ref> out, boolean list) {
        while (j < toks.size()) {
            Token t = toks.get(j);
            if (!t.isIdentifier() || t.kind() == Token.Kind.WORD && NOT_ALIAS.contains(t.upper())) {
                return; // a derived table "(SELECT ...)" (scanned on its own), a variable, or not a name at all
            }
            ObjectName n;
            try {
                n = ObjectName.at(toks, j);
            } catch (SqlServerError e) {
                return;
            }
            int k = n.next;
            if (k < toks.size() && toks.get(k).isSymbol("(") && !(k + 1 < toks.size()
                    && HINTS.contains(toks.get(k + 1).upper()))) {
                return; // a function call such as OBJECT_ID(...) or a table-valued function, or INSERT INTO t (cols)
            }
            String alias = null;
            if (k + 1 < toks.size() && toks.get(k).is("AS") && toks.get(k + 1).isIdentifier()) {
                alias = toks.get(k + 1).value();
                k += 2;
            } else if (k < toks.size() && toks.get(k).isIdentifier()
                    && !(toks.get(k).kind() == Token.Kind.WORD && NOT_ALIAS.contains(toks.get(k).upper()))) {
                alias = toks.get(k).value();
                k++;
            }
            Set<String> hints = new LinkedHashSet<>();
            if (k + 1 < toks.size() && toks.get(k).is("WITH") && toks.get(k + 1).isSymbol("(")) {
                k = readHints(toks, k + 1, hints);
            } else if (k + 1 < toks.size() && toks.get(k).isSymbol("(") && HINTS.contains(toks.get(k + 1).upper())) {
                k = readHints(toks, k, hints);
            }
            out.add(new Ref(cat.table(n.schema, n.name), alias, hints));
            if (list && k < toks.size() && toks.get(k).isSymbol(",")) {
                j = k + 1;
                continue;
            }
            return;
        }
    }

    /** Reads {@code ( hint [, hint] ... )} starting at the "(", returns the index after ")". */
    private static int readHints(List<Token> toks, int open, Set<String> hints) {
        int depth = 0;
        int i = open;
        while (i < toks.size()) {
            Token t = toks.get(i++);
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")")) {
                if (--depth == 0) {
                    break;
                }
            } else if (depth == 1 && t.kind() == Token.Kind.WORD) {
                hints.add(t.upper());
            }
        }
        return i;
    }

    private static int skipGroup(List<Token> toks, int open) {
        int depth = 0;
        int i = open;
        while (i < toks.size()) {
            Token t = toks.get(i++);
            if (t.isSymbol("(")) {
                depth++;
            } else if (t.isSymbol(")") && --depth == 0) {
                break;
            }
        }
        return i;
    }
}
