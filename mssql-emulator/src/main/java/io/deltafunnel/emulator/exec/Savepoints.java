package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;

import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.List;

/**
 * The named savepoints of a session's open transaction ({@code SAVE TRAN name}) and the name of its outermost
 * {@code BEGIN TRAN name}, as SAVE TRANSACTION and ROLLBACK TRANSACTION (Transact-SQL) document them:
 * <ul>
 *   <li>{@code SAVE TRAN name} without an active transaction is 628.</li>
 *   <li>{@code ROLLBACK TRAN name} rolls back to the most recent savepoint of that name ("Duplicate savepoint names
 *       are allowed in a transaction, but a ROLLBACK TRANSACTION statement that specifies the savepoint name will
 *       only roll the transaction back to the most recent SAVE TRANSACTION using that name"); the transaction stays
 *       open and {@code @@TRANCOUNT} is unchanged; the savepoint itself remains, later ones are gone.</li>
 *   <li>{@code ROLLBACK TRAN name} naming the outermost transaction rolls the whole transaction back; any other
 *       name is 6401. Names are case sensitive ("transaction_name is always case sensitive").</li>
 * </ul>
 * Each savepoint is an H2 savepoint of the session's connection, so everything written after it, bulk loads
 * included, is undone by a rollback to it; DDL run on the DDL connection after it (CREATE TABLE in a transaction)
 * is undone too. Locks taken after the savepoint stay held to the end of the transaction (SQL Server releases most of
 * them; a difference listed in the README). Owned by its {@link Session}; cleared when the transaction ends.
 */
final class Savepoints {
    private static final class Entry {
        final String name;
        Savepoint savepoint;
        final int ddlMark;

        Entry(String name, Savepoint savepoint, int ddlMark) {
            this.name = name;
            this.savepoint = savepoint;
            this.ddlMark = ddlMark;
        }
    }

    private final List<Entry> stack = new ArrayList<>();
    /** The name given to the outermost BEGIN TRAN, or null. */
    private String transactionName;

    /** The outermost BEGIN TRAN {@code name} (null when unnamed) started a transaction. */
    void transactionBegun(String name) {
        stack.clear();
        transactionName = name;
    }

    /** SAVE TRAN {@code name}. */
    void save(Session s, String name) throws SqlServerError, SQLException {
        if (!s.inTransaction()) {
            throw ErrorCatalog.SAVE_WITHOUT_TRANSACTION.error(
                    "Cannot issue SAVE TRANSACTION when there is no active transaction.");
        }
        stack.add(new Entry(name, s.h2.setSavepoint(), s.ddlUndo.mark()));
    }

    /**
     * ROLLBACK TRAN {@code name}: to the most recent savepoint of that name (returns true), or, naming the
     * outermost transaction, nothing here (returns false: the caller rolls the whole transaction back).
     */
    boolean rollbackTo(Session s, String name) throws SqlServerError, SQLException {
        if (!s.inTransaction()) {
            throw ErrorCatalog.ROLLBACK_WITHOUT_BEGIN.error(
                    "The ROLLBACK TRANSACTION request has no corresponding BEGIN TRANSACTION.");
        }
        for (int i = stack.size() - 1; i >= 0; i--) {
            Entry e = stack.get(i);
            if (e.name.equals(name)) {
                s.h2.rollback(e.savepoint);
                s.ddlUndo.undoAfter(e.ddlMark);
                stack.subList(i + 1, stack.size()).clear();
                // the savepoint stays usable: a fresh H2 savepoint at the same state
                e.savepoint = s.h2.setSavepoint();
                return true;
            }
        }
        if (name.equals(transactionName)) {
            return false;
        }
        throw ErrorCatalog.NO_SUCH_SAVEPOINT.error("Cannot roll back " + name
                + ". No transaction or savepoint of that name was found.");
    }

    /** The transaction ended (commit, rollback, reset, disconnect). */
    void clear() {
        stack.clear();
        transactionName = null;
    }
}
