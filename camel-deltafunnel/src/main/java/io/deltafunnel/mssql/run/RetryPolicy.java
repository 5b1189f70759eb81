package io.deltafunnel.mssql.run;

import java.time.Duration;
import java.util.Objects;

import io.deltafunnel.mssql.SqlServerErrors;

/**
 * Bounded exponential backoff for transient failures: at most {@code maxRetries} retries after the first attempt;
 * retry {@code n} (1-based) waits {@code min(initialDelay * multiplier^(n-1), maxDelay)}. Immutable.
 *
 * <p>Which failures are transient is not decided here but by {@link SqlServerErrors} (by error number and
 * connection-level failure only).
 */
public record RetryPolicy(int maxRetries, Duration initialDelay, double multiplier, Duration maxDelay) {

    /** No retries. */
    public static final RetryPolicy NONE = new RetryPolicy(0, Duration.ZERO, 1.0, Duration.ZERO);

    public RetryPolicy {
        Objects.requireNonNull(initialDelay, "initialDelay");
        Objects.requireNonNull(maxDelay, "maxDelay");
        if (maxRetries < 0) {
            throw new IllegalArgumentException("maxRetries must be 0 or more, got " + maxRetries);
        }
        if (initialDelay.isNegative() || maxDelay.isNegative()) {
            throw new IllegalArgumentException("retry delays must not be negative");
        }
        if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
            throw new IllegalArgumentException("retryBackoffMultiplier must be a finite number >= 1, got " + multiplier);
        }
    }

    /** True when a failure of 1-based attempt {@code attempt} may be followed by another attempt. */
    public boolean allowsRetryAfter(int attempt) {
        return attempt >= 1 && attempt <= maxRetries;
    }

    /** The wait before 1-based retry {@code retry} (retry 1 follows attempt 1). */
    public Duration delayBeforeRetry(int retry) {
        if (retry < 1) {
            throw new IllegalArgumentException("retry numbers start at 1, got " + retry);
        }
        double millis = initialDelay.toMillis() * Math.pow(multiplier, retry - 1);
        long capped = (long) Math.min(millis, (double) maxDelay.toMillis());
        return Duration.ofMillis(Math.max(0, capped));
    }
}
