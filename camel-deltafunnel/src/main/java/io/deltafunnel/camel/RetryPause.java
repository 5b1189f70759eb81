package io.deltafunnel.camel;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * A wait between two attempts that a stop cuts short: {@link #cancel()} wakes every waiter at once and makes later
 * waits return immediately until {@link #reset()}; besides, {@code stopRequested} is looked at every 100 ms (for a
 * stop that has not reached the owner yet, e.g. a context waiting for in-flight exchanges). Thread-safe.
 */
final class RetryPause {

    private static final long CHECK_MILLIS = 100;

    private final BooleanSupplier stopRequested;
    private boolean cancelled;

    RetryPause(BooleanSupplier stopRequested) {
        this.stopRequested = stopRequested;
    }

    /** Waits {@code delay}; false when cancelled, stopping or interrupted (the interrupt flag is then kept). */
    synchronized boolean await(Duration delay) {
        long deadline = System.nanoTime() + Math.max(0, delay.toNanos());
        while (!cancelled && !stopRequested.getAsBoolean()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return true;
            }
            try {
                wait(Math.max(1, Math.min(CHECK_MILLIS, left / 1_000_000)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    synchronized void cancel() {
        cancelled = true;
        notifyAll();
    }

    synchronized void reset() {
        cancelled = false;
    }
}
