package io.deltafunnel.query;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The thread count of one shared DuckDB instance ({@link DuckDbInstances}), sized by how many query streams read at once
 * from the registry's instances, so that the streams' own threads and DuckDB's workers together do not outnumber the
 * cores.
 *
 * <p><b>Why.</b> DuckDB's {@code threads} setting counts the thread that asks for the results (a run's consumer thread)
 * and {@code threads - 1} background workers that the instance's queries share. One stream on a 2-core machine runs
 * on its thread and one worker, as DuckDB intends. N shard routes in one JVM read N streams at once: N asking threads
 * and the workers then contend for the same cores, and each row costs more CPU (issue #29 §1, docs/sharding.md
 * "Worker threads and concurrent streams"). With S streams an instance runs {@code min(base, max(1, cores - S + 1))}
 * threads: S asking threads plus one instance's workers make at most the cores, and never more than the instance
 * started with.
 *
 * <p><b>Not adapted.</b> An instance whose init SQL names {@code threads} (or {@code worker_threads}) keeps the count
 * the user set; so does an instance that started with one thread.
 *
 * <p>Not thread-safe: {@link DuckDbInstances} calls it under its own lock. Holds no resource.
 */
final class StreamThreads {

    private static final Pattern NAMES_THREADS = Pattern.compile("(?i)\\b(worker_)?threads\\b");

    private final int base;
    private final int cores;
    private final boolean adapts;
    private int applied;

    /**
     * @param base    the instance's {@code threads} setting after its init SQL ran
     * @param cores   the cores this JVM may use ({@link Runtime#availableProcessors()})
     * @param initSql the instance's init SQL: one that names {@code threads} turns the adaptation off
     */
    StreamThreads(int base, int cores, List<String> initSql) {
        if (base < 1 || cores < 1) {
            throw new IllegalArgumentException("threads " + base + ", cores " + cores);
        }
        this.base = base;
        this.cores = cores;
        this.adapts = base > 1 && initSql.stream().noneMatch(s -> NAMES_THREADS.matcher(s).find());
        this.applied = base;
    }

    /**
     * The thread count to set now that {@code streams} streams read at once, or 0 when the instance has it already.
     * The caller reports the count once it is set ({@link #applied}); one that could not be set is asked for again.
     */
    int change(int streams) {
        if (streams < 0) {
            throw new IllegalArgumentException("streams " + streams);
        }
        int t = target(streams);
        return t == applied ? 0 : t;
    }

    /** The instance now runs {@code threadCount} threads (a count {@link #change} asked for). */
    void applied(int threadCount) {
        if (threadCount < 1) {
            throw new IllegalArgumentException("threads " + threadCount);
        }
        applied = threadCount;
    }

    /** The thread count the instance has now, as last {@link #applied}. */
    int threads() {
        return applied;
    }

    /** The thread count for {@code s} concurrent streams. */
    int target(int s) {
        if (!adapts) {
            return base;
        }
        return Math.min(base, Math.max(1, cores - Math.max(s, 1) + 1));
    }
}
