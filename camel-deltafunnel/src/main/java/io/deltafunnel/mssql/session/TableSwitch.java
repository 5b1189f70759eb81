package io.deltafunnel.mssql.session;

import java.sql.SQLException;
import java.util.List;
import java.util.function.Supplier;

import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.ReplaceStrategy;
import io.deltafunnel.mssql.SqlIdentifiers;
import io.deltafunnel.mssql.SqlServerErrors;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.TargetCatalog;
import io.deltafunnel.mssql.channel.SqlChannel;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The final step of a replace ({@code replaceStrategy}, docs/producer.md): the loaded staging heap takes the target's
 * place by {@code ALTER TABLE ... SWITCH}, or its rows are copied ({@code TRUNCATE} + {@code INSERT ... SELECT}).
 *
 * <ol>
 *   <li>{@link #plan} (before any row is written): reads the target's {@link TargetShape}; a target that cannot be
 *       switched (referenced by or owning a FOREIGN KEY, temporal, an identity or computed column, a columnstore,
 *       filtered or disabled index, a disabled CHECK) makes the run copy, or, with {@code replaceStrategy=switch},
 *       refuses it ({@link SwitchRefusedException}).</li>
 *   <li>{@link #prepare} (auto-commit on, outside the run's transaction: DDL): builds the target's indexes and CHECKs
 *       on the loaded staging table (once, after the load: the shards' TABLOCK loads into the heap stay BU), and
 *       creates the holding table {@code <staging>__hold} ({@code SELECT TOP 0 * INTO} plus the same shape). A
 *       failure here (a permission, a duplicate key in a unique index, a CHECK the rows break, DDL the server
 *       refuses) makes the run copy, with the reason logged, or fails it with {@code replaceStrategy=switch}.</li>
 *   <li>{@link #apply} (in the run's final transaction): checks that the staging table has the target's shape now,
 *       then {@code ALTER TABLE target SWITCH TO holding} and {@code ALTER TABLE staging SWITCH TO target}:
 *       metadata only, Sch-M on the three tables for that short step. A switch SQL Server refuses (49xx, a missing
 *       permission) while the transaction is still open falls back to the copy in the same transaction (nothing is
 *       committed before); any other error fails the run (its transaction rolls back: the target is as before).</li>
 *   <li>{@link #dropHolding} after the commit (the target's old rows) and on clean-up.</li>
 * </ol>
 *
 * The target keeps its object: its indexes, constraints, triggers, permissions and extended properties stay. When a
 * copy is chosen, exactly one log line names the reason. The caller owns the channel and the transaction. Not
 * thread-safe.
 */
public final class TableSwitch {

    private static final Logger LOG = LoggerFactory.getLogger(TableSwitch.class);

    /** The holding table's suffix after the staging table's name. */
    public static final String HOLD_SUFFIX = "__hold";

    /** SQL Server 1913: "The operation failed because an index or statistics with name '%.*ls' already exists ...". */
    static final int INDEX_EXISTS = 1913;
    /** SQL Server 229: "The %ls permission was denied on the object ...". */
    static final int PERMISSION_DENIED = 229;
    /** SQL Server 1088: "Cannot find the object ... because it does not exist or you do not have permissions.". */
    static final int NO_OBJECT_OR_PERMISSION = 1088;
    /** The emulator's "not supported" (e.g. a switch into a table referenced by a FOREIGN KEY). */
    static final int NOT_SUPPORTED = 50100;

    private final String who;
    private final TableName target;
    private final TableName staging;
    private final TableName holding;
    private final ReplaceStrategy strategy;
    private final Supplier<BulkLoadException.Context> context;
    private final TargetShape shape;
    /** Why the rows are copied, or null while a switch is planned. */
    private String copyReason;
    private boolean holdingCreated;
    private boolean switched;

    private TableSwitch(String who, TableName target, TableName staging, ReplaceStrategy strategy,
            Supplier<BulkLoadException.Context> context, TargetShape shape, String copyReason) {
        this.who = who;
        this.target = target;
        this.staging = staging;
        this.holding = holdingFor(staging);
        this.strategy = strategy;
        this.context = context;
        this.shape = shape;
        this.copyReason = copyReason;
    }

    /** {@code <staging>__hold} in the staging table's schema, within SQL Server's 128-character limit. */
    public static TableName holdingFor(TableName staging) {
        String base = staging.table();
        if (base.length() + HOLD_SUFFIX.length() > SqlIdentifiers.MAX_LENGTH) {
            base = base.substring(0, SqlIdentifiers.MAX_LENGTH - HOLD_SUFFIX.length());
        }
        return staging.sibling(base + HOLD_SUFFIX);
    }

    /**
     * Decides switch or copy for replacing {@code target} by {@code staging}, from the target's catalog.
     *
     * @param who names the run in log lines and errors (e.g. "Run 1234")
     * @throws SwitchRefusedException with {@code replaceStrategy=switch} when the target cannot be switched
     */
    public static TableSwitch plan(SqlChannel c, String who, TableName target, TableName staging,
            ReplaceStrategy strategy, Supplier<BulkLoadException.Context> context) throws SQLException {
        if (strategy == ReplaceStrategy.COPY) {
            LOG.debug("{}: replace of {} copies (replaceStrategy=copy)", who, target);
            return new TableSwitch(who, target, staging, strategy, context, null, "replaceStrategy=copy");
        }
        TargetShape shape = TargetShape.read(c, target);
        String cannot = shape.cannotSwitch();
        if (cannot != null && strategy == ReplaceStrategy.SWITCH) {
            throw new SwitchRefusedException("replaceStrategy=switch cannot replace " + target + " by ALTER TABLE"
                    + " ... SWITCH: " + cannot + "; nothing was written (use replaceStrategy=auto or copy)",
                    context.get(), null);
        }
        TableSwitch plan = new TableSwitch(who, target, staging, strategy, context, shape, null);
        if (cannot != null) {
            plan.copyInstead(cannot, false);
        }
        return plan;
    }

    /** True while the replace is to be done by a switch. */
    public boolean switching() {
        return copyReason == null;
    }

    /** Why the rows are copied instead, or null. */
    public String copyReason() {
        return copyReason;
    }

    public TableName holding() {
        return holding;
    }

    /**
     * Outside the run's transaction, auto-commit on: the target's indexes and CHECKs onto the loaded staging table,
     * and the holding table. Nothing when a copy is planned.
     *
     * @param sharedStaging the staging table is a load's, whose other shards may be building the same shape: an
     *                      index or constraint that exists already (1913, 2714) is taken as built
     */
    public void prepare(SqlChannel c, boolean sharedStaging) throws SQLException {
        if (!switching()) {
            return;
        }
        try {
            for (String ddl : shape.ddlFor(staging)) {
                try {
                    c.execute(ddl);
                } catch (SQLException e) {
                    if (!sharedStaging || e.getErrorCode() != INDEX_EXISTS
                            && e.getErrorCode() != StagingTable.ALREADY_EXISTS) {
                        throw e;
                    }
                }
            }
            new StagingTable(holding).drop(c); // one left by an earlier, failed final step
            holdingCreated = true;
            c.execute("SELECT TOP 0 * INTO " + holding.quoted() + " FROM " + target.quoted());
            for (String ddl : shape.ddlFor(holding)) {
                c.execute(ddl);
            }
        } catch (SQLException e) {
            if (strategy == ReplaceStrategy.SWITCH) {
                throw new SwitchRefusedException("replaceStrategy=switch: building the indexes and constraints of "
                        + target + " on " + staging + " or " + holding + " failed (error " + e.getErrorCode() + ": "
                        + e.getMessage() + "); nothing was written to " + target, context.get()
                        .withErrorNumber(SqlServerErrors.errorNumber(e)), e);
            }
            copyInstead("building its indexes and constraints on the staging table failed (error "
                    + e.getErrorCode() + ": " + e.getMessage() + ")", true);
        }
    }

    /**
     * In the run's final transaction: switches the staging table in (the target's rows out to the holding table),
     * or runs {@code copy}.
     *
     * @param switchedRows the rows the staging table holds, asked only after a switch (for the caller's counters)
     * @return the rows that went into the target
     */
    public long apply(SqlChannel c, RowsStep copy, RowsStep switchedRows) throws SQLException {
        if (switching()) {
            String difference = shape.differenceFrom(TargetShape.read(c, staging));
            if (difference != null) {
                refuseOrCopy("the staging table's shape differs from the target's: " + difference, null);
            }
        }
        if (switching()) {
            try {
                c.execute("ALTER TABLE " + target.quoted() + " SWITCH TO " + holding.quoted());
                c.execute("ALTER TABLE " + staging.quoted() + " SWITCH TO " + target.quoted());
                switched = true;
                long rows = switchedRows.run();
                LOG.info("{}: replaced the rows of {} by ALTER TABLE ... SWITCH from {} ({} indexes and CHECK"
                        + " constraints built on it)", who, target, staging, shape.size());
                return rows;
            } catch (SQLException e) {
                if (!isSwitchRefusal(e) || !transactionOpen(c)) {
                    throw e;
                }
                refuseOrCopy("SQL Server refused the switch (error " + e.getErrorCode() + ": " + e.getMessage()
                        + ")", e);
            }
        }
        return copy.run();
    }

    private void refuseOrCopy(String reason, SQLException cause) throws SQLException {
        if (strategy == ReplaceStrategy.SWITCH) {
            SQLException e = new SQLException("replaceStrategy=switch cannot replace " + target + ": " + reason
                    + "; the run's transaction is rolled back", cause == null ? null : cause.getSQLState(),
                    cause == null ? 0 : cause.getErrorCode(), cause);
            throw e;
        }
        copyInstead(reason, true);
    }

    /** Whether the replace went in by a switch (after {@link #apply}). */
    public boolean switched() {
        return switched;
    }

    /** SQL Server refused the switch itself (49xx, a permission, the emulator's 50100): a copy may still work. */
    static boolean isSwitchRefusal(SQLException e) {
        int n = e.getErrorCode();
        return n >= 4900 && n <= 4999 || n == PERMISSION_DENIED || n == NO_OBJECT_OR_PERMISSION || n == NOT_SUPPORTED;
    }

    private static boolean transactionOpen(SqlChannel c) throws SQLException {
        List<Object[]> r = c.query("SELECT @@TRANCOUNT");
        return !r.isEmpty() && r.get(0)[0] instanceof Number n && n.intValue() > 0;
    }

    private void copyInstead(String reason, boolean failure) {
        copyReason = reason;
        if (failure) {
            LOG.warn("{}: replace of {} copies the rows instead of switching: {}", who, target, reason);
        } else {
            LOG.info("{}: replace of {} copies the rows instead of switching: {}", who, target, reason);
        }
    }

    /** Drops the holding table when this plan created it (auto-commit on). */
    public void dropHolding(SqlChannel c) throws SQLException {
        if (holdingCreated) {
            new StagingTable(holding).drop(c);
            holdingCreated = false;
        }
    }

    /** A statement that yields a row count and may fail with a {@link SQLException}. */
    @FunctionalInterface
    public interface RowsStep {
        long run() throws SQLException;
    }
}
