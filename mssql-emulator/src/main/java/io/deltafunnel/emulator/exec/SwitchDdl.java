package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.h2.H2AlterTable;
import io.deltafunnel.emulator.h2.H2Errors;
import io.deltafunnel.emulator.semantics.ColumnDef;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.IdentityReseeder;
import io.deltafunnel.emulator.semantics.LockManager;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.SwitchChecks;
import io.deltafunnel.emulator.semantics.SwitchStorage;
import io.deltafunnel.emulator.semantics.TableDef;
import io.deltafunnel.emulator.tsql.Identifiers;
import io.deltafunnel.emulator.tsql.ObjectName;
import io.deltafunnel.emulator.tsql.StatementParser;
import io.deltafunnel.emulator.tsql.Stmt;
import io.deltafunnel.tds.DoneStatus;

import java.io.IOException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code ALTER TABLE source SWITCH [PARTITION 1] TO target [PARTITION 1]} between two non-partitioned tables: every
 * row of the source becomes a row of the empty target and the source is left empty, the tables' definitions,
 * indexes, constraints and identity seeds unchanged. Like SQL Server the emulator changes only metadata: the two
 * tables exchange the H2 tables that store their rows ({@link #exchange}); only when those H2 tables are not
 * interchangeable ({@link SwitchStorage}: the IDENTITY property, CHECK constraints, unique indexes or foreign keys
 * differ) it moves the rows ({@link #copy}). The requirements are {@link SwitchChecks}'s, plus an empty target
 * (4905).
 *
 * <p>Unlike other DDL it is allowed inside a user transaction (a ROLLBACK undoes it), like SQL Server. It takes
 * Sch-M on the source, then the target, held to the end of the transaction (under autocommit: of the statement), so
 * it waits for readers and writers of either table and they wait for it; sessions are not blocked before it runs.
 * {@code PARTITION n} on a non-partitioned table is ignored with warning 4903, as SQL Server does; partitioned
 * tables do not exist in the emulator. Owned by the {@link DdlHandler} that routes to it, for one statement.
 */
final class SwitchDdl {
    private final ExecContext ctx;
    private final Session s;

    SwitchDdl(ExecContext ctx) {
        this.ctx = ctx;
        this.s = ctx.session;
    }

    /** True for {@code ALTER TABLE name SWITCH ...}. */
    static boolean isSwitch(Stmt st) {
        return st.kw(1, "TABLE") && StatementParser.topLevelIndex(st.tokens, "SWITCH") > 2;
    }

    void execute(Stmt st) throws SqlServerError, SQLException, IOException {
        ObjectName sourceName = ObjectName.at(st.tokens, 2);
        int i = sourceName.next;
        if (!st.kw(i, "SWITCH")) {
            throw SqlServerError.syntax(i < st.tokens.size() ? st.tokens.get(i).text() : "end of statement");
        }
        i++;
        Integer sourcePartition = null;
        if (st.kw(i, "PARTITION")) {
            sourcePartition = partition(st, i + 1);
            i += 2;
        }
        if (!st.kw(i, "TO")) {
            throw SqlServerError.syntax(i < st.tokens.size() ? st.tokens.get(i).text() : "end of statement");
        }
        ObjectName targetName = ObjectName.at(st.tokens, i + 1);
        i = targetName.next;
        Integer targetPartition = null;
        if (st.kw(i, "PARTITION")) {
            targetPartition = partition(st, i + 1);
            i += 2;
        }
        if (i != st.tokens.size()) {
            throw SqlServerError.unsupported(BatchExecutor.abbreviate(st.text) + " (ALTER TABLE ... SWITCH supports no"
                    + " WITH options)");
        }
        TableDef src = existing(sourceName);
        TableDef dst = existing(targetName);
        s.locks.lock(src, LockManager.Mode.SCH_M, LockManager.Duration.TRANSACTION, false);
        s.locks.lock(dst, LockManager.Mode.SCH_M, LockManager.Duration.TRANSACTION, false);
        SwitchChecks.check(s.catalog(), s.database, src, dst);
        if (sourcePartition != null) {
            ignoredPartition(sourcePartition, src);
        }
        if (targetPartition != null) {
            ignoredPartition(targetPartition, dst);
        }
        try (Statement x = s.h2.createStatement()) {
            try (ResultSet rs = x.executeQuery("SELECT 1 FROM " + dst.h2Name() + " FETCH FIRST 1 ROW ONLY")) {
                if (rs.next()) {
                    throw ErrorCatalog.SWITCH_TARGET_NOT_EMPTY.error("ALTER TABLE SWITCH statement failed. The target"
                            + " table '" + dst.messageName(s.database) + "' must be empty.");
                }
            }
            if (SwitchStorage.whyNotExchangeable(s.catalog(), src, dst) == null) {
                exchange(src, dst);
            } else {
                copy(x, src, dst);
            }
        } catch (SQLException e) {
            throw H2Errors.map(e, dst, s.database);
        }
        ctx.done(DoneStatus.CMD_NONE, -1);
    }

    /**
     * Metadata only: the two tables exchange their H2 tables in the catalog, no row moves. Each H2 table's identity
     * generator travels with it, so each is restarted where the other one stood: the target goes on from its own
     * next value (not past the switched-in rows) and the source from its own (after its last value), as SQL Server
     * keeps both seeds. Column defaults that differ are set on the H2 tables the same way. These run on the DDL
     * connection (H2 DDL on the session's would commit its transaction); inside a transaction an undo exchanges the
     * tables back and restores both generators and defaults.
     */
    private void exchange(TableDef src, TableDef dst) throws SQLException {
        TableDef.Storage srcStorage = src.storage();
        TableDef.Storage dstStorage = dst.storage();
        List<String> fixes = new ArrayList<>();
        List<String> undoFixes = new ArrayList<>();
        for (int i = 0; i < src.columns().size(); i++) {
            ColumnDef c = src.columns().get(i);
            ColumnDef d = dst.columns().get(i);
            if (!java.util.Objects.equals(c.defaultH2(), d.defaultH2())) {
                // defaults belong to the H2 columns: each table's own default on the H2 table it takes over
                fixes.add(H2AlterTable.columnDefault(srcStorage, d));
                fixes.add(H2AlterTable.columnDefault(dstStorage, c));
                undoFixes.add(H2AlterTable.columnDefault(srcStorage, c));
                undoFixes.add(H2AlterTable.columnDefault(dstStorage, d));
            }
            if (!c.identity()) {
                continue;
            }
            Long srcNext = IdentityReseeder.identityBase(s.h2, srcStorage, c.name());
            Long dstNext = IdentityReseeder.identityBase(s.h2, dstStorage, c.name());
            if (srcNext == null || dstNext == null) {
                throw new SQLException("identity column " + c.name() + " of " + src.messageName(s.database) + " or "
                        + dst.messageName(s.database) + " has no H2 identity base");
            }
            String col = " ALTER COLUMN " + Identifiers.h2Quote(c.name()) + " RESTART WITH ";
            fixes.add("ALTER TABLE " + srcStorage.h2Name() + col + dstNext);
            fixes.add("ALTER TABLE " + dstStorage.h2Name() + col + srcNext);
            undoFixes.add("ALTER TABLE " + srcStorage.h2Name() + col + srcNext);
            undoFixes.add("ALTER TABLE " + dstStorage.h2Name() + col + dstNext);
        }
        DdlUndoLog.DdlUndo undo = () -> {
            s.catalog().swapStorage(src.objectId(), dst.objectId());
            for (String sql : undoFixes) {
                s.emu.database().runDdl(sql);
            }
        };
        s.catalog().swapStorage(src.objectId(), dst.objectId());
        try {
            for (String sql : fixes) {
                s.emu.database().runDdl(sql);
            }
        } catch (SQLException e) {
            undo.undo();
            throw e;
        }
        if (s.inTransaction()) {
            s.ddlUndo.add(undo);
        }
    }

    /**
     * The rows move with INSERT ... SELECT and DELETE on the session's connection (undone with the statement or the
     * transaction), for tables whose H2 tables are not interchangeable ({@link SwitchStorage}).
     */
    private static void copy(Statement x, TableDef src, TableDef dst) throws SQLException {
        StringBuilder cols = new StringBuilder();
        for (ColumnDef c : src.columns()) {
            cols.append(cols.length() > 0 ? ", " : "").append(Identifiers.h2Quote(c.name()));
        }
        // explicit identity values: H2 does not move the target's identity generator, and the emulator's
        // IDENTITY_INSERT reseeding is not involved (SQL Server leaves both identity seeds as they were)
        x.executeUpdate("INSERT INTO " + dst.h2Name() + " (" + cols + ") SELECT " + cols + " FROM " + src.h2Name());
        x.executeUpdate("DELETE FROM " + src.h2Name());
    }

    private TableDef existing(ObjectName n) throws SqlServerError {
        TableDef t = s.catalog().table(n.schema, n.name);
        if (t == null) {
            throw ErrorCatalog.ALTER_TABLE_NO_OBJECT.error("Cannot find the object \"" + n.name
                    + "\" because it does not exist or you do not have permissions.");
        }
        return t;
    }

    private static int partition(Stmt st, int i) throws SqlServerError {
        if (i >= st.tokens.size() || st.tokens.get(i).kind() != io.deltafunnel.emulator.tsql.Token.Kind.NUMBER) {
            throw SqlServerError.unsupported(BatchExecutor.abbreviate(st.text) + " (a PARTITION number other than an"
                    + " integer literal)");
        }
        try {
            return Integer.parseInt(st.tokens.get(i).text());
        } catch (NumberFormatException e) {
            throw SqlServerError.syntax(st.tokens.get(i).text());
        }
    }

    private void ignoredPartition(int number, TableDef t) {
        ctx.response.info(ErrorCatalog.SWITCH_PARTITION_IGNORED.number(), "Warning: The specified partition " + number
                + " for the table '" + t.messageName(s.database) + "' was ignored in ALTER TABLE SWITCH statement"
                + " because the table is not partitioned.");
    }
}
