package io.deltafunnel.mssql.shard;

/**
 * The {@code [status]} of a row of the shards table ({@link ShardTables#shards()}), stored as its {@linkplain #text()
 * text}: {@code pending} until the shard's share commits, then {@code done} (docs/sharding.md).
 */
public enum ShardRowStatus {

    PENDING("pending"),
    DONE("done");

    private final String text;

    ShardRowStatus(String text) {
        this.text = text;
    }

    /** The text stored in the {@code [status]} column (also the value bound in statements). */
    public String text() {
        return text;
    }

    /**
     * The status stored as {@code text}; null for null (no row).
     *
     * @throws IllegalStateException for a text the shards table never holds (naming it)
     */
    public static ShardRowStatus of(Object text) {
        if (text == null) {
            return null;
        }
        for (ShardRowStatus s : values()) {
            if (s.text.equals(text)) {
                return s;
            }
        }
        throw new IllegalStateException("the shards table holds an unknown [status] '" + text
                + "' (known: pending, done)");
    }

    /** The stored {@linkplain #text() text}, as log lines and messages show it. */
    @Override
    public String toString() {
        return text;
    }
}
