package io.deltafunnel.mssql;

import java.util.Locale;

/**
 * What a run does when the source's columns and the target's no longer agree (producer option
 * {@code schemaEvolution}). Evolution is DDL run before the run's transaction, so it stays in place when the run
 * fails; it only ever adds nullable columns and widens types, and it is idempotent.
 */
public enum SchemaEvolution {
    /** Refuse, listing every source column the target lacks and every column whose type cannot take the source's. */
    NONE("none"),
    /** Add each missing source column with {@code ALTER TABLE ... ADD [c] <createTable's type> NULL}. */
    ADD_COLUMNS("addColumns"),
    /** {@link #ADD_COLUMNS}, plus {@code ALTER COLUMN} where the source's type is wider than the target column's. */
    WIDEN("widen");

    private final String option;

    SchemaEvolution(String option) {
        this.option = option;
    }

    /** The option's spelling ({@code none}, {@code addColumns}, {@code widen}). */
    public String option() {
        return option;
    }

    /**
     * Parses the option, case-insensitively; null or blank is {@link #NONE}.
     *
     * @throws IllegalArgumentException naming the accepted values
     */
    public static SchemaEvolution parse(String text) {
        if (text == null || text.isBlank()) {
            return NONE;
        }
        String t = text.trim().toLowerCase(Locale.ROOT).replace("_", "");
        for (SchemaEvolution e : values()) {
            if (e.option.toLowerCase(Locale.ROOT).equals(t)) {
                return e;
            }
        }
        throw new IllegalArgumentException("schemaEvolution must be none, addColumns or widen, got '" + text + "'");
    }

    @Override
    public String toString() {
        return option;
    }
}
