package io.deltafunnel.benchmark;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcessStatTest {

    @Test
    void readsFaultsAndTimesAfterACommandNameWithSpacesAndParentheses() {
        // pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime ...
        String line = "4242 (java (x) y) S 1 4242 4242 0 -1 4194560 123456 7 3 0 250 40 0 0 20 0 31 0 99";
        ProcessStat s = ProcessStat.parse(line);
        assertEquals(123_456, s.minorFaults());
        assertEquals(2_500_000_000L, s.userNanos());
        assertEquals(400_000_000L, s.systemNanos());
    }

    @Test
    void differenceOfTwoReadings() {
        ProcessStat a = new ProcessStat(1_000, 200, 50);
        ProcessStat b = new ProcessStat(3_000, 500, 80);
        assertEquals(new ProcessStat(2_000, 300, 30), b.minus(a));
        assertSame(ProcessStat.UNKNOWN, b.minus(ProcessStat.UNKNOWN));
    }

    @Test
    void thisProcessOnLinux() {
        ProcessStat now = ProcessStat.now();
        if (now.known()) {
            assertTrue(now.minorFaults() > 0, "a running JVM has faulted pages in: " + now);
            assertTrue(now.userNanos() > 0, "a running JVM has used CPU: " + now);
        }
    }
}
