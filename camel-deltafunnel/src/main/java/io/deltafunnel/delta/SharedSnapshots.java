package io.deltafunnel.delta;

import java.sql.Connection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delta snapshots read once per load and handed to the other shard routes of that load in this JVM (issue #29). The N
 * shard routes of one load ({@code deltafunnel.shards=N}) read the same pinned version of each table; without this,
 * each lists and replays the table's log itself (for a table of many files: its checkpoint, N times per load), and
 * the shard that makes the plan reads it once more for the file assignment.
 *
 * <p><b>What is shared.</b> An entry is keyed by the load's id, the table and the version: only the shards of one
 * load, which agree on the version through their plan, share it. A later load reads the log again, even at the same
 * version (a table re-created at the same path starts its versions again). Snapshots are immutable.
 *
 * <p><b>Who reads.</b> The first route that asks for an entry reads it while the others asking for the same entry
 * wait; the plan maker {@link #offer offers} the snapshot it read for the plan. A failed read is thrown to the routes
 * that waited for it and forgotten, so that their retry reads the log again.
 *
 * <p><b>How long.</b> An entry is dropped once each of the load's N shards has taken it (a shard takes its tables'
 * snapshots once per attempt of its run), and at most {@value #MAX_ENTRIES} entries are kept, the oldest dropped
 * first, so that a load whose other shards run in other JVMs holds its snapshot only until later loads need room.
 *
 * <p>Thread-safe. Owned by its creator (the {@code deltafunnel:} component, one per Camel context); it holds no
 * resource beyond memory.
 */
public final class SharedSnapshots {

    private static final Logger LOG = LoggerFactory.getLogger(SharedSnapshots.class);

    /** The most entries kept at once. */
    static final int MAX_ENTRIES = 8;

    private record Key(String loadId, String table, long version) {
    }

    private static final class Entry {
        final CompletableFuture<DeltaSnapshot> snapshot = new CompletableFuture<>();
        final int shards;
        int taken;

        Entry(int shards) {
            this.shards = shards;
        }
    }

    private final Map<Key, Entry> entries = new LinkedHashMap<>();
    private final SnapshotSource reader;
    private long reads;
    private long shared;

    /** Snapshots read from the tables' logs ({@link SnapshotSource#LOG}). */
    public SharedSnapshots() {
        this(SnapshotSource.LOG);
    }

    /** Snapshots read by {@code reader} (tests count and hold the reads). */
    SharedSnapshots(SnapshotSource reader) {
        this.reader = Objects.requireNonNull(reader, "reader");
    }

    /**
     * The snapshots of one load's shard: a pinned version ({@code spec.version()}) is taken from this registry (read
     * now when no shard of the load has read it yet); a spec without a version is read from the log.
     *
     * @param loadId the load's id (from its plan)
     * @param shards the load's shard count: after that many takes an entry is dropped
     */
    public SnapshotSource forLoad(String loadId, int shards) {
        Objects.requireNonNull(loadId, "loadId");
        if (shards < 1) {
            throw new IllegalArgumentException("shards must be 1 or more, was " + shards);
        }
        return (duckdb, spec) -> spec.version() == null ? reader.snapshot(duckdb, spec)
                : take(duckdb, loadId, shards, spec);
    }

    /**
     * Offers a snapshot read for the load's plan to its shards; nothing when one is there already.
     *
     * @param shards the load's shard count
     */
    public void offer(String loadId, int shards, DeltaSnapshot snapshot) {
        Key key = new Key(Objects.requireNonNull(loadId, "loadId"), snapshot.tablePath(), snapshot.version());
        synchronized (this) {
            if (!entries.containsKey(key)) {
                Entry entry = new Entry(shards);
                entry.snapshot.complete(snapshot);
                put(key, entry);
            }
        }
    }

    private DeltaSnapshot take(Connection duckdb, String loadId, int shards, DeltaTableSpec spec)
            throws DeltaException {
        Key key = new Key(loadId, TablePaths.normalizeTable(spec.path()), spec.version());
        Entry entry;
        boolean first;
        synchronized (this) {
            entry = entries.get(key);
            first = entry == null;
            if (first) {
                entry = new Entry(shards);
                put(key, entry);
            }
        }
        if (first) {
            try {
                DeltaSnapshot read = reader.snapshot(duckdb, spec);
                synchronized (this) {
                    reads++;
                }
                entry.snapshot.complete(read);
            } catch (DeltaException | RuntimeException | Error e) {
                synchronized (this) {
                    entries.remove(key, entry);
                }
                entry.snapshot.completeExceptionally(e);
                throw e;
            }
        }
        DeltaSnapshot snapshot;
        try {
            snapshot = entry.snapshot.join();
        } catch (CompletionException e) {
            // the reading route's failure, the same for every shard of the load: thrown as it is (its type says what)
            Throwable cause = e.getCause();
            if (cause instanceof DeltaException d) {
                throw d;
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw e;
        }
        synchronized (this) {
            if (!first) {
                shared++;
            }
            if (++entry.taken >= entry.shards) {
                entries.remove(key, entry);
            }
        }
        if (!first) {
            LOG.debug("Delta table {}: version {} of load {} shared by this JVM's shard routes", key.table(),
                    key.version(), loadId);
        }
        return snapshot;
    }

    private void put(Key key, Entry entry) {
        entries.put(key, entry);
        Iterator<Key> oldest = entries.keySet().iterator();
        while (entries.size() > MAX_ENTRIES) {
            oldest.next();
            oldest.remove();
        }
    }

    /** How many snapshots this registry read from a log (a shard's, not a plan's offer). */
    public synchronized long reads() {
        return reads;
    }

    /** How many takes got a snapshot another route read or offered. */
    public synchronized long shared() {
        return shared;
    }

    /** How many entries are kept now. */
    public synchronized int size() {
        return entries.size();
    }
}
