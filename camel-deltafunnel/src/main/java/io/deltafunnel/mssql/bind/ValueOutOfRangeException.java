package io.deltafunnel.mssql.bind;

import io.deltafunnel.mssql.BulkLoadException;

/**
 * A value does not fit its target column (range, precision, scale, length, fractional seconds, NULL into NOT
 * NULL...). Raised by the check of a batch before the batch is sent ({@link BatchCheck#requireAllFit}): nothing is
 * ever rounded or truncated. It carries the {@link Rejection} (target and source column, row in the batch, the
 * check's name, the reason); the context names the source column and the row in the batch and in the run.
 */
public class ValueOutOfRangeException extends BulkLoadException {
    private static final long serialVersionUID = 1L;

    private final transient Rejection rejection;

    /**
     * @param prefix   put before the rejection's reason (e.g. the shard), or empty
     * @param rowInRun the row's index in the run
     */
    public ValueOutOfRangeException(String prefix, Rejection rejection, long rowInRun, Context context) {
        super(prefix + rejection.reason() + " (target column " + rejection.targetColumn() + " "
                + rejection.targetType() + ")",
                context.withColumn(rejection.sourceColumn()).withRow(rejection.row(), rowInRun), null);
        this.rejection = rejection;
    }

    /** The value the target cannot take. */
    public Rejection rejection() {
        return rejection;
    }
}
