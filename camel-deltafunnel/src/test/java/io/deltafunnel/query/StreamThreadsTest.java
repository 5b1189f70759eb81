package io.deltafunnel.query;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** How a shared instance's worker threads follow its concurrent streams (issue #29 §1). */
class StreamThreadsTest {

    @Test
    void twoCoresRunOneThreadPerStreamOnceTwoStreamsRead() {
        StreamThreads t = new StreamThreads(2, 2, List.of());
        assertEquals(0, t.started(), "one stream: its thread and one worker, as the instance started");
        assertEquals(2, t.threads());
        assertEquals(1, t.started(), "two streams: their own threads are the cores");
        t.applied(1);
        assertEquals(0, t.started(), "more streams: still one");
        assertEquals(0, t.started());
        assertEquals(4, t.streams());
        assertEquals(1, t.threads());
        assertEquals(0, t.ended());
        assertEquals(0, t.ended());
        assertEquals(2, t.ended(), "one stream left: the worker comes back");
        t.applied(2);
        assertEquals(0, t.ended(), "no stream: as the instance started");
        assertEquals(2, t.threads());
        assertThrows(IllegalStateException.class, t::ended);
    }

    @Test
    void aCountNotSetIsAskedForAgain() {
        StreamThreads t = new StreamThreads(2, 2, List.of());
        t.started();
        assertEquals(1, t.started(), "two streams");
        // setting it failed: the caller ends the stream it could not start, and nothing was applied
        assertEquals(0, t.ended(), "back to one stream: the instance still has 2");
        assertEquals(2, t.threads());
        assertEquals(1, t.started(), "asked for again");
        assertThrows(IllegalArgumentException.class, () -> t.applied(0));
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
            assertEquals(0, t.started(), sql);
            assertEquals(0, t.started(), sql);
            assertEquals(4, t.threads(), sql);
        }
        StreamThreads one = new StreamThreads(1, 2, List.of());
        assertEquals(0, one.started(), "an instance of one thread has no worker to give up");
        assertEquals(0, one.started());
        StreamThreads named = new StreamThreads(2, 2, List.of("CREATE MACRO threadsafe(x) AS x"));
        assertEquals(0, named.started(), "a word that only contains 'threads' does not count");
        assertEquals(1, named.started());
    }

    @Test
    void refusesNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new StreamThreads(0, 2, List.of()));
        assertThrows(IllegalArgumentException.class, () -> new StreamThreads(2, 0, List.of()));
    }
}
