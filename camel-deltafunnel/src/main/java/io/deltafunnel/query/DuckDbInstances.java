package io.deltafunnel.query;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.duckdb.DuckDBConnection;

/**
 * Long-lived in-memory DuckDB instances, one per distinct {@code initSql} and {@code allowExtensionAutoInstall}, each
 * handing out connections of its own ({@link DuckDBConnection#duplicate()}) to the runs, plan and checks of the
 * endpoints that share it (issue #29, docs/sharding.md "Measured").
 *
 * <p><b>Why.</b> A fresh DuckDB instance costs about 0.1 s of CPU before it reads a row (its catalog and built-in
 * functions), and N shard routes in one JVM started N + N + 1 of them per load (the shard-safety check, the run, the
 * plan's pin). With this, a JVM's endpoints start each instance once; what a run registers (its Delta views and their
 * helper tables) is {@code TEMP}, private to its connection, and dropped when the connection closes.
 *
 * <p><b>Init SQL.</b> An instance runs its settings' {@code initSql} once, on the connection that starts it, before
 * any other connection exists: instance-wide state ({@code SET threads}, {@code SET memory_limit} and the other
 * {@code GLOBAL} options, {@code ATTACH}, secrets, macros) is then every connection's. A {@code SET SESSION} option
 * stays with that first connection; endpoints that need one per run use their own instance per run
 * ({@code sharedDuckDb=false}).
 *
 * <p><b>Ownership.</b> The creator (the {@code deltafunnel:} component) owns this registry and closes it after its
 * endpoints have stopped; each connection {@link #open} returns is the caller's to close. An instance lives until its
 * first connection (held here) and every connection handed out are closed. A first connection that no longer hands
 * out connections (DuckDB invalidated the instance after a fatal error) is dropped and a new instance started, once.
 *
 * <p><b>Worker threads.</b> A run's query stream holds a {@link #streamStarted} lease while it reads: the instances
 * run fewer DuckDB worker threads while several streams read from them at once ({@link StreamThreads}), so that N
 * shard routes of one JVM do not run N asking threads and all of DuckDB's workers on the same cores.
 */
public final class DuckDbInstances implements AutoCloseable {

    private record Key(List<String> initSql, boolean allowExtensionAutoInstall) {
    }

    /** A running instance: its first connection (held here) and its thread count. */
    private record Running(DuckDBConnection first, StreamThreads threads) {
    }

    private final Map<Key, Running> instances = new HashMap<>();
    private final int cores;
    /** The query streams reading from this registry's instances now ({@link #streamStarted}). */
    private int streams;
    /** Each running instance's function names for the shard-safety check (dropped when the instance is restarted). */
    private final Map<Key, FunctionNames.Cache> functionNames = new HashMap<>();
    private boolean closed;

    /** A registry whose instances size their worker threads for this JVM's cores. */
    public DuckDbInstances() {
        this(Runtime.getRuntime().availableProcessors());
    }

    /** A registry whose instances size their worker threads for {@code cores} cores (tests). */
    DuckDbInstances(int cores) {
        if (cores < 1) {
            throw new IllegalArgumentException("cores " + cores);
        }
        this.cores = cores;
    }

    /**
     * A connection of its own on the shared instance of {@code settings} (started now when there is none). The caller
     * owns and closes it.
     *
     * @throws IllegalArgumentException when {@code settings} name a database file (only in-memory instances are shared)
     * @throws IllegalStateException    after {@link #close()}
     * @throws SQLException             when the instance cannot be started (its init SQL named) or connected to
     */
    public synchronized Connection open(DuckDbSettings settings) throws SQLException {
        if (!settings.inMemoryDatabase()) {
            throw new IllegalArgumentException("only in-memory DuckDB instances are shared; database "
                    + settings.database() + " is opened per connection");
        }
        if (closed) {
            throw new IllegalStateException("the shared DuckDB instances are closed (the component stopped)");
        }
        Key key = new Key(settings.initSql(), settings.allowExtensionAutoInstall());
        Running running = instances.get(key);
        if (running != null) {
            DuckDBConnection first = running.first();
            try {
                return first.duplicate();
            } catch (SQLException invalidated) {
                instances.remove(key);
                try {
                    first.close();
                } catch (SQLException closeFailure) {
                    invalidated.addSuppressed(closeFailure);
                }
                try {
                    return start(key, settings);
                } catch (SQLException | RuntimeException restart) {
                    restart.addSuppressed(invalidated);
                    throw restart;
                }
            }
        }
        return start(key, settings);
    }

    private Connection start(Key key, DuckDbSettings settings) throws SQLException {
        DuckDBConnection first = DuckDbConnections.openInstance(settings).unwrap(DuckDBConnection.class);
        try {
            StreamThreads budget = new StreamThreads(threadsOf(first), cores, key.initSql());
            Connection connection = first.duplicate();
            instances.put(key, new Running(first, budget));
            functionNames.remove(key);
            return connection;
        } catch (SQLException | RuntimeException e) {
            try {
                first.close();
            } catch (SQLException closeFailure) {
                e.addSuppressed(closeFailure);
            }
            throw e;
        }
    }

    private static int threadsOf(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT CAST(current_setting('threads') AS INTEGER)")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    /**
     * A query stream of {@code settings}' shared instance starts reading (the instance must be running: the stream's
     * connection was {@link #open}ed from it): every instance of this registry is sized for one more stream
     * ({@link StreamThreads}). The caller closes the lease when the stream ends.
     *
     * @throws SQLException when an instance refuses its new thread count; the stream is then not counted
     */
    public synchronized StreamLease streamStarted(DuckDbSettings settings) throws SQLException {
        Key key = new Key(settings.initSql(), settings.allowExtensionAutoInstall());
        if (!instances.containsKey(key)) {
            throw new IllegalStateException("no shared DuckDB instance runs for init SQL " + settings.initSql());
        }
        streams++;
        try {
            resize();
        } catch (SQLException | RuntimeException e) {
            streams--; // not started after all; an instance that was resized is set back on the next change
            throw e;
        }
        return new StreamLease();
    }

    private synchronized void streamEnded() throws SQLException {
        streams--;
        if (!closed) {
            resize();
        }
    }

    /**
     * Sets each instance's thread count for the streams reading now where it changes ({@link StreamThreads}); an
     * instance that refuses is left as it was, the others are still set, and the first failure is thrown.
     */
    private void resize() throws SQLException {
        SQLException failure = null;
        for (Map.Entry<Key, Running> e : instances.entrySet()) {
            StreamThreads budget = e.getValue().threads();
            int t = budget.change(streams);
            if (t == 0) {
                continue;
            }
            // an int: nothing of a user's is concatenated into the statement
            try (Statement st = e.getValue().first().createStatement()) {
                st.execute("SET threads = " + t);
                budget.applied(t);
            } catch (SQLException f) {
                SQLException named = new SQLException("SET threads = " + t + " on the shared DuckDB instance with init"
                        + " SQL " + e.getKey().initSql() + " (" + streams + " streams reading) failed: "
                        + f.getMessage(), f.getSQLState(), f);
                if (failure == null) {
                    failure = named;
                } else {
                    failure.addSuppressed(named);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * The thread count of {@code settings}' shared instance now, and the streams reading from this registry's
     * instances (for tests and diagnostics); null when no instance runs for the settings.
     */
    synchronized int[] threadsAndStreams(DuckDbSettings settings) {
        Running running = instances.get(new Key(settings.initSql(), settings.allowExtensionAutoInstall()));
        return running == null ? null : new int[] {running.threads().threads(), streams};
    }

    /**
     * A query stream's hold on the registry's thread budget ({@link #streamStarted}); its owner (the run) closes it
     * when the stream ends. Closing it again does nothing.
     */
    public final class StreamLease implements AutoCloseable {
        private boolean ended;

        private StreamLease() {
        }

        /** @throws SQLException when an instance refuses its new thread count (the stream has ended all the same) */
        @Override
        public void close() throws SQLException {
            synchronized (DuckDbInstances.this) {
                if (ended) {
                    return;
                }
                ended = true;
                streamEnded();
            }
        }
    }

    /**
     * The function names of the shared instance of {@code settings} for {@link ShardSafety}, read from
     * {@code connection} (a connection of that instance, {@link #open}ed with the same settings; the caller's) once per
     * instance and set of loaded extensions ({@link FunctionNames.Cache}): N shard routes of one JVM scan DuckDB's
     * function catalog once instead of N times.
     */
    FunctionNames functionNames(DuckDbSettings settings, Connection connection) throws SQLException {
        FunctionNames.Cache cache;
        synchronized (this) {
            cache = functionNames.computeIfAbsent(new Key(settings.initSql(), settings.allowExtensionAutoInstall()),
                    k -> new FunctionNames.Cache());
        }
        return cache.names(connection);
    }

    /** How many instances are started (for tests and diagnostics). */
    public synchronized int size() {
        return instances.size();
    }

    /**
     * Closes every instance's first connection (an instance ends when the connections handed out are closed too);
     * later {@link #open} calls fail. Every connection is closed even when one fails; the first failure is thrown with
     * the later ones suppressed.
     */
    @Override
    public synchronized void close() {
        closed = true;
        IllegalStateException failure = null;
        for (Map.Entry<Key, Running> e : new ArrayList<>(instances.entrySet())) {
            try {
                e.getValue().first().close();
            } catch (SQLException | RuntimeException f) {
                if (failure == null) {
                    failure = new IllegalStateException("closing the shared DuckDB instance with init SQL "
                            + e.getKey().initSql() + " failed", f);
                } else {
                    failure.addSuppressed(f);
                }
            }
        }
        instances.clear();
        if (failure != null) {
            throw failure;
        }
    }
}
