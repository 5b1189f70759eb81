package io.deltafunnel.emulator.semantics;

/**
 * Whether the current thread is writing the rows of a bulk load without {@code CHECK_CONSTRAINTS}: SQL Server then
 * checks neither CHECK nor FOREIGN KEY constraints. H2 runs constraints and triggers in the calling thread, so the
 * session thread sets this around its inserts; CHECK constraints are created as
 * {@code CHECK (PUBLIC.MSSQL_BULK_NOCHECK() OR (expr))} and {@link ForeignKeyTrigger} asks {@link #skipped()}.
 */
public final class BulkChecks {
    private static final ThreadLocal<Boolean> SKIP = ThreadLocal.withInitial(() -> Boolean.FALSE);

    private BulkChecks() {
    }

    public static boolean skipped() {
        return SKIP.get();
    }

    /** Runs with checks skipped (or not); always restores the previous state. */
    public static void set(boolean skip) {
        if (skip) {
            SKIP.set(Boolean.TRUE);
        } else {
            SKIP.remove();
        }
    }
}
