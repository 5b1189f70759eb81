package io.deltafunnel.query;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** How a shared instance's thread count follows the concurrent streams (issue #29 §1). */
class StreamThreadsTest {

    @Test
    void twoCoresRunOneThreadOnceTwoStreamsRead() {
        StreamThreads t = new StreamThreads(2, 2, List.of());
        assertEquals(0, t.change(0), "no stream: as the instance started");
        assertEquals(0, t.change(1), "one stream: its thread and one worker, as the instance started");
        assertEquals(2, t.threads());
        assertEquals(1, t.change(2), "two streams: their own threads are the cores");
        t.applied(1);
        assertEquals(0, t.change(3), "more streams: still one");
        assertEquals(0, t.change(4));
        assertEquals(1, t.threads());
        assertEquals(2, t.change(1), "one stream left: the worker comes back");
        t.applied(2);
        assertEquals(0, t.change(0));
        assertEquals(2, t.threads());
    }

    @Test
    void aCountNotSetIsAskedForAgain() {
        StreamThreads t = new StreamThreads(2, 2, List.of());
        assertEquals(1, t.change(2));
        // setting it failed: nothing applied, the instance still has 2
        assertEquals(2, t.threads());
        assertEquals(1, t.change(2), "asked for again");
        assertThrows(IllegalArgumentException.class, () -> t.applied(0));
        assertThrows(IllegalArgumentException.class, () -> t.change(-1));
    }

    @Test
    void moreCoresGiveUpOneWorkerPerStreamAndNeverExceedTheStartingCount() {
        StreamThreads eight = new StreamThreads(8, 8, List.of("SET memory_limit = '1GB'"));
        assertEquals(8, eight.target(1));
        assertEquals(7, eight.target(2));
        assertEquals(5, eight.target(4));
        assertEquals(1, eight.target(8));
        assertEquals(1, eight.target(20));
        StreamThreads capped = new StreamThreads(4, 8, List.of());
        assertEquals(4, capped.target(1), "never more than the instance started with");
        assertEquals(4, capped.target(5));
        assertEquals(3, capped.target(6));
    }

    @Test
    void aThreadCountTheUserSetIsKept() {
        for (String sql : List.of("SET threads = 4", "set THREADS to 4", "PRAGMA threads=4", "SET worker_threads = 4",
                "SET GLOBAL threads = 4")) {
            StreamThreads t = new StreamThreads(4, 2, List.of("SET memory_limit = '1GB'", sql));
            assertEquals(0, t.change(2), sql);
            assertEquals(0, t.change(4), sql);
            assertEquals(4, t.threads(), sql);
        }
        StreamThreads one = new StreamThreads(1, 2, List.of());
        assertEquals(0, one.change(3), "an instance of one thread has no worker to give up");
        StreamThreads named = new StreamThreads(2, 2, List.of("CREATE MACRO threadsafe(x) AS x"));
        assertEquals(1, named.change(2), "a word that only contains 'threads' does not count");
    }

    @Test
    void refusesNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new StreamThreads(0, 2, List.of()));
        assertThrows(IllegalArgumentException.class, () -> new StreamThreads(2, 0, List.of()));
    }
}
