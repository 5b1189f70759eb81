package io.deltafunnel.emulator.semantics;

import java.util.Set;

/**
 * What a failed statement takes down with it, per SQL Server error number: only the statement, the batch, or the
 * batch and the open transaction. This is the one table the emulator consults; the session and the bulk-load path
 * apply it.
 *
 * <p>Sources, and what each says:
 * <ul>
 *   <li>SET XACT_ABORT (Transact-SQL), learn.microsoft.com/sql/t-sql/statements/set-xact-abort-transact-sql: "When
 *       SET XACT_ABORT is ON, if a Transact-SQL statement raises a run-time error, the entire transaction is
 *       terminated and rolled back. When SET XACT_ABORT is OFF, in some cases only the Transact-SQL statement that
 *       raised the error is rolled back and the transaction continues processing [...] Compile errors, such as
 *       syntax errors, are not affected by SET XACT_ABORT." Its example: with XACT_ABORT OFF a FOREIGN KEY error
 *       (547) leaves the other statements of the batch running and the transaction committing.</li>
 *   <li>SET ARITHABORT (Transact-SQL): "When ANSI_WARNINGS is ON (the default) [...] Arithmetic errors cause the
 *       query to end, but the batch doesn't abort (as long as the setting XACT_ABORT is OFF). Arithmetic errors
 *       include overflow, divide-by-zero, or domain errors." (8115, 8134, 220; mssql-jdbc connects with
 *       ANSI_WARNINGS ON.)</li>
 *   <li>SET LOCK_TIMEOUT (Transact-SQL): after 1222 "an individual statement within a transaction was canceled but
 *       the transaction remains active".</li>
 *   <li>Deadlocks guide: the victim's transaction is rolled back (1205) and its batch ends.</li>
 *   <li>Conversion errors (245, 8114, 241, 242, 8169) abort the batch and roll the transaction back even with
 *       XACT_ABORT OFF: Erland Sommarskog, "Error and Transaction Handling in SQL Server", part two (batch-abortion);
 *       sqlwithmanoj.com, "SQL Server's weird behavior in error handling with transactions" (a conversion error rolls
 *       back the transaction, a 2627 does not). Not on a Microsoft page found here; {@code ErrorScopeIT} checks 245
 *       against SQL Server.</li>
 *   <li>Compilation and name-resolution errors (102, 207, 208, ...) end the scope, at the top level the batch, and
 *       roll nothing back, with XACT_ABORT ON as well (SET XACT_ABORT, above).</li>
 * </ul>
 *
 * <p>A bulk load (INSERT BULK + BULK_LOAD) is one statement: its data errors (2627, 2601, 547, 515, 2628, 8115,
 * 4815, 4816, ...) are statement-terminating like those of an INSERT; Microsoft documents no other rule for them, and
 * {@code ErrorScopeIT} checks 2627 in a bulk load against SQL Server, {@code BulkStreamIT} a 4816 (4815 is classed the
 * same way without a check). Numbers not in a list below are
 * statement-terminating (SQL Server's usual class), except the emulator's own numbers (50000 and up: an internal
 * error or a refused statement), which end the batch and keep the transaction, as the emulator always did.
 *
 * <p>The doomed state (XACT_STATE() = -1) arises only inside TRY...CATCH, which the emulator does not support; at
 * the end of a batch SQL Server rolls a doomed transaction back. So between the client's requests the state is 1 or
 * 0 and {@code XACT_STATE()} reports exactly that.
 */
public enum ErrorScope {
    /** The statement is rolled back; the batch goes on; the transaction stays active (XACT_STATE() = 1). */
    STATEMENT,
    /** The statement is rolled back and the batch ends; the transaction stays active. */
    BATCH,
    /** The batch ends and the whole transaction is rolled back (XACT_STATE() = 0 afterwards). */
    TRANSACTION;

    /** Errors found when the statement is compiled or its names resolved: not affected by XACT_ABORT. */
    private static final Set<Integer> COMPILE = Set.of(102, 105, 113, 117, 119, 131, 134, 137, 156, 174, 183, 195,
            206, 207, 208, 1038, 2715, 2812);
    /** Batch-aborting errors that roll the transaction back even with XACT_ABORT OFF. */
    private static final Set<Integer> ROLLS_BACK = Set.of(1205, 245, 8114, 241, 242, 8169);

    /** The scope of error {@code number} with SET XACT_ABORT {@code xactAbort}. */
    public static ErrorScope of(int number, boolean xactAbort) {
        if (COMPILE.contains(number)) {
            return BATCH;
        }
        if (ROLLS_BACK.contains(number)) {
            return TRANSACTION;
        }
        if (number >= 50000) {
            return xactAbort ? TRANSACTION : BATCH;
        }
        return xactAbort ? TRANSACTION : STATEMENT;
    }

    /** The scope of {@code e} with SET XACT_ABORT {@code xactAbort}. */
    public static ErrorScope of(SqlServerError e, boolean xactAbort) {
        return of(e.number(), xactAbort);
    }

    /** True if the rest of the batch still runs. */
    public boolean batchContinues() {
        return this == STATEMENT;
    }

    /** True if the open transaction is rolled back. */
    public boolean rollsBackTransaction() {
        return this == TRANSACTION;
    }
}
