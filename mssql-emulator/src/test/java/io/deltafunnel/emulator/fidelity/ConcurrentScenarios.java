package io.deltafunnel.emulator.fidelity;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.microsoft.sqlserver.jdbc.ISQLServerBulkData;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Base of the scenarios with several sessions at once (locking, application locks, the shard protocol): extra
 * sessions closed by {@link #closeSessions()}, statements run in other threads, and the helpers that show a wait
 * without timing assertions (a statement that has not finished while the blocker is open, and finishes after it;
 * the bounded waits are failure guards only).
 *
 * <p>The scenarios run in both modes of the database option READ_COMMITTED_SNAPSHOT: a subclass for the ON mode
 * says so in {@link #readCommittedSnapshot()}, and where SQL Server documents a different answer for the two modes
 * a scenario asserts the one of its mode.
 */
abstract class ConcurrentScenarios extends Scenarios {

    /** A wait that must end in 1222 (short, so the suite stays fast). */
    protected static final int SHORT_TIMEOUT_MS = 500;
    /** Failure guard for statements expected to finish. */
    protected static final long GUARD_SECONDS = 60;

    private final List<Connection> others = new ArrayList<>();
    private ExecutorService pool;

    @BeforeEach
    void startPool() {
        pool = Executors.newCachedThreadPool();
    }

    /**
     * Whether {@link #server()}'s database has READ_COMMITTED_SNAPSHOT ON; false (the default of an on-premises
     * database, and of {@code master}) unless a subclass for the ON mode says so.
     */
    protected boolean readCommittedSnapshot() {
        return false;
    }

    @Test
    void theDatabaseIsInTheReadCommittedSnapshotModeTheScenariosAssume() throws SQLException {
        assertEquals(readCommittedSnapshot(), Boolean.TRUE.equals(scalar("SELECT [is_read_committed_snapshot_on]"
                + " FROM sys.databases WHERE [name] = DB_NAME()")), "sys.databases.is_read_committed_snapshot_on");
    }

    /**
     * Closes the extra sessions (their transactions roll back, their locks go) and stops the threads. Subclasses
     * call it first in their {@code @AfterEach}, before dropping tables the sessions may still lock.
     */
    protected void closeSessions() throws SQLException {
        for (Connection c : others) {
            c.close();
        }
        others.clear();
        pool.shutdownNow();
    }

    /** Another session, closed by {@link #closeSessions()}. */
    protected Connection session() throws SQLException {
        Connection c = server().connect();
        others.add(c);
        return c;
    }

    protected static int intScalar(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertTrue(rs.next(), sql);
            return rs.getInt(1);
        }
    }

    protected <T> Future<T> inThread(Callable<T> work) {
        return pool.submit(work);
    }

    /** The statement in {@code f} is still waiting. */
    protected static void assertStillWaiting(Future<?> f) {
        assertThrows(TimeoutException.class, () -> f.get(300, TimeUnit.MILLISECONDS),
                "the statement should be waiting for the other session's lock");
    }

    /** The result of {@code f}, which must finish (guard: {@value #GUARD_SECONDS} s); its exception rethrown. */
    protected static <T> T finished(Future<T> f) throws Exception {
        try {
            return f.get(GUARD_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception x) {
                throw x;
            }
            throw e;
        }
    }

    /** Bulk-copy rows (id, v) with id = v = from..to-1. */
    protected static final class IntRows implements ISQLServerBulkData {
        private static final long serialVersionUID = 1L;
        private final int to;
        private int next;

        IntRows(int from, int to) {
            this.next = from - 1;
            this.to = to;
        }

        @Override
        public Set<Integer> getColumnOrdinals() {
            return Set.of(1, 2);
        }

        @Override
        public String getColumnName(int column) {
            return column == 1 ? "id" : "v";
        }

        @Override
        public int getColumnType(int column) {
            return Types.INTEGER;
        }

        @Override
        public int getPrecision(int column) {
            return 10;
        }

        @Override
        public int getScale(int column) {
            return 0;
        }

        @Override
        public Object[] getRowData() {
            return new Object[] {next, next};
        }

        @Override
        public boolean next() {
            return ++next < to;
        }
    }
}
