package io.deltafunnel.delta;

import static io.deltafunnel.delta.DeltaTableWriter.add;
import static io.deltafunnel.delta.DeltaTableWriter.commitInfo;
import static io.deltafunnel.delta.DeltaTableWriter.metadata;
import static io.deltafunnel.delta.DeltaTableWriter.protocol;
import static io.deltafunnel.delta.DeltaTableWriter.remove;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/**
 * {@link SharedSnapshots}: the shard routes of one load read each pinned snapshot once, and only the shards of the
 * same load share it. The snapshots are real ones, read from a Delta table written for the test; a counting reader
 * stands between the registry and the log.
 */
class SharedSnapshotsTest extends DuckDbTestSupport {

    /** v0: a + b; v1: remove a. */
    private DeltaTableWriter twoVersions(String name) {
        DeltaTableWriter t = table(name);
        t.dataFile("a.parquet", "SELECT range AS id FROM range(3)");
        t.dataFile("b.parquet", "SELECT range + 10 AS id FROM range(3)");
        t.commit(0, commitInfo(null), protocol(1, 2), metadata(DeltaLogTest.SCHEMA), add("a.parquet"),
                add("b.parquet"));
        t.commit(1, commitInfo(null), remove("a.parquet"));
        return t;
    }

    /** Reads from the log and counts; {@code hold} keeps each read waiting until it opens. */
    private static final class CountingReader implements SnapshotSource {
        final AtomicInteger reads = new AtomicInteger();
        final CountDownLatch hold;
        final CountDownLatch reading = new CountDownLatch(1);
        volatile RuntimeException failure;

        CountingReader(CountDownLatch hold) {
            this.hold = hold;
        }

        @Override
        public DeltaSnapshot snapshot(java.sql.Connection duckdb, DeltaTableSpec spec) throws DeltaException {
            reads.incrementAndGet();
            reading.countDown();
            try {
                if (!hold.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the test never let the read go on");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            RuntimeException f = failure;
            if (f != null) {
                throw f;
            }
            return LOG.snapshot(duckdb, spec);
        }
    }

    private static CountDownLatch open() {
        return new CountDownLatch(0);
    }

    private static DeltaTableSpec at(DeltaTableWriter t, long version) {
        return new DeltaTableSpec("t", t.root.toString(), version, null);
    }

    @Test
    void theShardsOfOneLoadReadAPinnedSnapshotOnceAndTheEntryGoesAfterTheLastShard() throws Exception {
        DeltaTableWriter t = twoVersions("t");
        CountingReader reader = new CountingReader(open());
        SharedSnapshots shared = new SharedSnapshots(reader);
        SnapshotSource load = shared.forLoad("load-1", 3);
        DeltaSnapshot first = load.snapshot(conn, at(t, 0));
        assertEquals(0, first.version());
        assertEquals(2, first.fileCount());
        assertSame(first, load.snapshot(conn, at(t, 0)), "the second shard takes the first one's snapshot");
        // a path spelled differently (trailing slash) is the same table
        assertSame(first, load.snapshot(conn, new DeltaTableSpec("t", t.root + "/", 0L, null)));
        assertEquals(1, reader.reads.get());
        assertEquals(1, shared.reads());
        assertEquals(2, shared.shared());
        assertEquals(0, shared.size(), "three shards took it: the entry is dropped");
        // the next load of the same key, at the same version, reads the log again
        DeltaSnapshot next = shared.forLoad("load-2", 3).snapshot(conn, at(t, 0));
        assertEquals(2, reader.reads.get());
        assertEquals(first.files(), next.files());
    }

    @Test
    void otherVersionsAndUnpinnedSpecsAreReadForThemselves() throws Exception {
        DeltaTableWriter t = twoVersions("t");
        CountingReader reader = new CountingReader(open());
        SharedSnapshots shared = new SharedSnapshots(reader);
        SnapshotSource load = shared.forLoad("load-1", 2);
        assertEquals(2, load.snapshot(conn, at(t, 0)).fileCount());
        assertEquals(1, load.snapshot(conn, at(t, 1)).fileCount());
        DeltaSnapshot latest = load.snapshot(conn, DeltaTableSpec.latest("t", t.root.toString()));
        assertEquals(1, latest.version());
        assertEquals(3, reader.reads.get(), "version 0, version 1, and the latest (never shared: not pinned)");
        assertEquals(2, shared.reads());
        assertEquals(0, shared.shared());
        assertEquals(2, shared.size(), "each pinned entry waits for the load's second shard");
    }

    @Test
    void theSnapshotThePlanReadIsOfferedAndTakenByEveryShard() throws Exception {
        DeltaTableWriter t = twoVersions("t");
        CountingReader reader = new CountingReader(open());
        SharedSnapshots shared = new SharedSnapshots(reader);
        DeltaSnapshot pinned = DeltaLog.snapshot(conn, t.root.toString(), null, null);
        shared.offer("load-1", 2, pinned);
        shared.offer("load-1", 2, DeltaLog.snapshot(conn, t.root.toString(), null, null));
        SnapshotSource load = shared.forLoad("load-1", 2);
        assertSame(pinned, load.snapshot(conn, at(t, 1)), "the first offer stays");
        assertSame(pinned, load.snapshot(conn, at(t, 1)));
        assertEquals(0, reader.reads.get());
        assertEquals(2, shared.shared());
        assertEquals(0, shared.size());
    }

    @Test
    void shardsAskingAtOnceWaitForTheOneRead() throws Exception {
        DeltaTableWriter t = twoVersions("t");
        CountDownLatch hold = new CountDownLatch(1);
        CountingReader reader = new CountingReader(hold);
        SharedSnapshots shared = new SharedSnapshots(reader);
        SnapshotSource load = shared.forLoad("load-1", 4);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<java.sql.Connection> connections = new ArrayList<>();
        try {
            List<Future<DeltaSnapshot>> shards = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:duckdb:");
                connections.add(c);
                shards.add(pool.submit(() -> load.snapshot(c, at(t, 0))));
            }
            assertTrue(reader.reading.await(30, TimeUnit.SECONDS));
            hold.countDown();
            DeltaSnapshot one = shards.get(0).get(30, TimeUnit.SECONDS);
            for (Future<DeltaSnapshot> f : shards) {
                assertSame(one, f.get(30, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
            for (java.sql.Connection c : connections) {
                c.close();
            }
        }
        assertEquals(1, reader.reads.get(), "one read for the four shards");
        assertEquals(3, shared.shared());
        assertEquals(0, shared.size());
    }

    @Test
    void aFailedReadReachesTheShardsThatWaitedAndARetryReadsAgain() throws Exception {
        DeltaTableWriter t = twoVersions("t");
        CountDownLatch hold = new CountDownLatch(1);
        CountingReader reader = new CountingReader(hold);
        reader.failure = new IllegalStateException("the log could not be listed");
        SharedSnapshots shared = new SharedSnapshots(reader);
        SnapshotSource load = shared.forLoad("load-1", 2);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (java.sql.Connection other = java.sql.DriverManager.getConnection("jdbc:duckdb:")) {
            Future<DeltaSnapshot> readerShard = pool.submit(() -> load.snapshot(conn, at(t, 0)));
            assertTrue(reader.reading.await(30, TimeUnit.SECONDS));
            Future<DeltaSnapshot> waitingShard = pool.submit(() -> load.snapshot(other, at(t, 0)));
            // the second shard is waiting on the entry the first one reads (or arrives after the failure and reads)
            hold.countDown();
            for (Future<DeltaSnapshot> f : List.of(readerShard, waitingShard)) {
                java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
                        () -> f.get(30, TimeUnit.SECONDS));
                assertSame(reader.failure, e.getCause(), "the read's own exception, its type and message kept");
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, shared.size(), "the failed read is forgotten");
        reader.failure = null;
        assertEquals(0, load.snapshot(conn, at(t, 0)).version(), "a retry reads the log again");
        assertEquals(0, shared.shared());
    }

    @Test
    void atMostEightEntriesAreKeptTheOldestDroppedFirst() throws Exception {
        DeltaTableWriter t = twoVersions("t");
        CountingReader reader = new CountingReader(open());
        SharedSnapshots shared = new SharedSnapshots(reader);
        for (int load = 0; load < 10; load++) {
            // loads whose other shards run elsewhere: one take each of 4
            shared.forLoad("load-" + load, 4).snapshot(conn, at(t, 0));
        }
        assertEquals(SharedSnapshots.MAX_ENTRIES, shared.size());
        shared.forLoad("load-9", 4).snapshot(conn, at(t, 0));
        assertEquals(10, reader.reads.get(), "load-9 is still kept");
        shared.forLoad("load-0", 4).snapshot(conn, at(t, 0));
        assertEquals(11, reader.reads.get(), "load-0 was dropped for room");
        assertThrows(IllegalArgumentException.class, () -> shared.forLoad("load-x", 0));
    }
}
