package io.deltafunnel.benchmark;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JitCpuTest {

    @Test
    void readsACompilerThreadsUserAndSystemTime() {
        // tid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime ...
        String c2 = "4250 (C2 CompilerThre) S 1 4242 4242 0 -1 4194368 9 0 0 0 250 40 0 0 20 0 31 0 99";
        String c1 = "4251 (C1 CompilerThre) S 1 4242 4242 0 -1 4194368 9 0 0 0 7 3 0 0 20 0 31 0 99";
        assertEquals(2_900_000_000L, JitCpu.compilerNanos(c2));
        assertEquals(100_000_000L, JitCpu.compilerNanos(c1));
    }

    @Test
    void otherThreadsAreNotCompilerThreads() {
        assertEquals(-1, JitCpu.compilerNanos("4242 (java) S 1 4242 4242 0 -1 4194560 1 0 0 0 250 40 0 0 20 0 31"));
        // a thread whose name holds the words elsewhere, with spaces and parentheses
        assertEquals(-1, JitCpu.compilerNanos("4300 (x (C2 Compiler)) S 1 1 1 0 -1 0 1 0 0 0 250 40 0 0 20 0 31"));
    }

    @Test
    void countsEachThreadFromItsOwnStartAndNewThreadsFromZero() {
        JitCpu before = new JitCpu(Map.of(1, 100L, 2, 50L));
        JitCpu after = new JitCpu(Map.of(1, 400L, 2, 50L, 3, 30L));
        assertEquals(330, after.since(before));
        assertEquals(-1, after.since(JitCpu.UNKNOWN));
        assertEquals(-1, JitCpu.UNKNOWN.since(before));
    }

    @Test
    void thisJvmsCompilerThreadsOnLinux() {
        JitCpu now = JitCpu.now();
        if (now != JitCpu.UNKNOWN) {
            assertFalse(now.nanosByThread().isEmpty(), "a HotSpot JVM with the JIT on has compiler threads");
            assertTrue(now.since(now) == 0);
        }
    }
}
