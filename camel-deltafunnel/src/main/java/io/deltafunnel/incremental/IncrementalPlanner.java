package io.deltafunnel.incremental;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.deltafunnel.delta.ChangeDataFeedException;
import io.deltafunnel.delta.ChangeFeed;
import io.deltafunnel.delta.DeltaException;
import io.deltafunnel.delta.DeltaLog;
import io.deltafunnel.delta.DeltaTableSpec;
import io.deltafunnel.delta.DeltaViews;
import io.deltafunnel.delta.ShardFilter;
import io.deltafunnel.delta.VersionNotFoundException;
import io.deltafunnel.handoff.DeltaFunnelStateStore;
import io.deltafunnel.handoff.IncrementalLoad;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;
import io.deltafunnel.query.PinningPreparer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans the runs of an incremental consumer (no Camel here): reads the last loaded versions from the
 * {@link DeltaFunnelStateStore}, lists each Delta table's log for its latest version, and decides whether there is
 * anything to load and what each view shows; then registers the views for the planned run.
 *
 * <p>Per table: {@code stored} = the state row's version (or none); {@code from} = {@code stored}, or the operator's
 * {@code startVersion} when there is no row; {@code to} = the latest version (or the table's {@code deltaVersion} pin).
 * A table is unchanged when {@code from == to}; a poll where every table is unchanged is not a run (the log listing is
 * all that is read). Otherwise, in {@link IncrementalMode#SNAPSHOT} each view is the snapshot at {@code to}; in
 * {@link IncrementalMode#CHANGES} each view is the change feed {@code (from, to]} (the whole snapshot as inserts when
 * there is no {@code from}), or, for a table without the change feed, the snapshot at {@code to} when
 * {@code fallbackToSnapshot} is set, else a {@link ChangeDataFeedException}.
 */
public final class IncrementalPlanner {

    private static final Logger LOG = LoggerFactory.getLogger(IncrementalPlanner.class);

    /** A planned run, or an unchanged poll ({@link #changed()} false). */
    public record Plan(IncrementalLoad load, boolean changed) {
    }

    private final String description;
    private final IncrementalMode mode;
    private final DeltaFunnelStateStore store;
    private final String stateKey;
    private final Long startVersion;
    private final boolean fallbackToSnapshot;
    private final List<DeltaTableSpec> specs;
    private final DuckDbSettings duckDb;

    public IncrementalPlanner(String description, IncrementalMode mode, DeltaFunnelStateStore store, String stateKey,
            Long startVersion, boolean fallbackToSnapshot, List<DeltaTableSpec> specs, DuckDbSettings duckDb) {
        if (mode == IncrementalMode.NONE) {
            throw new IllegalArgumentException("no planner for incremental=none");
        }
        if (specs.isEmpty()) {
            throw new IllegalArgumentException(description + ": incremental=" + mode.name().toLowerCase()
                    + " needs at least one delta.<view> table");
        }
        for (DeltaTableSpec s : specs) {
            if (s.timestamp() != null) {
                throw new IllegalArgumentException(description + ": deltaTimestamp." + s.view()
                        + " cannot be combined with incremental loads");
            }
        }
        this.description = description;
        this.mode = mode;
        this.store = Objects.requireNonNull(store, "store");
        this.stateKey = Objects.requireNonNull(stateKey, "stateKey");
        this.startVersion = startVersion;
        this.fallbackToSnapshot = fallbackToSnapshot;
        this.specs = List.copyOf(specs);
        this.duckDb = duckDb;
    }

    public String stateKey() {
        return stateKey;
    }

    /** Resets the state of this key (operator control): the next run starts from {@code startVersion} or anew. */
    public void reset() throws Exception {
        store.reset(stateKey);
        LOG.info("{}: incremental state of key '{}' reset in {}", description, stateKey, store.tableName());
    }

    public Plan plan() throws Exception {
        Map<String, Long> stored = store.loadedVersions(stateKey);
        List<IncrementalLoad.Source> sources = new ArrayList<>();
        boolean changed = false;
        try (Connection duck = DuckDbConnections.open(duckDb)) {
            for (DeltaTableSpec spec : specs) {
                long to = spec.version() != null ? spec.version() : DeltaLog.latestVersion(duck, spec.path());
                Long storedVersion = stored.get(spec.path());
                Long from = storedVersion != null ? storedVersion : startVersion;
                if (from != null && from > to) {
                    throw new VersionNotFoundException(spec.path(), "the state (key '" + stateKey + "' in "
                            + store.tableName() + ") says version " + from + " was loaded, but the table's latest"
                            + " version is " + to + " (table re-created? reset the state)");
                }
                boolean tableChanged = from == null || from != to;
                changed |= tableChanged;
                boolean changes = mode == IncrementalMode.CHANGES;
                if (changes && tableChanged && from != null && from < to) {
                    boolean enabled = ChangeFeed.enabled(DeltaLog.snapshot(duck, spec.path(), to, null));
                    if (!enabled) {
                        if (!fallbackToSnapshot) {
                            throw new ChangeDataFeedException(spec.path(), "incremental=changes needs "
                                    + ChangeFeed.ENABLE_PROPERTY + "=true on the table (or changeFeedFallback=snapshot"
                                    + " to load its snapshot instead)");
                        }
                        LOG.warn("{}: {} has no change data feed; loading its snapshot at version {} instead",
                                description, spec.path(), to);
                        changes = false;
                    }
                }
                sources.add(new IncrementalLoad.Source(spec.view(), spec.path(), storedVersion, from, to, changes));
            }
        }
        IncrementalLoad load = new IncrementalLoad(store.tableName(), stateKey, mode.name().toLowerCase(), sources);
        return new Plan(load, changed);
    }

    /** Registers the planned views on the run's connection; a replay of the run registers exactly the same. */
    public PinningPreparer preparer(Plan plan) {
        return preparer(plan.load(), null, null);
    }

    /**
     * Registers the views of {@code load} on the run's connection, the view {@code shardView} reduced to the files
     * of {@code shard} (one shard of a sharded load; {@code shard} null: everything). A replay registers exactly
     * the same.
     */
    public static PinningPreparer preparer(IncrementalLoad load, String shardView, ShardFilter shard) {
        return (connection, pinned) -> {
            Map<String, Long> versions = new LinkedHashMap<>();
            for (IncrementalLoad.Source s : load.sources()) {
                register(connection, s, s.view().equals(shardView) ? shard : null);
                versions.put(s.view(), s.toVersion());
            }
            return versions;
        };
    }

    private static void register(Connection connection, IncrementalLoad.Source s, ShardFilter shard)
            throws DeltaException {
        if (s.changes()) {
            ChangeFeed.register(connection, s.view(), s.source(), s.fromVersion(), s.toVersion(), shard);
        } else {
            DeltaViews.register(connection, List.of(new DeltaTableSpec(s.view(), s.source(), s.toVersion(), null)),
                    s.view(), shard);
        }
    }
}
