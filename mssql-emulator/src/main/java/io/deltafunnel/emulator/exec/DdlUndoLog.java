package io.deltafunnel.emulator.exec;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The undo actions of DDL that ran (auto-committed, on the DDL connection) inside a session's open transaction:
 * CREATE TABLE, SELECT INTO, CREATE SCHEMA, TRUNCATE's identity restart. A rollback runs them newest first.
 */
final class DdlUndoLog {
    private static final Logger LOG = Logger.getLogger(DdlUndoLog.class.getName());

    /** Reverts a DDL statement that H2 could not make transactional. */
    interface DdlUndo {
        void undo() throws SQLException;
    }

    private final List<DdlUndo> undo = new ArrayList<>();

    void add(DdlUndo u) {
        undo.add(u);
    }

    /** Rollback: runs every action, newest first; a failing one is logged and the rest still run. */
    void undoAll() {
        for (int i = undo.size() - 1; i >= 0; i--) {
            try {
                undo.get(i).undo();
            } catch (SQLException e) {
                LOG.log(Level.WARNING, "undoing DDL of a rolled back transaction failed", e);
            }
        }
        undo.clear();
    }

    /** The position of the next action (a savepoint's mark). */
    int mark() {
        return undo.size();
    }

    /** Rollback to a savepoint: runs the actions added after {@code mark}, newest first, and forgets them. */
    void undoAfter(int mark) {
        for (int i = undo.size() - 1; i >= mark; i--) {
            try {
                undo.get(i).undo();
            } catch (SQLException e) {
                LOG.log(Level.WARNING, "undoing DDL after a rolled back savepoint failed", e);
            }
            undo.remove(i);
        }
    }

    /** Commit: the DDL stays. */
    void forget() {
        undo.clear();
    }
}
