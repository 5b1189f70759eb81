package io.deltafunnel.incremental;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

import io.deltafunnel.delta.DeltaLog;
import io.deltafunnel.delta.DeltaSnapshot;
import io.deltafunnel.delta.DeltaTableSpec;
import io.deltafunnel.delta.ShardFilter;
import io.deltafunnel.delta.SharedSnapshots;
import io.deltafunnel.delta.SnapshotSource;
import io.deltafunnel.handoff.HandoffPhase;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.handoff.IncrementalLoad;
import io.deltafunnel.handoff.LoadPlan;
import io.deltafunnel.handoff.LoadPlanStore;
import io.deltafunnel.handoff.ShardAssignment;
import io.deltafunnel.handoff.ShardPlanException;
import io.deltafunnel.query.DuckDbConnections;
import io.deltafunnel.query.DuckDbSettings;
import io.deltafunnel.query.PinningPreparer;
import io.deltafunnel.query.WholeViewQuery;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what each poll of a {@code deltafunnel:} consumer reads (no Camel here): the latest (or pinned) snapshots
 * of its Delta tables, or, for an incremental consumer, the run its {@link IncrementalPlanner} plans from the state
 * table (or nothing, when the tables have not advanced); for a sharded consumer, its shard of the load's plan. The answer is a {@link Poll}: whether there is a run, what
 * it loads, and the {@link PinningPreparer} that registers its views, so that a replay reads the same versions.
 */
public final class RunSource {

    private static final Logger LOG = LoggerFactory.getLogger(RunSource.class);

    /**
     * What one poll reads.
     *
     * @param changed     false for an unchanged incremental poll: no run, nothing to read
     * @param incremental the incremental run (or the unchanged state) for an incremental consumer, else null
     * @param preparer    registers the run's Delta views and reports their versions; null when there are none
     */
    public record Poll(boolean changed, IncrementalLoad incremental, ShardAssignment shard,
            PinningPreparer preparer) {

        /**
         * The rows the run of this poll will deliver, when the Delta log says so up front: {@code query} is
         * {@code SELECT * FROM <view>} ({@link WholeViewQuery}) of a view this poll registers as a snapshot (not an
         * incremental run), and every file of that view has {@code stats.numRecords}; each file counts its
         * {@code numRecords} less its deletion vector's cardinality. For the sharded view of a sharded load that is
         * the shard's share (0 for a shard that is already done). Known once the run's views are registered (its
         * first attempt opened); null when unknown, and never a guess.
         */
        public Long expectedRows(String query) {
            String view = WholeViewQuery.view(query);
            return view != null && preparer instanceof SnapshotPreparer snapshots ? snapshots.liveRecords(view) : null;
        }
    }

    /**
     * The shard a sharded consumer loads (docs/sharding.md).
     *
     * @param plans   where the shards agree on the load's plan
     * @param loadKey what the shards of one load share (the state key)
     * @param loadId  the load's id, or null to join the open load of the key (or start one)
     * @param index   0-based index of this shard
     * @param count   N, the number of shards
     * @param view    the view whose files are split; the other views are read whole
     * @param duckDb  for pinning the latest versions when this shard makes the plan
     * @param shared  the snapshots the shard routes of one load share in this JVM, or null (each reads its own)
     */
    public record Sharding(LoadPlanStore plans, String loadKey, String loadId, int index, int count, String view,
            DuckDbSettings duckDb, SharedSnapshots shared) {
        public Sharding {
            Objects.requireNonNull(plans, "plans");
            Objects.requireNonNull(loadKey, "loadKey");
            Objects.requireNonNull(view, "view");
            ShardFilter.of(index, count); // validates
        }

        /** A shard that reads its own snapshots (no {@link SharedSnapshots}). */
        public Sharding(LoadPlanStore plans, String loadKey, String loadId, int index, int count, String view,
                DuckDbSettings duckDb) {
            this(plans, loadKey, loadId, index, count, view, duckDb, null);
        }

        /** This shard, sharing its load's snapshots with the other shard routes of {@code shared}. */
        public Sharding sharing(SharedSnapshots shared) {
            return new Sharding(plans, loadKey, loadId, index, count, view, duckDb, shared);
        }

        /**
         * The shard a consumer's options describe, or null when they describe no sharding ({@code count} 1).
         *
         * @param description names the source in messages
         * @param count       the {@code shardCount} option
         * @param index       the {@code shardIndex} option (null: not set)
         * @param view        the {@code shardView} option (null or blank: the only Delta view)
         * @param loadId      the {@code loadId} option (null or blank: join the open load of the key)
         * @param loadKey     the state key
         * @param plans       the load plan store, asked only when the other options are valid (it may throw an
         *                    {@link IllegalArgumentException} naming what is missing)
         * @throws IllegalArgumentException naming the option when the options do not fit together
         */
        public static Sharding of(String description, int count, Integer index, String view, String loadId,
                String loadKey, List<DeltaTableSpec> specs, Supplier<LoadPlanStore> plans, DuckDbSettings duckDb) {
            String where = description + ": ";
            if (count < 1) {
                throw new IllegalArgumentException(where + "shardCount must be 1 or more, was " + count);
            }
            if (count == 1) {
                if (index != null && index != 0) {
                    throw new IllegalArgumentException(where + "shardIndex=" + index + " needs shardCount > " + index
                            + " (shardCount is 1: not sharded)");
                }
                return null;
            }
            if (index == null) {
                throw new IllegalArgumentException(where + "shardCount=" + count + " needs shardIndex (0.."
                        + (count - 1) + "), e.g. shardIndex={{env:JOB_COMPLETION_INDEX}}");
            }
            if (index < 0 || index >= count) {
                throw new IllegalArgumentException(where + "shardIndex=" + index + " is out of range 0.."
                        + (count - 1) + " (shardCount=" + count + ")");
            }
            List<String> views = specs.stream().map(DeltaTableSpec::view).toList();
            String sharded = view == null || view.isBlank() ? null : view.trim();
            if (sharded == null) {
                if (views.size() != 1) {
                    throw new IllegalArgumentException(where + "a sharded load needs shardView when there is not"
                            + " exactly one delta.<view> table; the views are " + views);
                }
                sharded = views.get(0);
            } else if (!views.contains(sharded)) {
                throw new IllegalArgumentException(where + "shardView=" + sharded + " is not one of the delta.<view>"
                        + " tables " + views);
            }
            String id = loadId == null || loadId.isBlank() ? null : loadId.trim();
            return new Sharding(plans.get(), loadKey, id, index, count, sharded, duckDb);
        }
    }

    /** Thrown by the plan maker of an incremental load whose tables have not advanced: no plan is made. */
    private static final class NothingToLoad extends Exception {
        private static final long serialVersionUID = 1L;
        final transient IncrementalLoad load;

        NothingToLoad(IncrementalLoad load) {
            super("unchanged", null, false, false);
            this.load = load;
        }
    }

    private final String description;
    private final List<DeltaTableSpec> specs;
    private final IncrementalPlanner planner;
    private final Sharding sharding;
    /**
     * The sharded view's snapshot {@link #pin} read for the plan this poll is making, offered to the load's shards
     * when the plan is recorded; confined to the one poller thread of the consumer, like the rest of a poll.
     */
    private DeltaSnapshot pinnedSnapshot;

    /** An unsharded source: see {@link #RunSource(String, List, IncrementalPlanner, Sharding)}. */
    public RunSource(String description, List<DeltaTableSpec> specs, IncrementalPlanner planner) {
        this(description, specs, planner, null);
    }

    /**
     * @param description names the source in logs and errors, e.g. {@code deltafunnel:orders}
     * @param specs       the Delta tables (with their version/time pins)
     * @param planner     the incremental planner; null for a consumer that reads the latest snapshots each poll
     * @param sharding    the shard this source loads; null for an unsharded source
     */
    public RunSource(String description, List<DeltaTableSpec> specs, IncrementalPlanner planner, Sharding sharding) {
        this.description = Objects.requireNonNull(description, "description");
        this.specs = List.copyOf(specs);
        this.planner = planner;
        this.sharding = sharding;
        if (sharding != null && specs.stream().noneMatch(spec -> spec.view().equals(sharding.view()))) {
            throw new IllegalArgumentException(description + ": the sharded view " + sharding.view()
                    + " is not one of the delta.<view> tables " + specs.stream().map(DeltaTableSpec::view).toList());
        }
    }

    /** Whether the polls are planned incrementally (from the state table). */
    public boolean incremental() {
        return planner != null;
    }

    /** Operator reset of the incremental state (the {@code resetState} option); nothing for a plain source. */
    public void resetState() throws Exception {
        if (planner != null) {
            planner.reset();
        }
    }

    /** The shard this source loads; null when it is not sharded. */
    public Sharding sharding() {
        return sharding;
    }

    /**
     * Plans the next poll. A sharded source joins the load's plan first ({@link LoadPlanStore#join}): the first
     * shard pins the versions (or, incremental, plans the run from the state table), every shard reads exactly
     * those, the sharded view reduced to the shard's files; a shard that is already done reads no files.
     *
     * @throws io.deltafunnel.handoff.ShardPlanException when the plan refuses the shard
     */
    public Poll poll() throws Exception {
        if (sharding != null) {
            return shardPoll();
        }
        if (planner == null) {
            return new Poll(true, null, null,
                    specs.isEmpty() ? null : snapshots(specs, null, null, SnapshotSource.LOG));
        }
        IncrementalPlanner.Plan plan = planner.plan();
        if (!plan.changed()) {
            LOG.info("{}: unchanged, nothing to load ({})", description, plan.load().describe());
            return new Poll(false, plan.load(), null, null);
        }
        return new Poll(true, plan.load(), null, planner.preparer(plan));
    }

    private Poll shardPoll() throws Exception {
        Sharding s = sharding;
        LoadPlan plan;
        pinnedSnapshot = null;
        try {
            plan = s.plans().join(s.loadKey(), s.loadId(), s.count(), s.index(), this::pin);
        } catch (NothingToLoad unchanged) {
            LOG.info("{}: unchanged, nothing to load ({})", description, unchanged.load.describe());
            return new Poll(false, unchanged.load, null, null);
        }
        DeltaSnapshot pinned = pinnedSnapshot;
        pinnedSnapshot = null;
        if (plan.created() && pinned != null && s.shared() != null) {
            // the snapshot this shard read for the plan's file assignment: the shards of the load in this JVM (this
            // one too) take it instead of replaying the log again
            s.shared().offer(plan.loadId(), s.count(), pinned);
        }
        ShardAssignment shard = new ShardAssignment(s.plans().stateTableName(), s.loadKey(), plan.loadId(), s.index(),
                s.count(), plan.shardDone());
        if ((planner != null) != (plan.incremental() != null)) {
            throw new ShardPlanException(HandoffPhase.QUERY_SETUP, description + ": " + shard.describe() + " was planned"
                    + (plan.incremental() != null ? " as an incremental load" : " as a non-incremental load")
                    + ", but this shard is" + (planner != null ? " incremental" : " not incremental"), plan.loadId(),
                    s.index(), HandoffStats.ZERO, null);
        }
        // The files come from the assignment recorded in the plan (by decoded path), the same for every shard
        // whatever log segment it rebuilds the snapshot from.
        ShardFilter filter = plan.shardDone() ? ShardFilter.nothing()
                : ShardFilter.of(s.index(), s.count(), plan.files());
        long empty = s.count() - plan.files().values().stream().distinct().count();
        if (plan.created() && !plan.files().isEmpty() && empty > 0) {
            // once per load: by the shard whose plan was recorded (a racing shard's discarded plan says nothing)
            LOG.warn("{}: shardCount {} exceeds what the {} files of view {} can feed: {} of the {} shards get no"
                    + " files and load nothing", description, s.count(), plan.files().size(), sharding.view(), empty,
                    s.count());
        }
        LOG.info("{}: {} ({}){}", description, shard.describe(), plan.created() ? "planned it" : "joined",
                plan.shardDone() ? ": already done, reads nothing" : "");
        if (planner != null) {
            return new Poll(true, plan.incremental(), shard,
                    IncrementalPlanner.preparer(plan.incremental(), s.view(), filter));
        }
        List<DeltaTableSpec> pinnedSpecs = new ArrayList<>(specs.size());
        for (DeltaTableSpec spec : specs) {
            Long version = plan.versions().get(spec.path());
            if (version == null) {
                throw new ShardPlanException(HandoffPhase.QUERY_SETUP, description + ": " + shard.describe()
                        + " pins no version of " + spec.path() + " (view " + spec.view() + "); its tables are "
                        + plan.versions().keySet() + ": were the shards started with other delta.<view> tables?",
                        plan.loadId(), s.index(), HandoffStats.ZERO, null);
            }
            pinnedSpecs.add(new DeltaTableSpec(spec.view(), spec.path(), version, null));
        }
        return new Poll(true, null, shard, snapshots(pinnedSpecs, s.view(), filter,
                s.shared() == null ? SnapshotSource.LOG : s.shared().forLoad(plan.loadId(), s.count())));
    }

    /** The pins of a new load: the latest (or pinned) version of every table, or the incremental run's versions. */
    private LoadPlan.Pinned pin() throws Exception {
        Map<String, Long> versions = new LinkedHashMap<>();
        if (planner != null) {
            IncrementalPlanner.Plan plan = planner.plan();
            if (!plan.changed()) {
                throw new NothingToLoad(plan.load());
            }
            for (IncrementalLoad.Source source : plan.load().sources()) {
                putVersion(versions, source.source(), source.toVersion());
            }
            Map<String, Integer> files = Map.of();
            for (IncrementalLoad.Source source : plan.load().sources()) {
                // A snapshot read (or the initial load of a change feed) splits the snapshot's files: record them.
                // Later commits of a change feed are split by the hash (every shard reads the same commit files).
                if (source.view().equals(sharding.view()) && (!source.changes() || source.fromVersion() == null)) {
                    try (Connection duck = DuckDbConnections.open(sharding.duckDb())) {
                        files = assignment(DeltaLog.snapshot(duck, source.source(), source.toVersion(), null));
                    }
                }
            }
            return new LoadPlan.Pinned(versions, plan.load(), files);
        }
        Map<String, Integer> files = Map.of();
        try (Connection duck = DuckDbConnections.open(sharding.duckDb())) {
            for (DeltaTableSpec spec : specs) {
                if (spec.view().equals(sharding.view())) {
                    // the sharded view's snapshot (latest, or its pin): its version and its files' assignment
                    DeltaSnapshot snapshot = SnapshotSource.LOG.snapshot(duck, spec);
                    putVersion(versions, spec.path(), snapshot.version());
                    files = assignment(snapshot);
                    pinnedSnapshot = snapshot;
                    continue;
                }
                long version = spec.version() != null ? spec.version()
                        : spec.timestamp() != null ? DeltaLog.snapshot(duck, spec.path(), null, spec.timestamp()).version()
                        : DeltaLog.latestVersion(duck, spec.path());
                putVersion(versions, spec.path(), version);
            }
        }
        return new LoadPlan.Pinned(versions, null, files);
    }

    /** The balanced assignment of the sharded view's pinned snapshot, recorded in the plan. */
    private Map<String, Integer> assignment(DeltaSnapshot snapshot) {
        Map<String, Integer> files = ShardFilter.assign(snapshot.files(), sharding.count());
        LOG.info("{}: assigned the {} files of {} at version {} to {} shards", description, files.size(),
                snapshot.tablePath(), snapshot.version(), sharding.count());
        return files;
    }

    private void putVersion(Map<String, Long> versions, String path, long version) {
        Long earlier = versions.put(path, version);
        if (earlier != null && earlier != version) {
            throw new IllegalArgumentException(description + ": a sharded load pins one version per table, but "
                    + path + " is read at versions " + earlier + " and " + version);
        }
    }

    /** The preparer of a snapshot poll ({@link SnapshotPreparer}). */
    static SnapshotPreparer snapshots(List<DeltaTableSpec> specs, String shardView, ShardFilter shard,
            SnapshotSource source) {
        return new SnapshotPreparer(specs, shardView, shard, source);
    }
}
