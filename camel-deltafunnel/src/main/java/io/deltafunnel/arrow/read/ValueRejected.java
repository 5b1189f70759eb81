package io.deltafunnel.arrow.read;

/**
 * Internal, stackless signal that one value does not fit, thrown by the readers and the target bindings on their
 * hot path (no allocation when nothing is refused). It is not an API: the batch check of the SQL Server side
 * ({@code io.deltafunnel.mssql.bind.BatchCheck}) catches it and reports the public {@code Rejection} (column, row,
 * check, reason) instead; a reader's caller outside that check sees it only as an unchecked failure of an accessor.
 */
public final class ValueRejected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String check;

    /**
     * @param check  the stable name of the check (the {@code Rejection} constants: {@code out-of-range},
     *               {@code too-long}, ...)
     * @param reason the human-readable reason
     */
    public ValueRejected(String check, String reason) {
        super(reason, null, false, false);
        this.check = check;
    }

    /** The stable name of the check that refused the value. */
    public String check() {
        return check;
    }
}
