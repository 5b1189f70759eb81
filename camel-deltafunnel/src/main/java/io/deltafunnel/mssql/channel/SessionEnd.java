package io.deltafunnel.mssql.channel;

import java.sql.SQLException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a session ends when its transaction did not commit: the open transaction is rolled back; when that fails, or
 * the channel's state is otherwise in doubt, the session is {@linkplain SqlChannel#abort() aborted} and auto-commit
 * is never touched. Switching auto-commit on commits an open transaction (mssql-jdbc and the direct channel both send
 * {@code IF @@TRANCOUNT > 0 COMMIT TRAN}), so a failed rollback followed by {@code setAutoCommit(true)} would commit
 * exactly what the rollback was meant to undo. Stateless; the caller keeps owning the channel.
 */
public final class SessionEnd {

    private static final Logger LOG = LoggerFactory.getLogger(SessionEnd.class);

    private SessionEnd() {
    }

    /**
     * Rolls back {@code c}'s open transaction (nothing when it is in auto-commit mode).
     *
     * @param into  the failure that ends the session: a failed rollback is added to it as suppressed; when null (a
     *              discarded run, a clean-up after success) the rollback failure is logged at warn level
     * @param where names the session in the log line (run, shard)
     * @return true when the channel is open with no transaction (auto-commit may now be switched on); false when it
     *         was closed already or the rollback failed, in which case it has been aborted
     */
    public static boolean rollback(SqlChannel c, Throwable into, String where) {
        if (c == null) {
            return false;
        }
        if (c.isClosed()) {
            c.abort(); // a broken channel: make sure the socket is gone
            return false;
        }
        try {
            if (!c.getAutoCommit()) {
                c.rollback();
            }
            return true;
        } catch (SQLException | RuntimeException e) {
            report(into, e, where + ": the rollback failed; the connection is aborted (SQL Server rolls back what"
                    + " was not committed when the session ends)");
            c.abort();
            return false;
        }
    }

    /** Adds {@code failure} to {@code into} as suppressed, or logs it at warn level when there is no primary failure. */
    public static void report(Throwable into, Throwable failure, String what) {
        if (into != null) {
            if (into != failure) {
                into.addSuppressed(failure);
            }
        } else {
            LOG.warn("{}: {}", what, failure.toString());
        }
    }
}
