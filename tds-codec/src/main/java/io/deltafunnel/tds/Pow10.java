package io.deltafunnel.tds;

/** Powers of ten that fit a {@code long} (10^0 .. 10^18): scale factors for decimals and fractional seconds. */
public final class Pow10 {
    private static final long[] POWERS = new long[19];

    static {
        long p = 1;
        for (int i = 0; i < POWERS.length; i++) {
            POWERS[i] = p;
            p *= 10;
        }
    }

    private Pow10() {
    }

    /** 10^{@code n} for 0 ≤ n ≤ 18. */
    public static long of(int n) {
        return POWERS[n];
    }

    /** 10^{@code n} as an int, for 0 ≤ n ≤ 9 (larger n do not fit and give a wrong value). */
    public static int intOf(int n) {
        return (int) POWERS[n];
    }

    /** The largest exponent {@link #of} accepts. */
    public static final int MAX_EXPONENT = 18;
}
