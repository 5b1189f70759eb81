package io.deltafunnel.mssql.shard;

/**
 * The {@code [status]} of a row of the loads table ({@link ShardTables#loads()}), stored as its {@linkplain #text()
 * text}: {@code open} while shards write their shares, {@code done} once the final step committed, {@code abandoned}
 * when an operator gave the load up (docs/sharding.md).
 */
public enum LoadRowStatus {

    OPEN("open"),
    DONE("done"),
    ABANDONED("abandoned");

    private final String text;

    LoadRowStatus(String text) {
        this.text = text;
    }

    /** The text stored in the {@code [status]} column (also the value bound in statements). */
    public String text() {
        return text;
    }

    /**
     * The status stored as {@code text}; null for null (no row).
     *
     * @throws IllegalStateException for a text the load tables never hold (naming it)
     */
    public static LoadRowStatus of(Object text) {
        if (text == null) {
            return null;
        }
        for (LoadRowStatus s : values()) {
            if (s.text.equals(text)) {
                return s;
            }
        }
        throw new IllegalStateException("the loads table holds an unknown [status] '" + text
                + "' (known: open, done, abandoned)");
    }

    /** The stored {@linkplain #text() text}, as log lines and messages show it. */
    @Override
    public String toString() {
        return text;
    }
}
