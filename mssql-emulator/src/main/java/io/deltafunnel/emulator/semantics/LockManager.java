package io.deltafunnel.emulator.semantics;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * SQL Server's lock manager at table granularity, shared by all sessions of one emulator. It, not H2, decides who
 * waits: every statement takes its table locks here before H2 sees it, so conflicting H2 work never overlaps.
 *
 * <p>Modes and compatibility are SQL Server's (Sch-S, S, U, X, BU, Sch-M; intent locks are not needed with one
 * granularity). A request is granted when it is compatible with every lock other owners hold on the table and with
 * every earlier waiting request of other owners (FIFO, so writers do not starve); a conversion (the owner already
 * holds a lock on the table) is queued ahead of new requests. A lock the owner already holds in a covering mode is
 * granted at once.
 *
 * <p>Waiting: the waiting thread holds no emulator monitor (only this manager's lock, released by {@code await}),
 * polls for ATTENTION and for the emulator's shutdown, honours the lock timeout (1222) and takes part in deadlock
 * detection: each new wait, and each waiter periodically, searches the wait-for graph for a cycle through itself;
 * the victim (lowest DEADLOCK_PRIORITY, on a tie the session whose request closed the cycle) gets 1205 and its
 * caller rolls its transaction back.
 *
 * <p>Why one class of about 600 lines: a single lock guards the grant table, the wait queues, the application locks
 * and the deadlock search, and each of them reads the others' state under it; split apart they would share that
 * lock and its invariants across files. The session's side (owner, LOCK_TIMEOUT, waits) is
 * {@code exec.SessionLocks}; which locks a statement needs is {@link LockPlanner}.
 */
public final class LockManager {
    /** SQL Server lock modes at table level. */
    public enum Mode {
        SCH_S("Sch-S"), S("S"), U("U"), X("X"), BU("BU"), SCH_M("Sch-M"),
        /**
         * Intent exclusive: what a session that inserts rows holds on the table (INSERT, a bulk load without
         * TABLOCK). In SQL Server inserters take row locks under IX and do not block each other; the table-level
         * emulator lets IX holders share the table and keeps readers (S), updaters (U, X) and TABLOCK loads (BU) out.
         */
        IX("IX"),
        /** Intent shared: only application locks ({@code sp_getapplock @LockMode = 'IntentShared'}) take it. */
        IS("IS");

        public final String label;

        Mode(String label) {
            this.label = label;
        }

        /** SQL Server's lock compatibility matrix (requested {@code this} against granted {@code granted}). */
        public boolean compatibleWith(Mode granted) {
            if (this == SCH_M || granted == SCH_M) {
                return false;
            }
            if (this == SCH_S || granted == SCH_S) {
                return true;
            }
            switch (this) {
                case S:
                    return granted == S || granted == U || granted == IS;
                case U:
                    return granted == S || granted == IS;
                case BU:
                    return granted == BU;
                case IX:
                    return granted == IX || granted == IS;
                case IS:
                    return granted == IS || granted == S || granted == U || granted == IX;
                default:
                    return false; // X
            }
        }

        /** Holding {@code this} already gives what {@code requested} would. */
        boolean covers(Mode requested) {
            if (this == requested || requested == SCH_S) {
                return true;
            }
            switch (this) {
                case SCH_M:
                    return true;
                case X:
                    return requested != SCH_M;
                case U:
                    return requested == S || requested == IS;
                case S:
                case IX:
                    return requested == IS;
                default:
                    return false;
            }
        }
    }

    /**
     * How long a lock is held. SESSION: an application lock owned by the session ({@code sp_getapplock
     * @LockOwner = 'Session'}), held across transactions until released or the session ends.
     */
    public enum Duration { STATEMENT, TRANSACTION, SESSION }

    /** Called while waiting, outside the manager's lock: throws to abandon the wait (ATTENTION, lost client). */
    public interface WaitCheck {
        void check() throws IOException;
    }

    /** One session's view of the manager: what it holds, what it waits for, its deadlock priority. */
    public static final class Owner {
        final int spid;
        public volatile int deadlockPriority;
        /** Table object id to the locks held on it. */
        private final Map<Integer, List<Hold>> holds = new LinkedHashMap<>();
        /** Application locks: how often each (resource, owner kind) was granted and not yet released. */
        private final Map<AppKey, Integer> appCounts = new HashMap<>();
        private Request waiting;

        Owner(int spid) {
            this.spid = spid;
        }
    }

    private record Hold(Mode mode, Duration duration) {
    }

    private record AppKey(int resource, Duration duration) {
    }

    private static final class Request {
        final Owner owner;
        final int resource;
        final Mode mode;
        final Duration duration;
        boolean granted;
        boolean victim;

        Request(Owner owner, int resource, Mode mode, Duration duration) {
            this.owner = owner;
            this.resource = resource;
            this.mode = mode;
            this.duration = duration;
        }
    }

    /** How often a waiter wakes to look for ATTENTION, shutdown and deadlocks. */
    private static final long POLL_MILLIS = 50;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** Table object id to its waiting requests, oldest first (conversions first). */
    private final Map<Integer, Deque<Request>> queues = new HashMap<>();
    /** Table object id to the owners holding a lock on it. */
    private final Map<Integer, Set<Owner>> holders = new HashMap<>();
    private boolean closed;
    /** Application lock resources (principal and name) to their ids: negative, so never a table's object id. */
    private final Map<String, Integer> appResources = new HashMap<>();

    public Owner newOwner(int spid) {
        return new Owner(spid);
    }

    /**
     * Takes {@code mode} on table {@code objectId} for {@code owner}, waiting as SQL Server would.
     *
     * @param timeoutMillis -1 waits forever, 0 fails at once, n fails after n ms (1222)
     * @param check run between waits, outside any monitor (ATTENTION, lost connection)
     * @return true when granted at once, false when granted after waiting
     * @throws SqlServerError 1222 on timeout, 1205 when chosen as deadlock victim
     */
    public boolean acquire(Owner owner, int objectId, Mode mode, Duration duration, long timeoutMillis, WaitCheck check)
            throws SqlServerError, IOException {
        Request req;
        lock.lock();
        try {
            if (covered(owner, objectId, mode)) {
                addHold(owner, objectId, mode, duration);
                return true;
            }
            req = new Request(owner, objectId, mode, duration);
            Deque<Request> q = queues.computeIfAbsent(objectId, k -> new ArrayDeque<>());
            if (owner.holds.containsKey(objectId)) {
                // a conversion goes ahead of new requests (behind earlier conversions)
                List<Request> ahead = new ArrayList<>();
                while (!q.isEmpty() && q.peekFirst().owner.holds.containsKey(objectId)) {
                    ahead.add(q.pollFirst());
                }
                q.addFirst(req);
                for (int i = ahead.size() - 1; i >= 0; i--) {
                    q.addFirst(ahead.get(i));
                }
            } else {
                q.addLast(req);
            }
            owner.waiting = req;
            grantWaiters(objectId);
            if (req.granted) {
                return true;
            }
            if (timeoutMillis == 0) {
                dequeue(req);
                throw lockTimeout();
            }
        } finally {
            lock.unlock();
        }
        long deadline = timeoutMillis < 0 ? Long.MAX_VALUE : System.nanoTime() + timeoutMillis * 1_000_000L;
        while (true) {
            lock.lock();
            try {
                if (req.granted) {
                    return false;
                }
                if (!req.victim && !closed) {
                    detectDeadlock(owner);
                }
                if (req.victim) {
                    dequeue(req);
                    throw deadlockVictim(owner);
                }
                if (closed) {
                    dequeue(req);
                    throw new IOException("mssql-emulator is closing");
                }
                long left = deadline == Long.MAX_VALUE ? POLL_MILLIS
                        : TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    dequeue(req);
                    throw lockTimeout();
                }
                try {
                    changed.await(Math.min(left, POLL_MILLIS), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    dequeue(req);
                    throw new AttentionException();
                }
                if (req.granted) {
                    return false;
                }
            } finally {
                lock.unlock();
            }
            try {
                check.check();
            } catch (IOException | RuntimeException e) {
                lock.lock();
                try {
                    // granted meanwhile: kept (a statement-duration lock ends with the failing statement)
                    if (!req.granted) {
                        dequeue(req);
                    }
                } finally {
                    lock.unlock();
                }
                throw e;
            }
        }
    }

    /** Whether {@code owner} holds a lock on {@code objectId} covering {@code mode}. */
    private static boolean covered(Owner owner, int objectId, Mode mode) {
        List<Hold> hs = owner.holds.get(objectId);
        if (hs == null) {
            return false;
        }
        for (Hold h : hs) {
            if (h.mode.covers(mode)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Compatible with every lock of other owners and with every earlier waiting request of other owners
     * ({@code upTo} = the request itself when it is queued, null for a new request: then all waiters are earlier).
     */
    private boolean grantable(Owner owner, int objectId, Mode mode, Request upTo) {
        return blockers(owner, objectId, mode, upTo, true).isEmpty();
    }

    /** The owners {@code mode} on {@code objectId} would wait for (stops at the first when {@code any}). */
    private Set<Owner> blockers(Owner owner, int objectId, Mode mode, Request upTo, boolean any) {
        Set<Owner> out = new HashSet<>();
        Set<Owner> hs = holders.get(objectId);
        if (hs != null) {
            for (Owner o : hs) {
                if (o == owner) {
                    continue;
                }
                for (Hold h : o.holds.get(objectId)) {
                    if (!mode.compatibleWith(h.mode)) {
                        out.add(o);
                        if (any) {
                            return out;
                        }
                        break;
                    }
                }
            }
        }
        Deque<Request> q = queues.get(objectId);
        if (q != null) {
            for (Request w : q) {
                if (w == upTo) {
                    break;
                }
                if (w.owner != owner && !mode.compatibleWith(w.mode)) {
                    out.add(w.owner);
                    if (any) {
                        return out;
                    }
                }
            }
        }
        return out;
    }

    private void addHold(Owner owner, int objectId, Mode mode, Duration duration) {
        List<Hold> hs = owner.holds.computeIfAbsent(objectId, k -> new ArrayList<>(2));
        Hold h = new Hold(mode, duration);
        if (!hs.contains(h)) {
            hs.add(h);
        }
        holders.computeIfAbsent(objectId, k -> new HashSet<>()).add(owner);
    }

    /** Grants what can be granted on {@code objectId}, in queue order. Called with the lock held. */
    private void grantWaiters(int objectId) {
        Deque<Request> q = queues.get(objectId);
        if (q == null) {
            return;
        }
        boolean any = false;
        for (Iterator<Request> it = q.iterator(); it.hasNext();) {
            Request r = it.next();
            if (r.victim) {
                continue;
            }
            if (covered(r.owner, objectId, r.mode) || grantable(r.owner, objectId, r.mode, r)) {
                it.remove();
                r.granted = true;
                r.owner.waiting = null;
                addHold(r.owner, objectId, r.mode, r.duration);
                any = true;
            }
        }
        if (q.isEmpty()) {
            queues.remove(objectId);
        }
        if (any) {
            changed.signalAll();
        }
    }

    /** A wait ended without a grant (timeout, victim, attention, shutdown): leave the queue. Lock held. */
    private void dequeue(Request req) {
        req.owner.waiting = null;
        Deque<Request> q = queues.get(req.resource);
        if (q != null) {
            q.remove(req);
            if (q.isEmpty()) {
                queues.remove(req.resource);
            } else {
                grantWaiters(req.resource);
            }
        }
        changed.signalAll();
    }

    /** Releases the owner's statement-duration locks (the statement ended). */
    public void endStatement(Owner owner) {
        release(owner, Duration.STATEMENT);
    }

    /**
     * Releases every lock of the owner's transaction (it ended): all but the session-owned application locks.
     */
    public void releaseAll(Owner owner) {
        release(owner, Duration.TRANSACTION);
    }

    /** Releases every lock of the owner, session-owned application locks included (the session ended). */
    public void releaseSession(Owner owner) {
        release(owner, Duration.SESSION);
    }

    /** Releases the owner's locks whose duration is at most {@code upTo}. */
    private void release(Owner owner, Duration upTo) {
        lock.lock();
        try {
            List<Integer> touched = new ArrayList<>();
            for (Iterator<Map.Entry<Integer, List<Hold>>> it = owner.holds.entrySet().iterator(); it.hasNext();) {
                Map.Entry<Integer, List<Hold>> e = it.next();
                int before = e.getValue().size();
                e.getValue().removeIf(h -> h.duration.compareTo(upTo) <= 0);
                if (e.getValue().size() != before) {
                    touched.add(e.getKey());
                }
                if (e.getValue().isEmpty()) {
                    it.remove();
                    Set<Owner> hs = holders.get(e.getKey());
                    if (hs != null) {
                        hs.remove(owner);
                        if (hs.isEmpty()) {
                            holders.remove(e.getKey());
                        }
                    }
                }
            }
            owner.appCounts.keySet().removeIf(k -> k.duration.compareTo(upTo) <= 0);
            for (int id : touched) {
                grantWaiters(id);
            }
        } finally {
            lock.unlock();
        }
    }

    // ---- application locks (sp_getapplock) ----------------------------------------------------------------------

    /**
     * The lock resource id of an application lock: {@code principal} and {@code resource} compared as binary
     * (case-sensitive) strings, as SQL Server does. Ids are negative, so they never meet a table's object id.
     */
    public int appResource(String principal, String resource) {
        lock.lock();
        try {
            return appResources.computeIfAbsent(principal + '\u0000' + resource, k -> -1 - appResources.size());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes an application lock ({@code duration} TRANSACTION or SESSION), waiting as for a table lock (timeout,
     * deadlock detection with table locks and other application locks). Every grant counts: the lock goes when
     * {@link #releaseApp} was called as often, or when its owner's transaction (TRANSACTION) or session ends.
     *
     * @return true when granted at once, false when granted after waiting
     * @throws SqlServerError 1222 on timeout, 1205 when chosen as deadlock victim (the caller turns them into
     *     sp_getapplock's return codes)
     */
    public boolean acquireApp(Owner owner, int resource, Mode mode, Duration duration, long timeoutMillis, WaitCheck check)
            throws SqlServerError, IOException {
        boolean atOnce = acquire(owner, resource, mode, duration, timeoutMillis, check);
        lock.lock();
        try {
            owner.appCounts.merge(new AppKey(resource, duration), 1, Integer::sum);
        } finally {
            lock.unlock();
        }
        return atOnce;
    }

    /**
     * Releases one grant of an application lock; the lock (in the strongest mode it reached) stays until the last
     * grant is released. Returns false when the owner does not hold it with that duration.
     */
    public boolean releaseApp(Owner owner, int resource, Duration duration) {
        lock.lock();
        try {
            AppKey k = new AppKey(resource, duration);
            Integer n = owner.appCounts.get(k);
            if (n == null) {
                return false;
            }
            if (n > 1) {
                owner.appCounts.put(k, n - 1);
                return true;
            }
            owner.appCounts.remove(k);
            List<Hold> hs = owner.holds.get(resource);
            if (hs != null) {
                hs.removeIf(h -> h.duration == duration);
                if (hs.isEmpty()) {
                    owner.holds.remove(resource);
                    Set<Owner> os = holders.get(resource);
                    if (os != null) {
                        os.remove(owner);
                        if (os.isEmpty()) {
                            holders.remove(resource);
                        }
                    }
                }
            }
            grantWaiters(resource);
            changed.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@code owner} would be granted {@code mode} on {@code resource} at once (APPLOCK_TEST). */
    public boolean grantableNow(Owner owner, int resource, Mode mode) {
        lock.lock();
        try {
            return covered(owner, resource, mode) || grantable(owner, resource, mode, null);
        } finally {
            lock.unlock();
        }
    }

    /** The modes in which {@code owner} holds application lock {@code resource} with {@code duration}. */
    public List<Mode> appModes(Owner owner, int resource, Duration duration) {
        lock.lock();
        try {
            List<Mode> out = new ArrayList<>();
            if (!owner.appCounts.containsKey(new AppKey(resource, duration))) {
                return out;
            }
            for (Hold h : owner.holds.getOrDefault(resource, List.of())) {
                if (h.duration == duration) {
                    out.add(h.mode);
                }
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every waiter with a failure: the emulator is closing. */
    public void close() {
        lock.lock();
        try {
            closed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** What {@code owner} holds, for tests and diagnostics: table object id to modes. */
    public Map<Integer, List<Mode>> held(Owner owner) {
        lock.lock();
        try {
            Map<Integer, List<Mode>> out = new LinkedHashMap<>();
            owner.holds.forEach((id, hs) -> out.put(id, hs.stream().map(Hold::mode).toList()));
            return out;
        } finally {
            lock.unlock();
        }
    }

    // ---- deadlock detection -------------------------------------------------------------------------------------

    /** Looks for a wait-for cycle through {@code start}; marks a victim if there is one. Called with the lock held. */
    private void detectDeadlock(Owner start) {
        List<Owner> cycle = cycleThrough(start, start, new ArrayList<>(), new HashSet<>());
        if (cycle == null) {
            return;
        }
        Owner victim = start;
        for (Owner o : cycle) {
            if (o.deadlockPriority < victim.deadlockPriority) {
                victim = o;
            }
        }
        Request r = victim.waiting;
        if (r != null && !r.granted) {
            r.victim = true;
            changed.signalAll();
        }
    }

    private List<Owner> cycleThrough(Owner start, Owner at, List<Owner> path, Set<Owner> seen) {
        Request w = at.waiting;
        if (w == null || w.granted || w.victim) {
            return null;
        }
        path.add(at);
        for (Owner b : blockers(at, w.resource, w.mode, w, false)) {
            if (b == start) {
                return new ArrayList<>(path);
            }
            if (seen.add(b)) {
                List<Owner> c = cycleThrough(start, b, path, seen);
                if (c != null) {
                    return c;
                }
            }
        }
        path.remove(path.size() - 1);
        return null;
    }

    // ---- errors -------------------------------------------------------------------------------------------------

    static SqlServerError lockTimeout() {
        return ErrorCatalog.LOCK_TIMEOUT.error("Lock request time out period exceeded.");
    }

    static SqlServerError deadlockVictim(Owner owner) {
        return ErrorCatalog.DEADLOCK_VICTIM.error("Transaction (Process ID " + owner.spid + ") was deadlocked on lock"
                + " resources with another process and has been chosen as the deadlock victim. Rerun the transaction.");
    }
}
