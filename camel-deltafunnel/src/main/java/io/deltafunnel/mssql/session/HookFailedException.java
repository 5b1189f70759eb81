package io.deltafunnel.mssql.session;

import java.sql.SQLException;

import io.deltafunnel.mssql.BulkLoadException;

/**
 * A statement of a SQL hook ({@code preSql} or {@code postSql}) failed. Names the hook, the position of the batch
 * that failed ({@code batch()} of {@code batches()}, batches being separated by {@code GO} lines), the hook's line it
 * starts on and, when SQL Server named one, the line of the hook the error is on; the SQL Server error number is the
 * exception's {@link #errorNumber()}, and {@link #outcome()} / {@link #stats()} say what the run had accepted and
 * what became of it (with {@code transaction=run} the run is rolled back). Retried like any run failure: by error
 * number.
 */
public class HookFailedException extends BulkLoadException {

    private static final long serialVersionUID = 1L;

    private final SqlHooks.Hook hook;
    private final int batch;
    private final int batches;
    private final int firstLine;
    private final int line;

    HookFailedException(SqlHooks.Hook hook, int batch, int batches, int firstLine, int line, SQLException cause,
            Context context) {
        super(hook.option() + " failed in batch " + batch + " of " + batches + " (starting at line " + firstLine
                + (line > 0 ? ", error at line " + line : "") + " of " + hook.option() + "): " + cause.getMessage(),
                context, cause);
        this.hook = hook;
        this.batch = batch;
        this.batches = batches;
        this.firstLine = firstLine;
        this.line = line;
    }

    /** Which hook failed. */
    public SqlHooks.Hook hook() {
        return hook;
    }

    /** The 1-based position of the failed batch in the hook. */
    public int batch() {
        return batch;
    }

    /** How many batches the hook has. */
    public int batches() {
        return batches;
    }

    /** The hook's line (1-based) the failed batch starts on. */
    public int firstLine() {
        return firstLine;
    }

    /** The hook's line (1-based) SQL Server reported the error on, or 0 when it is not known. */
    public int line() {
        return line;
    }
}
