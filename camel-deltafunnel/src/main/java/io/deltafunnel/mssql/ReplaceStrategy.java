package io.deltafunnel.mssql;

import java.util.Locale;

/**
 * How {@link WriteMode#REPLACE} puts the loaded staging table in place of the target's rows
 * ({@code replaceStrategy}; docs/producer.md).
 */
public enum ReplaceStrategy {
    /** {@code TRUNCATE} + {@code INSERT ... SELECT} from the staging table: every row copied a second time. */
    COPY,
    /**
     * {@code ALTER TABLE ... SWITCH} (metadata only) in the run's final transaction; a run whose switch is impossible
     * is refused before anything is written.
     */
    SWITCH,
    /** Switch when possible, else copy, with one log line naming the reason. The default. */
    AUTO;

    /** {@code copy}, {@code switch} or {@code auto} (case-insensitive). */
    public static ReplaceStrategy parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("replaceStrategy must be copy, switch or auto, got '" + text + "'", e);
        }
    }
}
